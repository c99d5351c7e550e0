"""A stand's candidate moves (`FFT3Game.move_points`) worked out by compiled code: each leg's
end clamped to the table, then pulled back along the leg to what the stand's MP pay for.

The same operations in the same order as the Python they replaced, so the ends are the same
to the last bit: the clamps are Python's `min` and `max`, the legs' lengths CPython's
`math.dist` (`placing.dist`), their squares libm's `pow` as Python's `**` calls it (the
exponent comes in at run time, so the compiler cannot turn it into a product, which differs
in the last bit about once in 2 000), the pull-back `movement.point_along`'s arithmetic.
`tests/rulesets/fft3/test_moves.py` compares them with that Python on many stands.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from warbench.core.compiled import compiled
from warbench.rulesets.fft3.placing import dist
from warbench.rulesets.fft3.stretches import reaches

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]
PULL_BACK = 0.999
"""The share of its reach a pulled-back leg goes (so it ends where its MP still pay)."""


@compiled
def move_ends(
    x: float,
    y: float,
    limits: Floats,
    reach: Floats,
    sins: Floats,
    coss: Floats,
    mps: Floats,
    roads: tuple[Floats, Ints, Ints, Floats],
    rough: tuple[Floats, Ints, Ints, Floats],
    rates: Floats,
    eps: float,
    two: float,
) -> tuple[Floats, Floats]:
    """The ends of the legs from (x, y) `reach[i]` inches along bearing (sins[i], coss[i]),
    each clamped to `limits` (lowest x, highest x, lowest y, highest y), then pulled back to
    `PULL_BACK` of how far `mps[i]` MP take the stand along it (`stretches.reaches`). `two`
    is 2.0, passed in so that the squares are libm's `pow`."""
    n = len(sins)
    ends = np.empty((n, 4))
    for i in range(n):
        tx = min(max(x + reach[i] * sins[i], limits[0]), limits[1])
        ty = min(max(y + reach[i] * coss[i], limits[2]), limits[3])
        length = dist(x, y, tx, ty)
        ends[i, 0], ends[i, 1], ends[i, 2], ends[i, 3] = tx, ty, length, math.pow(length, two)
    gots = reaches(x, y, ends, mps, roads, rough, rates, eps)
    out_x, out_y = np.empty(n), np.empty(n)
    for i in range(n):
        length = ends[i, 2]
        if length == 0:
            out_x[i], out_y[i] = x, y
            continue
        t = min(max(gots[i] * PULL_BACK / length, 0.0), 1.0)
        out_x[i] = x + (ends[i, 0] - x) * t
        out_y[i] = y + (ends[i, 1] - y) * t
    return out_x, out_y
