"""`rounding.rounded` and `rounding.cents` are Python's `round` to the last bit (the sign of a
zero included): on random values, on exact halves and values a hair either side of one, and on
values too large or not finite to take the quick way."""

from __future__ import annotations

import math
import random

import numpy as np

from warbench.rulesets.fft3.rounding import cents, rounded


def _values() -> list[float]:
    rng = random.Random(3)
    values = [rng.uniform(-5, 80) for _ in range(20000)]
    values += [k / 200 + d for k in range(-400, 16000) for d in (0.0, 5e-3, 1e-15, -1e-15)]
    values += [k / 20000 for k in range(-400, 4000)]
    values += [0.0, -0.0, -0.001, -0.00004, 2.675, 1.005, 1e12, -1e12, math.inf, -math.inf]
    return values


def test_rounded_is_round() -> None:
    for digits in (2, 4):
        for x in _values():
            assert repr(rounded(x, digits)) == repr(round(x, digits)), (x, digits)
    assert math.isnan(rounded(math.nan, 2))


def test_cents_are_round() -> None:
    values = [x for x in _values() if math.isfinite(x)]
    assert [repr(x) for x in cents(np.array(values))] == [repr(round(x, 2)) for x in values]
