"""THE GAME TABLE: its size, the six zones of scenery, deployment zones, and what the
scenery does to movement, sight and cover. Scenery pieces are rectangles (cm)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

Kind = Literal["forest", "building", "ruins", "rubble", "hill", "pool", "wall"]
SLOW = frozenset({"forest", "building", "ruins", "rubble", "pool"})  # "half of its movement"
SCREENING = frozenset({"forest", "building"})  # shoot in or out only at the border
COVER = frozenset({"forest", "building", "ruins", "rubble", "wall"})
BORDER = 2.0  # OURS: "in the border" of a building or forest = within 2 cm of its edge
INSIDE_SIGHT = 5.0  # "at a maximum distance of 5 cm. if both ... are inside"
Point = tuple[float, float]
COSTS_KEPT = 50_000  # move costs a table remembers (a battle asks for some 20,000)


@dataclass(frozen=True)
class Piece:
    """A piece of scenery: an axis-aligned rectangle of a kind."""

    kind: Kind
    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Point) -> bool:
        """Whether `p` lies inside (edges included)."""
        return self.x0 <= p[0] <= self.x1 and self.y0 <= p[1] <= self.y1

    def near_edge(self, p: Point) -> bool:
        """Whether `p` is inside and within BORDER of an edge."""
        return (
            self.contains(p)
            and min(p[0] - self.x0, self.x1 - p[0], p[1] - self.y0, self.y1 - p[1]) <= BORDER
        )

    def clip(self, a: Point, b: Point) -> tuple[float, float] | None:
        """The part of segment a→b inside, as parameters (t0, t1) in [0, 1] (Liang-Barsky)."""
        if (
            max(a[0], b[0]) < self.x0
            or min(a[0], b[0]) > self.x1
            or max(a[1], b[1]) < self.y0
            or min(a[1], b[1]) > self.y1
        ):
            return None
        t0, t1 = 0.0, 1.0
        dx, dy = b[0] - a[0], b[1] - a[1]
        for p, q in (
            (-dx, a[0] - self.x0),
            (dx, self.x1 - a[0]),
            (-dy, a[1] - self.y0),
            (dy, self.y1 - a[1]),
        ):
            if p == 0:
                if q < 0:
                    return None
                continue
            r = q / p
            if p < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 > t1:
                return None
        return t0, t1

    def crossed(self, a: Point, b: Point) -> bool:
        """Whether segment a→b passes through the piece."""
        return self.clip(a, b) is not None

    def as_list(self) -> list[object]:
        """JSON form."""
        return [self.kind, self.x0, self.y0, self.x1, self.y1]


def dist(a: Point, b: Point) -> float:
    """Distance between two points."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from `p` to the segment a→b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


@dataclass(frozen=True)
class Table:
    """The table: width (x, west to east) and depth (y, south to north) in cm, and scenery."""

    width: float
    depth: float
    pieces: tuple[Piece, ...]

    @property
    def zone_depth(self) -> float:
        """Deployment zone: 10 cm on an 80 cm table (between the two sides), else 20 cm."""
        return 10.0 if self.depth <= 80 else 20.0

    def in_zone(self, p: Point, edge: str) -> bool:
        """Whether `p` is in the deployment zone along `edge` (south or north)."""
        return p[1] <= self.zone_depth if edge == "south" else p[1] >= self.depth - self.zone_depth

    def on_table(self, p: Point, radius: float) -> bool:
        """Whether a base of `radius` at `p` lies on the table."""
        return radius <= p[0] <= self.width - radius and radius <= p[1] <= self.depth - radius

    def pieces_at(self, p: Point) -> list[Piece]:
        """The pieces `p` lies in."""
        return [piece for piece in self.pieces if piece.contains(p)]

    @cached_property
    def hills(self) -> tuple[Piece, ...]:
        """The hills."""
        return tuple(p for p in self.pieces if p.kind == "hill")

    def height(self, p: Point) -> int:
        """1 on a hill, else 0."""
        return 1 if any(h.contains(p) for h in self.hills) else 0

    @cached_property
    def slow_pieces(self) -> tuple[Piece, ...]:
        """The pieces that halve movement."""
        return tuple(p for p in self.pieces if p.kind in SLOW)

    @cached_property
    def walls(self) -> tuple[Piece, ...]:
        """The low walls."""
        return tuple(p for p in self.pieces if p.kind == "wall")

    @cached_property
    def _costs(self) -> dict[tuple[Point, Point, bool], float]:
        """Move costs already worked out on this (immutable) table: legality, the AI and the
        move itself all ask for the same moves."""
        return {}

    def move_cost(self, a: Point, b: Point, ignores_terrain: bool) -> float:
        """MOVEMENT: cm of allowance a straight move uses; double through slowing terrain."""
        key = (a, b, ignores_terrain)
        costs = self._costs
        cost = costs.get(key)
        if cost is None:
            if len(costs) >= COSTS_KEPT:
                costs.clear()
            cost = costs[key] = self._move_cost(a, b, ignores_terrain)
        return cost

    def _move_cost(self, a: Point, b: Point, ignores_terrain: bool) -> float:
        total = dist(a, b)
        if ignores_terrain or total == 0:
            return total
        slow: list[tuple[float, float]] = []
        lox, hix = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
        loy, hiy = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
        for piece in self.slow_pieces:
            if piece.x1 < lox or piece.x0 > hix or piece.y1 < loy or piece.y0 > hiy:
                continue
            span = piece.clip(a, b)
            if span is not None:
                slow.append(span)
        covered, end = 0.0, 0.0
        for t0, t1 in sorted(slow):  # union of the slow spans, each counted once
            t0 = max(t0, end)
            if t1 > t0:
                covered += t1 - t0
                end = t1
        return total * (1 + covered)

    def crosses_wall(self, a: Point, b: Point) -> bool:
        """Whether a move a→b goes over a low wall."""
        return any(p.crossed(a, b) for p in self.walls)

    def in_building(self, p: Point) -> bool:
        """Whether `p` is inside a building."""
        return any(pc.kind == "building" for pc in self.pieces_at(p))

    def blockers(self, a: Point, b: Point) -> list[float]:
        """Where along a→b (0 at a, 1 at b) scenery blocks sight. Cover: buildings and forests
        hide what is inside except at the border, or within 5 cm when both are inside the same
        piece; hills block sight between figures off them. Low walls never block ("a wall
        lower than a man do not")."""
        found: list[float] = []
        for piece in self.pieces:
            if piece.kind not in SCREENING and piece.kind != "hill":
                continue
            in_a, in_b = piece.contains(a), piece.contains(b)
            if piece.kind == "hill":
                span = None if in_a or in_b else piece.clip(a, b)
                if span is not None:
                    found.append((span[0] + span[1]) / 2)
            elif in_a and in_b:
                if dist(a, b) > INSIDE_SIGHT:
                    found.append(0.5)
            elif in_a or in_b:
                if not piece.near_edge(a if in_a else b):
                    found.append(0.0 if in_a else 1.0)
            else:
                span = piece.clip(a, b)
                if span is not None:
                    found.append((span[0] + span[1]) / 2)
        return found

    def in_cover(self, shooter: Point, target: Point) -> bool:
        """Cover: the target is in (or partly behind) cover — inside a covering piece, or a
        low wall or covering piece crosses the line within 3 cm of it (OURS)."""
        if any(p.kind in COVER for p in self.pieces_at(target)):
            return True
        d = dist(shooter, target)
        if d == 0:
            return False
        for piece in self.pieces:
            if piece.kind in COVER and not piece.contains(shooter):
                span = piece.clip(shooter, target)
                if span is not None and (1 - span[1]) * d <= 3.0:
                    return True
        return False

    def as_data(self) -> dict[str, object]:
        """JSON form."""
        return {
            "width": self.width,
            "depth": self.depth,
            "pieces": [p.as_list() for p in self.pieces],
        }
