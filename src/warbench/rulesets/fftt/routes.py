"""The scenery's part of the moves of a figure from one place (`movement._scenery_open`),
compiled with numba for all its destinations at once: R10's walls of buildings and wrecks
(`movement.passage`: doors, double doors, windows, getting in or out), R4's cost (slowing
terrain counting double) against the actions left, R9's low walls, the table's edge. A cost
too near the allowance to tell `math.dist`'s last bit is answered "unsure", for Python."""

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
def _wall_at(px: float, py: float, box: Floats, k: int) -> int:
    """`Piece.wall_at`: the wall (0 west, 1 east, 2 south, 3 north) nearest the outline
    point, the first at a tie."""
    gaps = (abs(px - box[k, 0]), abs(box[k, 2] - px), abs(py - box[k, 1]), abs(box[k, 3] - py))
    nearest = 0
    for w in range(1, 4):
        if gaps[w] < gaps[nearest]:
            nearest = w
    return nearest


@compiled
def _opening_at(px: float, py: float, openings: Floats, k: int) -> int:
    """`Piece.opening_at`: the kind (1 door, 2 double door, 3 window; 0 none) of the first
    opening of walled piece k whose box holds the outline point."""
    for n in range(openings.shape[1]):
        kind = int(openings[k, n, 0])
        if kind == 0:
            break
        x0, y0, x1, y1 = openings[k, n, 1], openings[k, n, 2], openings[k, n, 3], openings[k, n, 4]
        if x0 - 1e-9 <= px <= x1 + 1e-9 and y0 - 1e-9 <= py <= y1 + 1e-9:
            return kind
    return 0


@compiled
def _passage(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    vehicle: bool,
    windows: bool,
    walled: Floats,
    openings: Floats,
    opened: Floats,
) -> int:
    """`movement.passage` of a move a→b on the ground: its extra actions through walls, or
    -1 if it cannot pass. Each crossing of the outline of a walled piece (`Table.crossings`)
    is a way in or out of a wreck (1 action; not for tanks and MTs), else a closed door or
    double door to open (1 action; tanks and MTs only double doors), a window (drones
    only), or a wall."""
    extra = 0
    for k in range(walled.shape[0]):
        crossed, t0, t1 = _clip(ax, ay, bx, by, walled, k)
        if not crossed:
            continue
        x0, y0, x1, y1 = walled[k, 0], walled[k, 1], walled[k, 2], walled[k, 3]
        for end in range(2):
            t, ex, ey = (t0, ax, ay) if end == 0 else (t1, bx, by)
            if x0 <= ex <= x1 and y0 <= ey <= y1:
                continue  # `Piece.outline_crossings`: the end inside crosses nothing
            px, py = ax + (bx - ax) * t, ay + (by - ay) * t
            if walled[k, 4] == 1:  # a vehicle wreck
                if vehicle:
                    return -1
                extra += 1
                continue
            kind = _opening_at(px, py, openings, k)
            if kind == 2 or (kind == 1 and not vehicle):
                if opened[k, _wall_at(px, py, walled, k)] == 0:
                    extra += 1
            elif not (kind == 3 and windows):
                return -1
    return extra


@compiled
def _answers(
    points: Floats,
    fig: Floats,
    table: Floats,
    walled: Floats,
    openings: Floats,
    opened: Floats,
    slow: Floats,
    walls: Floats,
) -> Answers:
    x, y, pace, ap, ignores = fig[0], fig[1], fig[2], fig[3], fig[4]
    over_walls, radius, vehicle, windows = fig[5], fig[6], fig[7] == 1, fig[8] == 1
    found = np.empty(points.shape[0], dtype=np.int8)
    spans = np.empty((slow.shape[0], 2))
    for i in range(points.shape[0]):
        px, py = points[i, 0], points[i, 1]
        lox, hix = min(x, px), max(x, px)
        loy, hiy = min(y, py), max(y, py)
        found[i] = -1
        extra = _passage(x, y, px, py, vehicle, windows, walled, openings, opened)
        if extra < 0:
            found[i] = 0
            continue
        allowance = pace * (ap - extra) + 1e-6
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
    points: Floats,
    fig: Floats,
    table: Floats,
    walled: Floats,
    openings: Floats,
    opened: Floats,
    slow: Floats,
    walls: Floats,
) -> Answers:
    """For a figure on the ground moving to each of `points` (rows x, y), whether
    `movement._scenery_open` lets it: 1, 0, or -1 where Python must decide (a cost within
    `UNSURE` of the allowance). `fig`: x, y, pace, actions left, whether it ignores terrain,
    flies over low walls (1 or 0), its radius, whether it is a tank or MT, whether it flies
    through windows (1 or 0); `table`: width, depth; `walled`: the buildings and wrecks as
    rows x0, y0, x1, y1, 1 for a wreck (else 0), with their `openings` (`Table.route_rows`)
    and the walls (west, east, south, north) whose door is `opened` (1, else 0); `slow`,
    `walls`: the slowing pieces and the low walls, as rows x0, y0, x1, y1."""
    found: Answers = _answers(points, fig, table, walled, openings, opened, slow, walls)
    return found
