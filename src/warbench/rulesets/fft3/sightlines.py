"""Many sight lines at once (compiled with numba): the verdict of `stretches.Stretches.runs` and
the Sight rule ("can see 2" into that terrain", docs/rules/fft3.md) for a whole batch of
straight lines, and of the three lines between two bases (`Battlefield._sees`).

Each line is judged the way `Battlefield._sees` judges it: it is clear when every stretch of it
inside difficult terrain starts at one of its ends and is at most 2" long. The batch only
answers where the answer cannot hang on rounding: a line that passes within a hair of a
corner, runs along an edge, starts on an outline, has a stretch within a hair of 2", or meets
two pieces that touch is UNSURE and is left to the exact one-line code. So the batch never
changes a verdict; it only spares the loop over edges for the clear-cut lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from shapely.geometry import Polygon

from warbench.core.compiled import compiled
from warbench.rulesets.fft3.stretches import misses_box

CLEAR, BLOCKED, UNSURE = 1, 0, -1

HAIR = 1e-7
"""Crossings this close (as a fraction of the line) to an end, a corner or each other are
left to the exact code."""
NEAR = 1e-6
"""Points this close (inches) to an outline, and stretches this close to the 2" limit, are
left to the exact code."""
SHORTEST = 0.5
"""Lines shorter than this (inches) are left to the exact code."""
_PARALLEL = 1e-9
"""|sin| of the angle under which an edge counts as parallel here (1000× the exact code's)."""
WIDE = 1e-4
"""A line that misses an area's box grown by this (inches) is clear of it: the exact code
grows the box by a hundredth of that."""

Floats = npt.NDArray[np.float64]
Edge = tuple[float, float, float, float, float]
Box = tuple[float, float, float, float]


@compiled
def _line(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    into: float,
    edges: Floats,
    sizes: npt.NDArray[np.intp],
    starts: npt.NDArray[np.intp],
    boxes: Floats,
    touching: npt.NDArray[np.intp],
    meets: npt.NDArray[np.bool_],
    lead: int,
) -> tuple[int, int]:
    """CLEAR, BLOCKED or UNSURE for the line a → b, with the area that blocks it beyond doubt
    (-1 if none was found). Per area whose box it comes near: the
    edges it crosses, the first and last crossing, and whether its start is inside (even-odd
    rule). The stretches inside alternate from the start, so the area blocks the line when a
    stretch starts and ends between the crossings, when the line starts inside and its first
    crossing is more than `into` on, or ends inside and its last crossing is more than `into`
    short of its end (or lies wholly inside and is longer than `into`). `meets` is scratch
    room, one flag per area. The areas are taken from `lead` on, round to those before it
    (the order cannot change a verdict). An area that blocks the line beyond doubt and
    touches no other ends the search: the line is BLOCKED whatever the areas not looked at
    hold, as the exact code has it (`Stretches.runs` merges only the stretches of areas that
    touch, so that stretch stays as it is and fails the Sight rule's 2"), so that their
    doubts, which would have made it UNSURE, are not worked out."""
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    lo_x, hi_x, lo_y, hi_y = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
    unsure = False
    blocked = False
    count = len(sizes)
    for n in range(count):
        k = lead + n if lead + n < count else lead + n - count
        meets[k] = False
        if not (
            lo_x <= boxes[2, k] + NEAR
            and hi_x >= boxes[0, k] - NEAR
            and lo_y <= boxes[3, k] + NEAR
            and hi_y >= boxes[1, k] - NEAR
        ) or misses_box(ax, ay, dx, dy, boxes, k, WIDE):
            continue
        doubt = length < SHORTEST
        # the start can lie on the outline only inside the area's box (grown by a margin)
        onto = (
            boxes[0, k] - 2 * NEAR <= ax <= boxes[2, k] + 2 * NEAR
            and boxes[1, k] - 2 * NEAR <= ay <= boxes[3, k] + 2 * NEAR
        )
        crossed = 0
        rays = 0
        first, last = math.inf, -math.inf
        for e in range(starts[k], starts[k] + sizes[k]):
            x1, y1, ex, ey, size = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3], edges[e, 4]
            denom = dx * ey - dy * ex
            wx, wy = x1 - ax, y1 - ay
            parallel = abs(denom) <= _PARALLEL * length * size
            t = math.inf if parallel else (wx * ey - wy * ex) / denom
            u = math.inf if parallel else (wx * dy - wy * dx) / denom
            cross = HAIR < t < 1 - HAIR and HAIR < u < 1 - HAIR
            if cross:
                crossed += 1
                first, last = min(first, t), max(last, t)
            elif -HAIR < t < 1 + HAIR and -HAIR < u < 1 + HAIR:
                doubt = True  # grazing a corner or an end
            if parallel and abs(wx * dy - wy * dx) <= NEAR * length:
                doubt = True  # lying along the edge
            if onto:
                along = min(max(-(wx * ex + wy * ey) / (size * size), 0.0), 1.0)
                if math.hypot(wx + along * ex, wy + along * ey) < NEAR:
                    doubt = True  # starting on the outline
            if ((y1 > ay) != (y1 + ey > ay)) and ax < x1 + (ay - y1) * ex / ey:
                rays += 1
        inside = rays % 2 == 1
        out = inside != (crossed % 2 == 1)  # the line ends inside
        runs = (crossed + int(inside) + int(out)) // 2
        head, tail = first * length, length - last * length  # inches inside at each end
        if crossed == 0 and inside:  # wholly inside
            blocks = length > into
            doubt |= abs(length - into) < NEAR
        else:
            blocks = (
                runs - int(inside) - int(out) > 0
                or (inside and head > into)
                or (out and tail > into)
            )
            doubt |= (inside and abs(head - into) < NEAR) or (out and abs(tail - into) < NEAR)
        if blocks and not doubt:
            alone = True  # area k is in no row of `touching`
            for m in range(len(touching)):
                alone &= touching[m, 0] != k and touching[m, 1] != k
            if alone:
                return BLOCKED, k
        blocked |= blocks
        unsure |= doubt
        meets[k] = runs > 0
    for m in range(len(touching)):
        unsure |= meets[touching[m, 0]] and meets[touching[m, 1]]
    return (UNSURE if unsure else (BLOCKED if blocked else CLEAR)), -1


@compiled
def _lines(
    a: Floats,
    b: Floats,
    into: float,
    edges: Floats,
    sizes: npt.NDArray[np.intp],
    starts: npt.NDArray[np.intp],
    boxes: Floats,
    touching: npt.NDArray[np.intp],
) -> npt.NDArray[np.int8]:
    """`_line` for each line a[i] → b[i]."""
    meets = np.zeros(len(sizes), dtype=np.bool_)
    out = np.empty(len(a), dtype=np.int8)
    for i in range(len(a)):
        out[i] = _line(
            a[i, 0],
            a[i, 1],
            b[i, 0],
            b[i, 1],
            into,
            edges,
            sizes,
            starts,
            boxes,
            touching,
            meets,
            0,
        )[0]
    return out


@compiled
def _pair(
    ax: float,
    ay: float,
    ra: float,
    bx: float,
    by: float,
    rb: float,
    into: float,
    edges: Floats,
    sizes: npt.NDArray[np.intp],
    starts: npt.NDArray[np.intp],
    boxes: Floats,
    touching: npt.NDArray[np.intp],
    meets: npt.NDArray[np.bool_],
) -> int:
    """The bases of radius `ra` centred (ax, ay) and `rb` centred (bx, by): the centre line,
    then, when it is not clear and the bases have a size, the left-hand and right-hand rim
    lines (`Battlefield._sees`): CLEAR when one of them is, BLOCKED when all are, else
    UNSURE. A rim line looks first at the area that blocked the line before it (which most
    often blocks it too, and then ends its search: `_line`)."""
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    centre, wall = _line(ax, ay, bx, by, into, edges, sizes, starts, boxes, touching, meets, 0)
    rimmed = ra > 0 or rb > 0
    if centre == CLEAR or (length == 0 and not (centre == BLOCKED and not rimmed)):
        return CLEAR
    if not rimmed:
        return int(centre)
    lx, ly = -dy / length, dx / length  # left of a→b
    nx, ny, fx, fy = lx * ra, ly * ra, lx * rb, ly * rb
    lead = max(wall, 0)
    left, wall = _line(
        ax + nx, ay + ny, bx + fx, by + fy, into, edges, sizes, starts, boxes, touching, meets, lead
    )
    if left == CLEAR:
        return CLEAR  # whatever the right-hand line's verdict
    lead = wall if wall >= 0 else lead
    right = _line(
        ax - nx, ay - ny, bx - fx, by - fy, into, edges, sizes, starts, boxes, touching, meets, lead
    )[0]
    if right == CLEAR:
        return CLEAR
    if centre == BLOCKED and left == BLOCKED and right == BLOCKED:
        return BLOCKED
    return UNSURE


@compiled
def _bases(
    rows: Floats,
    into: float,
    edges: Floats,
    sizes: npt.NDArray[np.intp],
    starts: npt.NDArray[np.intp],
    boxes: Floats,
    touching: npt.NDArray[np.intp],
) -> npt.NDArray[np.int8]:
    """`_pair` for each row (ax, ay, ra, bx, by, rb)."""
    meets = np.zeros(len(sizes), dtype=np.bool_)
    out = np.empty(len(rows), dtype=np.int8)
    for i in range(len(rows)):
        out[i] = _pair(
            rows[i, 0],
            rows[i, 1],
            rows[i, 2],
            rows[i, 3],
            rows[i, 4],
            rows[i, 5],
            into,
            edges,
            sizes,
            starts,
            boxes,
            touching,
            meets,
        )
    return out


@compiled
def _bases_at(
    px: Floats,
    py: Floats,
    radius: float,
    fx: Floats,
    fy: Floats,
    fr: Floats,
    near_i: npt.NDArray[np.intp],
    near_j: npt.NDArray[np.intp],
    into: float,
    edges: Floats,
    sizes: npt.NDArray[np.intp],
    starts: npt.NDArray[np.intp],
    boxes: Floats,
    touching: npt.NDArray[np.intp],
) -> npt.NDArray[np.int8]:
    """`_pair` for each pair k: the base of `radius` at (px, py)[near_i[k]] and the one at
    (fx, fy)[near_j[k]] of radius fr[near_j[k]]."""
    meets = np.zeros(len(sizes), dtype=np.bool_)
    out = np.empty(len(near_i), dtype=np.int8)
    for k in range(len(near_i)):
        i, j = near_i[k], near_j[k]
        out[k] = _pair(
            px[i],
            py[i],
            radius,
            fx[j],
            fy[j],
            fr[j],
            into,
            edges,
            sizes,
            starts,
            boxes,
            touching,
            meets,
        )
    return out


class Areas:
    """The outlines of the sight-blocking areas as arrays: every edge's start, run and length
    (the same numbers as `Stretches`) in a row of its own (read together), each area's box and
    first edge, and the pairs of areas that touch or overlap (the exact code merges their
    stretches)."""

    def __init__(self, outlines: Sequence[tuple[Box, list[Edge]]], areas: Sequence[Polygon]):
        edges = [edge for _, outline in outlines for edge in outline]
        self.edges = np.array(edges, dtype=np.float64).reshape(-1, 5)
        self.sizes = np.array([len(outline) for _, outline in outlines], dtype=np.intp)
        self.starts = np.cumsum(self.sizes) - self.sizes
        boxes = np.array([box for box, _ in outlines], dtype=np.float64).reshape(-1, 4).T
        self.boxes = np.ascontiguousarray(boxes)
        self.touching = np.array(
            [
                (i, j)
                for i, p in enumerate(areas)
                for j, q in enumerate(areas)
                if i < j and p.distance(q) <= NEAR
            ],
            dtype=np.intp,
        ).reshape(-1, 2)

        self._meets = np.zeros(len(self.sizes), dtype=np.bool_)

    def _tables(self) -> tuple[Floats, Any, Any, Floats, Any]:
        return self.edges, self.sizes, self.starts, self.boxes, self.touching

    def sees_one(
        self, ax: float, ay: float, ra: float, bx: float, by: float, rb: float, into: float
    ) -> int:
        """CLEAR, BLOCKED or UNSURE for one pair of bases (see `_pair`), without building an
        array for it."""
        e, sizes, starts, boxes, touching = self._tables()
        return int(
            _pair(ax, ay, ra, bx, by, rb, into, e, sizes, starts, boxes, touching, self._meets)
        )

    def verdicts(self, a: Floats, b: Floats, into: float) -> npt.NDArray[np.int8]:
        """CLEAR, BLOCKED or UNSURE for each line a[i] → b[i] (arrays of shape (n, 2)):
        clear when every stretch inside the areas starts at an end and is at most `into`."""
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        return np.asarray(_lines(a, b, into, *self._tables()), dtype=np.int8)

    def sees_at(
        self,
        px: Floats,
        py: Floats,
        radius: float,
        foes: tuple[Floats, Floats, Floats],
        near: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]],
        into: float,
    ) -> npt.NDArray[np.int8]:
        """CLEAR, BLOCKED or UNSURE for each pair k of `near` (see `_bases_at`): places
        (px, py) with bases of `radius`, foes' centres and radii."""
        fx, fy, fr = foes
        near_i, near_j = near
        found = _bases_at(px, py, radius, fx, fy, fr, near_i, near_j, into, *self._tables())
        return np.asarray(found, dtype=np.int8)

    def sees(self, rows: Floats, into: float) -> npt.NDArray[np.int8]:
        """CLEAR, BLOCKED or UNSURE for each pair of bases (ax, ay, ra, bx, by, rb) (an array
        of shape (n, 6)): whether any of their centre and rim lines is clear (see `_bases`)."""
        rows = np.asarray(rows, dtype=np.float64)
        return np.asarray(_bases(rows, into, *self._tables()), dtype=np.int8)
