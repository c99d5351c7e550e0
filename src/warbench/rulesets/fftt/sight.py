"""Arc of vision and LOS: 180 degrees for all units; sight from the centre of a head to the
centre of the other, blocked by figures and by scenery (not low walls); the higher-shooter
rule, height coming from hills and upper floors; inside buildings and forests only at the
border or within 5 cm."""

from __future__ import annotations

import math
from collections.abc import Iterable

from warbench.rulesets.fftt.state import Fig, State
from warbench.rulesets.fftt.table import Point, dist, segment_distance


def in_arc(fig: Fig, p: Point) -> bool:
    """'Arc of vision: 180 degrees for all units' around its facing."""
    if p == fig.pos:
        return True
    bearing = math.degrees(math.atan2(p[0] - fig.x, p[1] - fig.y))
    return abs((bearing - fig.facing + 180) % 360 - 180) <= 90


def bearing(a: Point, b: Point) -> float:
    """Compass bearing from a to b in degrees (0 north, 90 east)."""
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360


def can_see(
    s: State,
    shooter: Fig,
    target: Fig,
    at: Point | None = None,
    figures: Iterable[Fig] | None = None,
) -> bool:
    """LOS from `shooter` to `target` (standing at `at` if given). Friendly or enemy figures
    between block it; 'When the shooter is in a higher level ... it will be possible to shoot
    if the shooter is nearer to that something than the target'. `figures`, when given, hold
    every figure on the table (the only ones in the way), as the caller has them listed."""
    a, b = (shooter.x, shooter.y), at or (target.x, target.y)
    blockers = s.table.sight(a, b, (shooter.level, target.level))
    if blockers is None:
        return False
    high: bool | None = None  # worked out only when something stands in the way
    if blockers:
        high = s.table.height(a) + shooter.level > s.table.height(b) + target.level
        if not high or any(t >= 0.5 for t in blockers):
            return False
    ax, ay = a
    bx, by = b
    lox, hix = (ax, bx) if ax < bx else (bx, ax)
    loy, hiy = (ay, by) if ay < by else (by, ay)
    ends = (shooter.id, target.id)
    for other in s.figs.values() if figures is None else figures:
        radius = other.radius
        ox, oy = other.x, other.y
        if ox + radius < lox or ox - radius > hix or oy + radius < loy or oy - radius > hiy:
            continue  # too far off the line to touch it
        if other.where != "table" or other.id in ends:
            continue
        if segment_distance((ox, oy), a, b) < radius:
            if high is None:
                high = s.table.height(a) + shooter.level > s.table.height(b) + target.level
            if high and dist(a, b) and dist(a, (ox, oy)) < dist(b, (ox, oy)):
                continue
            return False
    return True
