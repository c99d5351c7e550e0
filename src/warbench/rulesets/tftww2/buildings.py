"""7.0 DAMAGE TO BUILDINGS: what may target a building, its hit points (table "Building hit
points", `data/buildings.yaml`), cumulative and single-attack collapse, the critical 3 of
indirect fire (6.0), and everyone inside a collapsed building incapacitated.

Rulings:

- B1 Hit points: the table gives "hits per floor", so a building has its material and size's
  figure times its floors (a two-floor medium stone house: 72).
- B2 Cumulative damage: "Once a building takes more than its hit points it collapses" - it
  stands at exactly its hit points and falls at one more.
- B3 One attack: "more than half of its hit points of damage from a single attack" - strictly
  more than half (hit points 36: 19 collapses it, 18 does not; 2 x hits > hit points).
- B4 A natural 3 on the hit roll of indirect fire at the building collapses it whatever the
  damage (6.0; `indirect.IndirectResult.collapses_building` - not from a thrown weapon).
- B5 What a building takes from an attack: an area weapon aimed at it does its full damage
  roll (`indirect.area_damage` with no cover: 6.4's reductions protect characters, not
  walls), halved when it scattered, if the template still touches the building; a direct
  HE round that hits does its HE damage dice. Bystander buildings are not damaged.
- B6 Inside: a figure is inside a building when its base's centre lies in the footprint
  (the edge counts). Everyone inside when it collapses is incapacitated (4.5's middle
  result), and the building no longer gives 6.4's -6 a die.
- B7 Targets (7.0): direct fire weapons "capable of high explosive rounds" and "indirect fire
  area effect weapons such as grenades and artillery"; not small arms, close combat, AP-only
  guns, or smoke (which does no damage).
- B8 A collapsed building stays collapsed; later hits are counted but change nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

import shapely
import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import Polygon

from warbench.core.geometry import Base

Material = Literal["wood", "stone", "reinforced"]
Size = Literal["small", "medium", "large"]
WeaponKind = Literal[
    "small_arms", "close_combat", "direct_fire", "direct_fire_he", "area_effect", "smoke"
]
"""How a weapon attacks, as far as 7.0 cares: `direct_fire` is an AP-only gun,
`direct_fire_he` a direct fire weapon capable of HE rounds, `area_effect` a damaging 6.1
weapon (grenade, mortar, artillery, bomb)."""

MATERIALS: tuple[Material, ...] = ("wood", "stone", "reinforced")
SIZES: tuple[Size, ...] = ("small", "medium", "large")


class SizeSpec(BaseModel):
    """A column of the hit points table: its name and footprint in inches."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    footprint: tuple[float, float]


class BuildingTable(BaseModel):
    """data/buildings.yaml: the columns and the hits per floor."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sizes: dict[Size, SizeSpec]
    hits_per_floor: dict[Material, dict[Size, int]]

    @model_validator(mode="after")
    def _complete(self) -> BuildingTable:
        if set(self.sizes) != set(SIZES):
            raise ValueError(f"sizes must be exactly {SIZES}")
        if set(self.hits_per_floor) != set(MATERIALS):
            raise ValueError(f"materials must be exactly {MATERIALS}")
        for material, row in self.hits_per_floor.items():
            if set(row) != set(SIZES) or any(hits < 1 for hits in row.values()):
                raise ValueError(f"{material}: a positive figure for each of {SIZES}")
        return self


@cache
def building_table() -> BuildingTable:
    """Table "Building hit points" from data/buildings.yaml."""
    text = resources.files(__package__).joinpath("data/buildings.yaml").read_text()
    return BuildingTable.model_validate(yaml.safe_load(text))


def hit_points(material: Material, size: Size, floors: int) -> int:
    """7.0 (ruling B1): hits per floor for the material and size, times the floors."""
    if floors < 1:
        raise ValueError(f"a building has at least one floor, got {floors}")
    return building_table().hits_per_floor[material][size] * floors


@dataclass
class Building:
    """A building on the table: its footprint, hit points and the damage it has taken."""

    id: str
    material: Material
    size: Size
    floors: int
    polygon: Polygon
    hits_taken: int = 0
    collapsed: bool = False

    def __post_init__(self) -> None:
        if self.floors < 1:
            raise ValueError(f"building {self.id}: at least one floor, got {self.floors}")

    @property
    def hit_points(self) -> int:
        """7.0: its hit points (ruling B1)."""
        return hit_points(self.material, self.size, self.floors)

    @property
    def intact(self) -> bool:
        """Not collapsed: still gives 6.4's -6 a die to those inside."""
        return not self.collapsed


def damage_building(building: Building, hits: int, *, critical_three: bool = False) -> bool:
    """7.0: add one attack's `hits` to `building` (it is changed in place) and say whether
    it has collapsed: more than its hit points in all (B2), more than half of them from this
    one attack (B3), or a natural 3 from indirect fire at it (`critical_three`, 6.0, B4)."""
    if hits < 0:
        raise ValueError(f"building {building.id}: damage cannot be negative, got {hits}")
    building.hits_taken += hits
    points = building.hit_points
    if building.hits_taken > points or 2 * hits > points or critical_three:
        building.collapsed = True
    return building.collapsed


def can_target_building(weapon_kind: WeaponKind) -> bool:
    """7.0 (ruling B7): only direct fire weapons capable of HE rounds and indirect fire area
    effect weapons may target a building."""
    return weapon_kind in ("direct_fire_he", "area_effect")


def inside(building: Building, base: Base) -> bool:
    """Ruling B6: the base's centre lies in the building's footprint (its edge counts)."""
    return bool(building.polygon.covers(shapely.Point(base.centre)))


def occupants(building: Building, bases: Mapping[str, Base]) -> list[str]:
    """The figures inside `building`, in the mapping's order."""
    return [name for name, base in bases.items() if inside(building, base)]


def collapse_casualties(building: Building, bases: Mapping[str, Base]) -> list[str]:
    """6.0, 7.0: everyone inside a collapsed building is incapacitated; the engine calls this
    after `damage_building` and incapacitates those named (none if it still stands)."""
    return occupants(building, bases) if building.collapsed else []


def in_intact_building(buildings: Iterable[Building], base: Base) -> bool:
    """6.4: whether the figure is inside a building that has not collapsed (-6 a die)."""
    return any(b.intact and inside(b, base) for b in buildings)
