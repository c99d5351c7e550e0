"""Instructions per AI-vs-AI game, counted by valgrind's cachegrind: how speed passes compare
code on a machine whose own speed moves by 1.5× within the hour (docs/speed/README.md).

Run: `.venv/bin/python benchmarks/instructions.py [--ruleset ID] [--games K] [--scenario I]`.
For each ruleset it plays, in a child process under `valgrind --tool=cachegrind
--cache-sim=no` with `PYTHONHASHSEED=0` and `OPENBLAS_NUM_THREADS=1` (OpenBLAS's idle
threads spin under valgrind and move a count by millions), a warm-up game (seed 1000) then
seeds 0..K−1 of the scenario (`warbench.sim.play.playout`: both sides the heuristic AI,
hashing and rollback off, as the speed benchmarks play), and the same warm-up alone; per
game = (I(K) − I(0)) / K.
A first, uncounted run under valgrind loads or compiles the numba kernels (numba's cache keys
on the CPU it sees, and valgrind shows it another than the machine's), so neither counted
run compiles. Runs of the same code differ by a few million instructions; differences below
that are noise.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry
from warbench.sim.play import playout, settle

WARM_UP_SEED = 1000


def play(ruleset_id: str, scenario: int, games: int) -> None:
    """The counted run: a warm-up game, then seeds 0..games−1."""
    rs = registry.get(ruleset_id)
    data = rs.load_scenario(rs.scenarios()[scenario].id)
    playout(rs, data, "ai", WARM_UP_SEED)
    settle()
    for seed in range(games):
        playout(rs, data, "ai", seed)


def count(ruleset_id: str, scenario: int, games: int) -> int:
    """Instructions cachegrind counts for `play` in a child process."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    command = [sys.executable, __file__, "--play", ruleset_id, str(scenario), str(games)]
    valgrind = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
    ]
    run = subprocess.run(valgrind + command, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise RuntimeError(f"cachegrind printed no instruction count:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(
    ruleset: Annotated[list[str] | None, typer.Option(help="ruleset id (repeatable)")] = None,
    games: Annotated[int, typer.Option(min=1, help="games counted after the warm-up")] = 3,
    scenario: Annotated[int, typer.Option(min=0, help="index in the ruleset's scenarios")] = 0,
) -> None:
    """Print instructions per AI-vs-AI game for each ruleset."""
    if shutil.which("valgrind") is None:
        raise typer.BadParameter("valgrind is not installed (Debian: apt-get install valgrind)")
    console = Console()
    ids = ruleset or [rs.id for rs in registry.all_rulesets()]
    table = Table(title=f"Instructions per AI-vs-AI game (cachegrind, {games} games)")
    for column in ("ruleset", "scenario", "warm-up alone", f"warm-up + {games}", "per game"):
        table.add_column(column, justify="left" if column in ("ruleset", "scenario") else "right")
    for rid in ids:
        rs = registry.get(rid)
        if scenario >= len(rs.scenarios()):
            raise typer.BadParameter(
                f"{rid} has {len(rs.scenarios())} scenarios, not {scenario + 1}"
            )
        count(rid, scenario, 0)  # compiles, for valgrind's CPU, what numba has not cached
        alone, played = count(rid, scenario, 0), count(rid, scenario, games)
        per_game = (played - alone) / games
        table.add_row(
            rid, rs.scenarios()[scenario].id, f"{alone:,}", f"{played:,}", f"{per_game / 1e6:.1f} M"
        )
    console.print(table)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--play"]:
        play(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        typer.run(main)
