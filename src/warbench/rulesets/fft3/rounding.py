"""Python's `round(x, digits)`, to the last bit, without its decimal string round trip (a few
thousand instructions a call): below `LARGEST`, x scaled by 10**digits in floating point is
within 1.2e-7 of the exact product, so where it is not within `NEAR_HALF` of a half, its
nearest whole number n is the exact product's rounded half to even, and n / 10**digits,
correctly rounded, is `round`'s double (with x's sign when n is 0); the rest go through
`round`. `tests/rulesets/fft3/test_rounding.py` compares them with `round`."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from warbench.core.compiled import compiled

Floats = npt.NDArray[np.float64]

NEAR_HALF = 1e-6
"""A value whose scaled fraction lies this near a half is left to `round`."""
LARGEST = 1e9
"""A value that scales to this or more (or is not finite) is left to `round`."""
SCALES = tuple(10.0**digits for digits in range(10))
"""10**digits, exactly."""


def rounded(x: float, digits: int) -> float:
    """`round(x, digits)`."""
    scale = SCALES[digits]
    scaled = x * scale
    if not abs(scaled) < LARGEST:
        return round(x, digits)
    whole = round(scaled)
    if abs(abs(scaled - whole) - 0.5) < NEAR_HALF:
        return round(x, digits)
    return math.copysign(whole / scale, x)


def cents(values: Floats) -> list[float]:
    """`round(v, 2)` of each of `values` (`_cents` by compiled code, then `round` for any it
    leaves: a NaN among them makes their sum NaN)."""
    out: list[float] = _cents(values).tolist()
    if math.isnan(sum(out)):
        out = [
            round(v, 2) if math.isnan(x) else x for v, x in zip(values.tolist(), out, strict=True)
        ]
    return out


@compiled
def _cents(values: Floats) -> Floats:
    """`rounded(v, 2)` of each of `values`, NaN where it would leave `v` to `round`."""
    out = np.empty(len(values))
    for i in range(len(values)):
        scaled = values[i] * 100.0
        whole = np.rint(scaled)
        if abs(scaled) < LARGEST and abs(abs(scaled - whole) - 0.5) >= NEAR_HALF:
            out[i] = whole / 100.0
        else:
            out[i] = np.nan
    return out
