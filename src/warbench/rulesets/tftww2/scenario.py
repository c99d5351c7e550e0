"""Scenarios (ours — the rulebook has none): the table, its terrain and buildings, the squads
with each man's rank, weapons and place, who moves first, and the victory conditions."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import LinearRing, Point

from warbench.core.scenario_files import ScenarioFiles
from warbench.rulesets.tftww2.afv import afv_tables
from warbench.rulesets.tftww2.profiles import weapons

SIDES = ("red", "blue")
WINDOW_ON_WALL = 0.05  # inches a window point may lie off the outline


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TerrainSpec(_Strict):
    """A terrain piece: woods (soft cover, seen into 2"), hedge (soft cover), wall (hard
    cover), building (hard cover, blocks sight from outside; floors and windows, ours: F1,
    F2), rough (AFVs only)."""

    kind: Literal["woods", "hedge", "wall", "building", "rough", "road"]
    polygon: tuple[tuple[float, float], ...] = Field(min_length=3)
    name: str = ""
    material: Literal["wood", "stone", "reinforced"] = "stone"
    floors: int = Field(default=1, ge=1, le=4)
    windows: tuple[tuple[float, float], ...] = ()  # points on the outline; none: mid-walls

    @model_validator(mode="after")
    def _windows_on_the_walls(self) -> TerrainSpec:
        if self.windows and self.kind != "building":
            raise ValueError(f"{self.name or self.kind}: only a building has windows")
        off = _off_the_walls(self.polygon, self.windows)
        if off is not None:
            raise ValueError(
                f"{self.name or 'building'}: window {off[0]:g},{off[1]:g} is not on its walls "
                f"(a window lies on the outline: {list(self.polygon)})"
            )
        return self


@cache
def _off_the_walls(
    polygon: tuple[tuple[float, float], ...], windows: tuple[tuple[float, float], ...]
) -> tuple[float, float] | None:
    """The first window not on the outline, if any (kept per outline and windows: every game
    of a scenario validates the same ones)."""
    outline = LinearRing(polygon)
    for x, y in windows:
        if outline.distance(Point(x, y)) > WINDOW_ON_WALL:
            return x, y
    return None


class ManSpec(_Strict):
    """One man as deployed."""

    rank: Literal["Private", "NCO", "CO"] = "Private"
    weapon: str = "Rifle"
    close_weapon: str = "Attached Bayonet"
    grenades: int = Field(default=0, ge=0)
    radio: bool = False
    support: Literal["light_mortar", "heavy_mortar", "flame_thrower"] | None = None
    anti_tank: (
        Literal[
            "bazooka",
            "panzerfaust",
            "piat",
            "number 68 at",
            "satchel charge",
            "panzerwurfmine",
            "boys",
            "sticky bomb",
            "molotov",
        ]
        | None
    ) = None  # 8.2's close-assault weapons beyond grenades
    at: tuple[float, float]
    facing: float = 0.0


class SquadSpec(_Strict):
    """A squad with its commander among its men."""

    name: str
    quality: Literal["green", "regular", "elite"] = "regular"
    men: tuple[ManSpec, ...] = Field(min_length=1)


class VehicleSpec(_Strict):
    """An AFV as deployed: its profile (data/afvs.yaml), place and facing."""

    vehicle: str
    at: tuple[float, float]
    facing: float = 0.0


class SideSpec(_Strict):
    """One side's force and its table edge (where fleeing men head)."""

    edge: Literal["north", "south", "east", "west"]
    squads: tuple[SquadSpec, ...] = Field(min_length=1)
    vehicles: tuple[VehicleSpec, ...] = ()
    artillery: (
        Literal[
            "light_artillery",
            "medium_artillery",
            "heavy_artillery",
            "heavy_mortar",
            "light_bomb",  # a bomb run (air attack, ruling I12)
            "medium_bomb",
            "heavy_bomb",
            "rockets",  # ours (ruling I12)
        ]
        | None
    ) = None
    missions: int = Field(default=0, ge=0)


class Victory(_Strict):
    """How the scenario is won (ours, per scenario)."""

    kind: Literal["casualties", "hold_building"]
    rounds: int = Field(default=8, ge=1, le=40)
    building: str = ""
    defender: Literal["red", "blue"] = "blue"


class Scenario(_Strict):
    """One TFT WW2 skirmish."""

    id: str
    name: str
    summary: str
    width: float = Field(default=48, ge=12, le=120)
    depth: float = Field(default=48, ge=12, le=120)
    terrain: tuple[TerrainSpec, ...] = ()
    sides: dict[str, SideSpec]
    first: Literal["red", "blue"] = "red"
    victory: Victory

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if set(self.sides) != set(SIDES):
            raise ValueError(f"sides must be red and blue, not {sorted(self.sides)}")
        names = [t.name for t in self.terrain if t.kind == "building"]
        if self.victory.kind == "hold_building" and self.victory.building not in names:
            raise ValueError(
                f"victory names building '{self.victory.building}', but the buildings are: "
                f"{', '.join(names) or 'none'}"
            )
        known = weapons()
        vehicles = afv_tables().vehicles
        for side, spec in self.sides.items():
            for v in spec.vehicles:
                if v.vehicle not in vehicles:
                    raise ValueError(
                        f"{side}: no vehicle '{v.vehicle}'; known: {', '.join(vehicles)}"
                    )
            for squad in spec.squads:
                for man in squad.men:
                    for name, melee in ((man.weapon, False), (man.close_weapon, True)):
                        weapon = known.get(name)
                        if weapon is None or weapon.melee != melee:
                            kinds = [w for w, p in known.items() if p.melee == melee]
                            raise ValueError(
                                f"{side} {squad.name}: '{name}' is not a "
                                f"{'close combat' if melee else 'ranged'} weapon; known: "
                                f"{', '.join(kinds)}"
                            )
                    x, y = man.at
                    if not (0 <= x <= self.width and 0 <= y <= self.depth):
                        raise ValueError(f"{side} {squad.name}: a man at {x:g},{y:g} is off table")
        return self


FILES = ScenarioFiles(Scenario, __package__ or "")
validate, read_file, shipped = FILES.validate, FILES.read_file, FILES.shipped


def checked(data: dict[str, Any]) -> Scenario:
    """`validate` of a scenario given as data, kept by its content (a copy of the data
    validated is kept to compare: equal data validates alike): the games of a sweep are
    all opened from copies of one scenario."""
    for kept, spec in _CHECKED:
        if kept == data:
            return spec
    spec = validate(data, "scenario")
    if len(_CHECKED) >= 8:
        _CHECKED.pop(0)
    _CHECKED.append((copy.deepcopy(data), spec))
    return spec


_CHECKED: list[tuple[dict[str, Any], Scenario]] = []  # the latest scenarios validated
