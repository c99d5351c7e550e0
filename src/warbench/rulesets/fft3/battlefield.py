"""The table of A Fistful of TOWs 3: Terrain (open, difficult, roads), Movement cost, sight
and the artillery template's line of sight.

Inches; origin at the bottom-left (south-west) corner, x along the long (72") edges, y across.
Stands have round bases given as (centre, radius).

Rulings (docs/rules/fft3.md):

- Terrain: "two terrain types – open and difficult (forests, swamps, towns, etc.)". Difficult
  pieces are woods, towns, swamps and rough (rocky fields), each DIFFICULT and BLOCKS_SIGHT.
- Roads lie over the terrain beside them: "Roads have the same combat effects as the terrain
  adjoining the road", so a road through woods is still in the woods for terrain saves,
  artillery and sight; only movement reads the road.
- Movement: a leg costs what its stand's centre crosses: 1 MP per inch in the open, 2 MP per
  inch for vehicles in difficult terrain ("½ inch per movement point"), 1 MP per inch for
  infantry in it, and ½ MP per inch on a road whatever lies beside it ("2" per movement
  point"; the road wins). A stretch running exactly along an edge is not inside the piece.
- In difficult terrain (terrain saves, artillery): the stand's centre is in a difficult piece
  or on its edge; a road does not change that.
- Sight: "difficult terrain blocks line of sight. Stands that are in difficult terrain can
  see 2" into that terrain. Stands on the edge of difficult terrain can see (and be seen)
  outside the terrain." A line is clear when every run of it inside difficult terrain
  (adjoining pieces merged) starts at one of its ends and is at most 2" long: exactly core
  `sight_line(a, b, terrain, see_into=2)`. So two stands deep in the same wood see each
  other only within 2".
- "Trace from any part of the stand to any part of the stand" is traced along three lines:
  centre to centre, and the two lines joining the bases' left-hand and right-hand extreme
  points (on each rim at ±90° from the centre-to-centre bearing). Sight is clear when any
  of the three is.
- Artillery: "a friendly stand can trace an unblocked line of sight to some part of the
  template" (a 2" circle): the same three lines, from the stand's base to the template's
  circle (`Battlefield.sees_template`).
- Scenario terrain must lie on the table; roads are clipped to it. Random generation is
  ours: the introductory rules give no method (see `generate`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from warbench.core.dice import DiceSource, RollRequest, resolve
from warbench.core.geometry import EPS
from warbench.core.terrain import TerrainPiece, Trait
from warbench.core.words import noun
from warbench.rulesets.fft3 import sightlines
from warbench.rulesets.fft3.moves import move_ends
from warbench.rulesets.fft3.rounding import rounded
from warbench.rulesets.fft3.stretches import Stretches, costs, covered, reaches

Point = tuple[float, float]
Floats = np.ndarray[Any, np.dtype[np.float64]]

DIFFICULT_KINDS = ("woods", "town", "swamp", "rough")
"""Difficult terrain: "forests, towns, rocky fields, swamps" (in the order a d4 picks them)."""
ROAD = "road"
DIFFICULT_TRAITS = frozenset({Trait.DIFFICULT, Trait.BLOCKS_SIGHT})
ROAD_TRAITS = frozenset({Trait.ROAD})
ROAD_WIDTH = 1.0  # ours: a road is its line widened to 1"

OPEN_MP = 1.0  # "Stands in open terrain move 1" per movement point"
VEHICLE_DIFFICULT_MP = 2.0  # "Vehicle stands in difficult terrain ... move ½ inch per MP"
INFANTRY_DIFFICULT_MP = 1.0  # "Infantry stands in difficult terrain move 1" per MP"
ROAD_MP = 0.5  # "Stands on roads move 2" per movement point"
SEE_INTO = 2.0  # "Stands that are in difficult terrain can see 2" into that terrain"
TEMPLATE_RADIUS = 1.0  # "a 2" diameter circle"

# generation (ours)
DEPLOYMENT_STRIP = 8.0  # the strips along the long edges that are kept nearly clear
CENTRE_MARGIN = 10.0  # piece centres stay this far from the long edges
STRIP_REACH = 2.0  # a piece may reach at most this far into a deployment strip
PIECE_GAP = 1.0  # difficult pieces stay at least this far apart
PLACEMENT_TRIES = 12  # facings and positions rolled for a piece before it is left out
SIZES = {"woods": (6.0, 12.0), "town": (4.0, 7.0), "swamp": (5.0, 10.0), "rough": (4.0, 9.0)}
"""How far each kind measures along its length (inches, rolled in 1" steps)."""
BREADTH = (0.6, 1.0)  # a piece's width as a fraction of its length, rolled in 0.1 steps
CORNERS = {"woods": 12, "swamp": 10, "rough": 8}  # corners of an oval outline; towns are oblongs
GRID = 0.01  # generated coordinates are rounded to this

COVER_DOUBT = 1e-7
"""Places this close (inches) to a difficult piece's outline, or level with a corner, are
judged by shapely rather than by the compiled test (`Battlefield.in_difficult_all`)."""
_MEMO_LIMIT = 1 << 17  # answers remembered per battlefield before the memo is emptied


# --- the battlefield -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Battlefield:
    """The table: `width` × `depth` inches and its terrain pieces (difficult areas, roads).

    Answers are remembered per battlefield (keyed by the exact arguments): the AI asks the
    same sight lines and legs many times a game.
    """

    width: float
    depth: float
    pieces: tuple[TerrainPiece, ...] = ()
    _memo: dict[tuple[Any, ...], Any] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.depth > 0):
            raise ValueError(f"a table needs a positive size, got {self.width} × {self.depth}")

    def _areas(self, trait: Trait) -> list[Polygon]:
        return [piece.area for piece in self.pieces if piece.has(trait)]

    @cached_property
    def _difficult(self) -> Stretches:
        return Stretches(self._areas(Trait.DIFFICULT))

    @cached_property
    def _sight(self) -> Stretches:
        return Stretches(self._areas(Trait.BLOCKS_SIGHT))

    @cached_property
    def _sight_arrays(self) -> sightlines.Areas:
        return sightlines.Areas(self._sight.areas, self._areas(Trait.BLOCKS_SIGHT))

    @cached_property
    def _roads(self) -> Stretches:
        return Stretches(self._areas(Trait.ROAD))

    @cached_property
    def _boxed(self) -> dict[Trait, list[tuple[tuple[float, float, float, float], Polygon]]]:
        return {t: [(a.bounds, a) for a in self._areas(t)] for t in (Trait.DIFFICULT, Trait.ROAD)}

    def _covered(self, trait: Trait, at: Point) -> bool:
        """Whether an area with `trait` covers `at` (its box is tried first: most points lie
        outside every box)."""
        x, y = at
        point = None
        for (x0, y0, x9, y9), area in self._boxed[trait]:
            if x0 <= x <= x9 and y0 <= y <= y9:
                point = point or shapely.Point(at)
                if area.covers(point):
                    return True
        return False

    def _remember(self, key: tuple[Any, ...], value: Any) -> None:
        if len(self._memo) >= _MEMO_LIMIT:
            self._memo.clear()
        self._memo[key] = value

    def in_difficult(self, at: Point) -> bool:
        """Whether a stand centred `at` is in difficult terrain (on a piece's edge counts; a
        road through it does not change that)."""
        key = ("in", at)
        found = self._memo.get(key)
        if found is None:
            found = self._in_difficult(at)
            self._remember(key, found)
        return bool(found)

    def _in_difficult(self, at: Point) -> bool:
        """`in_difficult` worked out: compiled code (`stretches.covered`, as in
        `in_difficult_all`) for a point in a piece's box, shapely where it is unsure."""
        x, y = at
        if not any(
            x0 <= x <= x9 and y0 <= y <= y9 for (x0, y0, x9, y9), _ in self._boxed[Trait.DIFFICULT]
        ):
            return False
        edges, sizes, starts, boxes = self._difficult.arrays
        sure = int(
            covered(np.array([x]), np.array([y]), edges, sizes, starts, boxes, COVER_DOUBT)[0]
        )
        return bool(sure) if sure >= 0 else self._covered(Trait.DIFFICULT, at)

    def in_difficult_all(
        self, xs: np.ndarray[Any, np.dtype[np.float64]], ys: np.ndarray[Any, np.dtype[np.float64]]
    ) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """`in_difficult` of each place (xs[i], ys[i]): compiled code (`stretches.covered`,
        which reads the pieces' outlines as `Stretches` does) answers for the places clear
        of every outline, `in_difficult` for the rest."""
        edges, sizes, starts, boxes = self._difficult.arrays
        found = covered(xs, ys, edges, sizes, starts, boxes, COVER_DOUBT)
        out: np.ndarray[Any, np.dtype[np.bool_]] = found > 0
        for i in (found < 0).nonzero()[0].tolist():
            out[i] = self.in_difficult((float(xs[i]), float(ys[i])))
        return out

    def on_road(self, at: Point) -> bool:
        """Whether a stand centred `at` is on a road (its edge counts)."""
        key = ("road", at)
        found = self._memo.get(key)
        if found is None:
            found = self._covered(Trait.ROAD, at)
            self._remember(key, found)
        return bool(found)

    def _legs(self, a: Point, b: Point, vehicle: bool) -> tuple[tuple[float, float], ...]:
        """The leg a→b as (length, MP per inch) stretches, judged by the stand's centre: roads
        ROAD_MP whatever lies beside them, vehicles in difficult terrain VEHICLE_DIFFICULT_MP,
        anything else 1 MP per inch."""
        key = ("leg", a, b, vehicle)
        found: tuple[tuple[float, float], ...] | None = self._memo.get(key)
        if found is not None:
            return found
        length = math.dist(a, b)
        roads = self._roads.runs(a, b)
        rough = self._difficult.runs(a, b) if vehicle else []
        if not roads and not rough:  # all in the open: the loop below gives the same
            found = ((length, OPEN_MP),) if length else ()
            self._remember(key, found)
            return found
        cuts = sorted({0.0, 1.0, *(c for run in roads + rough for c in run)})
        merged: list[list[float]] = []
        for lo, hi in pairwise(cuts):
            mid = (lo + hi) / 2
            if any(r0 < mid < r1 for r0, r1 in roads):
                mp = ROAD_MP
            elif any(r0 < mid < r1 for r0, r1 in rough):
                mp = VEHICLE_DIFFICULT_MP
            else:
                mp = OPEN_MP
            if merged and merged[-1][1] == mp:
                merged[-1][0] += (hi - lo) * length
            elif hi > lo:
                merged.append([(hi - lo) * length, mp])
        found = tuple((part, mp) for part, mp in merged) if length else ()
        self._remember(key, found)
        return found

    def leg_cost(self, a: Point, b: Point, *, vehicle: bool) -> float:
        """Movement: the MP a stand spends moving its centre straight from `a` to `b`."""
        return sum(part * rate for part, rate in self._legs(a, b, vehicle))

    def reach(self, a: Point, b: Point, mp: float, *, vehicle: bool) -> float:
        """How far (inches) along a→b a stand gets with `mp` MP: `dist(a, b)` when it can
        afford the whole leg, else where its MP run out."""
        return self.reach_all(a, [b], [mp], vehicle=vehicle)[0]

    def reach_all(
        self, a: Point, ends: Sequence[Point], mps: Sequence[float], *, vehicle: bool
    ) -> list[float]:
        """`reach` from `a` towards each of `ends` with the MP of `mps`, worked out together
        by compiled code (`stretches.reaches`: `_legs`'s stretches, then the MP spent part
        by part)."""
        found = reaches(
            a[0],
            a[1],
            _ends(a, ends),
            np.array(mps, dtype=np.float64),
            self._roads.arrays,
            (self._difficult if vehicle else _NOWHERE).arrays,
            _RATES,
            EPS,
        )
        got: list[float] = found.tolist()
        return got

    def move_ends(
        self,
        a: Point,
        limits: tuple[float, float, float, float],
        reach: Floats,
        sins: Floats,
        coss: Floats,
        mps: Floats,
        *,
        vehicle: bool,
    ) -> tuple[Floats, Floats]:
        """`moves.move_ends` from `a` on this table: each leg `reach[i]` along bearing (sins[i],
        coss[i]), clamped to `limits`, pulled back to what `mps[i]` MP pay for."""
        rough = (self._difficult if vehicle else _NOWHERE).arrays
        limit = np.array(limits, dtype=np.float64)
        ends: tuple[Floats, Floats]
        ends = move_ends(
            a[0], a[1], limit, reach, sins, coss, mps, self._roads.arrays, rough, _RATES, EPS, 2.0
        )
        return ends

    def leg_costs(self, a: Point, ends: Sequence[Point], *, vehicle: bool) -> list[float]:
        """`leg_cost` from `a` to each of `ends`, worked out together by compiled code
        (`stretches.costs`)."""
        found = costs(
            a[0],
            a[1],
            _ends(a, ends),
            self._roads.arrays,
            (self._difficult if vehicle else _NOWHERE).arrays,
            _RATES,
        )
        got: list[float] = found.tolist()
        return got

    def can_see(self, a: Point, ra: float, b: Point, rb: float) -> bool:
        """Whether the base of radius `ra` centred `a` and the one of radius `rb` centred `b`
        see each other: any of the centre line and the left-hand and right-hand rim lines is
        clear of difficult terrain, bar 2" into it at either end (see the module rulings)."""
        key = ("see", a, ra, b, rb)
        found = self._memo.get(key)
        if found is not None:
            return bool(found)
        if self._sight.areas:  # the compiled check of one pair, if it is sure
            sure = self._sight_arrays.sees_one(a[0], a[1], ra, b[0], b[1], rb, SEE_INTO + EPS)
            found = None if sure < 0 else bool(sure)
        if found is None:
            found = self._sees(a, ra, b, rb)
        memo = self._memo
        if len(memo) >= _MEMO_LIMIT - 1:
            memo.clear()
        memo[key] = memo["see", b, rb, a, ra] = found  # the three lines are the same
        return bool(found)

    def can_see_all(self, pairs: Sequence[tuple[Point, float, Point, float]]) -> list[bool]:
        """`can_see` for many (a, ra, b, rb) at once: the clear-cut lines are judged together
        by compiled code (`sightlines`), the rest one by one; every answer is remembered."""
        memo = self._memo
        answers: list[bool | None] = [memo.get(("see", *pair)) for pair in pairs]
        todo = [i for i, found in enumerate(answers) if found is None]
        if not todo:
            return [bool(found) for found in answers]
        if self._sight.areas:
            for i, found in zip(todo, self._batch_sees([pairs[i] for i in todo]), strict=True):
                answers[i] = found
        if len(memo) + 2 * len(todo) >= _MEMO_LIMIT:
            memo.clear()
        for i in todo:
            a, ra, b, rb = pairs[i]
            found = answers[i]
            if found is None:
                found = answers[i] = self._sees(a, ra, b, rb)
            memo["see", a, ra, b, rb] = memo["see", b, rb, a, ra] = found
        return [bool(found) for found in answers]

    def sees_pairs(
        self,
        px: Floats,
        py: Floats,
        radius: float,
        foes: tuple[Floats, Floats, Floats],
        near: tuple[np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, np.dtype[np.intp]]],
    ) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """`can_see` between the base of `radius` at (px[i], py[i]) and the foe's at
        (fx[j], fy[j]) of radius fr[j] (`foes`), for each pair (i, j) of `near`: the lines
        the compiled batch is sure of are not remembered (a candidate place's lines are
        seldom asked again), the rest are `can_see`'s."""
        near_i, near_j = near
        if not self._sight.areas:
            return np.ones(len(near_i), dtype=np.bool_)
        found = self._sight_arrays.sees_at(px, py, radius, foes, near, SEE_INTO + EPS)
        out: np.ndarray[Any, np.dtype[np.bool_]] = found > 0
        fx, fy, fr = foes
        for k in (found < 0).nonzero()[0].tolist():
            i, j = near_i[k], near_j[k]
            a, b = (float(px[i]), float(py[i])), (float(fx[j]), float(fy[j]))
            out[k] = self.can_see(a, radius, b, float(fr[j]))
        return out

    def sees_any(self, a: Point, ra: float, ends: Sequence[Point], rb: float) -> bool:
        """Whether `can_see(a, ra, b, rb)` for any b of `ends`: the compiled batch first, the
        exact code for the lines it is unsure of."""
        if not self._sight.areas:
            return True
        rows = np.array([(a[0], a[1], ra, b[0], b[1], rb) for b in ends])
        found = self._sight_arrays.sees(rows, SEE_INTO + EPS)
        if (found > 0).any():
            return True
        return any(
            self.can_see(a, ra, b, rb) for b, v in zip(ends, found.tolist(), strict=True) if v < 0
        )

    def _batch_sees(self, pairs: list[tuple[Point, float, Point, float]]) -> list[bool | None]:
        """The centre and rim lines of all pairs at once (`sightlines`): True or False where
        the batch is sure, else None."""
        rows = np.array([(a[0], a[1], ra, b[0], b[1], rb) for a, ra, b, rb in pairs])
        found = self._sight_arrays.sees(rows, SEE_INTO + EPS)
        return [None if v < 0 else bool(v) for v in found.tolist()]

    def sees_template(
        self, at: Point, radius: float, centre: Point, template: float = TEMPLATE_RADIUS
    ) -> bool:
        """Artillery: whether a stand (centre `at`, base `radius`) "can trace an unblocked
        line of sight to some part of the template" of `template` radius centred `centre`:
        the same three lines as between two stands."""
        return self.can_see(at, radius, centre, template)

    def _sees(self, a: Point, ra: float, b: Point, rb: float) -> bool:
        length = math.dist(a, b)
        if not self._sight.areas or length == 0:
            return True
        lx, ly = (a[1] - b[1]) / length, (b[0] - a[0]) / length  # left of a→b
        lines = [
            (a, b),
            ((a[0] + lx * ra, a[1] + ly * ra), (b[0] + lx * rb, b[1] + ly * rb)),
            ((a[0] - lx * ra, a[1] - ly * ra), (b[0] - lx * rb, b[1] - ly * rb)),
        ]
        for p, q in lines if ra > 0 or rb > 0 else lines[:1]:
            span = math.dist(p, q)
            into = SEE_INTO + EPS
            if all(
                (lo * span <= EPS and hi * span <= into)
                or (hi * span >= span - EPS and lo * span >= span - into)
                for lo, hi in self._sight.runs(p, q)
            ):
                return True
        return False

    def on_table(self, at: Point, radius: float) -> bool:
        """Whether a base of `radius` centred `at` lies wholly on the table (touching an edge
        counts)."""
        x, y = at
        return (
            radius - EPS <= x <= self.width - radius + EPS
            and radius - EPS <= y <= self.depth - radius + EPS
        )


def _ends(a: Point, ends: Sequence[Point]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Rows x, y, length and its square (by Python's `math.dist` and `**`, as `Stretches.runs`
    has them) of the legs from `a` to each of `ends`."""
    rows = [(b[0], b[1], length, length**2) for b in ends for length in (math.dist(a, b),)]
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


_NOWHERE = Stretches([])
"""No areas: where infantry's movement finds no difficult terrain to pay for."""
_RATES = np.array([ROAD_MP, VEHICLE_DIFFICULT_MP, OPEN_MP])
"""MP per inch on roads, for vehicles in difficult terrain and in the open (`_legs`)."""


# --- scenario terrain ----------------------------------------------------------------------------


def _points(raw: object, where: str, key: str, least: int) -> list[Point]:
    """The `[[x, y], ...]` of scenario data, or a clear error."""
    if not isinstance(raw, Sequence) or isinstance(raw, str) or len(raw) < least:
        raise ValueError(f"{where}: '{key}' must be a list of at least {least} [x, y] points")
    points = []
    for point in raw:
        if (
            not isinstance(point, Sequence)
            or isinstance(point, str)
            or len(point) != 2
            or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in point)
            or not all(math.isfinite(c) for c in point)
        ):
            raise ValueError(f"{where}: point {point!r} of '{key}' is not a pair of numbers [x, y]")
        points.append((float(point[0]), float(point[1])))
    return points


def _road_area(line: LineString, width: float, depth: float) -> Polygon | None:
    """A road: `line` widened to ROAD_WIDTH, clipped to the table, on a GRID; None if that is
    not one polygon."""
    wide = line.buffer(ROAD_WIDTH / 2, quad_segs=4).intersection(shapely.box(0, 0, width, depth))
    area = shapely.set_precision(wide, GRID)
    return area if isinstance(area, Polygon) and not area.is_empty else None


def from_data(data: list[dict[str, Any]], width: float, depth: float) -> Battlefield:
    """A scenario's own terrain, wholly on the table: `{"kind": "woods", "polygon": [[x, y],
    ...]}` for difficult ground (woods, town, swamp, rough) and `{"kind": "road", "line":
    [[x, y], ...]}` for a road (its line widened to 1"); each may have a `name`."""
    if not isinstance(data, Sequence) or isinstance(data, str):
        raise ValueError(f"terrain must be a list of entries, got {data!r}")
    table = shapely.box(0.0, 0.0, width, depth)
    allowed = ", ".join((*DIFFICULT_KINDS, ROAD))
    pieces = []
    for number, entry in enumerate(data, start=1):
        where = f"terrain entry {number}"
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where} must be a mapping with 'kind' and 'polygon' or 'line'")
        kind = entry.get("kind")
        if kind not in (*DIFFICULT_KINDS, ROAD):
            raise ValueError(f"{where}: kind {kind!r} is not one of {allowed}")
        where += f" ({kind})"
        key = "line" if kind == ROAD else "polygon"
        unknown = sorted(str(k) for k in entry if k not in ("kind", key, "name"))
        if unknown:
            raise ValueError(
                f"{where} has unknown {noun(len(unknown), 'field')} {', '.join(unknown)}; "
                f"allowed: kind, {key}, name"
            )
        name = entry.get("name", f"{kind} {number}")
        if not isinstance(name, str):
            raise ValueError(f"{where}: name must be text, got {name!r}")
        points = _points(entry.get(key), where, key, 2 if kind == ROAD else 3)
        off = [p for p in points if not table.covers(shapely.Point(p))]
        if off:
            raise ValueError(
                f'{where}: point {list(off[0])} lies off the {width:g}"×{depth:g}" table'
            )
        if kind == ROAD:
            if any(p == q for p, q in pairwise(points)):
                raise ValueError(f"{where}: 'line' repeats a point; give each bend once")
            area = _road_area(LineString(points), width, depth)
            if area is None:
                raise ValueError(f"{where}: 'line' does not make one road on the table")
            pieces.append(TerrainPiece(ROAD, area, ROAD_TRAITS, name=name))
        else:
            area = Polygon(points)
            if not area.is_valid or area.area <= 0:
                reason = shapely.is_valid_reason(area) if not area.is_valid else "it has no area"
                raise ValueError(f"{where}: 'polygon' is not a simple outline ({reason})")
            pieces.append(TerrainPiece(str(kind), area, DIFFICULT_TRAITS, name=name))
    return Battlefield(width, depth, tuple(pieces))


# --- generation (ours) ---------------------------------------------------------------------------


def _roll(dice: DiceSource, label: str, sides: int) -> int:
    """One die of `sides` faces through the game's dice: the face rolled."""
    request = RollRequest(label=label, dice=1, sides=sides)
    return resolve(request, dice.faces(request)).total


def _roll_between(dice: DiceSource, label: str, least: float, most: float, step: float) -> float:
    """A value from `least` to `most` in even steps of at most `step`: one die with as many
    sides as values; no roll when there is only one value."""
    if most - least <= EPS:
        return least
    sides = math.ceil((most - least) / step - EPS) + 1
    return least + (_roll(dice, label, sides) - 1) * (most - least) / (sides - 1)


def _shape(kind: str, length: float, breadth: float, facing: float, at: Point) -> Polygon:
    """A piece's outline: `length` along compass `facing`, `breadth` across, centred `at`;
    towns are oblongs, the rest ovals; corners rounded to GRID."""
    if kind == "town":
        local = [(-breadth / 2, length / 2), (breadth / 2, length / 2)]
        local += [(breadth / 2, -length / 2), (-breadth / 2, -length / 2)]
    else:
        corners = CORNERS[kind]
        turns = (2 * math.pi * (i + 0.5) / corners for i in range(corners))
        local = [(breadth / 2 * math.sin(t), length / 2 * math.cos(t)) for t in turns]
    fx, fy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    rx, ry = fy, -fx
    cx, cy = at
    return Polygon(
        [(rounded(cx + u * rx + v * fx, 2), rounded(cy + u * ry + v * fy, 2)) for u, v in local]
    )


def _place(
    dice: DiceSource, label: str, kind: str, placed: Sequence[Polygon], width: float, depth: float
) -> Polygon | None:
    """Roll a piece's length and breadth, then up to PLACEMENT_TRIES facings and centres until
    it lies on the table, near the deployment strips at most STRIP_REACH deep, and PIECE_GAP
    from every other piece; None when no try fits."""
    length = _roll_between(dice, f"{label}: length", *SIZES[kind], 1.0)
    breadth = length * _roll_between(dice, f"{label}: breadth (× length)", *BREADTH, 0.1)
    low, high = DEPLOYMENT_STRIP - STRIP_REACH, depth - DEPLOYMENT_STRIP + STRIP_REACH
    others = np.array(placed, dtype=object)
    for attempt in range(1, PLACEMENT_TRIES + 1):
        tried = f"{label}, try {attempt}"
        facing = 15.0 * _roll(dice, f"{tried}: facing (d12 × 15°)", 12)
        x0, y0, x1, y1 = _shape(kind, length, breadth, facing, (0.0, 0.0)).bounds
        xs = (GRID - x0, width - GRID - x1)
        ys = (max(CENTRE_MARGIN, low - y0), min(depth - CENTRE_MARGIN, high - y1))
        if xs[1] < xs[0] or ys[1] < ys[0]:
            continue  # does not fit the table at this facing
        x = _roll_between(dice, f"{tried}: x", *xs, 1.0)
        y = _roll_between(dice, f"{tried}: y", *ys, 1.0)
        area = _shape(kind, length, breadth, facing, (rounded(x, 2), rounded(y, 2)))
        ax0, ay0, ax1, ay1 = area.bounds
        fits = ax0 >= 0 and ax1 <= width and ay0 >= low and ay1 <= high and area.is_valid
        if fits and (not placed or bool(np.all(shapely.distance(others, area) >= PIECE_GAP))):
            return area
    return None


def _road_line(dice: DiceSource, label: str, width: float, depth: float) -> LineString:
    """A road from one short edge to the other (west to east) or from one long edge to the
    other (south to north) through one or two bends, each bend at most half the way to the
    next point off the line of the one before, and DEPLOYMENT_STRIP from the table's sides."""
    north = _roll(dice, f"{label}: direction (d2: 1 west to east, 2 south to north)", 2) == 2
    bends = _roll(dice, f"{label}: bends (d2)", 2)
    run, span = (depth, width) if north else (width, depth)
    least, most = DEPLOYMENT_STRIP, span - DEPLOYMENT_STRIP
    if most < least:
        least = most = span / 2
    spacing = run / (bends + 1)
    sideways = [_roll_between(dice, f"{label}: point 1", least, most, 1.0)]
    for k in range(2, bends + 3):
        last = sideways[-1]
        lo, hi = max(least, last - spacing / 2), min(most, last + spacing / 2)
        sideways.append(_roll_between(dice, f"{label}: point {k}", lo, hi, 1.0))
    along = [round(k * spacing, 2) for k in range(bends + 2)]
    side = [round(s, 2) for s in sideways]
    return LineString(
        list(zip(side, along, strict=True) if north else zip(along, side, strict=True))
    )


def generate(dice: DiceSource, *, width: float = 72.0, depth: float = 48.0) -> Battlefield:
    """A random battlefield, every roll through `dice` (ours: the rules give no method).

    d6+5 difficult pieces; for each a kind (d4: woods, town, swamp, rough), a length (woods
    6–12", swamps 5–10", rough 4–9", towns 4–7", one die with a side per inch), a breadth
    (0.6–1.0 of the length, d5), then up to 12 tries of a facing (d12 × 15°) and a centre (a
    die with a side per inch of room) until the piece lies on the table, its centre at least
    10" and its outline at most 2" into the 8" deployment strips along the long edges, and
    1" from every other piece; a piece that fits nowhere is left out. Then d3−1 roads, each
    from west to east or south to north (d2) through 1 or 2 bends (d2). Corners are rounded
    to 0.01". The same dice give the same table.
    """
    if not (width > 0 and depth > 0):
        raise ValueError(f"a table needs a positive size, got {width} × {depth}")
    pieces: list[TerrainPiece] = []
    count = _roll(dice, "terrain: difficult pieces (d6+5)", 6) + 5
    for slot in range(1, count + 1):
        label = f"terrain {slot}"
        kinds = ", ".join(DIFFICULT_KINDS)
        kind = DIFFICULT_KINDS[_roll(dice, f"{label}: kind (d4: {kinds})", 4) - 1]
        area = _place(dice, f"{label} ({kind})", kind, [p.area for p in pieces], width, depth)
        if area is not None:
            pieces.append(TerrainPiece(kind, area, DIFFICULT_TRAITS, name=f"{kind} {slot}"))
    roads = _roll(dice, "terrain: roads (d3-1)", 3) - 1
    for number in range(1, roads + 1):
        area = _road_area(_road_line(dice, f"road {number}", width, depth), width, depth)
        if area is not None:
            pieces.append(TerrainPiece(ROAD, area, ROAD_TRAITS, name=f"road {number}"))
    return Battlefield(width, depth, tuple(pieces))
