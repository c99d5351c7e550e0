"""Terrain and the battlefield: open and difficult ground, roads, sight and movement cost.

Rulings (docs/rules/fft3.md):
- Difficult pieces (woods, towns, swamps, rough) block sight; a line of sight may run up to
  2" inside difficult terrain from either end, so a stand in difficult terrain sees 2" into
  it and a stand at its edge sees and is seen outside (core `sight_line(see_into=2)`).
- "Trace from any part of the stand to any part of the stand" is traced along three lines:
  centre to centre and the lines joining the two bases' left-hand and right-hand rims.
- Roads lie over the other terrain ("roads have the same combat effects as the terrain
  adjoining the road"): a road through woods is in the woods for saves and sight.
- A stand is in difficult terrain when its centre is (edges included).
- Random battlefield generation is ours (the introductory rules give none): see `generate`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import shapely
from shapely.geometry import LineString, Polygon

from warbench.core.dice import DiceSource, RollRequest, resolve
from warbench.core.terrain import TerrainPiece, Trait

Point = tuple[float, float]

DIFFICULT_KINDS = ("woods", "town", "swamp", "rough")
ROAD_WIDTH = 1.0
SEE_INTO = 2.0
OPEN_MP, VEHICLE_DIFFICULT_MP, ROAD_MP = 1.0, 2.0, 0.5  # MP per inch
"""Movement: open 1"/MP; vehicles in difficult ½"/MP; infantry in difficult 1"/MP; roads 2"/MP."""


class Edges:
    """The outlines of a group of polygons as plain numbers, to find where a straight line
    runs inside them quickly (sight and movement ask this thousands of times a game)."""

    def __init__(self, areas: Sequence[Polygon]) -> None:
        self.polygons: list[tuple[tuple[float, ...], list[tuple[float, float, float, float]]]] = []
        for area in areas:
            ring = list(area.exterior.coords)
            edges = [
                (x1, y1, x2 - x1, y2 - y1)
                for (x1, y1), (x2, y2) in pairwise(ring)
                if (x1, y1) != (x2, y2)
            ]
            self.polygons.append((tuple(area.bounds), edges))
        self.count = len(areas)

    def runs(self, a: Point, b: Point) -> list[tuple[float, float]]:
        """The stretches (as fractions 0..1 of a→b) inside any of the polygons, merged.
        Where a line starts inside a polygon is found by the even-odd rule (a point exactly
        on an edge may go either way)."""
        (ax, ay), (bx, by) = a, b
        lo_x, hi_x, lo_y, hi_y = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
        dx, dy = bx - ax, by - ay
        intervals: list[tuple[float, float]] = []
        for (x0, y0, x9, y9), edges in self.polygons:
            if x0 > hi_x or x9 < lo_x or y0 > hi_y or y9 < lo_y:
                continue
            cuts = []
            inside = False
            for x1, y1, ex, ey in edges:
                if (y1 > ay) != (y1 + ey > ay) and ax < x1 + (ay - y1) * ex / ey:
                    inside = not inside
                denom = dx * ey - dy * ex
                if denom == 0:
                    continue
                t = ((x1 - ax) * ey - (y1 - ay) * ex) / denom
                if 0 < t < 1:
                    u = ((x1 - ax) * dy - (y1 - ay) * dx) / denom
                    if 0 <= u < 1:
                        cuts.append(t)
            last = 0.0
            for cut in sorted(cuts):
                if inside:
                    intervals.append((last, cut))
                inside, last = not inside, cut
            if inside:
                intervals.append((last, 1.0))
        intervals.sort()
        merged: list[tuple[float, float]] = []
        for lo, hi in intervals:
            if hi - lo <= 1e-12:
                continue
            if merged and lo <= merged[-1][1] + 1e-9:
                merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
            else:
                merged.append((lo, hi))
        return merged


@dataclass(frozen=True)
class Battlefield:
    """The table: its size and its terrain pieces (difficult areas and roads)."""

    width: float
    depth: float
    pieces: tuple[TerrainPiece, ...] = ()
    _cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def _edges(self, group: str) -> Edges:
        found = self._cache.get(group)
        if found is None:
            trait = Trait.DIFFICULT if group == "difficult" else Trait.ROAD
            found = self._cache[group] = Edges([p.area for p in self.pieces if p.has(trait)])
        assert isinstance(found, Edges)
        return found

    def in_difficult(self, at: Point) -> bool:
        """Whether a stand centred `at` is in difficult terrain (its edge counts)."""
        key = ("in", at)
        hit = self._cache.get(key)
        if hit is None:
            point = shapely.Point(at)
            hit = self._cache[key] = any(
                p.area.covers(point) for p in self.pieces if p.has(Trait.DIFFICULT)
            )
        return bool(hit)

    def on_road(self, at: Point) -> bool:
        """Whether a stand centred `at` is on a road."""
        point = shapely.Point(at)
        return any(p.has(Trait.ROAD) and p.area.covers(point) for p in self.pieces)

    def _stretches(self, a: Point, b: Point, vehicle: bool) -> list[tuple[float, float]]:
        """(length, MP per inch) of each stretch of the leg a→b: roads 0.5 whatever lies
        beside them, vehicles in difficult terrain 2, anything else 1."""
        key = ("legs", a, b, vehicle)
        found = self._cache.get(key)
        if found is None:
            length = math.dist(a, b)
            roads = self._edges("road").runs(a, b)
            rough = self._edges("difficult").runs(a, b) if vehicle else []
            cuts = sorted({0.0, 1.0, *(c for run in roads + rough for c in run)})
            found = []
            for lo, hi in pairwise(cuts):
                mid = (lo + hi) / 2
                if any(r0 < mid < r1 for r0, r1 in roads):
                    rate = ROAD_MP
                elif any(r0 < mid < r1 for r0, r1 in rough):
                    rate = VEHICLE_DIFFICULT_MP
                else:
                    rate = OPEN_MP
                found.append(((hi - lo) * length, rate))
            self._cache[key] = found
        return list(found)

    def leg_cost(self, a: Point, b: Point, *, vehicle: bool) -> float:
        """Movement points to move a stand's centre straight from `a` to `b`."""
        if a == b:
            return 0.0
        return sum(length * rate for length, rate in self._stretches(a, b, vehicle))

    def reach(self, a: Point, b: Point, mp: float, *, vehicle: bool) -> float:
        """How far along a→b a stand gets with `mp` movement points."""
        if a == b:
            return 0.0
        gone = 0.0
        for length, rate in self._stretches(a, b, vehicle):
            if length * rate <= mp + 1e-12:
                mp -= length * rate
                gone += length
            else:
                return gone + mp / rate
        return gone

    def can_see(self, a: Point, ra: float, b: Point, rb: float) -> bool:
        """Whether a stand (or template) at `a` of radius `ra` sees one at `b` of radius `rb`
        along any of the three lines (centre to centre, left rims, right rims)."""
        key = ("see", a, ra, b, rb)
        seen = self._cache.get(key)
        if seen is None:
            seen = self._cache[key] = self._sees(a, ra, b, rb)
        return bool(seen)

    def _sees(self, a: Point, ra: float, b: Point, rb: float) -> bool:
        if a == b:
            return True
        edges = self._edges("difficult")
        if edges.count == 0:
            return True
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        lx, ly = -dy / length, dx / length  # left of the line a→b
        lines = [
            (a, b),
            ((a[0] + lx * ra, a[1] + ly * ra), (b[0] + lx * rb, b[1] + ly * rb)),
            ((a[0] - lx * ra, a[1] - ly * ra), (b[0] - lx * rb, b[1] - ly * rb)),
        ]
        into = SEE_INTO / length
        for p, q in lines:
            runs = edges.runs(p, q)
            if all(
                (lo <= 1e-9 and hi <= into + 1e-9) or (hi >= 1 - 1e-9 and lo >= 1 - into - 1e-9)
                for lo, hi in runs
            ):
                return True
        return False

    def on_table(self, at: Point, radius: float) -> bool:
        """Whether a base of `radius` centred `at` lies wholly on the table."""
        x, y = at
        return radius <= x <= self.width - radius and radius <= y <= self.depth - radius


def _roll(dice: DiceSource, label: str, sides: int) -> int:
    request = RollRequest(label=label, sides=sides)
    return resolve(request, dice.faces(request)).total


def _polygon(points: Sequence[Any], where: str) -> Polygon:
    try:
        area = Polygon([(float(x), float(y)) for x, y in points])
    except (TypeError, ValueError):
        raise ValueError(f"{where}: 'polygon' must be a list of [x, y] points") from None
    if len(points) < 3 or not area.is_valid or area.area <= 0:
        raise ValueError(f"{where}: 'polygon' is not a simple outline of 3 or more points")
    return area


def from_data(data: list[dict[str, Any]], width: float, depth: float) -> Battlefield:
    """A scenario's own terrain: `{"kind": "woods", "polygon": [[x, y], ...]}` for difficult
    ground (woods, town, swamp, rough) and `{"kind": "road", "line": [[x, y], ...]}`."""
    pieces = []
    for n, entry in enumerate(data, start=1):
        where = f"terrain entry {n}"
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if kind == "road":
            line = entry.get("line")
            if not isinstance(line, list) or len(line) < 2:
                raise ValueError(f"{where}: a road needs 'line', a list of 2 or more [x, y]")
            area = LineString([(float(x), float(y)) for x, y in line]).buffer(ROAD_WIDTH / 2)
            pieces.append(TerrainPiece("road", area, frozenset({Trait.ROAD}), name=f"road {n}"))
        elif kind in DIFFICULT_KINDS:
            area = _polygon(entry.get("polygon") or [], where)
            traits = frozenset({Trait.DIFFICULT, Trait.BLOCKS_SIGHT})
            pieces.append(TerrainPiece(str(kind), area, traits, name=f"{kind} {n}"))
        else:
            allowed = ", ".join((*DIFFICULT_KINDS, "road"))
            raise ValueError(f"{where}: kind {kind!r} is not one of {allowed}")
    return Battlefield(width, depth, tuple(pieces))


def generate(dice: DiceSource, *, width: float = 72.0, depth: float = 48.0) -> Battlefield:
    """Random battlefield generation (ours; every roll through the game's dice).

    d6+5 difficult pieces: each a kind (d4: woods, town, swamp, rough), a size (woods and
    swamps 2d4+2" across, towns and rough d4+3"), an octagon-ish outline squashed by a d3
    roll, and a centre rolled anywhere at least 10" from the long edges (clear deployment
    strips), rerolled up to 10 times until it is 1" from every other piece. Then d3−1 roads
    from the west edge to the east edge through two rolled bends.
    """
    pieces: list[TerrainPiece] = []
    count = _roll(dice, "terrain: difficult pieces (d6+5)", 6) + 5
    traits = frozenset({Trait.DIFFICULT, Trait.BLOCKS_SIGHT})
    for n in range(1, count + 1):
        kind = DIFFICULT_KINDS[_roll(dice, f"terrain {n}: kind (d4)", 4) - 1]
        if kind in ("woods", "swamp"):
            size = _roll(dice, f"terrain {n}: size", 4) + _roll(dice, f"terrain {n}: size", 4) + 2
        else:
            size = _roll(dice, f"terrain {n}: size", 4) + 3
        squash = 1.0 - 0.2 * (_roll(dice, f"terrain {n}: shape (d3)", 3) - 1)
        for attempt in range(10):
            x = _roll(dice, f"terrain {n}: x", int(width) - 8) + 4
            y = _roll(dice, f"terrain {n}: y", int(depth) - 20) + 10
            outline = [
                (
                    round(x + size / 2 * math.cos(math.radians(a)), 2),
                    round(y + squash * size / 2 * math.sin(math.radians(a)), 2),
                )
                for a in range(0, 360, 45)
            ]
            area = Polygon(outline)
            if all(area.distance(p.area) >= 1.0 for p in pieces):
                pieces.append(TerrainPiece(kind, area, traits, name=f"{kind} {n}"))
                break
            del attempt
    roads = _roll(dice, "terrain: roads (d3-1)", 3) - 1
    for n in range(1, roads + 1):
        ys = [_roll(dice, f"road {n}: bend {k}", int(depth) - 16) + 8 for k in range(4)]
        line = LineString([(0, ys[0]), (width / 3, ys[1]), (2 * width / 3, ys[2]), (width, ys[3])])
        pieces.append(
            TerrainPiece(
                "road", line.buffer(ROAD_WIDTH / 2), frozenset({Trait.ROAD}), name=f"road {n}"
            )
        )
    return Battlefield(width, depth, tuple(pieces))
