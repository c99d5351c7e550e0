"""The AI's move bounds for one figure, compiled with numba: `move_choice.score_bounds` of
every candidate move of a figure without key positions, the same arithmetic point by point
(no fast-math, so the same floats), the better of each move's full and half reach."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from warbench.core.compiled import compiled
from warbench.rulesets.fftt.table import Table

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


@compiled
def _covered(px: float, py: float, boxes: Floats) -> bool:
    """`Table.covered`: inside one of `boxes` (rows x0, y0, x1, y1), edges included."""
    for k in range(boxes.shape[0]):
        if boxes[k, 0] <= px <= boxes[k, 2] and boxes[k, 1] <= py <= boxes[k, 3]:
            return True
    return False


@compiled
def _upper(px: float, py: float, houses: Floats, floors: Bools, border: float) -> bool:
    """`Table.upper_floor_at`: the first of `houses` holding the point has an upper floor
    and the point is within `border` of its edge."""
    for k in range(houses.shape[0]):
        x0, y0, x1, y1 = houses[k, 0], houses[k, 1], houses[k, 2], houses[k, 3]
        if x0 <= px <= x1 and y0 <= py <= y1:
            gap = min(min(px - x0, x1 - px), min(py - y0, y1 - py))
            return bool(floors[k]) and gap <= border
    return False


@compiled
def _bound(
    px: float,
    py: float,
    covered: bool,
    upper: bool,
    enemy: Floats,
    fig: Floats,
    weights: Floats,
) -> float:
    """`score_bounds` of the move to (px, py): see `pair_bounds` for `fig` and `weights`."""
    pace, near, armed, short, long, x, y, stride, ap = (
        fig[0],
        fig[1],
        fig[2] > 0,
        fig[3],
        fig[4],
        fig[5],
        fig[6],
        fig[7],
        fig[8],
    )
    then = math.inf
    for j in range(enemy.shape[0]):
        d = math.hypot(px - enemy[j, 0], py - enemy[j, 1])
        if d < then:
            then = d
    shooting: float = (near - then) / pace if near > short * 0.8 else 0.0
    length = math.hypot(px - x, py - y)
    fewest = max(1.0, math.ceil(length / stride - 2e-6))
    if armed and near < long + 2 * pace and ap - fewest < 1:
        return -math.inf
    cover: float = weights[0] if covered else 0.0
    cover = cover + (weights[1] if then <= long and upper else 0.0)
    if armed:
        return shooting + cover
    charging: float = (near - then) / pace * 2 + 0.0
    return charging


@compiled
def _pair_bounds(
    points: Floats,
    boxes: Floats,
    houses: Floats,
    floors: Bools,
    enemy: Floats,
    fig: Floats,
    weights: Floats,
) -> Floats:
    n = points.shape[0] // 2
    found = np.empty(n)
    for i in range(n):
        best = -math.inf
        for k in (i, n + i):
            px, py = points[k, 0], points[k, 1]
            covered = _covered(px, py, boxes)
            upper = _upper(px, py, houses, floors, weights[2])
            bound = _bound(px, py, covered, upper, enemy, fig, weights)
            best = bound if k == i or bound > best else best
        found[i] = best
    return found


def pair_bounds(
    points: Floats,
    table: Table,
    enemy: Floats,
    fig: Floats,
    weights: Floats,
) -> Floats:
    """For the moves of one figure to `points` (rows x, y: the full reach of each of n moves,
    then the half reach of each) on `table`, the better bound of each move's two points.
    `enemy`: the enemies' places (rows x, y); `fig`: its pace, distance to the nearest enemy,
    armed (1 or 0), short and long range, x, y, movement an action and actions left;
    `weights`: cover, height (and the border of a house, in cm)."""
    houses, floors = table.houses
    found: Floats = _pair_bounds(points, table.cover_boxes, houses, floors, enemy, fig, weights)
    return found
