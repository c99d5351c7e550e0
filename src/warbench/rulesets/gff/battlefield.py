"""The table of Grimdark Future Firefight: THE BATTLEFIELD, DEPLOYMENT, MISSION markers, TERRAIN
(sight, cover, difficult, dangerous), MOVEMENT (coherency) and the Scout zone.

Inches; origin at the bottom-left (south-west) corner, x to the east, y to the north. Terrain
kinds and the generated mix are ours (data/terrain.yaml). Rulings are in each docstring:

- Sight: a target is seen along straight lines between 9 points of each base (centre and 8
  compass points on the edge, pulled 1% inside); a BLOCKS_SIGHT piece blocks a line that runs
  through its inside, ends included, so a model wholly inside a sight blocker neither sees nor
  is seen, and one partly inside sees and is seen from its points outside it. Models do not
  block sight.
- "Behind sight blockers": the centre-to-centre line from every shooting model is blocked.
- Heights in sight (only on a table with `heights`, i.e. under the jumping rules; GFF-R29):
  sight runs from a model's eyes (`eye_height`: 1", more for big bases, GFF-R32) above the
  ground it stands on to the target's eyes above its ground; every
  piece with a height is as tall as that height (a sight blocker without one stays endless),
  and blocks a line only where the line runs lower than its top over it: a model on a
  platform sees over lower blockers, a hill or a platform hides what is behind it, and a
  model so hidden is "behind sight blockers" (cover by elevation; GFF-R30).
- Difficult terrain: a move goes "through" a piece when the base swept along the path enters
  its inside (grazing its edge does not).
- Elevation (the optional jumping rules): a model stands at the height of the highest piece
  under its centre that is not impassable (`elevation`, `height_stretches`).
- Screens: `round_enters`, `box_covers`, `arrange_many` and `screen_objectives` answer many
  of the questions above at once, exactly as the one-at-a-time functions do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from itertools import pairwise
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import shapely
import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from warbench.core.dice import DiceSource, RollRequest
from warbench.core.geometry import EPS, Base, Path, Point, TerrainIndex, edge_distance
from warbench.core.terrain import TerrainPiece, Trait
from warbench.core.words import noun
from warbench.rulesets.gff.generation_kernels import clear_of, ring_at
from warbench.rulesets.gff.kernels import (
    ASK,
    HIT,
    convex_sight,
    first_formations,
    free_formations,
    outline,
    round_sight,
    round_tracks,
    rounded,
)

Edge = Literal["north", "south", "east", "west"]
Visibility = Literal["clear", "obscured", "hidden"]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.intp]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1

EDGES: tuple[Edge, ...] = ("north", "south", "east", "west")
TABLE = 48.0  # "a 4'x4' area"
PIECES = 22  # "with 20+ pieces of terrain"
DEPLOYMENT_DEPTH = 12.0  # "within 12" of their table edge"
ARMIES_APART = 24.0  # "as long as armies deploy at least 24" apart"
SCOUT_REACH = 12.0  # Scout: "fully within 12" of their deployment zone"
MARKER_SPACING = 9.0  # objectives "over 9" away from each other"
DIFFICULT_MOVE = 6.0  # "can't move more than 6" at a time in total"
COHERENCY_NEAR = 1.0  # "within 1" of at least one other member"
COHERENCY_ALL = 6.0  # "and within 6" of all other members"

PIECE_GAP = 0.5  # ours: generated pieces stay this far apart
IMPASSABLE_GAP = 3.0  # ours: impassable pieces stay this far from each other and the edges
IMPASSABLE_ACROSS = 6.0  # ours: the most an impassable kind may measure across
SIZE_STEP = 0.5  # sizes and heights are rolled in steps of at most this
POSITION_STEP = 1.0  # positions are rolled in steps of at most this
PLACEMENT_TRIES = 30  # facings and positions rolled for one piece before its kind is rerolled
SIGHT_PULL = 0.01  # sight points on a base's edge are pulled this fraction towards its centre
EYE = 1.0  # ours (GFF-R29): sight is traced this high above the ground a model stands on
BIG_EYE = 4.0  # ours (GFF-R32): the eyes of the biggest models (bases 4" and wider)
_ELLIPSE_SIDES = 24
_TOUCH = 1e-6  # touching within this counts as touching, not overlapping
_EVERY_PAIR = 200_000  # spots × bases up to which every distance is measured, not a tree's
_INSCRIBED = 1e-3  # a round base's polygon reaches at least this much less than its radius
TINY = EPS  # lengths closer than this count as equal (move lengths, the table's edges)


# --- terrain kinds (data/terrain.yaml) -----------------------------------------------------------


class TerrainKind(BaseModel):
    """One kind of terrain: its traits, outline and the ranges its size and height come from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    traits: frozenset[Trait]
    shape: Literal["rect", "ellipse"]
    length: tuple[float, float]
    width: tuple[float, float]
    height: tuple[float, float] = (0.0, 0.0)
    jumping: bool = False  # only on generated tables for the optional jumping rules

    @field_validator("length", "width", "height")
    @classmethod
    def _range(cls, value: tuple[float, float]) -> tuple[float, float]:
        if not 0 <= value[0] <= value[1]:
            raise ValueError(f"a range is [least, most] with 0 <= least <= most, got {list(value)}")
        return value

    @model_validator(mode="after")
    def _sizes(self) -> TerrainKind:
        if self.length[0] <= 0 or self.width[0] <= 0:
            raise ValueError("a terrain kind needs a positive length and width")
        if Trait.IMPASSABLE in self.traits and self.across > IMPASSABLE_ACROSS + EPS:
            raise ValueError(
                f'an impassable kind may be at most {IMPASSABLE_ACROSS:g}" across, '
                f'this one reaches {self.across:.2f}"'
            )
        return self

    @property
    def across(self) -> float:
        """The most a piece of this kind can measure across."""
        length, width = self.length[1], self.width[1]
        return math.hypot(length, width) if self.shape == "rect" else max(length, width)


class MixRule(BaseModel):
    """At least `least` pieces of a generated table have any of the traits `any_of`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    any_of: frozenset[Trait]
    least: int = Field(ge=0)

    def counts(self, traits: frozenset[Trait]) -> bool:
        """Whether a piece with `traits` counts towards this rule."""
        return bool(self.any_of & traits)


class TerrainTable(BaseModel):
    """data/terrain.yaml: the kinds, in order, and the mix of a generated table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kinds: dict[str, TerrainKind]
    mix: dict[str, MixRule]

    @model_validator(mode="after")
    def _mix_possible(self) -> TerrainTable:
        for name, rule in self.mix.items():
            if rule.least and not any(rule.counts(k.traits) for k in self.kinds.values()):
                raise ValueError(f"no terrain kind counts towards the mix rule '{name}'")
        return self


@cache
def terrain_table() -> TerrainTable:
    """The terrain kinds and mix of data/terrain.yaml (ours)."""
    text = resources.files(__package__).joinpath("data/terrain.yaml").read_text()
    return TerrainTable.model_validate(yaml.safe_load(text))


def terrain_kinds() -> dict[str, TerrainKind]:
    """The terrain kinds by name, in the data file's order."""
    return terrain_table().kinds


def _label(piece: TerrainPiece) -> str:
    return piece.name or piece.kind


# --- the battlefield -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Battlefield:
    """THE BATTLEFIELD: a `width` × `depth` table (inches) and the terrain pieces on it."""

    width: float = TABLE
    depth: float = TABLE
    pieces: tuple[TerrainPiece, ...] = ()
    heights: bool = False  # pieces' heights count (the optional jumping rules; GFF-R22, R29)

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.depth > 0):
            raise ValueError(f"a table needs a positive size, got {self.width} × {self.depth}")

    @cached_property
    def index(self) -> TerrainIndex:
        """The pieces in an STRtree, for quick look-ups."""
        return TerrainIndex(self.pieces)

    @cached_property
    def table(self) -> Polygon:
        """The playing area."""
        return shapely.box(0.0, 0.0, self.width, self.depth)

    @cached_property
    def _sight(self) -> _SightBlockers | None:
        """The BLOCKS_SIGHT pieces (with `heights`, also every piece with a height), ready for
        many sight lines at once (None when none)."""
        blockers = [
            p for p in self.pieces if p.has(Trait.BLOCKS_SIGHT) or (self.heights and p.height > 0)
        ]
        if not blockers:
            return None
        tops = [p.height if self.heights and p.height > 0 else math.inf for p in blockers]
        return _SightBlockers.of([p.area for p in blockers], tops)

    @cached_property
    def _impassable(self) -> tuple[BaseGeometry, Floats] | None:
        """All impassable pieces as one prepared shape, and their bounding boxes (None when
        there are none)."""
        areas = [p.area for p in self.pieces if p.has(Trait.IMPASSABLE)]
        if not areas:
            return None
        union = shapely.union_all(areas)
        shapely.prepare(union)
        return union, np.array([area.bounds for area in areas], dtype=np.float64)

    @cached_property
    def _cover(self) -> tuple[BaseGeometry, BaseGeometry] | None:
        """All cover terrain as one prepared shape and its prepared outline (None when none)."""
        areas = [p.area for p in self.pieces if p.traits & _COVER]
        if not areas:
            return None
        union = shapely.union_all(areas)
        rim = union.boundary
        shapely.prepare(union)
        shapely.prepare(rim)
        return union, rim

    @cached_property
    def _by_trait(self) -> dict[Trait, tuple[npt.NDArray[np.object_], Floats]]:
        """For each trait, the areas of the pieces with it and their bounding boxes (P × 4)."""
        found = {}
        for trait in Trait:
            areas = [p.area for p in self.pieces if p.has(trait)]
            boxes = np.array([a.bounds for a in areas], dtype=np.float64).reshape(-1, 4)
            found[trait] = (np.array(areas, dtype=object), boxes)
        return found

    @cached_property
    def _cover_boxes(self) -> list[tuple[Polygon, float, float, float, float]]:
        """The cover pieces' areas and bounds (x0, y0, x1, y1), trait by trait as `_COVER`
        gives them (a piece of both is there twice, as `_by_trait` has it)."""
        return [(a, *a.bounds) for trait in _COVER for a in self._by_trait[trait][0]]

    @cached_property
    def _outlines(self) -> dict[Trait, tuple[Floats, Ints, Bools]]:
        """For each trait, the closed outlines of the pieces with it (`_by_trait`'s order) one
        after the other, where each starts (and the end), and whether each has no holes."""
        return {trait: _outlines(areas) for trait, (areas, _) in self._by_trait.items()}

    def terrain_arrays(self, trait: Trait) -> tuple[Floats, Floats, Ints, Bools]:
        """The pieces with `trait` as the compiled kernels read them: bounding boxes, closed
        outlines one after the other, where each starts, whether each has no holes."""
        return (self._by_trait[trait][1], *self._outlines[trait])

    @classmethod
    def from_data(
        cls, items: Sequence[Mapping[str, Any]], *, width: float = TABLE, depth: float = TABLE
    ) -> Battlefield:
        """A table from scenario data: each item has `kind`, `polygon` ([[x, y], ...], at least
        three corners) and optionally `height` (default: the kind's least) and `name`."""
        kinds = terrain_kinds()
        table = shapely.box(0.0, 0.0, width, depth)
        pieces = []
        for number, item in enumerate(items, start=1):
            where = f"terrain piece {number}"
            if not isinstance(item, Mapping):
                raise ValueError(f"{where} must be a mapping with kind and polygon, got {item!r}")
            unknown = set(item) - {"kind", "polygon", "height", "name"}
            if unknown:
                raise ValueError(
                    f"{where} has unknown {noun(len(unknown), 'field')} "
                    f"{', '.join(sorted(map(str, unknown)))}; "
                    "allowed: kind, polygon, height, name"
                )
            name = item.get("name", "")
            if not isinstance(name, str):
                raise ValueError(f"{where}: name must be text, got {name!r}")
            if name:
                where += f" '{name}'"
            kind = item.get("kind")
            if not isinstance(kind, str) or kind not in kinds:
                raise ValueError(f"{where}: unknown kind {kind!r}; known kinds: {', '.join(kinds)}")
            area = _polygon(item.get("polygon"), where)
            if not table.covers(area):
                x0, y0, x1, y1 = area.bounds
                raise ValueError(
                    f'{where} lies off the {width:g}"×{depth:g}" table: its polygon spans '
                    f"x {x0:g}..{x1:g}, y {y0:g}..{y1:g}"
                )
            height = item.get("height", kinds[kind].height[0])
            if isinstance(height, bool) or not isinstance(height, int | float) or height < 0:
                raise ValueError(f"{where}: height must be a number >= 0, got {height!r}")
            pieces.append(
                TerrainPiece(
                    kind, area, kinds[kind].traits, float(height), name or f"{kind} {number}"
                )
            )
        return cls(width, depth, tuple(pieces))

    def to_data(self) -> list[dict[str, Any]]:
        """The pieces as `from_data` reads them."""
        return [
            {
                "kind": p.kind,
                "polygon": [[x, y] for x, y in list(p.area.exterior.coords)[:-1]],
                "height": p.height,
                "name": p.name,
            }
            for p in self.pieces
        ]

    @cached_property
    def _zones(self) -> dict[tuple[str, Edge, float], Polygon]:
        """The zones asked for so far (they never change)."""
        return {}

    def deployment_zone(self, edge: Edge, depth: float = DEPLOYMENT_DEPTH) -> Polygon:
        """`deployment_zone` on this table."""
        key = ("deployment", edge, depth)
        if key not in self._zones:
            self._zones[key] = deployment_zone(
                edge, depth, width=self.width, table_depth=self.depth
            )
        return self._zones[key]

    def scout_zone(self, edge: Edge, depth: float = DEPLOYMENT_DEPTH) -> Polygon:
        """`scout_zone` on this table."""
        key = ("scout", edge, depth)
        if key not in self._zones:
            self._zones[key] = scout_zone(edge, depth, width=self.width, table_depth=self.depth)
        return self._zones[key]


def _polygon(points: object, where: str) -> Polygon:
    """The polygon of scenario data `[[x, y], ...]`, or a clear error."""
    if not isinstance(points, Sequence) or isinstance(points, str) or len(points) < 3:
        raise ValueError(f"{where}: polygon must be a list of at least 3 [x, y] points")
    corners = []
    for point in points:
        if (
            not isinstance(point, Sequence)
            or isinstance(point, str)
            or len(point) != 2
            or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in point)
            or not all(math.isfinite(c) for c in point)
        ):
            raise ValueError(f"{where}: polygon point {point!r} is not a pair of numbers [x, y]")
        corners.append((float(point[0]), float(point[1])))
    area = shapely.Polygon(corners)
    if not area.is_valid or area.area <= 0:
        reason = shapely.is_valid_reason(area) if not area.is_valid else "it has no area"
        raise ValueError(f"{where}: polygon is not a simple outline ({reason})")
    return area


def _outlines(areas: Iterable[Polygon]) -> tuple[Floats, Ints, Bools]:
    """The closed outlines of `areas` one after the other, where each starts (and the end),
    and whether each has no holes: what the compiled kernels read."""
    shapes = np.asarray(areas, dtype=object).reshape(-1)
    joined, owner = shapely.get_coordinates(shapely.get_exterior_ring(shapes), return_index=True)
    offsets = np.zeros(len(shapes) + 1, dtype=np.intp)
    np.cumsum(np.bincount(owner, minlength=len(shapes)), out=offsets[1:])
    plain = np.asarray(shapely.get_num_interior_rings(shapes) == 0, dtype=np.bool_).reshape(-1)
    return np.ascontiguousarray(joined, dtype=np.float64), offsets, plain


# --- generation ----------------------------------------------------------------------------------


def _roll(dice: DiceSource, label: str, sides: int) -> int:
    """One die of `sides` faces through the game's dice: the face rolled."""
    request = RollRequest(label=label, dice=1, sides=sides)
    faces = dice.faces(request)
    if len(faces) != 1 or not 1 <= faces[0] <= sides:
        raise ValueError(f"{label}: faces {list(faces)} do not fit d{sides}")
    return faces[0]


def _roll_between(dice: DiceSource, label: str, least: float, most: float, step: float) -> float:
    """A value from `least` to `most` in even steps of at most `step`: one die with as many
    sides as values; no roll when there is only one value."""
    if most - least <= EPS:
        return least
    sides = math.ceil((most - least) / step - EPS) + 1
    return least + (_roll(dice, label, sides) - 1) * (most - least) / (sides - 1)


_ELLIPSE_ANGLES = [2 * math.pi * i / _ELLIPSE_SIDES for i in range(_ELLIPSE_SIDES)]
_TURNS = {  # the sines and cosines of a piece's outline points (`_corners`), by shape
    "rect": (np.array([-1.0, 1.0, 1.0, -1.0]), np.array([1.0, 1.0, -1.0, -1.0])),
    "ellipse": (
        np.array([math.sin(t) for t in _ELLIPSE_ANGLES]),
        np.array([math.cos(t) for t in _ELLIPSE_ANGLES]),
    ),
}


def round_all(values: Floats, digits: int) -> list[float]:
    """`round(v, digits)` of each value of a flat array, the very floats, compiled
    (`kernels.rounded`: Python's round goes through decimal text, ~3,000 instructions a
    value); the few it leaves (NaN) are asked of `round`."""
    found: list[float] = rounded(values, float(10**digits)).tolist()
    if math.isnan(sum(found)):  # a NaN sums to NaN
        pairs = zip(values.tolist(), found, strict=True)
        found = [round(v, digits) if f != f else f for v, f in pairs]
    return found


@cache
def _facing(facing: float) -> tuple[float, float]:
    """The compass `facing`'s (degrees) east and north parts: its sine and cosine."""
    return math.sin(math.radians(facing)), math.cos(math.radians(facing))


def _corners(
    shape: str, length: float, width: float, facing: float, at: Point
) -> list[tuple[float, float]]:
    """A piece's outline (a `rect` or an ellipse): `length` along compass `facing`, `width`
    across, centred `at` (corners rounded to a millionth of an inch)."""
    sin, cos = _TURNS["rect" if shape == "rect" else "ellipse"]
    fx, fy = _facing(facing)
    xy = round_all(outline(sin, cos, width / 2, length / 2, at[0], at[1], fx, fy), 6)
    return list(zip(xy[::2], xy[1::2], strict=True))


def _ring(shape: str, length: float, width: float, facing: float, at: Point) -> tuple[Floats, Box]:
    """`_corners` closed (the first corner again at the end), as an array, and their bounds
    (`_bounds`): compiled (`generation_kernels.ring_at`), by `_corners` when a coordinate
    needs Python's round."""
    sin, cos = _TURNS["rect" if shape == "rect" else "ellipse"]
    fx, fy = _facing(facing)
    ring, *box, sure = ring_at(sin, cos, width / 2, length / 2, at[0], at[1], fx, fy, 1e6)
    if not sure:
        corners = _corners(shape, length, width, facing, at)
        return np.array([*corners, corners[0]], dtype=np.float64), _bounds(corners)
    x0, y0, x1, y1 = box
    return ring, (x0, y0, x1, y1)


@cache
def _reach(
    shape: str, length: float, width: float, facing: float
) -> tuple[float, float, float, float]:
    """The bounds of a piece's outline centred on the origin (`_corners`)."""
    return _bounds(_corners(shape, length, width, facing, (0.0, 0.0)))


def _bounds(corners: Sequence[tuple[float, float]]) -> Box:
    """x0, y0, x1, y1 of the corners."""
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


@cache
def _kinds(jumping: bool) -> dict[str, TerrainKind]:
    """The kinds a generated table rolls among: those marked `jumping` only when the optional
    jumping rules are used."""
    return {name: kind for name, kind in terrain_kinds().items() if jumping or not kind.jumping}


class _Placed:
    """The pieces placed so far on a generated table, kept as `_clear_of` reads them (areas,
    bounding boxes, closed outlines, the gaps a new piece needs) and how many of each mix rule
    they fill: grown a piece at a time, at most `room` pieces."""

    def __init__(self, room: int) -> None:
        self.pieces: list[TerrainPiece] = []
        self.filled = dict.fromkeys(terrain_table().mix, 0)
        self._areas = np.empty(room, dtype=object)
        self._boxes = np.empty((room, 4), dtype=np.float64)
        self._gaps = {  # by whether the new piece is impassable
            False: np.full(room, PIECE_GAP),
            True: np.full(room, PIECE_GAP),
        }
        self._rings = np.empty((room * (_ELLIPSE_SIDES + 1), 2), dtype=np.float64)
        self._offsets = np.zeros(room + 1, dtype=np.intp)

    def add(self, kind: str, ring: Floats, box: Box, height: float, name: str) -> None:
        """Place a piece of `kind` whose outline is the closed `ring` (its bounding box `box`)."""
        k = len(self.pieces)
        start = self._offsets[k]
        self._rings[start : start + len(ring)] = ring
        self._offsets[k + 1] = start + len(ring)
        traits = terrain_kinds()[kind].traits
        piece = TerrainPiece(kind, shapely.polygons(ring), traits, height, name)
        self._areas[k] = piece.area
        self._boxes[k] = box
        if Trait.IMPASSABLE in traits:
            self._gaps[True][k] = IMPASSABLE_GAP
        for rule_name, rule in terrain_table().mix.items():
            self.filled[rule_name] += rule.counts(traits)
        self.pieces.append(piece)

    def clear(self, ring: Floats, box: Box, impassable: bool) -> bool:
        """Whether a new piece (closed `ring`, `box`) keeps its gaps from every placed piece
        (`_clear_of`): 0.5", or 3" between impassable pieces."""
        k = len(self.pieces)
        outlines = (self._rings, self._offsets[: k + 1])
        needed = self._gaps[impassable][:k]
        return _clear_of(ring, box, self._areas[:k], self._boxes[:k], needed, outlines)


def _choices(placed: _Placed, slots_left: int, jumping: bool = False) -> list[str]:
    """The kinds the next piece is rolled among: all of them while `slots_left` suffice to fill
    the mix still missing, else those that fill something missing; kinds marked `jumping`
    only when the optional jumping rules are used."""
    data = terrain_table()
    kinds = _kinds(jumping)
    missing = {name: rule.least - placed.filled[name] for name, rule in data.mix.items()}
    if slots_left > sum(max(0, m) for m in missing.values()):
        return list(kinds)
    return [
        name
        for name, kind in kinds.items()
        if any(m > 0 and data.mix[rule].counts(kind.traits) for rule, m in missing.items())
    ]


def _place(
    dice: DiceSource,
    label: str,
    name: str,
    kind_name: str,
    placed: _Placed,
    width: float,
    depth: float,
) -> bool:
    """Roll a piece's size and height, then up to PLACEMENT_TRIES facings and positions until it
    stands on the table clear of the others, and place it; False when no try fits."""
    kind = terrain_kinds()[kind_name]
    length = _roll_between(dice, f"{label}: length", *kind.length, SIZE_STEP)
    across = _roll_between(dice, f"{label}: width", *kind.width, SIZE_STEP)
    height = _roll_between(dice, f"{label}: height", *kind.height, SIZE_STEP)
    impassable = Trait.IMPASSABLE in kind.traits
    margin = IMPASSABLE_GAP if impassable else 0.0
    for attempt in range(1, PLACEMENT_TRIES + 1):
        tried = f"{label}, try {attempt}"
        facing = 30.0 * _roll(dice, f"{tried}: facing (d12 × 30°)", 12)
        x0, y0, x1, y1 = _reach(kind.shape, length, across, facing)
        xs, ys = (margin - x0, width - margin - x1), (margin - y0, depth - margin - y1)
        if xs[1] < xs[0] or ys[1] < ys[0]:
            continue  # does not fit the table at this facing
        x = _roll_between(dice, f"{tried}: x", *xs, POSITION_STEP)
        y = _roll_between(dice, f"{tried}: y", *ys, POSITION_STEP)
        ring, box = _ring(kind.shape, length, across, facing, (x, y))
        ax0, ay0, ax1, ay1 = box  # rounded corners may stray a millionth
        on_table = min(ax0, ay0) >= margin and ax1 <= width - margin and ay1 <= depth - margin
        if on_table and placed.clear(ring, box, impassable):
            placed.add(kind_name, ring, box, height, name)
            return True
    return False


def _clear_of(
    ring: Floats,
    box: Box,
    areas: npt.NDArray[np.object_],
    boxes: Floats,
    needed: Floats,
    outlines: tuple[Floats, Ints],
) -> bool:
    """Whether the new piece (the closed `ring`) keeps `needed` from every placed area (their
    `outlines`: rings and offsets, as `_outlines`; generated pieces have no holes): pieces
    whose bounding boxes are that far apart surely do; the distance is measured only to the
    others, by `generation_kernels.clear_of` (compiled), by shapely where that is within a
    hair of `needed`."""
    if not len(areas):
        return True
    verdict = clear_of(ring, box, boxes, *outlines, needed, EPS)
    if verdict != ASK:
        return bool(verdict == HIT)
    gap_x = np.maximum(boxes[:, 0] - box[2], box[0] - boxes[:, 2])
    gap_y = np.maximum(boxes[:, 1] - box[3], box[1] - boxes[:, 3])
    near = np.hypot(np.maximum(gap_x, 0.0), np.maximum(gap_y, 0.0)) < needed - EPS
    distances = shapely.distance(areas[near], shapely.polygons(ring))
    return bool(np.all(distances >= needed[near] - EPS))


def generate_battlefield(
    dice: DiceSource,
    *,
    width: float = TABLE,
    depth: float = TABLE,
    pieces: int = PIECES,
    jumping: bool = False,
) -> Battlefield:
    """THE BATTLEFIELD: "a 4'x4' area, with 20+ pieces of terrain", every roll through `dice`.

    For each piece: its kind (one die with a side per kind it may be), its length, width and
    height (data/terrain.yaml ranges, 0.5" steps), then up to 30 tries of a facing (d12 × 30°)
    and a centre (x and y, one die with a side per inch of room) until it is on the table, at
    least 0.5" from every other piece and, if impassable, 3" from other impassable pieces and
    the table edges. A piece that fits nowhere is rerolled from its kind, at most `pieces`
    times in all.

    The mix: the kind is rolled among all kinds while the pieces left to place are more than
    the pieces still missing from the mix (data/terrain.yaml: 3 cover, 3 difficult, 2
    dangerous, 3 sight blockers), and among the kinds that fill something missing once they
    are not; so a table of 11+ pieces always has the mix (unless it is too crowded to place
    them all: then it has fewer pieces).

    With `jumping` (the optional special moves) the kinds marked for it (platforms) are
    rolled too.

    Reachability: impassable pieces are convex, at most 6" across, 3" from each other and the
    edges, so a round base under 3" across can reach every spot of the table it fits on.
    """
    if pieces < 0:
        raise ValueError(f"pieces must be 0 or more, got {pieces}")
    table = Battlefield(width, depth)
    placed = _Placed(pieces)
    rerolls = 0
    while len(placed.pieces) < pieces and rerolls <= pieces:
        slot = len(placed.pieces) + 1
        label = f"terrain {slot}" + (f" (reroll {rerolls})" if rerolls else "")
        choices = _choices(placed, pieces - len(placed.pieces), jumping)
        pick = 1 if len(choices) == 1 else _roll(dice, f"{label}: kind", len(choices))
        kind = choices[pick - 1]
        if not _place(dice, label, f"{kind} {slot}", kind, placed, table.width, table.depth):
            rerolls += 1
    return Battlefield(width, depth, tuple(placed.pieces))


# --- deployment and scouting ---------------------------------------------------------------------


def opposite(edge: Edge) -> Edge:
    """The opponent's edge: "with their opponent taking the opposite"."""
    opposites: dict[Edge, Edge] = {
        "north": "south",
        "south": "north",
        "east": "west",
        "west": "east",
    }
    return opposites[edge]


def _strip(edge: Edge, deep: float, width: float, depth: float) -> Polygon:
    """The part of the table within `deep` of `edge`."""
    if edge == "south":
        return shapely.box(0.0, 0.0, width, min(deep, depth))
    if edge == "north":
        return shapely.box(0.0, max(0.0, depth - deep), width, depth)
    if edge == "west":
        return shapely.box(0.0, 0.0, min(deep, width), depth)
    if edge == "east":
        return shapely.box(max(0.0, width - deep), 0.0, width, depth)
    raise ValueError(f"unknown table edge {edge!r}; edges: {', '.join(EDGES)}")


def deployment_depth(
    edge: Edge, depth: float = DEPLOYMENT_DEPTH, *, width: float = TABLE, table_depth: float = TABLE
) -> float:
    """How deep the deployment zone at `edge` is: `depth` (12"), made shallower on a smaller
    table so that "armies deploy at least 24" apart"."""
    across = table_depth if edge in ("north", "south") else width
    deep = min(depth, (across - ARMIES_APART) / 2)
    if deep <= 0:
        raise ValueError(
            f'a table {across:g}" across leaves no room to deploy {ARMIES_APART:g}" apart'
        )
    return deep


def deployment_zone(
    edge: Edge, depth: float = DEPLOYMENT_DEPTH, *, width: float = TABLE, table_depth: float = TABLE
) -> Polygon:
    """DEPLOYMENT: the part of the table "within 12" of their table edge" (shallower on a table
    too small for the armies to deploy 24" apart)."""
    deep = deployment_depth(edge, depth, width=width, table_depth=table_depth)
    return _strip(edge, deep, width, table_depth)


def scout_zone(
    edge: Edge, depth: float = DEPLOYMENT_DEPTH, *, width: float = TABLE, table_depth: float = TABLE
) -> Polygon:
    """Scout: "anywhere fully within 12" of their deployment zone", that is within the
    deployment depth + 12" of the edge (24" on a full table)."""
    deep = deployment_depth(edge, depth, width=width, table_depth=table_depth) + SCOUT_REACH
    return _strip(edge, deep, width, table_depth)


def rectangle_bounds(box: Polygon) -> tuple[float, float, float, float]:
    """The bounds of `box`, which must be a rectangle with sides along the axes."""
    x0, y0, x1, y1 = box.bounds
    if abs(float(box.area) - (x1 - x0) * (y1 - y0)) > EPS:
        raise ValueError("box_covers needs a rectangle with sides along the axes")
    return x0, y0, x1, y1


def box_covers(box: Polygon, bases: Sequence[Base]) -> bool:
    """Whether every base lies wholly inside `box` (a rectangle with sides along the axes,
    such as a deployment zone; touching its edge from inside counts), as `box.covers` of the
    base's polygon says: a round base's polygon is inscribed in its circle, so only a base
    whose circle comes within 0.1 % of its radius of the box's edge is looked at closely."""
    x0, y0, x1, y1 = rectangle_bounds(box)
    for base in bases:
        if base.depth is None:
            cx, cy = base.centre
            r = base.width / 2
            room = min(cx - x0, x1 - cx, cy - y0, y1 - cy)
            if room >= r + _TOUCH:
                continue
            if room < r * (1 - _INSCRIBED):
                return False
        if not box.covers(base.shape()):
            return False
    return True


# --- objectives ----------------------------------------------------------------------------------


def _at(point: Point) -> str:
    return f"({point[0]:.2f}, {point[1]:.2f})"


def objective_problem(
    point: Point, placed: Sequence[Point], zones: Sequence[Polygon], bf: Battlefield
) -> str | None:
    """MISSION: why a marker cannot go at `point`, or None. Markers go on the table, "outside
    of deployment zones, and over 9" away from each other"; ours: not inside impassable
    terrain (a marker on its edge is fine), where no model could reach it. A point on a
    zone's boundary is within 12" of the edge, so it is inside the zone."""
    x, y = point
    if not (0.0 <= x <= bf.width and 0.0 <= y <= bf.depth):
        return (
            f"the marker at {_at(point)} is off the table; place it within the "
            f'{bf.width:g}"×{bf.depth:g}" table'
        )
    spot = shapely.Point(point)
    for piece in bf.index.near(spot):
        if piece.has(Trait.IMPASSABLE) and piece.area.contains(spot):
            return (
                f"the marker at {_at(point)} is inside impassable terrain ({_label(piece)}); "
                "place it where models can reach it"
            )
    if any(zone.covers(spot) for zone in zones):
        return (
            f"the marker at {_at(point)} is inside a deployment zone; markers go outside of "
            "deployment zones"
        )
    for other in placed:
        gap = math.dist(point, other)
        if gap <= MARKER_SPACING + EPS:
            return (
                f'the marker at {_at(point)} is {gap:.2f}" from the marker at {_at(other)}; '
                f'markers must be over {MARKER_SPACING:g}" away from each other'
            )
    return None


def screen_objectives(
    points: Sequence[Point], placed: Sequence[Point], zones: Sequence[Polygon], bf: Battlefield
) -> list[bool | None]:
    """What `objective_problem` would say of each point, all at once: True no problem,
    False a problem, None "ask it" (a spacing within float noise of 9")."""
    if not points:
        return []
    at = np.asarray(points, dtype=np.float64)
    xs, ys = at[:, 0], at[:, 1]
    bad = ~((xs >= 0.0) & (xs <= bf.width) & (ys >= 0.0) & (ys <= bf.depth))
    for area in bf._by_trait[Trait.IMPASSABLE][0]:
        bad |= np.asarray(shapely.contains_xy(area, xs, ys), dtype=np.bool_)
    for zone in zones:  # a point is covered exactly when it meets the zone
        bad |= np.asarray(shapely.intersects_xy(zone, xs, ys), dtype=np.bool_)
    unsure = np.zeros(len(at), dtype=np.bool_)
    for other in placed:
        gap = np.hypot(xs - other[0], ys - other[1])
        bad |= gap <= MARKER_SPACING + EPS - 1e-9
        unsure |= np.abs(gap - (MARKER_SPACING + EPS)) <= 1e-9
    return [
        False if b else None if u else True
        for b, u in zip(bad.tolist(), unsure.tolist(), strict=True)
    ]


def marker_within(point: Point, base: Base, distance: float) -> bool:
    """Whether `base` is within `distance` of the marker at `point`, measured from the base's
    edge ("a unit is within 3" of a marker"); allows EPS of float noise."""
    if base.depth is None:
        gap = math.dist(point, base.centre) - base.width / 2
    else:
        gap = float(base.shape().distance(shapely.Point(point)))
    return gap <= distance + EPS


# --- sight and cover -----------------------------------------------------------------------------

_COMPASS: Floats = np.array(
    [(0.0, 0.0)] + [(math.sin(math.pi * k / 4), math.cos(math.pi * k / 4)) for k in range(8)]
)
_COVER = frozenset({Trait.SOFT_COVER, Trait.HARD_COVER})


def sight_points(base: Base) -> Floats:
    """The 9 points sight is traced between: the centre, and the 8 compass points of a round
    base's edge (a rectangle's corners and edge middles) pulled 1% towards the centre."""
    centre = np.array(base.centre, dtype=np.float64)
    if base.depth is None:
        result: Floats = centre + _COMPASS * (base.width / 2 * (1 - SIGHT_PULL))
        return result
    corners = np.asarray(shapely.get_coordinates(base.shape())[:4], dtype=np.float64)
    rim = np.empty((8, 2))
    rim[0::2] = corners
    rim[1::2] = (corners + np.roll(corners, -1, axis=0)) / 2
    return np.vstack([centre, centre + (rim - centre) * (1 - SIGHT_PULL)])


def _many_sight_points(bases: Sequence[Base]) -> Floats:
    """`sight_points` of each base (n × 9 × 2), round ones all at once."""
    if any(b.depth is not None for b in bases):
        return np.stack([sight_points(b) for b in bases])
    spots = np.array([(*b.centre, b.width) for b in bases], dtype=np.float64)
    reach = spots[:, 2] / 2 * (1 - SIGHT_PULL)
    result: Floats = spots[:, None, :2] + _COMPASS[None, :, :] * reach[:, None, None]
    return result


@dataclass(frozen=True)
class _SightBlockers:
    """Sight-blocking areas as arrays: bounding boxes, and for convex ones their corners
    (cycled to a common count), unit edge normals and their extent along each normal."""

    areas: npt.NDArray[np.object_]
    boxes: Floats  # (P, 4): x0, y0, x1, y1
    convex: Bools  # (P,)
    corners: Floats  # (P, V, 2)
    normals: Floats  # (P, V, 2)
    lows: Floats  # (P, V): the least of the corners along each normal
    highs: Floats  # (P, V): the most
    tops: Floats  # (P,): how tall each is (endless without heights)
    every_convex: bool  # all of them convex

    @classmethod
    def of(cls, areas: Sequence[Polygon], tops: Sequence[float]) -> _SightBlockers:
        outlines = []
        for area in areas:
            ring = shapely.get_coordinates(shapely.remove_repeated_points(area.exterior))[:-1]
            hull = float(area.convex_hull.area)
            convex = not area.interiors and hull - float(area.area) <= 1e-9 * max(1.0, hull)
            outlines.append(ring if convex else None)
        most = max((len(r) for r in outlines if r is not None), default=3)
        corners = np.zeros((len(areas), most, 2))
        for i, ring in enumerate(outlines):
            if ring is not None:
                corners[i] = ring[np.arange(most) % len(ring)]
        sides = np.roll(corners, -1, axis=1) - corners
        normals = np.stack([-sides[..., 1], sides[..., 0]], axis=-1)
        lengths = np.linalg.norm(normals, axis=-1, keepdims=True)
        normals = normals / np.where(lengths > 0, lengths, 1.0)
        along = np.einsum("pvk,pwk->pvw", normals, corners)  # corner w along normal v
        return cls(
            areas=np.array(areas, dtype=object),
            boxes=np.array([area.bounds for area in areas], dtype=np.float64),
            convex=np.array([r is not None for r in outlines]),
            corners=corners,
            normals=normals,
            lows=along.min(axis=2),
            highs=along.max(axis=2),
            tops=np.array(tops, dtype=np.float64),
            every_convex=all(r is not None for r in outlines),
        )


def _blocked(
    starts: Floats, ends: Floats, bf: Battlefield, rise: tuple[Floats, Floats] | None = None
) -> Bools:
    """Which straight lines starts[i]→ends[i] run through the inside of a sight blocker (ends
    included; along or touching its edge, within _TOUCH, is not inside); with `rise` (the
    heights of each line's two ends) only where they run lower than the blocker's top.

    Convex blockers by separating axes (`kernels.convex_sight`, compiled: a line misses the
    inside when, along one of the piece's edge normals or the line's own normal, the two
    overlap in a point at most); any other blocker by shapely.
    """
    sight = bf._sight
    blocked = np.zeros(len(starts), dtype=bool)
    if sight is None or not len(starts):
        return blocked
    li, pi, other_li, other_pi = convex_sight(
        np.ascontiguousarray(starts, dtype=np.float64),
        np.ascontiguousarray(ends, dtype=np.float64),
        sight.boxes,
        sight.convex,
        sight.normals,
        sight.lows,
        sight.highs,
        sight.corners,
        _TOUCH,
    )
    if len(li):
        hit = np.ones(len(li), dtype=np.bool_)
        if rise is not None:
            a = starts[li]
            enter, leave = _convex_span(a, ends[li] - a, sight.normals[pi], sight, pi)
            hit = _below_top(rise, li, enter, leave, sight.tops[pi])
        blocked[li[hit]] = True
    if len(other_li):
        li, pi = other_li, other_pi
        lines = shapely.linestrings(np.stack([starts[li], ends[li]], axis=1))
        inside = np.asarray(shapely.relate_pattern(lines, sight.areas[pi], "T********"))
        if rise is not None and inside.any():
            li, pi, lines = li[inside], pi[inside], lines[inside]
            enter, leave = _shapely_span(lines, sight.areas[pi], starts[li], ends[li])
            inside = _below_top(rise, li, enter, leave, sight.tops[pi])
        blocked[li[inside]] = True
    return blocked


def _convex_span(
    a: Floats, d: Floats, normals: Floats, sight: _SightBlockers, pi: npt.NDArray[np.intp]
) -> tuple[Floats, Floats]:
    """Where (0..1 along each line a + t·d) it enters and leaves a convex blocker: the
    blocker is the slabs between its `lows` and `highs` along each edge normal."""
    at = np.einsum("mvk,mk->mv", normals, a)
    step = np.einsum("mvk,mk->mv", normals, d)
    flat = np.abs(step) < 1e-12
    safe = np.where(flat, 1.0, step)
    t_low = (sight.lows[pi] - at) / safe
    t_high = (sight.highs[pi] - at) / safe
    first = np.where(flat, -np.inf, np.minimum(t_low, t_high))
    last = np.where(flat, np.inf, np.maximum(t_low, t_high))
    return np.clip(first.max(axis=1), 0.0, 1.0), np.clip(last.min(axis=1), 0.0, 1.0)


def _shapely_span(
    lines: npt.NDArray[np.object_], areas: npt.NDArray[np.object_], a: Floats, b: Floats
) -> tuple[Floats, Floats]:
    """Where (0..1 along each line) the part of it inside each (non-convex) blocker starts
    and ends."""
    parts = shapely.intersection(lines, areas)
    coords, owner = shapely.get_coordinates(parts, return_index=True)
    d = b - a
    squared = np.maximum(np.einsum("mk,mk->m", d, d), 1e-18)
    t = np.einsum("mk,mk->m", coords - a[owner], d[owner]) / squared[owner]
    enter, leave = np.ones(len(lines)), np.zeros(len(lines))
    np.minimum.at(enter, owner, t)
    np.maximum.at(leave, owner, t)
    return np.clip(enter, 0.0, 1.0), np.clip(leave, 0.0, 1.0)


def _below_top(
    rise: tuple[Floats, Floats],
    li: npt.NDArray[np.intp],
    enter: Floats,
    leave: Floats,
    tops: Floats,
) -> Bools:
    """Whether each line runs lower than the blocker's top somewhere over it (its height is
    straight between its ends, so lowest where it enters or leaves)."""
    z0, z1 = rise[0][li], rise[1][li]
    lowest = np.minimum(z0 + (z1 - z0) * enter, z0 + (z1 - z0) * leave)
    result: Bools = lowest < tops - _TOUCH
    return result


def eye_height(base: Base) -> float:
    """How high above its ground a model's eyes are (ours, GFF-R32): the rulebook gives no
    model heights, the data only base sizes, so a model is taken to be as tall as its base
    is wide (the narrower side of a rectangle), from EYE (1") to BIG_EYE (4")."""
    size = base.width if base.depth is None else min(base.width, base.depth)
    return min(BIG_EYE, max(EYE, size))


def _eyes(bases: Sequence[Base], bf: Battlefield) -> Floats:
    """The heights sight is traced from for each base: its eyes above the ground it stands
    on."""
    return np.array([elevation(b.centre, bf) + eye_height(b) for b in bases], dtype=np.float64)


def line_blocked(a: Point, b: Point, bf: Battlefield) -> bool:
    """Whether the straight line from `a` to `b` runs through the inside of a sight blocker
    (the same test `visibility` makes on each of its lines, from EYE above the ground at
    each end when heights count)."""
    rise = None
    if bf.heights:
        rise = (np.array([elevation(a, bf) + EYE]), np.array([elevation(b, bf) + EYE]))
    return bool(
        _blocked(np.array([a], dtype=np.float64), np.array([b], dtype=np.float64), bf, rise)[0]
    )


def visibility(shooter: Base, target: Base, bf: Battlefield) -> Visibility:
    """Line of sight from `shooter` to `target` (SHOOTING: "in range and line of sight").

    Ruling: sight runs along the 81 straight lines between the two bases' `sight_points`; a
    line is blocked when it runs through the inside of a BLOCKS_SIGHT piece, its ends included
    (a model wholly inside a sight blocker neither sees out nor is seen; one partly inside
    sees and is seen from its points outside it). "clear": the centre-to-centre line is not
    blocked; "obscured": it is, but another line is not (the target is behind a sight blocker
    and gets cover); "hidden": every line is blocked (not in line of sight).
    """
    a, b = sight_points(shooter), sight_points(target)
    eyes = _eyes([shooter, target], bf) if bf.heights else None
    n = len(a)

    def rise(count: int) -> tuple[Floats, Floats] | None:
        return None if eyes is None else (np.full(count, eyes[0]), np.full(count, eyes[1]))

    if not _blocked(a[:1], b[:1], bf, rise(1))[0]:
        return "clear"
    if _blocked(np.repeat(a, n, axis=0), np.tile(b, (n, 1)), bf, rise(n * n)).all():
        return "hidden"
    return "obscured"


def sees_any(
    shooters: Sequence[Base], targets: Sequence[Sequence[Base]], bf: Battlefield
) -> list[bool]:
    """For each shooter, whether any of its own targets is in its line of sight (`can_see`:
    not every one of the 81 lines blocked), for all pairs at once: the centre-to-centre lines
    first, then all 81 lines of the pairs of shooters still unsettled. Round bases on a table
    without heights whose blockers are all convex (generated tables) in one compiled pass
    (`kernels.round_sight`: the same points and separating-axis test)."""
    sight = bf._sight
    if not bf.heights and (sight is None or sight.every_convex):
        rounds = all(b.depth is None for b in shooters)
        if rounds and all(t.depth is None for ts in targets for t in ts):
            return _round_sees_any(shooters, targets, sight)
    return _sees_any_lines(shooters, targets, bf)


def _round_sees_any(
    shooters: Sequence[Base], targets: Sequence[Sequence[Base]], sight: _SightBlockers | None
) -> list[bool]:
    """`sees_any` of round bases without heights, every blocker convex (each base as x, y
    and width: numpy reads a flat list of floats fastest)."""
    if sight is None:  # nothing blocks: each shooter sees any target it has
        return [bool(ts) for ts in targets]
    mine = [v for b in shooters for v in (*b.centre, b.width)]
    theirs = [v for ts in targets for t in ts for v in (*t.centre, t.width)]
    seen = round_sight(
        np.array(mine, dtype=np.float64).reshape(-1, 3),
        np.array(theirs, dtype=np.float64).reshape(-1, 3),
        np.array([len(ts) for ts in targets], dtype=np.intp),
        _COMPASS,
        1 - SIGHT_PULL,
        sight.boxes,
        sight.normals,
        sight.lows,
        sight.highs,
        sight.corners,
        _TOUCH,
    )
    found: list[bool] = seen.tolist()
    return found


def _sees_any_lines(
    shooters: Sequence[Base], targets: Sequence[Sequence[Base]], bf: Battlefield
) -> list[bool]:
    """`sees_any` by `_blocked`: any bases, heights, any blockers."""
    seen = [False] * len(shooters)
    owner = np.array([i for i, ts in enumerate(targets) for _ in ts], dtype=np.intp)
    if not len(owner):
        return seen
    flat = [t for ts in targets for t in ts]
    a = _many_sight_points(shooters)[owner]  # (pairs, 9, 2)
    b = _many_sight_points(flat)
    eyes = None
    if bf.heights:
        eyes = (_eyes(shooters, bf)[owner], _eyes(flat, bf))
    clear = ~_blocked(a[:, 0], b[:, 0], bf, eyes)
    for i in owner[clear].tolist():
        seen[i] = True
    rest = np.array([p for p, i in enumerate(owner.tolist()) if not seen[i]], dtype=np.intp)
    if len(rest):
        n = a.shape[1]
        starts = np.repeat(a[rest], n, axis=1).reshape(-1, 2)  # each point of a, n times
        ends = np.tile(b[rest], (1, n, 1)).reshape(-1, 2)  # against every point of b
        rise = (
            None
            if eyes is None
            else (np.repeat(eyes[0][rest], n * n), np.repeat(eyes[1][rest], n * n))
        )
        hidden = _blocked(starts, ends, bf, rise).reshape(len(rest), -1).all(axis=1)
        for i in owner[rest][~hidden].tolist():
            seen[i] = True
    return seen


def can_see(shooter: Base, target: Base, bf: Battlefield) -> bool:
    """Whether `target` is in line of sight of `shooter` (clear or obscured)."""
    return visibility(shooter, target, bf) != "hidden"


def behind_sight_blockers(
    target_bases: Sequence[Base], shooter_bases: Sequence[Base], bf: Battlefield
) -> list[bool]:
    """For each target model, whether it is "behind sight blockers": obscured (or hidden) from
    every shooting model, i.e. every centre-to-centre line from a shooter is blocked."""
    targets = np.array([b.centre for b in target_bases], dtype=np.float64).reshape(-1, 2)
    shooters = np.array([b.centre for b in shooter_bases], dtype=np.float64).reshape(-1, 2)
    m = len(shooters)
    rise = None
    if bf.heights:
        rise = (
            np.tile(_eyes(shooter_bases, bf), len(targets)),
            np.repeat(_eyes(target_bases, bf), m),
        )
    blocked = _blocked(
        np.tile(shooters, (len(targets), 1)), np.repeat(targets, m, axis=0), bf, rise
    )
    return [bool(row.all()) for row in blocked.reshape(len(targets), m)]


def _fully_in_cover(bases: Sequence[Base], bf: Battlefield) -> Bools:
    """For each base, whether it lies wholly inside cover terrain (adjoining pieces together;
    touching the edge from inside counts)."""
    cover = bf._cover
    inside = np.zeros(len(bases), dtype=np.bool_)
    if cover is None:
        return inside
    union, rim = cover
    rounds = np.array([b.depth is None for b in bases], dtype=np.bool_)
    if rounds.any():
        spots = np.array([b.centre for b, r in zip(bases, rounds, strict=True) if r])
        radii = np.array([b.width / 2 for b, r in zip(bases, rounds, strict=True) if r])
        ok = np.asarray(shapely.intersects_xy(union, spots[:, 0], spots[:, 1]), dtype=np.bool_)
        ok[ok] = ~shapely.dwithin(rim, shapely.points(spots[ok]), radii[ok] - _TOUCH)
        inside[rounds] = ok
    for i in np.flatnonzero(~rounds).tolist():
        inside[i] = bool(union.covers(bases[i].shape()))
    return inside


def _near_cover(base: Base, bf: Battlefield) -> list[Polygon]:
    """The cover pieces' areas whose bounding boxes meet the round base's circle's (a few
    pieces: plain comparisons, cheaper than numpy's)."""
    (cx, cy), r = base.centre, base.width / 2
    return [
        area
        for area, x0, y0, x1, y1 in bf._cover_boxes
        if x0 <= cx + r and x1 >= cx - r and y0 <= cy + r and y1 >= cy - r
    ]


def _disc_in_cover(base: Base, areas: list[Polygon]) -> bool | None:
    """`in_cover_terrain(mostly=True)` of a round base settled without its polygon when its
    whole circle is clearly inside one cover piece (True) or clearly outside all of them
    (False), by more than `_TOUCH`: the polygon lies within the circle, so its share inside is
    then all or nothing. None when it is not that clear."""
    (cx, cy), r = base.centre, base.width / 2
    centre = shapely.Point(cx, cy)
    gaps = shapely.distance(np.array(areas, dtype=object), centre).tolist()
    if min(gaps) >= r + _TOUCH:
        return False
    for area, gap in zip(areas, gaps, strict=True):
        if gap == 0.0 and not area.interiors and area.exterior.distance(centre) >= r + _TOUCH:
            return True
    return None


def in_cover_terrain(base: Base, bf: Battlefield, *, mostly: bool = False) -> bool:
    """Whether the base is fully inside cover terrain (SOFT_COVER or HARD_COVER pieces,
    adjoining pieces together), or with `mostly` at least half its area inside it (a round
    base clearly inside one piece or outside them all is settled by `_disc_in_cover`)."""
    if not mostly:
        return bool(_fully_in_cover([base], bf)[0])
    if base.depth is None:
        near = _near_cover(base, bf)
        settled = _disc_in_cover(base, near) if near else False
        if settled is not None:
            return settled
    shape = base.shape()
    areas = [p.area for p in bf.index.near(shape) if p.traits & _COVER]
    if not areas:
        return False
    cover = areas[0] if len(areas) == 1 else shapely.union_all(areas)
    return float(cover.intersection(shape).area) >= float(shape.area) / 2 - EPS


def unit_in_cover(
    target_bases: Sequence[Base],
    shooter_bases: Sequence[Base],
    bf: Battlefield,
    *,
    sight_blockers: bool = True,
) -> bool:
    """Cover Terrain: "Units with most models fully inside cover terrain or behind sight
    blockers, or that are mostly inside cover terrain or behind sight blockers (for
    single-model units), get +1 to Defense rolls when blocking hits from shooting".

    "Most" is more than half. A model is behind sight blockers when obscured or hidden from
    every model in `shooter_bases` (`behind_sight_blockers`); a single model counts its centre
    being behind as "mostly behind". Pass `sight_blockers=False` for Indirect weapons ("ignores
    cover from sight obstructions"); Blast ignores cover altogether (the engine's part).
    """
    if not target_bases or not shooter_bases:
        raise ValueError("cover needs at least one target model and one shooting model")
    if sight_blockers:
        behind = behind_sight_blockers(target_bases, shooter_bases, bf)
    else:
        behind = [False] * len(target_bases)
    if len(target_bases) == 1:
        return behind[0] or in_cover_terrain(target_bases[0], bf, mostly=True)
    covered = np.array(behind, dtype=np.bool_) | _fully_in_cover(target_bases, bf)
    return 2 * int(covered.sum()) > len(target_bases)


# --- movement ------------------------------------------------------------------------------------


def _footprint(base: Base, points: Sequence[Point]) -> BaseGeometry:
    """A rectangular base swept along `points` without turning (the convex hull of each leg)."""
    shapes = [base.moved(p).shape() for p in points]
    if len(shapes) == 1:
        return shapes[0]
    return shapely.union_all([shapely.union(a, b).convex_hull for a, b in pairwise(shapes)])


def _enters(
    base: Base, points: Sequence[Point], bf: Battlefield, trait: Trait
) -> list[TerrainPiece]:
    """The pieces with `trait` whose inside `base` enters when swept along `points` (a single
    point: standing there); touching a piece's edge does not enter it."""
    track = shapely.Point(points[0]) if len(points) == 1 else shapely.LineString(points)
    if base.depth is None:
        r = base.width / 2
        x0, y0, x1, y1 = track.bounds
        near = bf.index.near(shapely.box(x0 - r, y0 - r, x1 + r, y1 + r))
        return [p for p in near if p.has(trait) and float(track.distance(p.area)) < r - _TOUCH]
    swept = _footprint(base, points)
    near = bf.index.near(swept)
    return [
        p for p in near if p.has(trait) and bool(shapely.relate_pattern(swept, p.area, "T********"))
    ]


def _on_table(base: Base, points: Sequence[Point], bf: Battlefield) -> bool:
    """Whether the base stays wholly on the table swept along `points`."""
    if base.depth is None:
        r = base.width / 2
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x0, y0, x1, y1 = min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r
    else:
        x0, y0, x1, y1 = _footprint(base, points).bounds
    return x0 >= -EPS and y0 >= -EPS and x1 <= bf.width + EPS and y1 <= bf.depth + EPS


def enter_limit(radius: float) -> float:
    """How near a piece's area the centre of a round base of `radius` may come without
    entering it (touching, within _TOUCH, does not enter)."""
    return radius - _TOUCH


def round_enters(
    starts: Floats, ends: Floats | None, radius: float, bf: Battlefield, trait: Trait
) -> Bools:
    """For many round bases of one `radius` at once, whether each enters a piece with `trait`
    moving straight from starts[i] to ends[i] (or standing at starts[i] when `ends` is None):
    the same test as `_enters`, piece by piece, only for the pieces whose bounding boxes
    meet the swept base's: measured by `kernels.round_tracks` (compiled), shapely's exact
    distance asked only where the answer is within a hair of the limit."""
    areas, boxes = bf._by_trait[trait]
    if not len(areas) or not len(starts):
        return np.zeros(len(starts), dtype=np.bool_)
    rings, offsets, plain = bf._outlines[trait]
    starts = np.ascontiguousarray(starts, dtype=np.float64)
    ends = None if ends is None else np.ascontiguousarray(ends, dtype=np.float64)
    moving = ends is not None
    found = round_tracks(
        starts,
        starts if ends is None else ends,
        moving,
        radius,
        boxes,
        rings,
        offsets,
        plain,
        enter_limit(radius),
    )
    hit: Bools = found == HIT
    asked = np.flatnonzero(found == ASK)
    if len(asked):
        hit[asked] = _shapely_enters(
            starts[asked], None if ends is None else ends[asked], radius, areas, boxes
        )
    return hit


def _shapely_enters(
    starts: Floats,
    ends: Floats | None,
    radius: float,
    areas: npt.NDArray[np.object_],
    boxes: Floats,
) -> Bools:
    """`round_enters` by shapely's distances, for the pieces whose boxes meet each track's."""
    hit = np.zeros(len(starts), dtype=np.bool_)
    lo = starts if ends is None else np.minimum(starts, ends)
    hi = starts if ends is None else np.maximum(starts, ends)
    near = (lo[:, None, 0] - radius <= boxes[None, :, 2]) & (
        hi[:, None, 0] + radius >= boxes[None, :, 0]
    )
    near &= (lo[:, None, 1] - radius <= boxes[None, :, 3]) & (
        hi[:, None, 1] + radius >= boxes[None, :, 1]
    )
    model, piece = np.nonzero(near)
    if ends is None:
        tracks = shapely.points(starts[model])
    else:
        tracks = shapely.linestrings(np.stack([starts[model], ends[model]], axis=1))
    inside = shapely.distance(tracks, areas[piece]) < radius - _TOUCH
    hit[model[inside]] = True
    return hit


def moves_through_difficult(base: Base, path: Path, bf: Battlefield) -> bool:
    """Whether the base swept along `path` enters difficult terrain at any point (its start
    and end included). The 6" cap holds for the whole unit when any of its models does."""
    return bool(_enters(base, path.points, bf, Trait.DIFFICULT))


def move_problem(
    base: Base,
    path: Path,
    allowance: float,
    bf: Battlefield,
    *,
    strider: bool = False,
    flying: bool = False,
) -> str | None:
    """Why a model cannot move along `path` (starting at its centre), or None.

    The path is at most `allowance` long; the base stays on the table; it never enters
    impassable terrain unless Flying ("May move through units and terrain"), and never ends in
    it; "Units moving through difficult terrain at any point can't move more than 6" at a
    time in total": a path whose swept base enters a DIFFICULT piece is at most 6" long,
    unless Strider ("may ignore the effects of difficult terrain") or Flying ("ignores terrain
    effects whilst moving"). Rectangular bases sweep without turning.
    """
    start, end = path.points[0], path.points[-1]
    if math.dist(start, base.centre) > _TOUCH:
        return f"the path starts at {_at(start)}, but the model stands at {_at(base.centre)}"
    if path.length > allowance + EPS:
        return f'the path is {path.length:.2f}" long; this move allows at most {allowance:g}"'
    if not _on_table(base, path.points, bf):
        return f'the base must stay on the {bf.width:g}"×{bf.depth:g}" table all along the move'
    if hits := _enters(base.moved(end), [end], bf, Trait.IMPASSABLE):
        return f"the model would end inside impassable terrain ({_label(hits[0])})"
    if not flying and (hits := _enters(base, path.points, bf, Trait.IMPASSABLE)):
        return (
            f"the move crosses impassable terrain ({_label(hits[0])}); only Flying models may "
            "move through it"
        )
    if (
        not (strider or flying)
        and path.length > DIFFICULT_MOVE + EPS
        and (hits := _enters(base, path.points, bf, Trait.DIFFICULT))
    ):
        return (
            f"the move goes through difficult terrain ({_label(hits[0])}), so it may be at most "
            f'{DIFFICULT_MOVE:g}" in total, not {path.length:.2f}" (Strider and Flying ignore this)'
        )
    return None


def crosses_dangerous(base: Base, path: Path, bf: Battlefield) -> bool:
    """Dangerous Terrain: whether the model is "moving across dangerous terrain": its base
    swept along `path` (start included) enters a DANGEROUS piece. Flying models ignore terrain
    effects whilst moving (the engine skips them); roll once per model even when it also
    activated in it."""
    return bool(_enters(base, path.points, bf, Trait.DANGEROUS))


def in_dangerous(base: Base, bf: Battlefield) -> bool:
    """Dangerous Terrain: whether a model that activates here is "in it" (its base overlaps a
    DANGEROUS piece's inside)."""
    return bool(_enters(base, [base.centre], bf, Trait.DANGEROUS))


# --- elevation (the optional jumping and falling rules) ------------------------------------------


def _elevated(bf: Battlefield, shape: BaseGeometry) -> list[TerrainPiece]:
    """The pieces near `shape` that models stand on top of: with a height, not impassable."""
    return [p for p in bf.index.near(shape) if p.height > 0 and not p.has(Trait.IMPASSABLE)]


def elevation(point: Point, bf: Battlefield) -> float:
    """The height a model whose centre is at `point` stands at: the highest piece with a
    height under it (its edge included) that is not impassable; 0 on open ground."""
    spot = shapely.Point(point)
    return max((p.height for p in _elevated(bf, spot) if p.area.covers(spot)), default=0.0)


def height_stretches(a: Point, b: Point, bf: Battlefield) -> list[tuple[float, float, float]]:
    """The straight line `a`→`b` cut where the ground's height changes: (from, to, height)
    stretches, distances from `a`, each at the `elevation` of its middle."""
    length = math.dist(a, b)
    line = shapely.LineString([a, b])
    pieces = _elevated(bf, line)
    cuts = {0.0, length}
    for piece in pieces:
        crossing = line.intersection(piece.area.boundary)
        for x, y in shapely.get_coordinates(crossing):
            gap = math.dist(a, (float(x), float(y)))
            if EPS < gap < length - EPS:
                cuts.add(gap)
    stretches: list[tuple[float, float, float]] = []
    for start, end in pairwise(sorted(cuts)):
        t = (start + end) / 2 / length
        middle = shapely.Point(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        height = max((p.height for p in pieces if p.area.covers(middle)), default=0.0)
        if stretches and stretches[-1][2] == height:
            stretches[-1] = (stretches[-1][0], end, height)
        else:
            stretches.append((start, end, height))
    return stretches


# --- coherency and formations --------------------------------------------------------------------


def _edge_matrix(bases: Sequence[Base]) -> Floats:
    """Edge-to-edge distances between every two bases."""
    if all(b.depth is None for b in bases):
        centres = np.array([b.centre for b in bases], dtype=np.float64)
        radii = np.array([b.width / 2 for b in bases])
        apart = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
        result: Floats = np.maximum(apart - radii[:, None] - radii[None, :], 0.0)
        return result
    n = len(bases)
    matrix = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            matrix[i, j] = matrix[j, i] = edge_distance(bases[i], bases[j])
    return matrix


def _coherency(edges: Floats) -> tuple[int, float] | tuple[int, int, float] | None:
    """The worst model too far from all others (i, d), else the worst pair (i, j, d), else None."""
    n = len(edges)
    if n < 2:
        return None
    matrix = edges.copy()
    np.fill_diagonal(matrix, np.inf)
    nearest = matrix.min(axis=1)
    lonely = int(np.argmax(nearest))
    if nearest[lonely] > COHERENCY_NEAR + EPS:
        return lonely, float(nearest[lonely])
    np.fill_diagonal(matrix, 0.0)
    i, j = divmod(int(np.argmax(matrix)), n)
    if matrix[i, j] > COHERENCY_ALL + EPS:
        return i, j, float(matrix[i, j])
    return None


def coherent(bases: Sequence[Base]) -> str | None:
    """MOVEMENT: why a unit is out of coherency, or None: "Unit members must stay within 1" of
    at least one other member, and within 6" of all other members" (edge to edge). Models are
    numbered from 1 in the given order; the worst offender is named."""
    problem = _coherency(_edge_matrix(bases))
    if problem is None:
        return None
    if len(problem) == 2:
        i, gap = problem
        return (
            f'model {i + 1} at {_at(bases[i].centre)} is {gap:.2f}" from the nearest other '
            f'member; each model must be within {COHERENCY_NEAR:g}" of at least one other member'
        )
    i, j, gap = problem
    return (
        f'models {i + 1} and {j + 1} are {gap:.2f}" apart; each model must be within '
        f'{COHERENCY_ALL:g}" of all other members'
    )


def _grid(count: int, cols: int, pitch: float, hexed: bool) -> Floats:
    """`count` points in rows of `cols`, `pitch` apart (offset rows when `hexed`), centred on
    the origin; a short last row is centred."""
    row_pitch = pitch * math.sqrt(3) / 2 if hexed else pitch
    points = []
    for row in range(math.ceil(count / cols)):
        in_row = min(cols, count - row * cols)
        if hexed:
            shift = (row % 2) * pitch / 2 + ((cols - in_row) // 2) * pitch
        else:
            shift = (cols - in_row) * pitch / 2
        points += [(shift + c * pitch, -row * row_pitch) for c in range(in_row)]
    grid = np.array(points, dtype=np.float64)
    middle: Floats = (grid.min(axis=0) + grid.max(axis=0)) / 2
    result: Floats = grid - middle
    return result


def _cluster(count: int, pitch: float, hexed: bool) -> Floats:
    """The `count` points of a square (or, `hexed`, triangular) lattice of `pitch` nearest the
    origin: the roundest, most compact formation; centred on the origin."""
    reach = math.ceil(math.sqrt(count)) + 2
    rows = np.arange(-reach, reach + 1)
    xs, ys = np.meshgrid(rows, rows)
    if hexed:
        lattice = np.column_stack([(xs + (ys % 2) / 2).ravel(), (ys * math.sqrt(3) / 2).ravel()])
    else:
        lattice = np.column_stack([xs.ravel(), ys.ravel()]).astype(np.float64)
    far = np.round(np.hypot(lattice[:, 0], lattice[:, 1]), 9)
    turn = np.arctan2(lattice[:, 0], lattice[:, 1]) % (2 * math.pi)
    grid = lattice[np.lexsort((turn, far))[:count]] * pitch
    result: Floats = grid - (grid.min(axis=0) + grid.max(axis=0)) / 2
    return result


@cache
def _layouts(count: int, base: float, gap: float) -> tuple[Floats, ...]:
    """Up to 8 coherent formations of `count` bases of diameter `base`, `gap` apart: the
    squarest grids first (square before offset rows, wider before deeper), then the most
    compact clusters, then longer grids."""
    pitch = base + gap
    found: dict[bytes, tuple[tuple[float, int, bool], Floats]] = {}
    candidates: list[tuple[tuple[float, int, bool], Floats]] = [
        ((1.5, 0, hexed), _cluster(count, pitch, hexed)) for hexed in (False, True)
    ]
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        for hexed in (False, True) if rows > 1 else (False,):
            candidates.append(((abs(cols - rows), -cols, hexed), _grid(count, cols, pitch, hexed)))
    for rank, grid in candidates:
        centres = np.linalg.norm(grid[:, None, :] - grid[None, :, :], axis=2)
        if _coherency(np.maximum(centres - base, 0.0)) is None:
            key = np.round(grid[np.lexsort((grid[:, 0], grid[:, 1]))], 9).tobytes()
            if key not in found or rank < found[key][0]:
                found[key] = (rank, grid)
    return tuple(grid for _, grid in sorted(found.values(), key=lambda item: item[0])[:8])


@cache
def _shapes(count: int, base: float, gap: float) -> Floats:
    """`_layouts` stacked (layouts × count × 2)."""
    return np.stack(_layouts(count, base, gap))


@cache
def _offsets(max_shift: float, step: float) -> Floats:
    """Shifts on a `step` grid within `max_shift`, nearest first (then by bearing)."""
    n = int(max_shift / step + EPS)
    ticks = np.arange(-n, n + 1) * step
    xs, ys = np.meshgrid(ticks, ticks)
    shifts = np.column_stack([xs.ravel(), ys.ravel()])
    far = np.hypot(shifts[:, 0], shifts[:, 1])
    keep = far <= max_shift + EPS
    shifts, far = shifts[keep], far[keep]
    bearings = np.degrees(np.arctan2(shifts[:, 0], shifts[:, 1])) % 360.0
    result: Floats = shifts[np.lexsort((bearings, np.round(far, 9)))]
    return result


class _Room:
    """Where round bases of `radius` may stand: the inputs of the compiled test
    (`kernels.free_formations`: on the table, off round bases, out of impassable terrain),
    the exact checks it stands in for (asked where it is unsure), and the checks it does not
    make (off other `occupied` bases, inside `inside`), each check made when first asked
    for; touching is allowed."""

    def __init__(
        self, radius: float, bf: Battlefield, occupied: Sequence[Base], inside: BaseGeometry | None
    ) -> None:
        self.radius, self.bf, self.inside = radius, bf, inside
        rounds = [b for b in occupied if b.depth is None]
        self.rects = [b for b in occupied if b.depth is not None]
        self.centres = np.array([b.centre for b in rounds], dtype=np.float64).reshape(-1, 2)
        self.reach = np.array([b.width / 2 for b in rounds], dtype=np.float64) + radius - _TOUCH
        self.compiled_only = inside is None and not self.rects  # no checks in `more`
        rings, offsets, plain = bf._outlines[Trait.IMPASSABLE]
        # what `kernels.free_formations` and `first_formations` take after the formations:
        # radius, EPS, table, kept-off centres and reach, impassable boxes and outlines, and
        # the limit (touching allowed)
        self.kernel_inputs = (
            radius,
            EPS,
            bf.width,
            bf.depth,
            self.centres,
            self.reach,
            bf._by_trait[Trait.IMPASSABLE][1],
            rings,
            offsets,
            plain,
            radius - _TOUCH,
        )

    @cached_property
    def exact(self) -> list[Callable[[Floats], Bools]]:
        """Tests of base centres (m × 2), cheapest first: on the table, off the round bases,
        out of impassable terrain."""
        radius, bf, centres, reach = self.radius, self.bf, self.centres, self.reach

        def on_table(at: Floats) -> Bools:
            x, y = at[:, 0], at[:, 1]
            ok: Bools = (x >= radius - EPS) & (x <= bf.width - radius + EPS)
            return ok & (y >= radius - EPS) & (y <= bf.depth - radius + EPS)

        checks: list[Callable[[Floats], Bools]] = [on_table]
        if len(centres):
            trees: list[shapely.STRtree] = []  # built when first needed
            farthest = float(reach.max())

            def off_rounds(at: Floats) -> Bools:
                if len(at) * len(centres) <= _EVERY_PAIR:  # every distance, as the tree's pairs
                    apart = np.linalg.norm(at[:, None, :] - centres[None, :, :], axis=2)
                    clear: Bools = ~(apart < reach[None, :]).any(axis=1)
                    return clear
                if not trees:
                    trees.append(shapely.STRtree(shapely.points(centres)))
                ok = np.ones(len(at), dtype=np.bool_)
                spot, other = trees[0].query(
                    shapely.points(at), predicate="dwithin", distance=farthest
                )
                apart = np.linalg.norm(at[spot] - centres[other], axis=1)
                ok[spot[apart < reach[other]]] = False
                return ok

            checks.append(off_rounds)
        if bf._impassable is not None:
            union, boxes = bf._impassable
            lo, hi = boxes[None, :, :2] - radius, boxes[None, :, 2:] + radius

            def off_impassable(at: Floats) -> Bools:
                ok = np.ones(len(at), dtype=np.bool_)
                boxed = (at[:, None, :] > lo) & (at[:, None, :] < hi)
                near = np.flatnonzero(np.any(np.all(boxed, axis=2), axis=1))
                if len(near):
                    ok[near] = ~shapely.dwithin(union, shapely.points(at[near]), radius - _TOUCH)
                return ok

            checks.append(off_impassable)
        return checks

    @cached_property
    def more(self) -> list[Callable[[Floats], Bools]]:
        """Tests of base centres (m × 2) the compiled test does not make: off the bases that
        are not round, inside `inside`."""
        radius, inside = self.radius, self.inside
        checks: list[Callable[[Floats], Bools]] = []
        rects = np.array([b.shape() for b in self.rects], dtype=object)
        if len(rects):

            def off_rects(at: Floats) -> Bools:
                apart = shapely.distance(shapely.points(at)[:, None], rects[None, :])
                return np.asarray((apart >= radius - _TOUCH).all(axis=1), dtype=np.bool_)

            checks.append(off_rects)
        if inside is not None:
            area = inside  # (narrowed for the closure)
            rim = area.boundary
            shapely.prepare(rim)

            def within_area(at: Floats) -> Bools:
                ok = np.asarray(shapely.contains_xy(area, at[:, 0], at[:, 1]), dtype=np.bool_)
                ok[ok] = ~shapely.dwithin(rim, shapely.points(at[ok]), radius - _TOUCH)
                return ok

            checks.append(within_area)
        return checks


def _free(spots: Floats, room: _Room) -> Bools:
    """For each formation in `spots` (k × n × 2 centres), whether every centre passes every
    check: the compiled test first, its exact checks only where it is unsure, then the
    checks it does not make."""
    found = free_formations(np.ascontiguousarray(spots, dtype=np.float64), *room.kernel_inputs)
    alive: Bools = found == HIT
    unsure = np.flatnonzero(found == ASK)
    if len(unsure):
        alive[unsure] = _passes(spots[unsure], room.exact)
    live = np.flatnonzero(alive)
    if not room.compiled_only and len(live):
        alive[live] = _passes(spots[live], room.more)
    return alive


def _passes(spots: Floats, checks: Sequence[Callable[[Floats], Bools]]) -> Bools:
    """For each formation in `spots` (k × n × 2 centres), whether every centre passes every
    check; each check only sees formations that passed the ones before."""
    alive = np.ones(len(spots), dtype=np.bool_)
    for check in checks:
        live = np.flatnonzero(alive)
        if not len(live):
            break
        passed = check(spots[live].reshape(-1, 2)).reshape(len(live), -1).all(axis=1)
        alive[live[~passed]] = False
    return alive


def arrange(
    centre: Point,
    count: int,
    base: float,
    bf: Battlefield,
    *,
    gap: float = 0.25,
    occupied: Sequence[Base] = (),
    inside: BaseGeometry | None = None,
    max_shift: float = 6.0,
    step: float = 0.5,
) -> list[Point] | None:
    """Centres for `count` round bases of diameter `base` around `centre`, in coherency
    ("within 1" of at least one other member, and within 6" of all other members").

    The formation is a near-square grid `gap` apart edge to edge; where it does not fit it is
    shifted (on a `step` grid, nearest first, up to `max_shift`) or another coherent layout is
    taken (offset rows, round clusters, other row lengths), the nearest shift winning, then
    the squarer layout. Every base stays on the table, wholly inside `inside` when given (a
    deployment zone), out of impassable terrain and off `occupied` bases (touching allowed:
    pass bases grown by 2" to keep 1" away). None when nothing fits, also when no layout is
    coherent: the 6" rule caps a unit of large bases (at a 0.25" gap: 24 on 32 mm bases, 19 on
    40 mm, 13 on 2", 11 on 60 mm).
    """
    if count < 0 or not base > 0 or gap < 0 or not step > 0 or max_shift < 0:
        raise ValueError(
            f"arrange needs count >= 0, base > 0, gap >= 0, step > 0 and max_shift >= 0; got "
            f"{count}, {base}, {gap}, {step} and {max_shift}"
        )
    if count == 0:
        return []
    layouts = _layouts(count, float(base), float(gap))
    shifts = _offsets(float(max_shift), float(step))
    if not layouts:
        return None
    origin = np.asarray(centre, dtype=np.float64)
    room = _Room(base / 2, bf, occupied, inside)
    shapes = _shapes(count, float(base), float(gap))  # (layouts, count, 2)
    start, size = 0, 1
    while start < len(shifts):
        chunk = shifts[start : start + size]
        spots = origin + chunk[None, :, None, :] + shapes[:, None, :, :]
        fits = _free(spots.reshape(-1, count, 2), room).reshape(len(layouts), len(chunk))
        if fits.any():
            nearest = int(np.flatnonzero(fits.any(axis=0))[0])
            rank = int(np.flatnonzero(fits[:, nearest])[0])
            return [(float(px), float(py)) for px, py in spots[rank, nearest]]
        start, size = start + size, size * 2
    return None


@cache
def arrange_reach(count: int, base: float, *, gap: float = 0.25, max_shift: float = 6.0) -> float:
    """How far from the centre `arrange` may put a base's rim (the farthest member of any
    layout, shifted by `max_shift`): bases further away cannot change its answer."""
    layouts = _layouts(count, float(base), float(gap)) if count > 0 else ()
    farthest = max((float(np.hypot(g[:, 0], g[:, 1]).max()) for g in layouts), default=0.0)
    return max_shift + farthest + base / 2


def arrange_many(
    centres: Sequence[Point],
    count: int,
    base: float,
    bf: Battlefield,
    *,
    gap: float = 0.25,
    occupied: Sequence[Base] = (),
    inside: BaseGeometry | None = None,
    max_shift: float = 6.0,
    step: float = 0.5,
) -> list[list[Point] | None]:
    """`arrange` around each of many centres, all at once: the same formations, shifts and
    answers as calling it for each (every check looks at each spot on its own)."""
    if count <= 0 or not base > 0 or gap < 0 or not step > 0 or max_shift < 0:
        return [
            arrange(
                c,
                count,
                base,
                bf,
                gap=gap,
                occupied=occupied,
                inside=inside,
                max_shift=max_shift,
                step=step,
            )
            for c in centres
        ]
    layouts = _layouts(count, float(base), float(gap))
    shifts = _offsets(float(max_shift), float(step))
    found: list[list[Point] | None] = [None] * len(centres)
    if not layouts or not centres:
        return found
    room = _Room(base / 2, bf, occupied, inside)
    shapes = _shapes(count, float(base), float(gap))  # (layouts, count, 2)
    origins = np.asarray(centres, dtype=np.float64)
    waiting = np.arange(len(centres))
    if room.compiled_only:  # the compiled search, formation by formation, up to the first HIT
        first = first_formations(origins, shifts, shapes, *room.kernel_inputs).tolist()
        for row, pick in enumerate(first):
            if pick >= 0:  # (origin + shift) + layout, in floats as numpy adds them
                shift, layout = divmod(pick, len(layouts))
                (ox, oy), (sx, sy) = origins[row].tolist(), shifts[shift].tolist()
                members = shapes[layout].tolist()
                found[row] = [((ox + sx) + lx, (oy + sy) + ly) for lx, ly in members]
        # an ASK first: the exact checks decide
        waiting = np.array([row for row, pick in enumerate(first) if pick == -2], dtype=np.intp)
    start, size = 0, 4  # the nearest shift fitting is the same whatever the chunks; fewer rounds
    while start < len(shifts) and len(waiting):
        chunk = shifts[start : start + size]
        # (waiting, layouts, shifts, count, 2), each as `arrange` adds them
        spots = origins[waiting][:, None, None, None, :] + chunk[None, None, :, None, :]
        spots = spots + shapes[None, :, None, :, :]
        fits = _free(spots.reshape(-1, count, 2), room).reshape(len(waiting), len(layouts), -1)
        near: Bools = np.any(fits, axis=1)  # (waiting, shifts): a layout fits at that shift
        settled: Bools = np.any(near, axis=1)
        rows = np.flatnonzero(settled)
        nearest = near[rows].argmax(axis=1)  # the first shift that fits
        rank = fits[rows, :, nearest].argmax(axis=1)  # the first layout that fits there
        for row, spot in zip(rows.tolist(), spots[rows, rank, nearest].tolist(), strict=True):
            found[int(waiting[row])] = [(float(px), float(py)) for px, py in spot]
        waiting = waiting[~settled]
        start, size = start + size, size * 2
    return found
