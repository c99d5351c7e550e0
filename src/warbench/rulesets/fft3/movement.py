"""Movement: straight legs paid in movement points, kept 1" from enemy stands (10" when
moving strategically), and Cohesion: "within 2" of at least one other stand in its unit"."""

from __future__ import annotations

import math
from collections.abc import Iterable

from warbench.rulesets.fft3.profiles import tables
from warbench.rulesets.fft3.state import RADIUS, Point, Stand, State

EPS = 1e-9


def closest_along(a: Point, b: Point, c: Point) -> float:
    """How far along a→b the point nearest `c` lies."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return 0.0
    t = ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / length
    return min(max(t, 0.0), length)


def point_along(a: Point, b: Point, along: float) -> Point:
    """The point `along` inches from `a` towards `b`."""
    length = math.dist(a, b)
    if length == 0:
        return a
    t = min(max(along / length, 0.0), 1.0)
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def nearest_approach(a: Point, b: Point, c: Point) -> float:
    """The least distance from `c` to the segment a→b."""
    return math.dist(point_along(a, b, closest_along(a, b, c)), c)


def first_within(a: Point, b: Point, c: Point, reach: float) -> float | None:
    """How far along a→b a point first comes within `reach` of `c` (None if it never does)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if math.dist(a, c) <= reach + EPS:
        return 0.0
    if length == 0:
        return None
    ux, uy = dx / length, dy / length
    fx, fy = a[0] - c[0], a[1] - c[1]
    along = -(fx * ux + fy * uy)
    across2 = (fx * fx + fy * fy) - along * along
    if across2 > reach * reach + EPS:
        return None
    first = along - math.sqrt(max(0.0, reach * reach - across2))
    return first if 0 <= first <= length + EPS else None


def keep_away_problem(
    stand: Stand, to: Point, enemies: Iterable[Stand], gap: float, why: str
) -> str | None:
    """Why the leg comes closer than `gap` to one of `enemies` (the enemy stands on the table;
    one that starts closer may not get any closer), or None."""
    ax, ay = stand.x, stand.y
    leg = math.dist((ax, ay), to)
    mine = stand.radius
    for enemy in enemies:
        reach = mine + RADIUS[enemy.profile.kind]
        start = math.hypot(enemy.x - ax, enemy.y - ay) - reach
        if start - leg > gap:
            continue  # too far to come within `gap` on this leg
        least = nearest_approach((ax, ay), to, (enemy.x, enemy.y)) - reach
        if least < min(gap, start) - 1e-6:
            return f'the move comes within {max(least, 0):.2f}" of {enemy.name}; {why}'
    return None


class Mates:
    """The other stands of a stand's unit on the table, read once to judge many places."""

    def __init__(self, state: State, stand: Stand) -> None:
        self.stand = stand
        self.others = [
            (other.x, other.y, RADIUS[other.profile.kind])
            for i in state.units[stand.unit].stands
            if i != stand.id and (other := state.stands[i]).on_table
        ]

    def near(self, at: Point) -> bool:
        """Whether the stand would be in cohesion at `at` (alone on the table counts)."""
        limit = tables().cohesion + EPS
        mine = self.stand.radius
        return not self.others or any(
            math.dist(at, (x, y)) - mine - r <= limit for x, y, r in self.others
        )

    def nearest(self, at: Point) -> float:
        """How far (centre to centre) `at` is from the nearest of them."""
        return min(math.dist(at, (x, y)) for x, y, _ in self.others)


def in_cohesion(state: State, stand: Stand, at: Point | None = None) -> bool:
    """Cohesion: within 2" of another stand of its unit on the table. A passenger shares
    its IFV's cohesion; a unit's only stand on the table is in cohesion (ruling R7)."""
    if stand.carried_by is not None:
        return in_cohesion(state, state.stands[stand.carried_by])
    return Mates(state, stand).near(at or stand.at)


def cohesion_problem(
    state: State, stand: Stand, to: Point, mates: Mates | None = None
) -> str | None:
    """ "If it moves, it must attempt to move in cohesion": a stand out of cohesion must end
    each leg in cohesion or nearer the nearest stand of its unit. `mates`, when given, are
    the stand's (read once for many legs)."""
    mates = mates or Mates(state, stand)
    if mates.near(stand.at) or mates.near(to):
        return None
    now, then = mates.nearest(stand.at), mates.nearest(to)
    if then < now - EPS:
        return None
    return (
        f"{stand.name} is out of cohesion and must move back towards its unit "
        f'(it is {now:.1f}" from the nearest stand; this leg ends {then:.1f}" away)'
    )
