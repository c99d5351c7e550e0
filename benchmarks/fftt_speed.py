"""FFTT battles per CPU-second, AI against AI and random against random (issue 5's target: at
least 30 AI-vs-AI 20-FP battles a second on one core).

Run: `nice -n 10 .venv/bin/python benchmarks/fftt_speed.py [--games N] [--profile]`. Times are
CPU time of this one process (`time.process_time`), state hashing off as in simulation, after
one untimed battle (which loads the AI's compiled code, as `playouts.py` does); with
`--profile` it also prints where the time goes (cProfile, the functions with the most time
of their own, then by cumulative time).
"""

from __future__ import annotations

import cProfile
import pstats
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry
from warbench.sim.play import playout, settle


def main(
    games: Annotated[int, typer.Option(help="games per scenario and matchup")] = 5,
    profile: Annotated[bool, typer.Option(help="print a profile of the AI-vs-AI games")] = False,
) -> None:
    """Print battles and actions per CPU-second per scenario and matchup."""
    ruleset = registry.get("fftt")
    table = Table(
        "scenario",
        "matchup",
        "games",
        "battles/CPU-s",
        "actions/game",
        "actions/CPU-s",
        title="fftt playouts (CPU time, one process)",
    )
    profiler = cProfile.Profile()
    first = ruleset.scenarios()[0].id
    playout(ruleset, ruleset.load_scenario(first), "ai", games)  # untimed: loads compiled code
    settle()  # as `warbench sim` does after a process's first game
    for info in ruleset.scenarios():
        data = ruleset.load_scenario(info.id)
        for kind in ("ai", "random"):
            if profile and kind == "ai":
                profiler.enable()
            start = time.process_time()
            steps = sum(len(playout(ruleset, data, kind, seed).steps) for seed in range(games))
            elapsed = time.process_time() - start
            profiler.disable()
            table.add_row(
                info.id,
                f"{kind} v {kind}",
                str(games),
                f"{games / elapsed:,.2f}",
                f"{steps / games:,.0f}",
                f"{steps / elapsed:,.0f}",
            )
    Console(width=120).print(table)
    if profile:
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    typer.run(main)
