"""A 10,000-game sweep point per ruleset: heuristic AI against itself on the ruleset's
standard scenario (its first, as `warbench sim` chooses), and where a game's time goes.

Run: `nice -n 10 .venv/bin/python benchmarks/sweep.py [--games N] [--jobs J] [--ruleset ID]`.
The issue's target: 10,000 games of each ruleset in under 60 s on a 2-core machine. Each
ruleset plays a bounded `--games` through `warbench.sim.runner.run` (the pool of `--jobs`
processes) and the 10,000 are projected from it:

- "projected s (wall)" = wall s × 10,000 / games, as the run went (a loaded machine shows);
- "projected s (2 cores)" = CPU s × 10,000 / games / 2: what 10,000 cost if the run had both
  cores to itself (CPU of this process and the pool's workers, `resource.RUSAGE_CHILDREN`).

The second table splits one game's CPU between the sim layer and the rules, measured
serially on the same seeds: set-up (`Ruleset.new_game` and the agents), the agents'
choices, `Game.apply`, the census (result collection), and what a batch costs to pickle
to a worker and back (`pickle.dumps` of the matchup, the seeds and the results).
"""

from __future__ import annotations

import pickle
import resource
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry
from warbench.core.game import Decision, unhashed
from warbench.sim.play import GameSeeds, Matchup, play, spawn_seeds
from warbench.sim.runner import batch_size, run

TARGET_GAMES, TARGET_SECONDS, CORES = 10_000, 60.0, 2


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def matchup_of(ruleset: str) -> Matchup:
    """AI against AI on the ruleset's standard (first) scenario."""
    rs = registry.get(ruleset)
    scenario = rs.load_scenario(rs.scenarios()[0].id)
    return Matchup(rs.id, scenario, (("red", "ai"), ("blue", "ai")))


def split(matchup: Matchup, seeds: GameSeeds) -> dict[str, float]:
    """CPU seconds of one game's parts, played as `sim.play.play` plays it."""
    rs = registry.get(matchup.ruleset)
    parts = dict.fromkeys(("set-up", "choose", "apply", "census"), 0.0)
    t = time.process_time()
    with unhashed():
        game = rs.new_game(dict(matchup.scenario), seeds.dice)
    game.rollback = False
    factories = rs.agents()
    agents = {
        player: factories[kind](agent_seed)
        for (player, kind), agent_seed in zip(matchup.agents, seeds.agents, strict=True)
    }
    parts["set-up"] += time.process_time() - t
    while isinstance(game.pending, Decision):
        player = game.pending.player
        t = time.process_time()
        action = agents[player].choose(game, player)
        parts["choose"] += time.process_time() - t
        t = time.process_time()
        game.apply(action, player)
        parts["apply"] += time.process_time() - t
    t = time.process_time()
    rs.census(game)
    parts["census"] += time.process_time() - t
    return parts


def main(
    games: Annotated[int, typer.Option(help="games per ruleset (the 10,000 are projected)")] = 40,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 2,
    ruleset: Annotated[str | None, typer.Option(help="only this ruleset")] = None,
    split_games: Annotated[int, typer.Option(help="serial games for the split")] = 5,
) -> None:
    """Print the sweep-point table and the split of a game's CPU."""
    ids = [ruleset] if ruleset else [rs.id for rs in registry.all_rulesets()]
    sweep = Table(
        "ruleset",
        "scenario",
        "games",
        "jobs",
        "CPU s",
        "wall s",
        "games/s",
        "projected s (wall)",
        "projected s (2 cores)",
        f"< {TARGET_SECONDS:g} s",
        title=f"{TARGET_GAMES:,}-game sweep point, ai v ai (measured {games}, projected)",
    )
    parts = Table(
        "ruleset",
        "set-up ms",
        "choose ms",
        "apply ms",
        "census ms",
        "sim layer %",
        "batch games",
        "pickle kB out/back",
        "pickle ms",
        title="one game's CPU, serial (sim layer: set-up, census, pickling)",
    )
    for rid in ids:
        matchup = matchup_of(rid)
        start, cpu = time.perf_counter(), cpu_seconds()
        run(matchup, games, seed=1, jobs=jobs)
        wall, used = time.perf_counter() - start, cpu_seconds() - cpu
        two_cores = used * TARGET_GAMES / games / CORES
        sweep.add_row(
            rid,
            matchup.scenario["id"],
            str(games),
            str(jobs),
            f"{used:.1f}",
            f"{wall:.1f}",
            f"{games / wall:.2f}",
            f"{wall * TARGET_GAMES / games:,.0f}",
            f"{two_cores:,.0f}",
            "yes" if two_cores < TARGET_SECONDS else "NO",
        )
        seeds = spawn_seeds(2, split_games, len(matchup.agents))
        total = dict.fromkeys(("set-up", "choose", "apply", "census"), 0.0)
        for s in seeds:
            for key, value in split(matchup, s).items():
                total[key] += value / split_games
        per_game = sum(total.values())
        size = batch_size(per_game)
        batch = spawn_seeds(3, size, len(matchup.agents))
        results = [play(matchup, batch[0])] * size
        t = time.process_time()
        out = pickle.dumps((matchup, batch))
        back = pickle.dumps(results)
        pickled = time.process_time() - t
        pickle.loads(out)
        sim_share = (total["set-up"] + total["census"] + pickled / size) / per_game
        parts.add_row(
            rid,
            *(f"{total[k] * 1000:.1f}" for k in ("set-up", "choose", "apply", "census")),
            f"{sim_share * 100:.1f}",
            str(size),
            f"{len(out) / 1000:.1f} / {len(back) / 1000:.1f}",
            f"{pickled * 1000:.2f}",
        )
    console = Console(width=160)
    console.print(sweep)
    console.print(parts)


if __name__ == "__main__":
    typer.run(main)
