"""The table: terrain pieces as shapes, sight lines, and cover (4.1, 6.4; data ours).

Rulings (docs/rules/tftww2.md): woods are soft cover and block sight beyond 2" in (TFT-R6);
hedges are soft cover, walls hard cover, buildings hard cover that block sight from outside
(men inside see out and are seen within 2" of the wall) (TFT-R7), and only through a window:
a line between inside and outside crosses the wall within 1" of one (ours, F2; a building
given no windows has one in the middle of every wall). Men on different floors of a building
do not see each other (F3). A man is in cover when his base touches a cover piece, or when
the line of fire crosses one within 2" of him; in full cover when, so covered, he is prone,
or inside a building (TFT-R8).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING

from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from warbench.core.geometry import TerrainIndex, sight_clear
from warbench.core.terrain import TerrainPiece, Trait
from warbench.rulesets.tftww2.combat import Cover
from warbench.rulesets.tftww2.scenario import Scenario, TerrainSpec
from warbench.rulesets.tftww2.state import MAN_BASE, Man

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame

SEE_INTO = 2.0
WINDOW_REACH = 1.0  # inches either side of a window point a sight line may cross the wall
COVER_REACH = 2.0
CACHE_LIMIT = 200_000  # entries a table keeps per look-up before starting afresh
TRAITS = {
    "woods": frozenset({Trait.SOFT_COVER, Trait.BLOCKS_SIGHT}),
    "hedge": frozenset({Trait.SOFT_COVER}),
    "wall": frozenset({Trait.HARD_COVER}),
    "building": frozenset({Trait.HARD_COVER, Trait.BLOCKS_SIGHT, Trait.BUILDING}),
    "rough": frozenset({Trait.DIFFICULT}),
    "road": frozenset({Trait.ROAD}),
}


@dataclass(frozen=True)
class Table:
    """The table of a scenario and its pieces."""

    width: float
    depth: float
    pieces: tuple[TerrainPiece, ...]
    index: TerrainIndex
    specs: dict[str, TerrainSpec]
    windows: dict[str, tuple[Point, ...]]  # building name -> its windows (F2)
    sight_cache: dict[tuple[float, float, float, float], bool] = field(
        default_factory=dict, compare=False
    )
    cover_cache: dict[tuple[float, float, float | None, float | None], Cover] = field(
        default_factory=dict, compare=False
    )
    inside_cache: dict[tuple[float, float], str | None] = field(default_factory=dict, compare=False)
    held_cache: dict[str, BaseGeometry] = field(default_factory=dict, compare=False)
    reach_cache: dict[tuple[float, float], tuple[BaseGeometry, BaseGeometry]] = field(
        default_factory=dict, compare=False
    )
    centre_cache: dict[str, tuple[float, float]] = field(default_factory=dict, compare=False)

    @classmethod
    def build(cls, spec: Scenario) -> Table:
        """The scenario's table (shared by every game of it)."""
        return _table(spec.model_dump_json())

    def held_area(self, piece: TerrainPiece) -> BaseGeometry:
        """A cover piece and 0.5" around it: an enemy standing there holds it (TFT-R9),
        worked out once per piece (the terrain never changes)."""
        found = self.held_cache.get(piece.name)
        if found is None:
            found = self.held_cache[piece.name] = piece.area.buffer(0.5)
        return found

    def centre(self, name: str) -> tuple[float, float]:
        """A building's centroid, worked out once (the terrain never changes)."""
        found = self.centre_cache.get(name)
        if found is None:
            c = self.building(name).area.centroid
            found = self.centre_cache[name] = (c.x, c.y)
        return found

    def building(self, name: str) -> TerrainPiece:
        """A building by name."""
        for piece in self.pieces:
            if piece.kind == "building" and piece.name == name:
                return piece
        raise KeyError(f"no building '{name}'")


@cache
def _table(spec_json: str) -> Table:
    spec = Scenario.model_validate_json(spec_json)
    pieces = tuple(
        TerrainPiece(t.kind, Polygon(t.polygon), TRAITS[t.kind], name=t.name or f"{t.kind} {n}")
        for n, t in enumerate(spec.terrain, start=1)
    )
    specs = {p.name: t for p, t in zip(pieces, spec.terrain, strict=True)}
    windows = {
        p.name: tuple(Point(w) for w in t.windows or _mid_walls(t.polygon))
        for p, t in zip(pieces, spec.terrain, strict=True)
        if t.kind == "building"
    }
    return Table(spec.width, spec.depth, pieces, TerrainIndex(pieces), specs, windows)


def _mid_walls(polygon: tuple[tuple[float, float], ...]) -> list[tuple[float, float]]:
    """A window in the middle of every wall (F2: a building given none)."""
    corners = [*polygon, polygon[0]]
    return [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in pairwise(corners)]


def through_windows(table: Table, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """F2: wherever the line from a to b passes between the inside and the outside of a
    building, it crosses the wall within 1" of one of its windows."""
    ends = {building_at(table, *a), building_at(table, *b)} - {None}
    if not ends:
        return True  # a line with neither end inside is blocked by any building it crosses
    line = LineString([a, b])
    for piece in table.index.near(line):
        if piece.name not in ends:
            continue
        crossing = piece.area.exterior.intersection(line)
        if crossing.is_empty:
            continue
        windows = table.windows[piece.name]
        points = getattr(crossing, "geoms", [crossing])
        for spot in points:
            if not any(spot.distance(w) <= WINDOW_REACH for w in windows):
                return False
    return True


def sees(table: Table, a: Man, b: Man) -> bool:
    """Line of sight between two men (centres), through at most 2" of woods or building and
    a building's wall only at a window (F2); not between floors (F3)."""
    if a.floor != b.floor and inside_building(table, a) == inside_building(table, b):  # F3
        return False
    return clear_between(table, (a.x, a.y), (b.x, b.y))


def sees_point(table: Table, man: Man, point: tuple[float, float]) -> bool:
    """Line of sight from a man to a point on the table (through at most 2" of cover)."""
    return clear_between(table, (man.x, man.y), point)


def clear_between(table: Table, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Line of sight between two points (an AFV's position, a template's centre...). The
    terrain never changes, so the answer is kept per pair of points."""
    if math.dist(a, b) < 1e-9:
        return True
    key = (*a, *b) if a <= b else (*b, *a)
    clear = table.sight_cache.get(key)
    if clear is None:
        if len(table.sight_cache) > CACHE_LIMIT:
            table.sight_cache.clear()
        clear = sight_clear(a, b, table.index, see_into=SEE_INTO)
        clear = table.sight_cache[key] = clear and through_windows(table, a, b)
    return clear


def cover(table: Table, target: Man, firer: Man | None) -> Cover:
    """ "hard", "soft" or "none" for a target, from a firer (or from anywhere if None).

    The terrain never changes, so the answer is kept per pair of places."""
    key = (target.x, target.y, firer.x if firer else None, firer.y if firer else None)
    found = table.cover_cache.get(key)
    if found is None:
        if len(table.cover_cache) > CACHE_LIMIT:
            table.cover_cache.clear()
        found = table.cover_cache[key] = _cover(table, target, firer)
    return found


def _cover(table: Table, target: Man, firer: Man | None) -> Cover:
    base, near = _reach(table, target)
    found = set()
    line = LineString([(firer.x, firer.y), (target.x, target.y)]) if firer else None
    clipped = line.intersection(near) if line is not None else None  # the line within reach
    for piece in table.index.near(near):
        if not (piece.has(Trait.SOFT_COVER) or piece.has(Trait.HARD_COVER)):
            continue
        touching = piece.touches(base)
        screening = clipped is not None and piece.area.intersects(clipped)
        if touching or screening or (line is None and piece.area.intersects(near)):
            found.add("hard" if piece.has(Trait.HARD_COVER) else "soft")
    return "hard" if "hard" in found else "soft" if "soft" in found else "none"


def _reach(table: Table, man: Man) -> tuple[BaseGeometry, BaseGeometry]:
    """A man's base and the area within 2" of it, kept per place (the shapes depend on his
    place alone: every firer at a man who stays put shares them)."""
    key = (man.x, man.y)
    found = table.reach_cache.get(key)
    if found is None:
        if len(table.reach_cache) > CACHE_LIMIT:
            table.reach_cache.clear()
        base = man.base().shape()
        found = table.reach_cache[key] = (base, base.buffer(COVER_REACH))
    return found


def full_cover(table: Table, target: Man, firer: Man | None) -> bool:
    """In cover and prone, or inside a building."""
    if inside_building(table, target) is not None:
        return True
    return target.stance == "prone" and cover(table, target, firer) != "none"


def inside_building(table: Table, man: Man) -> str | None:
    """The building a man stands in, if any."""
    return building_at(table, man.x, man.y)


def building_at(table: Table, x: float, y: float) -> str | None:
    """The building whose footprint holds the point (its edge counts, ruling B6), if any."""
    key = (x, y)
    if key not in table.inside_cache:
        if len(table.inside_cache) > CACHE_LIMIT:
            table.inside_cache.clear()
        spot = Point(x, y)
        table.inside_cache[key] = next(
            (
                piece.name
                for piece in table.index.near(spot)
                if piece.kind == "building" and piece.area.covers(spot)
            ),
            None,
        )
    return table.inside_cache[key]


def men_inside(game: TFTGame, building: str) -> list[Man]:
    """The men in the fight inside a building."""
    return [
        m
        for m in game.state.men.values()
        if m.active and inside_building(game.table, m) == building
    ]


def on_table(table: Table, x: float, y: float) -> bool:
    """Whether a man's centre may stand at x, y."""
    half = MAN_BASE / 2
    return half <= x <= table.width - half and half <= y <= table.depth - half


def off_table(table: Table, x: float, y: float, what: str) -> str:
    """Why x, y fails `on_table`: the table's size and where `what` (a man's or an AFV's
    centre, a point fired at) must lie."""
    half, width, depth = MAN_BASE / 2, table.width, table.depth
    return (
        f'{point_text(x, y)} is off the {width:g}"x{depth:g}" table; {what} must lie'
        f" within x {half:g} to {width - half:g} and y {half:g} to {depth - half:g}"
    )


def point_text(x: float, y: float) -> str:
    """A point in messages: each coordinate to the hundredth, without needless decimals
    ("0.4,10", never "0.4,10.0")."""
    return f"{round(x, 2) + 0.0:g},{round(y, 2) + 0.0:g}"
