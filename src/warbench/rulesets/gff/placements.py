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
from typing import cast

import numpy as np
import numpy.typing as npt

from warbench.core.geometry import Base, Point
from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff.movement import _NOISE, EPS, UNIT_GAP, too_close

Floats = npt.NDArray[np.float64]
_MARGIN = 0.01  # inches of slack on the reach: forgetting more than needed is always exact


def too_close_many(formations: Floats, diameter: float, obstacles: Sequence[Base]) -> list[bool]:
    """`movement.too_close` of each formation (k × n centres of round bases of `diameter`)
    with the obstacles, at once: settled in numpy unless a gap is within float noise of 1"."""
    shapes = formations.tolist()
    if not obstacles:
        return [False] * len(shapes)
    if any(o.depth is not None for o in obstacles):
        return [too_close([Base((x, y), diameter) for x, y in f], obstacles) for f in shapes]
    limit = UNIT_GAP - EPS
    theirs = np.array([(*o.centre, o.width) for o in obstacles], dtype=np.float64)
    apart = np.hypot(
        formations[:, :, None, 0] - theirs[None, None, :, 0],
        formations[:, :, None, 1] - theirs[None, None, :, 1],
    )
    gaps = (apart - (diameter + theirs[None, None, :, 2]) / 2).reshape(len(shapes), -1)
    close = cast(list[bool], (gaps < limit - _NOISE).any(axis=1).tolist())
    clear = cast(list[bool], (gaps > limit + _NOISE).all(axis=1).tolist())
    return [
        c or (not k and too_close([Base((x, y), diameter) for x, y in f], obstacles))
        for c, k, f in zip(close, clear, shapes, strict=True)
    ]


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
