"""The scenery's part of the moves of a figure from one place (`movement._scenery_open`),
compiled with numba for all its destinations at once: R4's cost (slowing terrain counting
double) against the actions left, R9's low walls, the table's edge. Walls of buildings and
wrecks (R10, `passage`) are left to Python: a destination whose move comes near one is
answered "unsure", as is a cost too near the allowance to tell `math.dist`'s last bit."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from warbench.core.compiled import compiled

Floats = npt.NDArray[np.float64]
Answers = npt.NDArray[np.int8]
UNSURE = 1e-9  # a cost this near (relatively) the allowance is left to Python


@compiled
def _clip(
    ax: float, ay: float, bx: float, by: float, box: Floats, k: int
) -> tuple[bool, float, float]:
    """`Piece.clip` of a→b with the box of row k (x0, y0, x1, y1): whether the segment
    passes through it, and the span, the same floats."""
    x0, y0, x1, y1 = box[k, 0], box[k, 1], box[k, 2], box[k, 3]
    if max(ax, bx) < x0 or min(ax, bx) > x1 or max(ay, by) < y0 or min(ay, by) > y1:
        return False, 0.0, 0.0
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for side in range(4):
        if side == 0:
            p, q = -dx, ax - x0
        elif side == 1:
            p, q = dx, x1 - ax
        elif side == 2:
            p, q = -dy, ay - y0
        else:
            p, q = dy, y1 - ay
        if p == 0:
            if q < 0:
                return False, 0.0, 0.0
            continue
        r = q / p
        if p < 0:
            if r > t0:
                t0 = r
        elif r < t1:
            t1 = r
        if t0 > t1:
            return False, 0.0, 0.0
    return True, t0, t1


@compiled
def _answers(
    points: Floats,
    fig: Floats,
    table: Floats,
    walled: Floats,
    slow: Floats,
    walls: Floats,
) -> Answers:
    x, y, allowance, ignores, over_walls, radius = fig[0], fig[1], fig[2], fig[3], fig[4], fig[5]
    found = np.empty(points.shape[0], dtype=np.int8)
    spans = np.empty((slow.shape[0], 2))
    for i in range(points.shape[0]):
        px, py = points[i, 0], points[i, 1]
        lox, hix = min(x, px), max(x, px)
        loy, hiy = min(y, py), max(y, py)
        found[i] = -1
        near_walled = False
        for k in range(walled.shape[0]):
            if not (
                walled[k, 2] < lox or walled[k, 0] > hix or walled[k, 3] < loy or walled[k, 1] > hiy
            ):
                near_walled = True
        if near_walled:
            continue  # doors, windows, wrecks: `passage`, in Python
        total = math.hypot(px - x, py - y)
        covered = 0.0
        if ignores == 0 and total != 0:
            m = 0
            for k in range(slow.shape[0]):
                if slow[k, 2] < lox or slow[k, 0] > hix or slow[k, 3] < loy or slow[k, 1] > hiy:
                    continue
                crossed, t0, t1 = _clip(x, y, px, py, slow, k)
                if crossed:
                    spans[m, 0], spans[m, 1] = t0, t1
                    m += 1
            for a in range(1, m):  # sorted by start, then end (as Python's tuples)
                j = a
                while j > 0 and (
                    spans[j, 0] < spans[j - 1, 0]
                    or (spans[j, 0] == spans[j - 1, 0] and spans[j, 1] < spans[j - 1, 1])
                ):
                    spans[j, 0], spans[j - 1, 0] = spans[j - 1, 0], spans[j, 0]
                    spans[j, 1], spans[j - 1, 1] = spans[j - 1, 1], spans[j, 1]
                    j -= 1
            end = 0.0
            for j in range(m):
                t0 = max(spans[j, 0], end)
                if spans[j, 1] > t0:
                    covered += spans[j, 1] - t0
                    end = spans[j, 1]
        cost = total * (1 + covered)
        if abs(cost - allowance) <= UNSURE * max(allowance, 1.0):
            continue  # `math.dist`'s last bit could decide it
        if cost > allowance:
            found[i] = 0
            continue
        crossed_wall = False
        if over_walls == 0:
            for k in range(walls.shape[0]):
                if _clip(x, y, px, py, walls, k)[0]:
                    crossed_wall = True
        if crossed_wall:
            found[i] = 0
            continue
        width, depth = table[0], table[1]
        on = radius <= px <= width - radius and radius <= py <= depth - radius
        found[i] = 1 if on else 0
    return found


def scenery_answers(
    points: Floats, fig: Floats, table: Floats, walled: Floats, slow: Floats, walls: Floats
) -> Answers:
    """For a figure on the ground moving to each of `points` (rows x, y), whether
    `movement._scenery_open` lets it: 1, 0, or -1 where Python must decide (a building or
    wreck near the move, a cost within `UNSURE` of the allowance). `fig`: x, y, its allowance
    (pace × actions left, plus 1e-6), whether it ignores terrain and flies over low walls (1
    or 0), its radius; `table`: width, depth; `walled`, `slow`, `walls`: the buildings and
    wrecks, the slowing pieces and the low walls, as rows x0, y0, x1, y1."""
    found: Answers = _answers(points, fig, table, walled, slow, walls)
    return found
