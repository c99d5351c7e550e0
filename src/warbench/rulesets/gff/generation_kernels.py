"""Compiled (numba) cores of the table's generation (`battlefield.generate_battlefield`), for
each try of a piece: its outline where it is tried, and its gaps to the pieces already placed,
each in one call instead of many small Python and numpy calls."""

from __future__ import annotations

import math

import numpy as np

from warbench.core.compiled import compiled
from warbench.rulesets.gff.kernels import Floats, Ints, keeps_apart, outline, rounded


@compiled
def clear_of(
    ring: Floats,
    box: tuple[float, float, float, float],
    boxes: Floats,
    rings: Floats,
    offsets: Ints,
    needed: Floats,
    eps: float,
) -> int:
    """`keeps_apart` of the new area inside the closed `ring` (bounding `box`: x0, y0, x1, y1)
    and the placed areas k (outlines without holes, as generated pieces are) whose bounding
    boxes (boxes[k]) are nearer than needed[k] - `eps` (the others surely keep it)."""
    near = np.empty(boxes.shape[0], dtype=np.bool_)
    for k in range(boxes.shape[0]):
        gap_x = max(boxes[k, 0] - box[2], box[0] - boxes[k, 2])
        gap_y = max(boxes[k, 1] - box[3], box[1] - boxes[k, 3])
        near[k] = math.hypot(max(gap_x, 0.0), max(gap_y, 0.0)) < needed[k] - eps
    verdict: int = keeps_apart(ring, rings, offsets, near, needed, eps)
    return verdict


@compiled
def ring_at(
    sin: Floats,
    cos: Floats,
    half_width: float,
    half_length: float,
    cx: float,
    cy: float,
    fx: float,
    fy: float,
    scale: float,
) -> tuple[Floats, float, float, float, float, bool]:
    """`outline`'s points `rounded` (`battlefield._corners`) as a closed ring (the first point
    again at the end), their bounds as Python's min and max pick them (x0, y0, x1, y1), and
    whether every coordinate was rounded (False: one is NaN, Python's round must say)."""
    flat = rounded(outline(sin, cos, half_width, half_length, cx, cy, fx, fy), scale)
    count = sin.shape[0]
    ring = np.empty((count + 1, 2), dtype=np.float64)
    x0, y0, x1, y1 = flat[0], flat[1], flat[0], flat[1]
    sure = True
    for i in range(count):
        x, y = flat[2 * i], flat[2 * i + 1]
        ring[i, 0], ring[i, 1] = x, y
        sure = sure and x == x and y == y
        x0, y0 = x if x < x0 else x0, y if y < y0 else y0
        x1, y1 = x if x > x1 else x1, y if y > y1 else y1
    ring[count] = ring[0]
    return ring, x0, y0, x1, y1, sure
