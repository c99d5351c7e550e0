"""CPython's own `math.hypot` of two numbers, compiled with numba, bit for bit, for compiled
code that must measure as its rules' Python does (`math.hypot`, or `math.dist`, whose
differences it takes): tftww2's place terms (`order_terms`) and fft3's candidate moves
(`placing.dist`). C's `hypot`, which numba's `math.hypot` calls, rounds differently in the last
bit now and then; this is `vector_norm` of CPython 3.11's Modules/mathmodule.c written out
operation by operation (Dekker's split, compensated sums, one differential correction of
the square root), and `tests/core/test_hypot.py` holds it to `math.hypot`."""

from __future__ import annotations

import math

from warbench.core.compiled import compiled

T27 = 134217729.0  # 2**27 + 1: Dekker's split of a double into two halves


@compiled
def hypot(a: float, b: float) -> float:
    """`math.hypot(a, b)` to the last bit (CPython 3.11's `math_hypot` and `vector_norm`)."""
    a, b = abs(a), abs(b)
    biggest = a if a > b else b
    if math.isinf(a) or math.isinf(b):
        return math.inf
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if biggest == 0.0:
        return biggest
    exponent = math.frexp(biggest)[1]
    csum, frac1, frac2, frac3 = 1.0, 0.0, 0.0, 0.0
    if exponent < -1023:  # the scale would overflow: divide by the biggest instead
        for value in (a, b):
            x = value / biggest
            x = x * x
            old = csum
            csum += x
            frac1 += (old - csum) + x
        return biggest * math.sqrt(csum - 1.0 + frac1)
    scale = math.ldexp(1.0, -exponent)
    for value in (a, b):
        x = value * scale
        t = x * T27
        hi = t - (t - x)
        lo = x - hi
        x = hi * hi
        old = csum
        csum += x
        frac1 += (old - csum) + x
        x = 2.0 * hi * lo
        old = csum
        csum += x
        frac2 += (old - csum) + x
        frac3 += lo * lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2 + frac3))
    t = h * T27
    hi = t - (t - h)
    lo = h - hi
    x = -hi * hi
    old = csum
    csum += x
    frac1 += (old - csum) + x
    x = -2.0 * hi * lo
    old = csum
    csum += x
    frac2 += (old - csum) + x
    x = -lo * lo
    old = csum
    csum += x
    frac3 += (old - csum) + x
    x = csum - 1.0 + (frac1 + frac2 + frac3)
    return (h + x / (2.0 * h)) / scale
