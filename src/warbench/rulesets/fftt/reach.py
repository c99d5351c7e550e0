"""A figure's move destinations compiled with numba (R4: a move is a straight line; the AI
and the listing offer the moves of `FFTTGame._reach`): the points by the openings and wrecks
within its reach, then eight ways as far as one action and all its actions go, each rounded
to 0.1 cm, and the points half way. The same floats as the Python of `FFTTGame._reach` and
`Reach.halfway` (no fast-math; `table.rounded`'s arithmetic step by step), or none where that
Python would decide otherwise than plain arithmetic: a portal too near the edge of the reach
to tell `math.dist`'s answer, a value `rounded` hands to Python's `round`."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from warbench.core.compiled import compiled
from warbench.rulesets.fftt.table import EXACT, SPLIT

Floats = npt.NDArray[np.float64]
UNSURE = 1e-9  # a portal's squared distance this near (relatively) the reach's is left to Python


@compiled
def tenths(v: float) -> float:
    """`table.rounded(v, 1)`, the same float, or NaN where it would call `round` (|10·v| < 1
    or at least 2**51)."""
    y = v * 10.0
    negative = y < 0.0
    if negative:  # as `rounded`: the opposite of the opposite's rounding
        v, y = -v, -y
    if not 1.0 <= y < EXACT:
        return math.nan
    n = int(y)
    f = y - n
    if f < 0.5:
        r = n / 10.0
    elif f > 0.5:
        r = (n + 1) / 10.0
    else:
        c = SPLIT * v
        high = c - (c - v)
        error = (high * 10.0 - y) + (v - high) * 10.0
        r = (n + 1) / 10.0 if error > 0 or (error == 0 and n % 2 == 1) else n / 10.0
    return -r if negative else r


@compiled
def _points(
    x: float, y: float, pace: float, ap: int, portals: Floats, ways: Floats
) -> tuple[Floats, bool]:
    reach_all = pace * ap
    limit = reach_all * reach_all
    picked = np.empty(portals.shape[0], dtype=np.int64)
    m = 0
    for k in range(portals.shape[0]):
        dx, dy = portals[k, 0] - x, portals[k, 1] - y
        d2 = dx * dx + dy * dy
        if abs(d2 - limit) <= UNSURE * limit:
            return np.empty((0, 2)), False
        if d2 < limit:
            picked[m] = k
            m += 1
    reaches = np.array([pace, reach_all]) if ap > 1 else np.array([pace])
    n = m + ways.shape[0] * reaches.shape[0]
    out = np.empty((2 * n, 2))
    for i in range(m):
        out[i, 0] = tenths(portals[picked[i], 0])
        out[i, 1] = tenths(portals[picked[i], 1])
    i = m
    for w in range(ways.shape[0]):
        for reach in reaches:
            out[i, 0] = tenths(x + reach * ways[w, 0])
            out[i, 1] = tenths(y + reach * ways[w, 1])
            i += 1
    for i in range(n):
        out[n + i, 0] = tenths((x + out[i, 0]) / 2)
        out[n + i, 1] = tenths((y + out[i, 1]) / 2)
    for i in range(2 * n):
        if math.isnan(out[i, 0]) or math.isnan(out[i, 1]):
            return np.empty((0, 2)), False
    return out, True


def reach_points(
    x: float, y: float, pace: float, ap: int, portals: Floats, ways: Floats
) -> Floats | None:
    """The destinations of a figure at (x, y) moving `pace` cm an action with `ap` actions
    left (`portals`: the table's, as rows x, y; `ways`: the sine and cosine of each way), then
    the points half way to each, as rows x, y: `FFTTGame._reach`'s `tos` and
    `Reach.halfway`; None where Python must decide (see the module)."""
    found, sure = _points(x, y, pace, ap, portals, ways)
    return found if sure else None
