"""`table.rounded`, the table's `round` without a decimal string, gives `round`'s very float:
on random values, on values half way between two roundings (exact ties, where `round` rounds
to even) and a last bit either side of them, negative ones, outside its fast range, and on
odd floats."""

from __future__ import annotations

import math
import random
import struct

from warbench.rulesets.fftt.table import rounded


def _bits(v: float) -> bytes:
    return struct.pack("<d", v)


def test_rounded_is_rounds_float_bit_for_bit() -> None:
    rng = random.Random(3)
    compared = 0
    for _ in range(40_000):
        for digits in (0, 1, 2):
            scale = 10.0**digits
            tie = (rng.randint(0, 200_000) + 0.5) / scale
            values = (
                rng.uniform(-50.0, 250.0),
                round(rng.uniform(0.0, 200.0), 1) / 2,  # a half of a tenth: often a tie
                tie,
                -tie,  # negative values: rounded as their opposite
                math.nextafter(tie, 0.0),
                math.nextafter(tie, math.inf),
                -math.nextafter(tie, 0.0),
                rng.uniform(0.0, 1.5 / scale),  # below the fast range
                rng.uniform(1e4, 1e7),  # above it
            )
            for v in values:
                assert _bits(rounded(v, digits)) == _bits(round(v, digits)), (v, digits)
                compared += 1
    for v in (0.0, -0.0, 0.05, 0.15, 0.25, 2.675, 1.005, 1e300, 5e-324, math.inf, -math.inf):
        for digits in (0, 1, 2):
            assert _bits(rounded(v, digits)) == _bits(round(v, digits)), (v, digits)
    assert math.isnan(rounded(math.nan, 1))
    assert compared == 40_000 * 3 * 9
