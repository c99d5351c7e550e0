"""fft3 games per CPU-second (`time.process_time`, one process), hashing off as in simulation.

Run: `nice -n 10 .venv/bin/python benchmarks/fft3_speed.py [--games N] [--profile OUT]`.
Prints one row per scenario and matchup (AI v AI, random v random); with `--profile` it also
writes cProfile statistics of the AI-against-AI meeting engagements to OUT. One untimed AI game
is played first: it loads the compiled sight and terrain code (numba's cache, about a quarter
of a CPU-second once per process, some 4 CPU-seconds the first time it is compiled).
"""

from __future__ import annotations

import cProfile
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry
from warbench.sim.play import playout, settle


def main(
    games: Annotated[int, typer.Option(help="AI games per scenario (random: a fifth)")] = 5,
    scenario: Annotated[list[str] | None, typer.Option(help="only these scenarios")] = None,
    profile: Annotated[Path | None, typer.Option(help="cProfile output of AI meetings")] = None,
) -> None:
    """Print games and steps per CPU-second, seeds 0..N-1, per scenario and matchup."""
    rs = registry.get("fft3")
    playout(rs, rs.load_scenario("meeting-engagement"), "ai", games)
    settle()  # as `warbench sim` does after a process's first game
    table = Table("scenario", "matchup", "games", "games/CPU-s", "steps/game", "steps/CPU-s")
    for info in rs.scenarios():
        if scenario and info.id not in scenario:
            continue
        data = rs.load_scenario(info.id)
        for kind, count in (("ai", games), ("random", max(1, games // 5))):
            profiler = cProfile.Profile() if profile and info.id == "meeting-engagement" else None
            start = time.process_time()
            if profiler and kind == "ai":
                profiler.enable()
            steps = sum(len(playout(rs, data, kind, seed).steps) for seed in range(count))
            if profiler and profile and kind == "ai":
                profiler.disable()
                profiler.dump_stats(profile)
            spent = time.process_time() - start
            table.add_row(
                info.id,
                f"{kind} v {kind}",
                str(count),
                f"{count / spent:.2f}",
                f"{steps / count:.0f}",
                f"{steps / spent:.0f}",
            )
    Console(width=120).print(table)


if __name__ == "__main__":
    typer.run(main)
