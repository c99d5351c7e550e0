"""Full playouts per second per ruleset and scenario, random vs random and AI vs AI.

Run: `.venv/bin/python benchmarks/playouts.py [--games N] [--ruleset ID]`. Prints a table;
times are wall-clock on one core, and CPU time (`time.process_time`, steadier on a shared
machine), state hashing off (as in simulation), memory is the tracemalloc peak of one game.
"""

from __future__ import annotations

import time
import tracemalloc
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry
from warbench.sim.play import playout, settle


def main(
    games: Annotated[int, typer.Option(help="games per scenario and matchup")] = 50,
    ruleset: Annotated[str | None, typer.Option(help="only this ruleset")] = None,
) -> None:
    """Print games/s, steps/s and peak memory per scenario and matchup."""
    table = Table(
        "ruleset",
        "scenario",
        "matchup",
        "games",
        "games/s",
        "CPU games/s",
        "steps/game",
        "steps/s",
        "peak KiB/game",
        title="warbench playouts (one core)",
    )
    chosen = [registry.get(ruleset)] if ruleset else registry.all_rulesets()
    for rs in chosen:
        for info in rs.scenarios():
            data = rs.load_scenario(info.id)
            for kind in ("random", "ai"):
                count = games if kind == "random" else max(1, games // 5)
                tracemalloc.start()
                len(playout(rs, data, kind, 0).steps)
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                settle()  # as `warbench sim` does after a process's first game
                start, cpu = time.perf_counter(), time.process_time()
                steps = sum(len(playout(rs, data, kind, seed).steps) for seed in range(count))
                elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
                table.add_row(
                    rs.id,
                    info.id,
                    f"{kind} v {kind}",
                    str(count),
                    f"{count / elapsed:,.1f}",
                    f"{count / cpu:,.1f}",
                    f"{steps / count:,.0f}",
                    f"{steps / elapsed:,.0f}",
                    f"{peak / 1024:,.0f}",
                )
    Console(width=160).print(table)


if __name__ == "__main__":
    typer.run(main)
