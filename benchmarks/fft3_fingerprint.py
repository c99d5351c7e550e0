"""Fingerprints of seeded fft3 games, to show a speed-up changes no rule outcome.

Run: `.venv/bin/python benchmarks/fft3_fingerprint.py OUT.json [--steps N]` before and after a
change, then `diff` the two files. Each game is random against random (the rules alone) with
state hashing on; its fingerprint is the SHA-256 of every step's player, action, dice and
state hash, and every event's text.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated

import typer

from warbench.core import registry
from warbench.core.game import Decision


def fingerprint(scenario: str, seed: int, steps: int) -> dict[str, object]:
    """One seeded random-against-random game, up to `steps` steps."""
    ruleset = registry.get("fft3")
    game = ruleset.new_game(ruleset.load_scenario(scenario), seed)
    agents = {p: ruleset.agents()["random"](seed * 2 + n) for n, p in enumerate(ruleset.players)}
    while isinstance(game.pending, Decision) and len(game.steps) < steps:
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    digest = hashlib.sha256()
    for step in game.steps:
        digest.update(repr((step.player, step.action, step.rolls, step.hash)).encode())
    for event in game.log:
        digest.update(event.text.encode())
    return {"steps": len(game.steps), "pending": str(game.pending), "sha256": digest.hexdigest()}


def main(
    out: Path,
    steps: Annotated[int, typer.Option(help="steps per game at most")] = 400,
    seeds: Annotated[int, typer.Option(help="seeds per scenario")] = 2,
) -> None:
    """Write the fingerprints of every shipped scenario's first seeds to OUT as JSON."""
    rs = registry.get("fft3")
    result = {
        f"{info.id} seed {seed}": fingerprint(info.id, seed, steps)
        for info in rs.scenarios()
        for seed in range(seeds)
    }
    out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    typer.run(main)
