"""Fingerprints of seeded games: a digest of every step's player, action, dice and state hash,
per ruleset, scenario and seed — to check that a speed-up changed no rule outcome.

Run: `.venv/bin/python benchmarks/fingerprints.py save FILE --ruleset tftww2`, change the
code, then `... check FILE --ruleset tftww2` (exit 1 and the games that differ if any do).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated

import typer

from warbench.core import registry
from warbench.core.game import Decision


def fingerprints(ruleset_id: str, kind: str, games: int) -> dict[str, str]:
    """scenario/seed → digest of `games` seeded games per scenario, both sides `kind`."""
    ruleset = registry.get(ruleset_id)
    found = {}
    for info in ruleset.scenarios():
        data = ruleset.load_scenario(info.id)
        for seed in range(games):
            game = ruleset.new_game(dict(data), seed)
            agents = {
                p: ruleset.agents()[kind](seed * 2 + n) for n, p in enumerate(ruleset.players)
            }
            while isinstance(game.pending, Decision):
                player = game.pending.player
                game.apply(agents[player].choose(game, player), player)
            digest = hashlib.sha256()
            for step in game.steps:
                digest.update(
                    json.dumps([step.player, step.action, step.rolls, step.hash]).encode()
                )
            found[f"{info.id}/{seed}"] = digest.hexdigest()
    return found


def main(
    command: Annotated[str, typer.Argument(help="save or check")],
    file: Annotated[Path, typer.Argument(help="the fingerprints file")],
    ruleset: Annotated[str, typer.Option(help="the ruleset")] = "tftww2",
    kind: Annotated[str, typer.Option(help="the agent on both sides")] = "random",
    games: Annotated[int, typer.Option(help="seeds per scenario")] = 4,
) -> None:
    """Save the fingerprints, or check the code still plays the saved ones."""
    got = fingerprints(ruleset, kind, games)
    if command == "save":
        file.write_text(json.dumps(got, indent=1))
        typer.echo(f"saved {len(got)} games")
        return
    want = json.loads(file.read_text())
    differ = sorted(k for k in got.keys() | want.keys() if got.get(k) != want.get(k))
    typer.echo(f"differ: {', '.join(differ)}" if differ else f"all {len(got)} games identical")
    raise typer.Exit(1 if differ else 0)


if __name__ == "__main__":
    typer.run(main)
