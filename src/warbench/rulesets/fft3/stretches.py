"""Where a straight line runs inside a group of areas (difficult terrain, roads), compiled
with numba: the stretches of the line inside them, as fractions of it, adjoining ones merged.
Movement costs (`Battlefield.leg_cost`) and the exact sight code read them.

Every number is worked out by the same operations in the same order as the plain-Python loop
this replaced (IEEE arithmetic, no reordering), so the answers are the same to the last bit;
`tests/rulesets/fft3/test_stretches.py` checks them against that loop, corners and edges
included. The line's length (and its square) come from the caller, worked out by Python's
`math.hypot`, whose last bit may differ from C's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np
import numpy.typing as npt
from shapely.geometry import Polygon

from warbench.core.compiled import compiled

EPS = 1e-9
"""`warbench.core.geometry.EPS`: stretches along an edge, cuts this close, are one."""
PARALLEL = 1e-12
"""|sin| of the angle under which a line and an edge count as parallel."""
BOX_MARGIN = 1e-6
"""An area's box is grown by this before a line is tested against it."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]
Edge = tuple[float, float, float, float, float]
Box = tuple[float, float, float, float]


@compiled
def misses_box(
    ax: float, ay: float, dx: float, dy: float, boxes: Floats, k: int, margin: float
) -> bool:
    """Whether the segment from (ax, ay) by (dx, dy) passes wide of box `k` grown by `margin`
    (clipped the Liang-Barsky way): then it meets no edge inside."""
    low, high = 0.0, 1.0
    x0, y0, x9, y9 = boxes[0, k], boxes[1, k], boxes[2, k], boxes[3, k]
    for side in range(4):
        if side == 0:
            p, q = -dx, ax - x0 + margin
        elif side == 1:
            p, q = dx, x9 + margin - ax
        elif side == 2:
            p, q = -dy, ay - y0 + margin
        else:
            p, q = dy, y9 + margin - ay
        if p == 0:
            if q < 0:
                return True
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
        if low > high:
            return True
    return False


@compiled
def _contains(edges: Floats, first: int, count: int, x: float, y: float) -> bool:
    """Whether (x, y) is strictly inside the outline of edges first..first+count (even-odd
    rule; on an edge is not)."""
    inside = False
    for e in range(first, first + count):
        x1, y1, ex, ey, size = edges[0, e], edges[1, e], edges[2, e], edges[3, e], edges[4, e]
        if abs(ex * (y - y1) - ey * (x - x1)) <= EPS * size and (
            min(x1, x1 + ex) - EPS <= x <= max(x1, x1 + ex) + EPS
            and min(y1, y1 + ey) - EPS <= y <= max(y1, y1 + ey) + EPS
        ):
            return False
        if (y1 > y) != (y1 + ey > y) and x < x1 + (y - y1) * ex / ey:
            inside = not inside
    return inside


@compiled
def _sort_rows(rows: Floats, n: int) -> None:
    """Sort the first `n` rows (lo, hi) in place by lo, then hi (insertion: a handful)."""
    for i in range(1, n):
        lo, hi = rows[i, 0], rows[i, 1]
        j = i - 1
        while j >= 0 and (rows[j, 0] > lo or (rows[j, 0] == lo and rows[j, 1] > hi)):
            rows[j + 1, 0], rows[j + 1, 1] = rows[j, 0], rows[j, 1]
            j -= 1
        rows[j + 1, 0], rows[j + 1, 1] = lo, hi


@compiled
def _sort(values: Floats, n: int) -> None:
    """Sort the first `n` values in place (insertion: a handful)."""
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v


@compiled
def _runs(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    length: float,
    square: float,
    edges: Floats,
    sizes: Ints,
    starts: Ints,
    boxes: Floats,
) -> Floats:
    """The stretches (rows lo, hi) of a→b inside the areas (see `Stretches.runs`); `length`
    is the line's length, `square` its square."""
    lo_x, hi_x, lo_y, hi_y = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
    dx, dy = bx - ax, by - ay
    found = np.empty((2 * len(edges[0]) + len(sizes) + 2, 2))
    n = 0
    parallel = PARALLEL * length
    cuts = np.empty(2 * max(len(edges[0]), 1) + 2)
    for k in range(len(sizes)):
        x0, y0, x9, y9 = boxes[0, k], boxes[1, k], boxes[2, k], boxes[3, k]
        if x0 > hi_x or x9 < lo_x or y0 > hi_y or y9 < lo_y:
            continue
        if misses_box(ax, ay, dx, dy, boxes, k, BOX_MARGIN):
            continue
        cuts[0], cuts[1] = 0.0, 1.0
        m = 2
        along = False
        for e in range(starts[k], starts[k] + sizes[k]):
            x1, y1, ex, ey, size = edges[0, e], edges[1, e], edges[2, e], edges[3, e], edges[4, e]
            denom = dx * ey - dy * ex
            wx, wy = x1 - ax, y1 - ay
            if abs(denom) <= parallel * size:
                if abs(wx * dy - wy * dx) <= EPS * length:  # along the line: its ends cut
                    along = True
                    cuts[m] = (wx * dx + wy * dy) / square
                    cuts[m + 1] = ((wx + ex) * dx + (wy + ey) * dy) / square
                    m += 2
                continue
            t = (wx * ey - wy * ex) / denom
            if 0 < t < 1:
                u = (wx * dy - wy * dx) / denom
                if -PARALLEL <= u <= 1 + PARALLEL:
                    cuts[m] = t
                    m += 1
        _sort(cuts, m)
        kept = np.empty(m + 2)
        kept[0] = 0.0
        c = 1
        tol = EPS / length
        for t in cuts[:m]:
            if 0 <= t <= 1 and t > kept[c - 1] + tol and t < 1 - tol:
                kept[c] = t
                c += 1
        kept[c] = 1.0
        c += 1
        inside = False
        for j in range(c - 1):
            lo, hi = kept[j], kept[j + 1]
            if j == 0 or along:  # else each crossing turns inside and out
                mid = (lo + hi) / 2
                px, py = ax + mid * dx, ay + mid * dy
                inside = (
                    x0 <= px <= x9
                    and y0 <= py <= y9
                    and _contains(edges, starts[k], sizes[k], px, py)
                )
            else:
                inside = not inside
            if inside:
                found[n, 0], found[n, 1] = lo, hi
                n += 1
    _sort_rows(found, n)
    merged = np.empty((n, 2))
    r = 0
    for i in range(n):
        lo, hi = found[i, 0], found[i, 1]
        if r and lo <= merged[r - 1, 1] + EPS / length:
            merged[r - 1, 1] = max(hi, merged[r - 1, 1])
        else:
            merged[r, 0], merged[r, 1] = lo, hi
            r += 1
    return merged[:r]


@compiled
def _legs(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    length: float,
    square: float,
    roads: tuple[Floats, Ints, Ints, Floats],
    rough: tuple[Floats, Ints, Ints, Floats],
    rates: Floats,
) -> Floats:
    """`Battlefield._legs`: the leg a→b as rows (length, MP per inch), the road and the
    rough stretches (`_runs`; no rough ones when `rough` holds no area) cut into parts
    classed at their middles, adjoining parts of one rate merged. `rates`: road, rough,
    open MP per inch."""
    on_road = _runs(ax, ay, bx, by, length, square, roads[0], roads[1], roads[2], roads[3])
    in_rough = _runs(ax, ay, bx, by, length, square, rough[0], rough[1], rough[2], rough[3])
    legs = np.empty((2 * (len(on_road) + len(in_rough)) + 2, 2))
    if not len(on_road) and not len(in_rough):
        legs[0, 0], legs[0, 1] = length, rates[2]
        return legs[:1]
    cuts = np.empty(2 * (len(on_road) + len(in_rough)) + 2)
    cuts[0], cuts[1] = 0.0, 1.0
    m = 2
    for runs in (on_road, in_rough):
        for k in range(len(runs)):
            cuts[m], cuts[m + 1] = runs[k, 0], runs[k, 1]
            m += 2
    _sort(cuts, m)
    n = 0
    last = cuts[0]
    for c in range(1, m):
        if cuts[c] == last:
            continue
        lo, hi = last, cuts[c]
        last = hi
        mid = (lo + hi) / 2
        rate = rates[2]
        for k in range(len(in_rough)):
            if in_rough[k, 0] < mid < in_rough[k, 1]:
                rate = rates[1]
                break
        for k in range(len(on_road)):
            if on_road[k, 0] < mid < on_road[k, 1]:
                rate = rates[0]
                break
        if n and legs[n - 1, 1] == rate:
            legs[n - 1, 0] += (hi - lo) * length
        elif hi > lo:
            legs[n, 0], legs[n, 1] = (hi - lo) * length, rate
            n += 1
    return legs[:n]


@compiled
def reaches(
    ax: float,
    ay: float,
    ends: Floats,
    mps: Floats,
    roads: tuple[Floats, Ints, Ints, Floats],
    rough: tuple[Floats, Ints, Ints, Floats],
    rates: Floats,
    eps: float,
) -> Floats:
    """`Battlefield.reach` from a to each end (rows x, y, length, square: the lengths from
    Python's `math.dist` and `**`) with the MP of `mps`: how far along it the stand gets."""
    out = np.empty(len(ends))
    for i in range(len(ends)):
        length = ends[i, 2]
        out[i] = length
        if length == 0:
            continue
        legs = _legs(ax, ay, ends[i, 0], ends[i, 1], length, ends[i, 3], roads, rough, rates)
        left = max(mps[i], 0.0)
        gone = 0.0
        for k in range(len(legs)):
            part, rate = legs[k, 0], legs[k, 1]
            if part * rate > left + eps:
                out[i] = min(gone + left / rate, length)
                break
            left -= part * rate
            gone += part
    return out


@compiled
def costs(
    ax: float,
    ay: float,
    ends: Floats,
    roads: tuple[Floats, Ints, Ints, Floats],
    rough: tuple[Floats, Ints, Ints, Floats],
    rates: Floats,
) -> Floats:
    """`Battlefield.leg_cost` from a to each end (rows as `reaches` takes them): the MP of
    `_legs`'s parts, summed in order."""
    out = np.zeros(len(ends))
    for i in range(len(ends)):
        if ends[i, 2] == 0:
            continue
        legs = _legs(ax, ay, ends[i, 0], ends[i, 1], ends[i, 2], ends[i, 3], roads, rough, rates)
        total = 0.0
        for k in range(len(legs)):
            total += legs[k, 0] * legs[k, 1]
        out[i] = total
    return out


@compiled
def covered(
    xs: Floats, ys: Floats, edges: Floats, sizes: Ints, starts: Ints, boxes: Floats, near: float
) -> npt.NDArray[np.int8]:
    """For each point (xs[i], ys[i]): 1 when it lies inside one of the areas (exteriors only,
    even-odd rule), 0 when outside all of them, -1 (unsure) when it lies within `near` of an
    outline of an area whose box it is in, or level with one of its corners, and inside none
    (there the answer could hang on rounding and is left to exact code)."""
    out = np.zeros(len(xs), dtype=np.int8)
    for i in range(len(xs)):
        x, y = xs[i], ys[i]
        unsure = False
        for k in range(len(sizes)):
            if not (
                boxes[0, k] - near <= x <= boxes[2, k] + near
                and boxes[1, k] - near <= y <= boxes[3, k] + near
            ):
                continue
            inside, doubt = False, False
            for e in range(starts[k], starts[k] + sizes[k]):
                x1, y1, ex, ey, size = (
                    edges[0, e],
                    edges[1, e],
                    edges[2, e],
                    edges[3, e],
                    edges[4, e],
                )
                wx, wy = x - x1, y - y1
                along = min(max((wx * ex + wy * ey) / (size * size), 0.0), 1.0)
                if (
                    abs(wy) < near
                    or abs(y1 + ey - y) < near
                    or math.hypot(wx - along * ex, wy - along * ey) < near
                ):
                    doubt = True
                    break
                if (y1 > y) != (y1 + ey > y) and x < x1 + wy * ex / ey:
                    inside = not inside
            if doubt:
                unsure = True
            elif inside:
                out[i] = 1
                break
        if out[i] == 0 and unsure:
            out[i] = -1
    return out


class Stretches:
    """The outlines of a group of areas: each area's box and edges (start, run and length) as
    plain numbers (`areas`), and the same as arrays."""

    def __init__(self, areas: Sequence[Polygon]) -> None:
        self.areas: list[tuple[Box, list[Edge]]] = [
            (
                area.bounds,
                [
                    (x1, y1, x2 - x1, y2 - y1, math.hypot(x2 - x1, y2 - y1))
                    for (x1, y1), (x2, y2) in pairwise(area.exterior.coords)
                    if (x1, y1) != (x2, y2)
                ],
            )
            for area in areas
        ]
        outlines = self.areas
        edges = [edge for _, outline in outlines for edge in outline]
        self.edges = np.ascontiguousarray(np.array(edges, dtype=np.float64).reshape(-1, 5).T)
        self.sizes = np.array([len(outline) for _, outline in outlines], dtype=np.intp)
        self.starts = np.cumsum(self.sizes) - self.sizes
        boxes = np.array([box for box, _ in outlines], dtype=np.float64).reshape(-1, 4).T
        self.boxes = np.ascontiguousarray(boxes)

    @property
    def arrays(self) -> tuple[Floats, Ints, Ints, Floats]:
        """Edges, sizes, starts and boxes, as the compiled code takes them."""
        return (self.edges, self.sizes, self.starts, self.boxes)

    def runs(self, a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
        """The stretches of a→b inside the areas, as fractions 0..1 of it, in order, with
        adjoining ones merged. A stretch along an edge is not inside; where the line starts is
        judged at the middle of its first stretch."""
        (ax, ay), (bx, by) = a, b
        length = math.hypot(bx - ax, by - ay)
        if length == 0 or not len(self.sizes):
            return []
        rows = _runs(
            ax, ay, bx, by, length, length**2, self.edges, self.sizes, self.starts, self.boxes
        )
        return [(lo, hi) for lo, hi in rows.tolist()]
