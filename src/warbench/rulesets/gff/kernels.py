"""Compiled (numba) cores of the battlefield's many-at-once geometry: the loops that numpy made
of many small array calls, one pass over the pairs instead.

`convex_sight` makes the very arithmetic of `battlefield._blocked`'s separating-axis test,
operation for operation (so the same verdicts, bit for bit), and `round_sight` the same test
over the sight lines of round bases (`battlefield.sees_any`); `move_values` makes the AI's
move scores as its numpy code did; `first_formations` makes `arrange`'s search with
`free_formations`' verdicts, `placement_screens` the numpy screens of a deployment's
formations, and `rounded` Python's `round`, float for float. `round_tracks` screens round
bases moving along straight tracks against terrain outlines: a pair whose distance is within
`UNSURE` of the limit is left to shapely's exact distance, so no verdict hangs on rounding.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from warbench.core.compiled import compiled

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]
Bools = npt.NDArray[np.bool_]

UNSURE = 1e-7
"""Distances this close (inches) to the limit are left to shapely's exact distance: ours and
GEOS's differ by rounding only, far less than this on a table of a few feet."""

HIT, MISS, ASK = 1, 0, -1


@compiled
def convex_sight(
    starts: Floats,
    ends: Floats,
    boxes: Floats,
    convex: Bools,
    normals: Floats,
    lows: Floats,
    highs: Floats,
    corners: Floats,
    touch: float,
) -> tuple[Ints, Ints, Ints, Ints]:
    """For lines starts[i]→ends[i] against sight blockers: the (line, piece) pairs whose
    boxes overlap, split into convex pieces the line runs inside (`_blocked`'s separating
    axes: the piece's edge normals, then the line's own normal) and non-convex pieces (left
    to shapely). Pairs come line by line, pieces in order, as numpy's `nonzero` gives them."""
    n, count, sides = starts.shape[0], boxes.shape[0], normals.shape[1]
    hit_line = np.empty(n * count, dtype=np.intp)
    hit_piece = np.empty(n * count, dtype=np.intp)
    other_line = np.empty(n * count, dtype=np.intp)
    other_piece = np.empty(n * count, dtype=np.intp)
    hits = others = 0
    for i in range(n):
        ax, ay, bx, by = starts[i, 0], starts[i, 1], ends[i, 0], ends[i, 1]
        x0, x1 = min(ax, bx), max(ax, bx)
        y0, y1 = min(ay, by), max(ay, by)
        for p in range(count):
            if x0 >= boxes[p, 2] or x1 <= boxes[p, 0] or y0 >= boxes[p, 3] or y1 <= boxes[p, 1]:
                continue
            if not convex[p]:
                other_line[others], other_piece[others] = i, p
                others += 1
                continue
            apart = False
            for v in range(sides):
                nx, ny = normals[p, v, 0], normals[p, v, 1]
                at_a, at_b = nx * ax + ny * ay, nx * bx + ny * by
                if max(at_a, at_b) <= lows[p, v] + touch or min(at_a, at_b) >= highs[p, v] - touch:
                    apart = True
                    break
            if apart:
                continue
            dx, dy = bx - ax, by - ay
            length = math.hypot(dx, dy)
            if length > 0:
                ox, oy = -dy / length, dx / length
                least, most = math.inf, -math.inf
                for v in range(sides):
                    spread = corners[p, v, 0] * ox + corners[p, v, 1] * oy
                    least, most = min(least, spread), max(most, spread)
                level = ax * ox + ay * oy
                if level <= least + touch or level >= most - touch:
                    continue
            hit_line[hits], hit_piece[hits] = i, p
            hits += 1
    return hit_line[:hits], hit_piece[:hits], other_line[:others], other_piece[:others]


@compiled
def _boxes_meet(x0: float, y0: float, x1: float, y1: float, boxes: Floats, p: int) -> bool:
    """Whether the box x0, y0, x1, y1 overlaps piece p's box (more than along an edge)."""
    return not (x0 >= boxes[p, 2] or x1 <= boxes[p, 0] or y0 >= boxes[p, 3] or y1 <= boxes[p, 1])


@compiled
def _runs_inside(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    p: int,
    normals: Floats,
    lows: Floats,
    highs: Floats,
    corners: Floats,
    touch: float,
) -> bool:
    """Whether the line a→b runs through the inside of convex piece p: no separating axis
    among the piece's edge normals and the line's own normal (touching within `touch` is
    apart), `convex_sight`'s test operation for operation (written out there, where a call
    per pair cost it a third more)."""
    sides = normals.shape[1]
    for v in range(sides):
        nx, ny = normals[p, v, 0], normals[p, v, 1]
        at_a, at_b = nx * ax + ny * ay, nx * bx + ny * by
        if max(at_a, at_b) <= lows[p, v] + touch or min(at_a, at_b) >= highs[p, v] - touch:
            return False
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    if length > 0:
        ox, oy = -dy / length, dx / length
        least, most = math.inf, -math.inf
        for v in range(sides):
            spread = corners[p, v, 0] * ox + corners[p, v, 1] * oy
            least, most = min(least, spread), max(most, spread)
        level = ax * ox + ay * oy
        if level <= least + touch or level >= most - touch:
            return False
    return True


@compiled
def round_sight(
    shooters: Floats,
    targets: Floats,
    counts: Ints,
    compass: Floats,
    pull: float,
    boxes: Floats,
    normals: Floats,
    lows: Floats,
    highs: Floats,
    corners: Floats,
    touch: float,
) -> Bools:
    """`battlefield.sees_any` of round bases against convex blockers (no heights): for each
    shooter (x, y, width), whether any of its targets (the next `counts` of them) has one
    of the 81 lines between their sight points (`_many_sight_points`' arithmetic: centre,
    then the 8 compass points pulled in) not run inside any blocker (`_runs_inside`). Only
    the blockers whose boxes meet the box of the pair's points are tried (`_pair_sees`)."""
    seen = np.zeros(shooters.shape[0], dtype=np.bool_)
    a, b = np.empty((9, 2)), np.empty((9, 2))
    near = np.empty(boxes.shape[0], dtype=np.intp)
    first = 0
    for s in range(shooters.shape[0]):
        _sight_points(shooters[s, 0], shooters[s, 1], shooters[s, 2], compass, pull, a)
        for t in range(first, first + counts[s]):
            _sight_points(targets[t, 0], targets[t, 1], targets[t, 2], compass, pull, b)
            if _pair_sees(a, b, boxes, normals, lows, highs, corners, touch, near):
                seen[s] = True
                break
        first += counts[s]
    return seen


@compiled
def _pair_sees(
    a: Floats,
    b: Floats,
    boxes: Floats,
    normals: Floats,
    lows: Floats,
    highs: Floats,
    corners: Floats,
    touch: float,
    near: Ints,
) -> bool:
    """Whether any of the 81 lines between sight points `a` and `b` runs inside no convex
    blocker; only blockers whose boxes meet the points' box are tried (`near`: room)."""
    x0, x1 = min(a[:, 0].min(), b[:, 0].min()), max(a[:, 0].max(), b[:, 0].max())
    y0, y1 = min(a[:, 1].min(), b[:, 1].min()), max(a[:, 1].max(), b[:, 1].max())
    count = 0
    for p in range(boxes.shape[0]):
        if _boxes_meet(x0, y0, x1, y1, boxes, p):
            near[count] = p
            count += 1
    for i in range(9 * 9):
        ax, ay, bx, by = a[i // 9, 0], a[i // 9, 1], b[i % 9, 0], b[i % 9, 1]
        lx0, lx1, ly0, ly1 = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
        blocked = False
        for k in range(count):
            if _boxes_meet(lx0, ly0, lx1, ly1, boxes, near[k]) and _runs_inside(
                ax, ay, bx, by, near[k], normals, lows, highs, corners, touch
            ):
                blocked = True
                break
        if not blocked:
            return True
    return False


@compiled
def _sight_points(
    x: float, y: float, width: float, compass: Floats, pull: float, out: Floats
) -> None:
    """A round base's 9 sight points into `out`, as `_many_sight_points` makes them."""
    reach = width / 2 * pull
    for k in range(9):
        out[k, 0] = x + compass[k, 0] * reach
        out[k, 1] = y + compass[k, 1] * reach


@compiled
def move_values(
    at: Floats,
    row: Ints,
    spots: Floats,
    theirs: Bools,
    reach: Floats,
    mine: Bools,
    advancing: Bools,
    volley: Floats,
) -> Floats:
    """The AI's score of each move to at[i] by unit row[i] (`ai._move_scores`, the very
    arithmetic of its numpy form): 3 × the markers not ours (`theirs`) within the unit's
    `reach` of the point, less 0.15 × the distance to the nearest marker free for it
    (`mine`, if any), plus its `volley` for an Advance."""
    values = np.empty(at.shape[0])
    for i in range(at.shape[0]):
        u = row[i]
        held, nearest, some = 0, math.inf, False
        for k in range(spots.shape[0]):
            gap = np.hypot(at[i, 0] - spots[k, 0], at[i, 1] - spots[k, 1])
            if theirs[k] and gap <= reach[u]:
                held += 1
            if mine[u, k]:
                some, nearest = True, min(nearest, gap)
        value = 3.0 * float(held)
        if some:
            value -= 0.15 * nearest
        if advancing[i]:
            value += volley[u]
        values[i] = value
    return values


@compiled
def _point_to_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from p to the segment a–b."""
    dx, dy = bx - ax, by - ay
    squared = dx * dx + dy * dy
    if squared == 0.0:
        return math.hypot(px - ax, py - ay)
    t = ((px - ax) * dx + (py - ay) * dy) / squared
    if t <= 0.0:
        return math.hypot(px - ax, py - ay)
    if t >= 1.0:
        return math.hypot(px - bx, py - by)
    return abs((ay - py) * dx - (ax - px) * dy) / math.sqrt(squared)


@compiled
def _crosses(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float
) -> bool:
    """Whether segments a–b and c–d meet (sure only away from touching: callers ask shapely
    when the distance is near the limit)."""
    denominator = (bx - ax) * (dy - cy) - (by - ay) * (dx - cx)
    if denominator == 0.0:
        return False
    r = ((ay - cy) * (dx - cx) - (ax - cx) * (dy - cy)) / denominator
    s = ((ay - cy) * (bx - ax) - (ax - cx) * (by - ay)) / denominator
    return 0.0 <= r <= 1.0 and 0.0 <= s <= 1.0


@compiled
def _ends_gap(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float
) -> float:
    """The distance between segments a–b and c–d that do not cross: the least of each end's
    distance to the other segment (a, b to c–d, then c, d to a–b, in that order)."""
    gap: float = min(
        _point_to_segment(ax, ay, cx, cy, dx, dy), _point_to_segment(bx, by, cx, cy, dx, dy)
    )
    gap = min(gap, _point_to_segment(cx, cy, ax, ay, bx, by))
    gap = min(gap, _point_to_segment(dx, dy, ax, ay, bx, by))
    return gap


@compiled
def _inside(px: float, py: float, ring: Floats, first: int, last: int) -> bool:
    """Whether p lies inside the ring ring[first:last] (closed: its last point is its first),
    by crossings (points on the outline may go either way: they are at distance 0)."""
    inside = False
    for k in range(first, last - 1):
        x0, y0, x1, y1 = ring[k, 0], ring[k, 1], ring[k + 1, 0], ring[k + 1, 1]
        if (y0 > py) != (y1 > py) and px < x0 + (py - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


@compiled
def round_tracks(
    starts: Floats,
    ends: Floats,
    moving: bool,
    radius: float,
    boxes: Floats,
    rings: Floats,
    offsets: Ints,
    plain: Bools,
    limit: float,
) -> npt.NDArray[np.int8]:
    """For each round base of `radius` moving along the track starts[m]→ends[m] (standing at
    starts[m] unless `moving`): HIT when it comes nearer than `limit` to a piece's area (or
    runs inside it), MISS when it stays farther from every piece, ASK when neither is sure
    (a distance within UNSURE of the limit, a track under a thousandth of an inch, a piece
    with holes). Only pieces whose `boxes` meet the track's box grown by `radius` are
    measured (`round_enters`' screen); piece k's closed outline is
    rings[offsets[k]:offsets[k + 1]]."""
    found = np.empty(len(starts), dtype=np.int8)
    for m in range(len(starts)):
        ax, ay = starts[m, 0], starts[m, 1]
        bx, by = (ends[m, 0], ends[m, 1]) if moving else (ax, ay)
        found[m] = _track(ax, ay, bx, by, moving, radius, boxes, rings, offsets, plain, limit)
    return found


@compiled
def _track(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    moving: bool,
    radius: float,
    boxes: Floats,
    rings: Floats,
    offsets: Ints,
    plain: Bools,
    limit: float,
) -> int:
    """`round_tracks`' verdict for one base."""
    x0, x1, y0, y1 = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
    short = moving and (bx - ax) ** 2 + (by - ay) ** 2 < 1e-6
    verdict = MISS
    for k in range(len(boxes)):
        if (
            x0 - radius > boxes[k, 2]
            or x1 + radius < boxes[k, 0]
            or y0 - radius > boxes[k, 3]
            or y1 + radius < boxes[k, 1]
        ):
            continue
        if short or not plain[k]:
            verdict = ASK
            continue
        gap = _track_gap(ax, ay, bx, by, moving, rings, offsets[k], offsets[k + 1])
        if gap < limit - UNSURE:
            return HIT
        if not gap > limit + UNSURE:
            verdict = ASK
    return verdict


@compiled
def _track_gap(
    ax: float, ay: float, bx: float, by: float, moving: bool, rings: Floats, first: int, last: int
) -> float:
    """The distance from the point a (the segment a–b when `moving`) to the area inside the
    closed ring rings[first:last] (sure only away from 0)."""
    if _inside(ax, ay, rings, first, last):
        return 0.0
    nearest = math.inf
    for e in range(first, last - 1):
        cx, cy, dx, dy = rings[e, 0], rings[e, 1], rings[e + 1, 0], rings[e + 1, 1]
        if moving and _crosses(ax, ay, bx, by, cx, cy, dx, dy):
            return 0.0
        if moving:
            gap = _ends_gap(ax, ay, bx, by, cx, cy, dx, dy)
        else:
            gap = _point_to_segment(ax, ay, cx, cy, dx, dy)
        nearest = min(nearest, gap)
    return nearest


@compiled
def _gap_to_outlines(
    x: float, y: float, near: Bools, rings: Floats, offsets: Ints, plain: Bools
) -> float:
    """The least distance from (x, y) to the `near` pieces' areas (0 inside one); NaN when a
    near piece has holes (not measured here)."""
    least = math.inf
    for k in range(len(near)):
        if not near[k]:
            continue
        if not plain[k]:
            return math.nan
        first, last = offsets[k], offsets[k + 1]
        if _inside(x, y, rings, first, last):
            return 0.0
        for e in range(first, last - 1):
            gap = _point_to_segment(
                x, y, rings[e, 0], rings[e, 1], rings[e + 1, 0], rings[e + 1, 1]
            )
            least = min(least, gap)
    return least


@compiled
def free_formations(
    spots: Floats,
    radius: float,
    eps: float,
    width: float,
    depth: float,
    centres: Floats,
    reach: Floats,
    boxes: Floats,
    rings: Floats,
    offsets: Ints,
    plain: Bools,
    limit: float,
) -> npt.NDArray[np.int8]:
    """For each formation (spots: formations × bases × 2 centres of round bases of `radius`):
    HIT when every base is on the `width` × `depth` table (within `eps`), no nearer than
    reach[r] to centres[r] (`np.linalg.norm`'s very sum), and farther than `limit` from the
    impassable pieces (whose `boxes` grown by `radius` it lies strictly inside); MISS when a
    base surely is not; ASK when none surely fails but a distance to a piece is within UNSURE
    of `limit` (or the piece has holes)."""
    count = spots.shape[0]
    found = np.empty(count, dtype=np.int8)
    near = np.zeros(boxes.shape[0], dtype=np.bool_)
    for f in range(count):
        found[f] = _formation(
            spots[f],
            radius,
            eps,
            width,
            depth,
            centres,
            reach,
            boxes,
            rings,
            offsets,
            plain,
            limit,
            near,
        )
    return found


@compiled
def first_formations(
    origins: Floats,
    shifts: Floats,
    shapes: Floats,
    radius: float,
    eps: float,
    width: float,
    depth: float,
    centres: Floats,
    reach: Floats,
    boxes: Floats,
    rings: Floats,
    offsets: Ints,
    plain: Bools,
    limit: float,
) -> Ints:
    """`battlefield.arrange`'s search around each origin, compiled: the shifts in order and
    at each the layouts (`shapes`: layouts × bases × 2) in order, the formation's centres
    (origin + shift) + layout as numpy adds them, judged as `free_formations` judges; for
    each origin the first HIT's shift × len(shapes) + layout, -1 when every formation is a
    MISS, -2 when an ASK comes before any HIT (its exact checks must decide)."""
    count, size = shapes.shape[0], shapes.shape[1]
    found = np.full(origins.shape[0], -1, dtype=np.intp)
    near = np.zeros(boxes.shape[0], dtype=np.bool_)
    spot = np.empty((size, 2), dtype=np.float64)
    for o in range(origins.shape[0]):
        for s in range(shifts.shape[0]):
            x0, y0 = origins[o, 0] + shifts[s, 0], origins[o, 1] + shifts[s, 1]
            for lay in range(count):
                for b in range(size):
                    spot[b, 0] = x0 + shapes[lay, b, 0]
                    spot[b, 1] = y0 + shapes[lay, b, 1]
                verdict = _formation(
                    spot,
                    radius,
                    eps,
                    width,
                    depth,
                    centres,
                    reach,
                    boxes,
                    rings,
                    offsets,
                    plain,
                    limit,
                    near,
                )
                if verdict != MISS:
                    found[o] = s * count + lay if verdict == HIT else -2
                    break
            if found[o] != -1:
                break
    return found


@compiled
def _formation(
    spots: Floats,
    radius: float,
    eps: float,
    width: float,
    depth: float,
    centres: Floats,
    reach: Floats,
    boxes: Floats,
    rings: Floats,
    offsets: Ints,
    plain: Bools,
    limit: float,
    near: Bools,
) -> int:
    """`free_formations`' verdict of one formation (spots: bases × 2); `near` is scratch."""
    verdict = HIT
    for s in range(spots.shape[0]):
        x, y = spots[s, 0], spots[s, 1]
        on_table = x >= radius - eps and x <= width - radius + eps
        if not (on_table and y >= radius - eps and y <= depth - radius + eps):
            return MISS
        for r in range(len(reach)):
            dx, dy = x - centres[r, 0], y - centres[r, 1]
            if math.sqrt(dx * dx + dy * dy) < reach[r]:
                return MISS
        some = False
        for k in range(boxes.shape[0]):
            near[k] = (
                x > boxes[k, 0] - radius
                and y > boxes[k, 1] - radius
                and x < boxes[k, 2] + radius
                and y < boxes[k, 3] + radius
            )
            some = some or near[k]
        if not some:
            continue
        gap = _gap_to_outlines(x, y, near, rings, offsets, plain)
        if gap < limit - UNSURE:
            return MISS
        if not gap > limit + UNSURE:  # near the limit, or not measured (NaN)
            verdict = ASK
    return verdict


@compiled
def _polygon_gap(a: Floats, b: Floats, first: int, last: int) -> float:
    """The distance between the areas inside closed rings `a` and b[first:last] (0 when
    they overlap; sure only away from touching)."""
    if _inside(a[0, 0], a[0, 1], b, first, last) or _inside(b[first, 0], b[first, 1], a, 0, len(a)):
        return 0.0
    least = math.inf
    for i in range(len(a) - 1):
        ax, ay, bx, by = a[i, 0], a[i, 1], a[i + 1, 0], a[i + 1, 1]
        for j in range(first, last - 1):
            cx, cy, dx, dy = b[j, 0], b[j, 1], b[j + 1, 0], b[j + 1, 1]
            if _crosses(ax, ay, bx, by, cx, cy, dx, dy):
                return 0.0
            least = min(least, _ends_gap(ax, ay, bx, by, cx, cy, dx, dy))
    return least


@compiled
def keeps_apart(
    ring: Floats, rings: Floats, offsets: Ints, near: Bools, needed: Floats, eps: float
) -> int:
    """HIT when the area inside the closed `ring` keeps at least needed[k] - `eps` from every
    `near` area k (closed rings[offsets[k]:offsets[k + 1]], no holes), MISS when it surely
    does not, ASK when a distance is within UNSURE of that."""
    verdict = HIT
    for k in range(len(near)):
        if not near[k]:
            continue
        gap = _polygon_gap(ring, rings, offsets[k], offsets[k + 1])
        least = needed[k] - eps
        if gap < least - UNSURE:
            return MISS
        if not gap > least + UNSURE:
            verdict = ASK
    return verdict


@compiled
def _enters(
    starts: Floats,
    vector: Floats,
    moving: bool,
    radius: float,
    boxes: Floats,
    rings: Floats,
    offsets: Ints,
    plain: Bools,
    limit: float,
) -> int:
    """HIT when a base of the block move (each start moved by `vector`) surely enters a piece
    (`_track`), else ASK when one may, else MISS; standing at the ends unless `moving`."""
    verdict = MISS
    for m in range(len(starts)):
        sx, sy = starts[m, 0], starts[m, 1]
        ex, ey = sx + vector[0], sy + vector[1]
        ax, ay = (sx, sy) if moving else (ex, ey)
        found = _track(ax, ay, ex, ey, moving, radius, boxes, rings, offsets, plain, limit)
        if found == HIT:
            return HIT
        if found == ASK:
            verdict = ASK
    return verdict


@compiled
def block_moves(
    starts: Floats,
    radius: float,
    vectors: Floats,
    reach: Floats,
    table: Floats,
    impassable: tuple[Floats, Floats, Ints, Bools],
    difficult: tuple[Floats, Floats, Ints, Bools],
    strider: bool,
    flying: bool,
) -> tuple[Bools, Bools]:
    """For each block move of round bases of `radius` standing at `starts` (each moved by
    vectors[k], at most reach[k]): whether the terrain rules surely allow it, and whether
    they surely refuse it (`movement._screen_moves`: table = width, depth, the tolerance of
    lengths, the float noise below it, the difficult cap, the limit of touching; each
    terrain as boxes, closed outlines, their starts and whether they have no holes)."""
    width, depth, tiny, noise, cap, limit = (
        table[0],
        table[1],
        table[2],
        table[3],
        table[4],
        table[5],
    )
    count = len(vectors)
    ok = np.zeros(count, dtype=np.bool_)
    bad = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        vx, vy = vectors[k, 0], vectors[k, 1]
        length, low, right, top = 0.0, math.inf, -math.inf, -math.inf
        for m in range(len(starts)):
            sx, sy = starts[m, 0], starts[m, 1]
            ex, ey = sx + vx, sy + vy
            length = max(length, math.hypot(ex - sx, ey - sy))
            low = min(low, min(sx, ex) - radius, min(sy, ey) - radius)
            right = max(right, max(sx, ex) + radius)
            top = max(top, max(sy, ey) + radius)
        on_table = low >= -tiny and right <= width + tiny and top <= depth + tiny
        if length > reach[k] + tiny + noise or not on_table:
            bad[k] = True
            continue
        sure = length <= reach[k] + tiny - noise
        vector = vectors[k]
        boxes, rings, offsets, plain = impassable
        found = _enters(starts, vector, False, radius, boxes, rings, offsets, plain, limit)
        if found != HIT and not flying:
            swept = _enters(starts, vector, True, radius, boxes, rings, offsets, plain, limit)
            found = swept if swept != MISS else found
        if found == HIT:
            bad[k] = True
            continue
        sure = sure and found == MISS
        if not (strider or flying) and length > cap + tiny - noise:
            boxes, rings, offsets, plain = difficult
            found = _enters(starts, vector, True, radius, boxes, rings, offsets, plain, limit)
            sure = sure and found == MISS
            bad[k] = found == HIT and length > cap + tiny + noise
        ok[k] = sure and not bad[k]
    return ok, bad


@compiled
def unit_gaps(
    ours: Floats, theirs: Floats, vectors: Floats, low: float, high: float
) -> tuple[Bools, Bools]:
    """For each block move of round bases `ours` (rows of x, y, width) by vectors[k]: whether
    every moved base ends over `high` from every round obstacle of `theirs` (edge to edge),
    and whether one ends under `low` (`movement.screen_block_moves`' unit gaps, the same
    arithmetic as its numpy; a pair's loop stops at its first verdict)."""
    count = len(vectors)
    ok = np.ones(count, dtype=np.bool_)
    bad = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        vx, vy = vectors[k, 0], vectors[k, 1]
        for a in range(len(ours)):
            ex, ey = ours[a, 0] + vx, ours[a, 1] + vy
            for b in range(len(theirs)):
                gap = math.hypot(ex - theirs[b, 0], ey - theirs[b, 1])
                gap -= (ours[a, 2] + theirs[b, 2]) / 2
                if gap < low:
                    bad[k] = True
                if not gap > high:
                    ok[k] = False
                if bad[k]:
                    break
            if bad[k]:
                break
    return ok, bad


@compiled
def rounded(values: Floats, scale: float) -> Floats:
    """`round(v, digits)` of each finite value (`scale` = 10**digits), the very floats Python
    gives (its round is correctly rounded through decimal text): the value scaled, when off a
    half by more than a millionth (its rounding error is under 1.2e-7 below 1e9), has its
    nearest integer k by floor, and k / scale is the float nearest that decimal as the text's
    is (both correctly rounded), with round's sign (-0.0); NaN where Python must say."""
    found = np.empty_like(values)
    for i in range(values.shape[0]):
        v = values[i]
        scaled = v * scale
        whole = np.floor(scaled)
        part = scaled - whole  # exact
        if abs(part - 0.5) > 1e-6 and abs(scaled) < 1e9:
            found[i] = math.copysign((whole + (1.0 if part > 0.5 else 0.0)) / scale, v)
        else:
            found[i] = np.nan
    return found


@compiled
def outline(
    sin: Floats,
    cos: Floats,
    half_width: float,
    half_length: float,
    cx: float,
    cy: float,
    fx: float,
    fy: float,
) -> Floats:
    """`battlefield._corners`' points before rounding, flat (x, y, x, y, ...): u = half_width
    · sin and v = half_length · cos, along the right (fy, -fx) and the facing (fx, fy) from
    (cx, cy), added in that order."""
    found = np.empty(2 * sin.shape[0], dtype=np.float64)
    rx, ry = fy, -fx
    for i in range(sin.shape[0]):
        u, v = half_width * sin[i], half_length * cos[i]
        found[2 * i] = cx + u * rx + v * fx
        found[2 * i + 1] = cy + u * ry + v * fy
    return found


CLOSE = 1e-11
"""Distances this close (inches) to a contact are left to Python's exact `math.dist`: the
compiled square root and CPython's differ by an ulp or two, far less than this."""


@compiled
def nearest_pair(mine: Floats, theirs: Floats, halves: Floats) -> int:
    """The first pair (mine i, theirs j: i·len(theirs) + j) of round bases nearest edge to
    edge (`edge_distance`, 0 when they touch), as `movement.contact_vector` picks it; ASK
    when another pair is within `CLOSE` of it (Python's distances might order them
    otherwise). `halves[i, j]`: the pair's radii summed."""
    count = theirs.shape[0]
    gaps = np.empty(mine.shape[0] * count)
    sure = np.empty(mine.shape[0] * count, dtype=np.bool_)  # surely overlapping
    best = 0
    for i in range(mine.shape[0]):
        for j in range(count):
            k = i * count + j
            apart = math.sqrt((mine[i, 0] - theirs[j, 0]) ** 2 + (mine[i, 1] - theirs[j, 1]) ** 2)
            gaps[k] = max(0.0, apart - halves[i, j])
            sure[k] = apart - halves[i, j] < -CLOSE
            if gaps[k] < gaps[best]:
                best = k
    for k in range(gaps.shape[0]):
        if k != best and gaps[k] <= gaps[best] + CLOSE and not (sure[k] and sure[best]):
            return ASK
    return best


@compiled
def contact_steps(
    mine: Floats, theirs: Floats, halves: Floats, ux: float, uy: float, hi: float
) -> float:
    """`movement.contact_vector`'s approach of round bases along (ux, uy), its very steps:
    0.25" steps up to `hi` while every pair is apart, then 30 halvings; the distance moved
    (lo), -1.0 when no step up to `hi` touches, NaN when some pair's distance at a step is
    within `CLOSE` of contact (ASK Python then)."""
    lo, t = 0.0, 0.0
    while t <= hi:
        verdict = _apart_after(mine, theirs, halves, ux, uy, t)
        if verdict == ASK:
            return math.nan
        if verdict == MISS:
            break
        lo, t = t, t + 0.25
    if t > hi:
        return -1.0
    hi = t
    for _ in range(30):
        mid = (lo + hi) / 2
        verdict = _apart_after(mine, theirs, halves, ux, uy, mid)
        if verdict == ASK:
            return math.nan
        if verdict == HIT:
            lo = mid
        else:
            hi = mid
    return lo


@compiled
def _apart_after(
    mine: Floats, theirs: Floats, halves: Floats, ux: float, uy: float, t: float
) -> int:
    """HIT when every pair is apart after moving mine by t along (ux, uy), MISS when some
    pair surely touches, ASK when none does surely and some is within `CLOSE` of it."""
    unsure = False
    for i in range(mine.shape[0]):
        x, y = mine[i, 0] + ux * t, mine[i, 1] + uy * t
        for j in range(theirs.shape[0]):
            gap = math.sqrt((x - theirs[j, 0]) ** 2 + (y - theirs[j, 1]) ** 2) - halves[i, j]
            if gap < -CLOSE:
                return MISS
            if gap <= CLOSE:
                unsure = True
    return ASK if unsure else HIT


@compiled
def placement_screens(
    spots: Floats, theirs: Floats, diameter: float, gaps: Floats, room: Floats
) -> Ints:
    """For each formation (spots: k × n × 2 centres of round bases of `diameter`) two
    verdicts, as `placements.legal_many`'s numpy screens gave them: [0] HIT when a base is
    surely within `gaps` = (limit less noise, limit plus noise) of a round base of `theirs`
    (m × (x, y, width)), MISS when all are surely beyond, ASK otherwise; [1] HIT when every
    base is surely inside the box `room` = (x0, y0, x1, y1, inner, outer): its rim at least
    `inner` from the edges, MISS when a base's centre is surely under `outer` from them."""
    found = np.empty((spots.shape[0], 2), dtype=np.intp)
    low, high = gaps[0], gaps[1]
    x0, y0, x1, y1, inner, outer = room[0], room[1], room[2], room[3], room[4], room[5]
    for k in range(spots.shape[0]):
        close, clear, inside, out = False, True, True, False
        for s in range(spots.shape[1]):
            x, y = spots[k, s, 0], spots[k, s, 1]
            for t in range(theirs.shape[0]):
                gap = math.hypot(x - theirs[t, 0], y - theirs[t, 1]) - (diameter + theirs[t, 2]) / 2
                close = close or gap < low
                clear = clear and gap > high
            left = min(min(x - x0, x1 - x), min(y - y0, y1 - y))
            inside = inside and left >= inner
            out = out or left < outer
        found[k, 0] = HIT if close else MISS if clear else ASK
        found[k, 1] = HIT if inside else MISS if out else ASK
    return found


@compiled
def least_apart(xs: Floats, ys: Floats, counts: Ints) -> Floats:
    """The least distance between the centres of a model of one unit and one of another,
    for each pair of units (the models at xs, ys, `counts[u]` of unit u after those of the
    units before it): the very hypot of each pair of models numpy's broadcast made."""
    units = counts.shape[0]
    starts = np.zeros(units + 1, dtype=np.intp)
    for u in range(units):
        starts[u + 1] = starts[u] + counts[u]
    least = np.empty((units, units))
    for u in range(units):
        for v in range(u, units):
            best = math.inf
            for i in range(starts[u], starts[u + 1]):
                for j in range(starts[v], starts[v + 1]):
                    best = min(best, np.hypot(xs[i] - xs[j], ys[i] - ys[j]))
            least[u, v] = least[v, u] = best
    return least
