"""Exact odds query time per ruleset (target: every query under 50 ms, most under 5 ms).

Run: `.venv/bin/python benchmarks/odds.py [--repeats N] [--ruleset ID]`. Prints a table:
for each query, the first call in the process (cold: data files read, caches of rolls
filled) and the median and worst of the repeats after it, in milliseconds of wall-clock on
one core, and the median CPU time of the process (what the query costs when the machine is
shared). The target is judged on the warm calls: the cold one also pays the ruleset's
one-time loading of its data, as the first game of a process does. A ruleset that offers
odds but has no query listed here is timed on its defaults.
"""

from __future__ import annotations

import statistics
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry

QUERIES: dict[str, list[dict[str, str]]] = {
    "ttt": [
        {"attacker": "M-Gunner", "target": "Recon"},
        {"attacker": "Sniper", "target": "Guard", "terrain": "woods", "aimed": "yes"},
    ],
    "fft3": [
        {"firer": "nato-tank", "target": "soviet-tank", "range": "25", "difficult": "yes"},
        {"firer": "nato-tank", "target": "soviet-tank", "range": "5", "arc": "flank"},
        {"firer": "soviet-ifv", "target": "nato-infantry", "weapon": "gun", "range": "3"},
        {
            "firer": "nato-infantry",
            "target": "soviet-infantry",
            "weapon": "ai",
            "range": "3",
            "difficult": "yes",
        },
        {"group": "nato-tank:gun:20,nato-tank:gun:10:flank,nato-ifv:missile:15"},
        {
            "group": "soviet-ifv:gun:3,soviet-ifv:gun:5,soviet-infantry:ai:2",
            "target": "nato-infantry",
        },
        {"attack": "artillery", "stands": "soviet-tank,soviet-infantry"},
        {"attack": "artillery", "stands": "nato-infantry,nato-tank,soviet-infantry,soviet-ifv"},
    ],
    "gff": [
        {"attacker": "Warden Brothers", "target": "Spitter Gaunts"},
        {"attacker": "Hive Warriors", "target": "Warden Brothers", "cover": "yes"},
        {"attacker": "Spitter Gaunts", "target": "Warden Captain", "target-wounds": "2"},
        {"attacker": "Hive Tyrant", "target": "Bulwark Guard"},
        {"attacker": "Warden Captain", "target": "Hive Warriors"},
        {"attacker": "Heavy Support Team", "target": "Spitter Gaunts", "range": "20"},
        {"attack": "melee", "attacker": "Warden Brothers", "target": "Spitter Gaunts"},
        {"attack": "melee", "attacker": "Hive Warriors", "target": "Warden Brothers"},
        {"attack": "melee", "attacker": "Hive Tyrant", "target": "Warden Captain"},
        {"attack": "melee", "attacker": "Leaper Gaunts", "target": "Hive Warriors"},
    ],
    "tftww2": [
        {"weapon": "Rifle", "range": "10", "shot": "aimed"},
        {"weapon": "HMG", "range": "40", "shot": "plain", "cover": "soft"},
        {"weapon": "Pistol", "range": "4", "shot": "snap", "target": "NCO"},
        {"attack": "afv"},
        {"attack": "afv", "firer": "m8_greyhound", "target": "pzkpfw_iv_h", "facing": "side"},
        {"attack": "area"},
        {"attack": "area", "weapon": "grenade", "range": "8", "men": "0,1"},
        {"attack": "area", "weapon": "heavy_artillery", "range": "30", "firer": "CO"},
    ],
    "fftt": [
        {"attacker": "grunt", "target": "grunt", "range": "15"},
        {"attacker": "engineer", "target": "sentinel", "range": "35", "cover": "yes"},
        {"attacker": "grenadier", "target": "grunt", "range": "20"},
        {"attacker": "tank", "target": "terminator", "range": "35", "melee": "yes"},
        {"attacker": "mt", "target": "grunt", "range": "60"},
        {"attack": "charge", "attacker": "grunt,grunt,grunt", "target": "engineer"},
        {"attack": "charge", "attacker": "razor_dog,razor_dog", "target": "queen"},
        {"attack": "charge", "attacker": "drone,drone,drone", "target": "engineer"},
    ],
}


def main(
    repeats: Annotated[int, typer.Option(help="timed calls after the first")] = 20,
    ruleset: Annotated[str | None, typer.Option(help="only this ruleset")] = None,
) -> None:
    """Print cold, median and worst query times."""
    table = Table(
        "ruleset",
        "query",
        "cold ms",
        "median ms",
        "worst ms",
        "median CPU ms",
        "warm < 50 ms",
        title="warbench odds: exact query time (one core)",
    )
    chosen = [registry.get(ruleset)] if ruleset else registry.all_rulesets()
    for rs in chosen:
        if not rs.odds_options():
            continue
        for options in QUERIES.get(rs.id, [{}]):
            start = time.perf_counter()
            rs.odds(options)
            cold = (time.perf_counter() - start) * 1000
            times, cpu = [], []
            for _ in range(repeats):
                start, start_cpu = time.perf_counter(), time.process_time()
                rs.odds(options)
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
            worst = max(times)
            text = " ".join(f"{k}={v}" for k, v in options.items()) or "(defaults)"
            table.add_row(
                rs.id,
                text,
                f"{cold:.2f}",
                f"{statistics.median(times):.2f}",
                f"{worst:.2f}",
                f"{statistics.median(cpu):.2f}",
                "yes" if worst < 50 else "NO",
            )
    Console(width=200, emoji=False).print(table)


if __name__ == "__main__":
    typer.run(main)
