"""Where a man may end a move as far as the table's edges and the other men's bases go
(3.0: no base on another's; `movement.blocked`), for many spots at once, compiled with
numba: the ends of a standing man's sampled walks and run (`movement.legal_man_orders`),
each tested as `movement._free_spots` tests one spot, operation by operation, distances by
CPython's own `math.hypot` (`hypot.hypot`), so it answers as the Python does."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from warbench.core.compiled import compiled
from warbench.core.hypot import hypot

MAN_BASE = 1.0  # `state.MAN_BASE`


@compiled
def free_spots(
    ends: NDArray[np.float64], bases: NDArray[np.float64], width: float, depth: float
) -> NDArray[np.bool_]:
    """For each spot (x, y) of `ends`, whether a man's centre may stand there: within
    half a base of `width` and `depth` inches (the table less half a base) and on no base
    of `bases` (x, y of the other men in the fight on his floor)."""
    half = MAN_BASE / 2
    free = np.empty(ends.shape[0], dtype=np.bool_)
    for i in range(ends.shape[0]):
        x, y = ends[i, 0], ends[i, 1]
        ok = half <= x <= width and half <= y <= depth
        if ok:
            for b in range(bases.shape[0]):
                dx, dy = bases[b, 0] - x, bases[b, 1] - y
                if (
                    -MAN_BASE < dx < MAN_BASE
                    and -MAN_BASE < dy < MAN_BASE
                    and hypot(dx, dy) < (MAN_BASE - 1e-6)
                ):
                    ok = False
                    break
        free[i] = ok
    return free
