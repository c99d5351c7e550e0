"""Many sight lines at once (numpy): the verdict of `battlefield._Edges.runs` and the Sight
rule ("can see 2" into that terrain", docs/rules/fft3.md) for a whole batch of straight lines.

Each line is judged the way `Battlefield._sees` judges it: it is clear when every stretch of it
inside difficult terrain starts at one of its ends and is at most 2" long. The batch only
answers where the answer cannot hang on rounding: a line that passes within a hair of a
corner, runs along an edge, starts on an outline, has a stretch within a hair of 2", or meets
two pieces that touch is UNSURE and is left to the exact one-line code. So the batch never
changes a verdict; it only spares the loop over edges for the clear-cut lines.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from shapely.geometry import Polygon

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

Floats = npt.NDArray[np.float64]
Edge = tuple[float, float, float, float, float]
Box = tuple[float, float, float, float]


class Areas:
    """The outlines of the sight-blocking areas as arrays: every edge's start, run and length
    (the same numbers as `_Edges`), each area's box and first edge, and the pairs of areas that
    touch or overlap (the exact code merges their stretches)."""

    def __init__(self, outlines: Sequence[tuple[Box, list[Edge]]], areas: Sequence[Polygon]):
        edges = [edge for _, outline in outlines for edge in outline]
        self.edges = np.array(edges, dtype=np.float64).reshape(-1, 5).T
        self.sizes = np.array([len(outline) for _, outline in outlines], dtype=np.intp)
        self.starts = np.cumsum(self.sizes) - self.sizes
        self.boxes = np.array([box for box, _ in outlines], dtype=np.float64).reshape(-1, 4).T
        self.touching = [
            (i, j)
            for i, p in enumerate(areas)
            for j, q in enumerate(areas)
            if i < j and p.distance(q) <= NEAR
        ]

    def verdicts(self, a: Floats, b: Floats, into: float) -> npt.NDArray[np.int8]:
        """CLEAR, BLOCKED or UNSURE for each line a[i] → b[i] (arrays of shape (n, 2)):
        clear when every stretch inside the areas starts at an end and is at most `into`."""
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return self._verdicts(a, b, into)

    def _verdicts(self, a: Floats, b: Floats, into: float) -> npt.NDArray[np.int8]:
        """Per line and area whose box it comes near: the edges it crosses (n), the first and
        last crossing, and whether its start is inside (even-odd rule). The stretches inside
        alternate from the start, so the area blocks the line when a stretch starts and ends
        between the crossings, when the line starts inside and its first crossing is more
        than `into` on, or ends inside and its last crossing is more than `into` short of its
        end (or lies wholly inside and is longer than `into`)."""
        n = len(a)
        x0, y0, x9, y9 = (v[None, :] for v in self.boxes)
        ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
        near = (
            (np.minimum(ax, bx)[:, None] <= x9 + NEAR)
            & (np.maximum(ax, bx)[:, None] >= x0 - NEAR)
            & (np.minimum(ay, by)[:, None] <= y9 + NEAR)
            & (np.maximum(ay, by)[:, None] >= y0 - NEAR)
        )
        line, area = np.nonzero(near)  # the (line, area) pairs to look at
        counts = self.sizes[area]
        pair = np.repeat(np.arange(len(line)), counts)  # each (line, edge) entry's pair
        heads = np.cumsum(counts) - counts
        edge = self.starts[area][pair] + np.arange(len(pair)) - heads[pair]
        x1, y1, ex, ey, size = self.edges[:, edge]
        at = line[pair]
        sx, sy = ax[at], ay[at]
        dx, dy = bx[at] - sx, by[at] - sy
        span = np.hypot(dx, dy)
        denom = dx * ey - dy * ex
        wx, wy = x1 - sx, y1 - sy
        parallel = np.abs(denom) <= _PARALLEL * span * size
        t = np.where(parallel, np.inf, (wx * ey - wy * ex) / denom)
        u = np.where(parallel, np.inf, (wx * dy - wy * dx) / denom)
        cross = (t > HAIR) & (t < 1 - HAIR) & (u > HAIR) & (u < 1 - HAIR)
        grazing = (t > -HAIR) & (t < 1 + HAIR) & (u > -HAIR) & (u < 1 + HAIR) & ~cross
        lying = parallel & (np.abs(wx * dy - wy * dx) <= NEAR * span)
        # the start against each edge: how near, and whether a ray east of it crosses it
        along = np.clip(-(wx * ex + wy * ey) / (size * size), 0.0, 1.0)
        on_outline = np.hypot(wx + along * ex, wy + along * ey) < NEAR
        ray = ((y1 > sy) != (y1 + ey > sy)) & (sx < x1 + (sy - y1) * ex / ey)
        doubt = np.logical_or.reduceat(grazing | lying | on_outline, heads)
        crossed = np.add.reduceat(cross, heads)
        inside = np.add.reduceat(ray, heads) % 2 == 1
        first = np.minimum.reduceat(np.where(cross, t, np.inf), heads)
        last = np.maximum.reduceat(np.where(cross, t, -np.inf), heads)
        length = np.hypot(bx - ax, by - ay)[line]
        out = inside ^ (crossed % 2 == 1)  # the line ends inside
        runs = (crossed + inside + out) // 2
        head, tail = first * length, length - last * length  # inches inside at each end
        whole = (crossed == 0) & inside
        blocked = np.where(
            whole,
            length > into,
            (runs - inside - out > 0) | (inside & (head > into)) | (out & (tail > into)),
        )
        doubt |= length < SHORTEST
        doubt |= np.where(
            whole,
            np.abs(length - into) < NEAR,
            (inside & (np.abs(head - into) < NEAR)) | (out & (np.abs(tail - into) < NEAR)),
        )
        unsure = np.bincount(line, weights=doubt, minlength=n) > 0
        if self.touching:
            meets = np.zeros(near.shape, dtype=bool)
            meets[line, area] = runs > 0
            for i, j in self.touching:
                unsure |= meets[:, i] & meets[:, j]
        wrong = np.bincount(line, weights=blocked, minlength=n) > 0
        return np.where(unsure, UNSURE, np.where(wrong, BLOCKED, CLEAR)).astype(np.int8)
