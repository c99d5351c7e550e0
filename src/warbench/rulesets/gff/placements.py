"""Deployment placements kept across decisions (DEPLOYMENT: "alternate in placing one unit
each"): each placed unit changes the formations and the legality of points near it only.

A kind of unit (side, model count, base) placed around a grid point gets a formation from
`battlefield.arrange`: the first shift (nearest first) and layout whose bases are clear of
the other bases. A base added to the table only adds an obstacle, so the shifts and layouts
that failed still fail: the formation stays the same unless the new base touches it, and a
placement that was illegal stays illegal. A kept formation is therefore forgotten only when
a new base comes within 1" of it (so its legality may change), and a legal one stays legal
otherwise. A base removed from the table may free any point within `arrange_reach` plus 1"
plus its own extent: those points are forgotten.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from shapely.geometry import Polygon

from warbench.core.geometry import Base, Point
from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff.battlefield import _INSCRIBED, _TOUCH
from warbench.rulesets.gff.kernels import HIT, MISS, placement_screens
from warbench.rulesets.gff.movement import _NOISE, EPS, UNIT_GAP, too_close

Floats = npt.NDArray[np.float64]
_MARGIN = 0.01  # inches of slack on the reach: forgetting more than needed is always exact


def legal_many(
    formations: Floats, diameter: float, obstacles: Sequence[Base], zone: Polygon
) -> list[bool]:
    """For each formation (k × n centres of round bases of `diameter`), whether it keeps
    over 1" from the obstacles (not `movement.too_close`) and stands wholly inside `zone`, a
    rectangle along the axes (`battlefield.box_covers`), at once: compiled screens, the
    exact checks only where a gap is within float noise of 1" or a base within 0.1 % of its
    radius of the zone's edge (or an obstacle is not round)."""
    x0, y0, x1, y1 = bfm.rectangle_bounds(zone)
    rounds = all(o.depth is None for o in obstacles)
    theirs = [(*o.centre, o.width) for o in obstacles] if rounds else []
    limit, r = UNIT_GAP - EPS, diameter / 2
    screens = placement_screens(
        formations,
        np.array(theirs, dtype=np.float64).reshape(-1, 3),
        diameter,
        np.array((limit - _NOISE, limit + _NOISE)),
        np.array((x0, y0, x1, y1, r + _TOUCH, r * (1 - _INSCRIBED))),
    ).tolist()
    legal = []
    for (close, inside), spots in zip(screens, formations.tolist(), strict=True):
        apart = close == MISS and rounds  # surely over 1" from every obstacle
        if close == HIT or inside == MISS:
            legal.append(False)
        elif inside == HIT and apart:
            legal.append(True)
        else:
            bases = [Base((x, y), diameter) for x, y in spots]
            legal.append(
                (inside == HIT or bfm.box_covers(zone, bases))
                and (apart or not too_close(bases, obstacles))
            )
    return legal


def _extent(base: Base) -> float:
    """How far the base reaches from its centre at most."""
    return base.width / 2 if base.depth is None else math.hypot(base.width, base.depth) / 2


@dataclass
class KeptPlacements:
    """One kind of unit's formations and legal placements by grid point, valid while the
    table is `table` and the other bases are `occupied`."""

    table: bfm.Battlefield
    occupied: list[Base]
    reach: float  # how far from a point a base may change its answers (its own extent aside)
    radius: float  # of the unit's bases
    formations: dict[Point, list[Point] | None] = field(default_factory=dict)
    legal: dict[Point, bool] = field(default_factory=dict)

    def refresh(self, occupied: Sequence[Base]) -> None:
        """Forget the answers of every point a base added or removed may change."""
        if list(occupied) == self.occupied:
            return
        before, now = Counter(self.occupied), Counter(occupied)
        removed = [(b.centre, self.reach + _extent(b)) for b in before - now]
        if removed:
            for point in [*self.formations.keys() | self.legal.keys()]:
                if any(math.dist(point, c) <= r for c, r in removed):
                    self._forget(point)
        added = list(now - before)
        placed = [(p, f) for p, f in self.formations.items() if f]
        if added and placed:
            centres = np.array([b.centre for b in added], dtype=np.float64)
            near = np.array([_extent(b) for b in added]) + self.radius + UNIT_GAP + _MARGIN
            spots = np.array([f for _, f in placed], dtype=np.float64)  # (points, models, 2)
            gaps = np.hypot(
                spots[:, :, None, 0] - centres[None, None, :, 0],
                spots[:, :, None, 1] - centres[None, None, :, 1],
            )
            for row in np.flatnonzero((gaps <= near).any(axis=(1, 2))).tolist():
                self._forget(placed[row][0])
        self.occupied = list(occupied)

    def _forget(self, point: Point) -> None:
        self.formations.pop(point, None)
        self.legal.pop(point, None)


class PlacementMemory:
    """The kept placements of every kind of unit and zone, across decisions."""

    def __init__(self) -> None:
        self._kept: dict[tuple[object, ...], KeptPlacements] = {}

    def of(
        self,
        key: tuple[object, ...],
        table: bfm.Battlefield,
        occupied: Sequence[Base],
        count: int,
        base: float,
    ) -> KeptPlacements:
        """The kept placements of `count` models on `base` bases under `key` (the zone and
        the kind of unit), brought up to date with the bases now on the table."""
        kept = self._kept.get(key)
        if kept is None or kept.table is not table:
            reach = bfm.arrange_reach(count, base) + UNIT_GAP + _MARGIN
            kept = self._kept[key] = KeptPlacements(table, list(occupied), reach, base / 2)
        else:
            kept.refresh(occupied)
        return kept
