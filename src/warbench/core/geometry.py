"""Continuous-table geometry: bases, distances, facings and arcs, templates, paths and sight.

Numbers are in the ruleset's unit (inches or cm). Angles are compass bearings in degrees:
0 points "up the table" (+y), 90 points along +x, and they grow clockwise. Round bases are
measured exactly as circles; `Base.shape()`, templates and arcs are polygons whose curved
edges are inscribed in their circles (off by less than 0.01 % of the radius).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import accumulate, pairwise

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from warbench.core.terrain import TerrainPiece, Trait

Point = tuple[float, float]

EPS = 1e-9
"""Tolerance for float noise: lengths closer than this count as equal (touching is touching)."""

_QUAD_SEGS = 64  # segments per quarter circle: circles are 256-sided polygons
_ARC_STEP = 1.0  # at most this many degrees between vertices along an arc's curved edge


def _heading(bearing: float) -> Point:
    """Unit vector pointing along compass `bearing`."""
    rad = math.radians(bearing)
    return math.sin(rad), math.cos(rad)


def _lerp(a: Point, b: Point, t: float) -> Point:
    """The point a fraction `t` of the way from `a` to `b` (exactly `a` at 0, `b` at 1)."""
    return (1 - t) * a[0] + t * b[0], (1 - t) * a[1] + t * b[1]


def _coords(shape: BaseGeometry) -> list[Point]:
    return [(float(x), float(y)) for x, y in shapely.get_coordinates(shape)]


@dataclass(frozen=True)
class Base:
    """A model's or stand's base on the table.

    Round of diameter `width` when `depth` is None, else a `width` × `depth` rectangle whose
    `width`-long front edge faces `facing` (compass degrees: 0 = +y, clockwise positive).
    """

    centre: Point
    width: float
    depth: float | None = None
    facing: float = 0.0

    def __post_init__(self) -> None:
        if not self.width > 0 or (self.depth is not None and not self.depth > 0):
            raise ValueError(
                f"a base needs a positive size, got width={self.width} depth={self.depth}"
            )

    def shape(self) -> Polygon:
        """The base's footprint; a rectangle is turned to its facing."""
        if self.depth is None:
            return shapely.Point(self.centre).buffer(self.width / 2, quad_segs=_QUAD_SEGS)
        fx, fy = _heading(self.facing)
        rx, ry = fy, -fx  # the base's right hand
        w, d = self.width / 2, self.depth / 2
        cx, cy = self.centre
        corners = ((-1, 1), (1, 1), (1, -1), (-1, -1))  # (right, forward) signs, front left first
        return shapely.Polygon(
            [(cx + r * w * rx + f * d * fx, cy + r * w * ry + f * d * fy) for r, f in corners]
        )

    def moved(self, to: Point, facing: float | None = None) -> Base:
        """This base at `to`, turned to `facing` (the same facing when None)."""
        return replace(self, centre=to, facing=self.facing if facing is None else facing)


def _kernel(base: Base) -> tuple[BaseGeometry, float]:
    """The base as a core shape grown by a radius: a round base is its centre grown by its
    radius, so that distances to it are exact rather than to its polygon."""
    if base.depth is None:
        return shapely.Point(base.centre), base.width / 2
    return base.shape(), 0.0


def _meets(shape: BaseGeometry, base: Base) -> bool:
    """Whether `base` overlaps or touches `shape`."""
    core, radius = _kernel(base)
    return float(shape.distance(core)) <= radius + EPS


def _inside(shape: BaseGeometry, base: Base) -> bool:
    """Whether `base` lies wholly inside `shape` (touching its edge from inside counts)."""
    core, radius = _kernel(base)
    return bool(shape.covers(core)) and float(shape.boundary.distance(core)) >= radius - EPS


def edge_distance(a: Base, b: Base) -> float:
    """Distance between the bases' nearest edges; 0 when they touch or overlap."""
    if a.depth is None and b.depth is None:  # two round bases: plain arithmetic, the hot path
        return round_gap(a.centre, b.centre, (a.width + b.width) / 2)
    (core_a, radius_a), (core_b, radius_b) = _kernel(a), _kernel(b)
    return max(0.0, float(core_a.distance(core_b)) - radius_a - radius_b)


def round_gap(a: Point, b: Point, half_widths: float) -> float:
    """`edge_distance` of two round bases centred at `a` and `b`, given half the sum of their
    diameters (for callers that have the centres and would otherwise make the bases)."""
    return max(0.0, math.dist(a, b) - half_widths)


def centre_distance(a: Base, b: Base) -> float:
    """Distance between the bases' centres."""
    return math.dist(a.centre, b.centre)


def within(a: Base, b: Base, distance: float) -> bool:
    """Whether the bases are within `distance` edge to edge.

    Allows EPS (1e-9) of float noise, so bases that touch are within 0 of each other.
    """
    return edge_distance(a, b) <= distance + EPS


def bearing(from_: Point, to: Point) -> float:
    """Compass bearing in [0, 360) from `from_` towards `to` (0 = +y, 90 = +x)."""
    degrees = math.degrees(math.atan2(to[0] - from_[0], to[1] - from_[1])) % 360.0
    return 0.0 if degrees == 360.0 else degrees  # a tiny negative angle rounds up to 360


def turn_between(f1: float, f2: float) -> float:
    """The smallest turn in degrees, in [0, 180], from facing `f1` to facing `f2`."""
    turn = abs(f1 - f2) % 360.0
    return min(turn, 360.0 - turn)


def arc(base: Base, centre_bearing: float, width_degrees: float, radius: float) -> Polygon:
    """The sector from `base`'s centre out to `radius`, `width_degrees` wide around
    `centre_bearing`: the front arc of a stand is `arc(base, base.facing, 120, reach)`."""
    if not 0 < width_degrees <= 360 or not radius > 0:
        raise ValueError(
            f"an arc needs a width in (0, 360] degrees and a positive radius, "
            f"got width {width_degrees} and radius {radius}"
        )
    if width_degrees == 360:
        return circle_template(base.centre, radius)
    steps = math.ceil(width_degrees / _ARC_STEP)
    first = centre_bearing - width_degrees / 2
    cx, cy = base.centre
    rim = [
        (cx + radius * hx, cy + radius * hy)
        for hx, hy in (_heading(first + width_degrees * i / steps) for i in range(steps + 1))
    ]
    return shapely.Polygon([base.centre, *rim])


def in_arc(
    base: Base, target: Base, centre_bearing: float, width_degrees: float, *, wholly: bool
) -> bool:
    """Whether `target`'s base lies wholly (or, if not `wholly`, at least partly) inside the
    arc of `base` at any range. Touching the arc's edge counts as partly inside."""
    reach = 2 * (centre_distance(base, target) + target.width + (target.depth or 0.0)) + 1
    sector = arc(base, centre_bearing, width_degrees, reach)
    return _inside(sector, target) if wholly else _meets(sector, target)


def circle_template(centre: Point, radius: float) -> Polygon:
    """A round template (blast, burst) of `radius` around `centre`."""
    if not radius > 0:
        raise ValueError(f"a template needs a positive radius, got {radius}")
    return shapely.Point(centre).buffer(radius, quad_segs=_QUAD_SEGS)


def bases_under(
    template: BaseGeometry, bases: Mapping[str, Base], *, partly: bool = True
) -> list[str]:
    """Names of the bases under `template` (touching counts), in the mapping's order;
    with `partly=False` only those wholly under it."""
    under = _meets if partly else _inside
    return [name for name, base in bases.items() if under(template, base)]


class TerrainIndex:
    """Terrain pieces with an STRtree, for quick look-ups on a table with many pieces."""

    def __init__(self, pieces: Iterable[TerrainPiece]) -> None:
        self.pieces = tuple(pieces)
        self._tree = shapely.STRtree([piece.area for piece in self.pieces])

    def near(self, shape: BaseGeometry) -> list[TerrainPiece]:
        """The pieces whose bounding boxes meet `shape`'s, in the index's order."""
        return [self.pieces[i] for i in sorted(self._tree.query(shape))]


Terrain = Sequence[TerrainPiece] | TerrainIndex
"""The terrain on the table: a plain sequence of pieces, or an index of them."""


def _near(terrain: Terrain, shape: BaseGeometry) -> Sequence[TerrainPiece]:
    return terrain.near(shape) if isinstance(terrain, TerrainIndex) else terrain


def _cuts(distances: Iterable[float], length: float) -> list[float]:
    """0, the `distances` strictly between 0 and `length` at least EPS apart, and `length`."""
    cuts = [0.0]
    for distance in sorted(distances):
        if cuts[-1] + EPS < distance < length - EPS:
            cuts.append(distance)
    return [*cuts, length]


def _first_touch(a: Point, b: Point, shape: BaseGeometry) -> float | None:
    """How far from `a` the segment `a`→`b` first touches `shape`; None if it never does."""
    hit = shapely.LineString([a, b]).intersection(shape)
    return None if hit.is_empty else min(math.dist(a, c) for c in _coords(hit))


def _runs_inside(a: Point, b: Point, area: Polygon) -> Iterator[tuple[float, float]]:
    """The stretches of the segment `a`→`b` (as distances from `a`) through the interior of
    `area`; a stretch along its edge is not inside."""
    length = math.dist(a, b)
    crossings = _coords(shapely.LineString([a, b]).intersection(area.boundary))
    for start, end in pairwise(_cuts((math.dist(a, c) for c in crossings), length)):
        if area.contains(shapely.Point(_lerp(a, b, (start + end) / 2 / length))):
            yield start, end


@dataclass(frozen=True)
class Path:
    """A move along straight legs between waypoints; distances are measured along it."""

    points: tuple[Point, ...]

    def __post_init__(self) -> None:
        if len(self.points) < 2:
            raise ValueError(f"a path needs at least 2 waypoints, got {len(self.points)}")
        for i, point in enumerate(self.points):
            if not all(math.isfinite(c) for c in point):
                raise ValueError(f"waypoint {i} is not a finite point: {point}")
        for i, (p, q) in enumerate(pairwise(self.points)):
            if p == q:
                raise ValueError(f"waypoints {i} and {i + 1} are the same point {p}")

    @classmethod
    def of(cls, points: Iterable[Point]) -> Path:
        """The path through `points`, in order."""
        return cls(tuple((float(x), float(y)) for x, y in points))

    @cached_property
    def _reached(self) -> tuple[float, ...]:
        """The distance along the path at which each waypoint is reached."""
        legs = (math.dist(p, q) for p, q in pairwise(self.points))
        return tuple(accumulate(legs, initial=0.0))

    @property
    def length(self) -> float:
        """The path's total length."""
        return self._reached[-1]

    def _locate(self, distance: float) -> tuple[int, float]:
        """The leg at `distance` and the fraction of it done; at a waypoint, the leg leaving
        it (the last leg at the end)."""
        if not -EPS <= distance <= self.length + EPS:
            raise ValueError(f"distance {distance} is off the path of length {self.length}")
        leg = min(max(bisect_right(self._reached, distance) - 1, 0), len(self.points) - 2)
        start, end = self._reached[leg], self._reached[leg + 1]
        if end == start:  # a leg too short to register against the length before it
            return leg, 1.0
        return leg, min(max((distance - start) / (end - start), 0.0), 1.0)

    def point_at(self, distance: float) -> Point:
        """The point `distance` along the path."""
        leg, done = self._locate(distance)
        return _lerp(self.points[leg], self.points[leg + 1], done)

    def bearing_at(self, distance: float) -> float:
        """The bearing of travel `distance` along the path (of the leg leaving a waypoint)."""
        leg, _ = self._locate(distance)
        return bearing(self.points[leg], self.points[leg + 1])

    def segments_in(self, terrain: Terrain) -> list[tuple[float, float, frozenset[str]]]:
        """Split the path into consecutive stretches `(start, end, kinds)`, `kinds` being those
        of the pieces the stretch runs through (a stretch along a piece's edge is not in it)."""
        stretches: list[tuple[float, float, frozenset[str]]] = []
        for leg, (a, b) in enumerate(pairwise(self.points)):
            near = _near(terrain, shapely.LineString([a, b]))
            runs = [(piece.kind, run) for piece in near for run in _runs_inside(a, b, piece.area)]
            ends = (end for _, run in runs for end in run)
            offset = self._reached[leg]
            for start, end in pairwise(_cuts(ends, math.dist(a, b))):
                middle = (start + end) / 2
                kinds = frozenset(kind for kind, (s, e) in runs if s < middle < e)
                if stretches and stretches[-1][2] == kinds:
                    stretches[-1] = (stretches[-1][0], offset + end, kinds)
                else:
                    stretches.append((offset + start, offset + end, kinds))
        return stretches

    def cost(self, terrain: Terrain, rate: Callable[[frozenset[str]], float]) -> float:
        """The movement cost: each stretch's length × `rate(kinds)` (e.g. 2.0 in difficult)."""
        return sum((end - start) * rate(kinds) for start, end, kinds in self.segments_in(terrain))

    def first_point(self, shape: BaseGeometry) -> float | None:
        """How far along the path a point moving along it first touches `shape` (0 if it
        starts there); None if it never does. For "comes within N of an enemy" pass
        `enemy.shape().buffer(N)`."""
        for leg, (a, b) in enumerate(pairwise(self.points)):
            touch = _first_touch(a, b, shape)
            if touch is not None:
                return self._reached[leg] + touch
        return None


@dataclass(frozen=True)
class SightResult:
    """Whether a sight line is clear, the first piece blocking it (its name, else its kind),
    and the kinds of every piece it touches, nearest the viewer first (for cover)."""

    clear: bool
    blocked_by: str | None
    crossed: tuple[str, ...]


def sight_line(a: Point, b: Point, terrain: Terrain, *, see_into: float = 0.0) -> SightResult:
    """Trace sight from `a` to `b` through terrain.

    Pieces with Trait.BLOCKS_SIGHT block it, except that the line may run up to `see_into`
    inside them (adjoining pieces together) from either end: a stand in woods near its edge
    sees out and is seen. A line along or ending on a piece's edge is not inside it.
    """
    if a == b:
        raise ValueError(f"a sight line needs two different points, got {a} twice")
    near = _near(terrain, shapely.LineString([a, b]))
    touches = [
        (touch, piece) for piece in near if (touch := _first_touch(a, b, piece.area)) is not None
    ]
    crossed = tuple(piece.kind for _, piece in sorted(touches, key=lambda pair: pair[0]))
    piece = _blocker(a, b, near, see_into)
    if piece is not None:
        return SightResult(False, piece.name or piece.kind, crossed)
    return SightResult(True, None, crossed)


def sight_clear(a: Point, b: Point, terrain: Terrain, *, see_into: float = 0.0) -> bool:
    """`sight_line(a, b, terrain, see_into=...).clear`, without tracing every piece the line
    touches (a ruleset that needs only the verdict)."""
    if a == b:
        raise ValueError(f"a sight line needs two different points, got {a} twice")
    return _blocker(a, b, _near(terrain, shapely.LineString([a, b])), see_into) is None


def _blocker(
    a: Point, b: Point, near: Sequence[TerrainPiece], see_into: float
) -> TerrainPiece | None:
    """The first piece blocking sight from `a` to `b` among the `near` pieces, or None."""
    length = math.dist(a, b)
    runs = sorted(
        (
            (start, end, piece)
            for piece in near
            if piece.has(Trait.BLOCKS_SIGHT)
            for start, end in _runs_inside(a, b, piece.area)
        ),
        key=lambda run: run[:2],
    )
    blocks: list[tuple[float, float, TerrainPiece]] = []  # runs merged where they adjoin
    for start, end, piece in runs:
        if blocks and start <= blocks[-1][1] + EPS:
            blocks[-1] = (blocks[-1][0], max(end, blocks[-1][1]), blocks[-1][2])
        else:
            blocks.append((start, end, piece))
    for start, end, piece in blocks:
        from_a = start <= EPS and end <= see_into + EPS
        from_b = end >= length - EPS and start >= length - see_into - EPS
        if not (from_a or from_b):
            return piece
    return None
