"""Checks shared by every ruleset's odds tests: exact odds equal face-by-face enumeration,
and agree with Monte Carlo play of the same rules code on seeded dice."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction

from warbench.core.dice import SeededDice
from warbench.core.odds import Query

RUNS = 100_000
STANDARD_ERRORS = 4


def assert_readings_exact(query: Query) -> None:
    """The query's readings (classes of rolls) give exactly what enumerating every ordered
    roll of every request gives."""
    reduced, _ = query.exact()
    brute, _ = replace(query, reading=None).exact()
    assert reduced == brute
    assert sum(reduced.values()) == 1


def assert_monte_carlo_agrees(query: Query, seed: int, runs: int = RUNS) -> None:
    """Play the query's stages `runs` times on seeded dice: every outcome of every table is
    within 4 standard errors of its exact probability (and never seen if impossible)."""
    exact, _ = query.exact()
    dice = SeededDice(seed)
    seen = Counter(query.stages.sample(dice) for _ in range(runs))
    assert set(seen) <= set(exact), set(seen) - set(exact)
    observed = {outcome: Fraction(n, runs) for outcome, n in seen.items()}
    for want, got in zip(query.tables(exact), query.tables(observed), strict=True):
        assert want.title == got.title
        for w, g in zip(want.rows, got.rows, strict=True):
            p = float(w.probability)
            error = math.sqrt(p * (1 - p) / runs)
            assert abs(float(g.probability) - p) <= STANDARD_ERRORS * error, (want.title, w.name)
