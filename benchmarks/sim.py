"""Simulation throughput: serial against a 2-process pool, and Ray's overhead against local.

Run: `.venv/bin/python benchmarks/sim.py [--games N] [--ruleset ID] [--scenario S]`. Prints a
table; wall-clock times, so a loaded machine shows in them. Every row plays the same games
(same seed): the last column checks that the results are identical. "CPU s" counts this
process and the pool's workers (Ray's workers are not its children, so not for Ray); "cores
got" = CPU s / wall s shows how much of the machine the run had. A last line gives the
machine's own ceiling: the same pure-Python loop in one process, then in two at once, so a
2-job speed-up can be read against what two of its cores give any Python process.
"""

from __future__ import annotations

import resource
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated

import ray
import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry
from warbench.sim.play import GameResult, Matchup
from warbench.sim.runner import Backend, run


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(
    matchup: Matchup, games: int, jobs: int, backend: Backend
) -> tuple[float, float, list[GameResult]]:
    """Wall seconds and CPU seconds (here and in pool workers) to play the run, its results."""
    start, cpu = time.perf_counter(), cpu_seconds()
    results = run(matchup, games, seed=1, jobs=jobs, backend=backend)
    return time.perf_counter() - start, cpu_seconds() - cpu, results


def spin(rounds: int) -> float:
    """Wall seconds of a pure-Python loop of `rounds` additions (the ceiling's unit of work)."""
    start, total = time.perf_counter(), 0
    for i in range(rounds):
        total += i
    return time.perf_counter() - start


def ceiling(rounds: int = 10_000_000) -> float:
    """How many times one process's work two processes do at once on this machine: the
    speed-up no 2-job run can pass (1.0 when its two cores share one, 2.0 when independent)."""
    alone = spin(rounds)
    with ProcessPoolExecutor(max_workers=2) as pool:
        together = max(pool.map(spin, [rounds, rounds]))
    return 2 * alone / together


def main(
    games: Annotated[int, typer.Option(help="games per row")] = 200,
    ruleset: Annotated[str, typer.Option(help="ruleset id")] = "ttt",
    scenario: Annotated[str, typer.Option(help="scenario id")] = "besiege-the-bunker",
    agent: Annotated[str, typer.Option(help="the agent on both sides")] = "ai",
) -> None:
    """Print games/s and the speed-up over serial for each backend and number of jobs."""
    rs = registry.get(ruleset)
    matchup = Matchup(rs.id, rs.load_scenario(scenario), (("red", agent), ("blue", agent)))
    table = Table(
        "backend",
        "jobs",
        "games",
        "seconds",
        "games/s",
        "speed-up",
        "CPU s",
        "cores got",
        "same games",
        title=f"warbench sim throughput: {rs.id} {scenario}, {agent} v {agent}",
    )
    serial, cpu, reference = timed(matchup, games, 1, "local")
    rows: list[tuple[str, int, float, float | None, list[GameResult]]] = [
        ("local", 1, serial, cpu, reference)
    ]
    pool, cpu, results = timed(matchup, games, 2, "local")
    rows.append(("local (process pool)", 2, pool, cpu, results))
    cold, _, results = timed(matchup, games, 2, "ray")  # starts and stops a local Ray
    rows.append(("ray, started by the run", 2, cold, None, results))
    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    startup = time.perf_counter() - started
    warm, _, results = timed(matchup, games, 2, "ray")
    ray.shutdown()
    rows.append(("ray, already running", 2, warm, None, results))
    for name, jobs, seconds, used, found in rows:
        table.add_row(
            name,
            str(jobs),
            str(games),
            f"{seconds:.2f}",
            f"{games / seconds:.1f}",
            f"{serial / seconds:.2f}x",
            "—" if used is None else f"{used:.1f}",
            "—" if used is None else f"{used / seconds:.2f}",
            "yes" if found == reference else "NO",
        )
    Console(width=120).print(table)
    print(
        f"ray.init() alone: {startup:.2f} s; Ray overhead against the process pool: "
        f"{cold - pool:+.2f} s cold, {warm - pool:+.2f} s warm"
    )
    print(f"this machine's 2-process ceiling (a pure-Python loop): {ceiling():.2f}x")


if __name__ == "__main__":
    typer.run(main)
