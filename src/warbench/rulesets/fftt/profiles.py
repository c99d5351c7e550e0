"""FORCES: the Marines, Machina and Insectoids profiles and the game's other tables, read
from data/forces.yaml and data/tables.yaml and checked by pydantic."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field
from pydantic.dataclasses import dataclass

ELITE_FP = 1  # R57 (OURS): an elite troop costs 1 FP more than its profile


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True, slots=True, config=ConfigDict(extra="forbid"))
class Profile:
    """One row of a force table, with its special rules as flags. A dataclass checked by
    pydantic rather than a model: the rules read a figure's profile some 40,000 times a
    battle, and a model's attributes are read through its `__getattr__` hook."""

    name: str
    fp: Annotated[int, Field(ge=1)]
    actions: Annotated[int, Field(ge=1)]
    wounds: Annotated[int, Field(ge=1)]
    skill: int | None
    short: Annotated[float, Field(ge=0)]
    long: Annotated[float, Field(ge=0)]
    move: Annotated[float, Field(gt=0)]
    base: Annotated[float, Field(gt=0)]
    hth: int = 0
    double: bool = False
    shots: int = 1
    template: Literal["grenade", "missile"] | None = None
    indirect: bool = False
    no_opportunity: bool = False
    heals: Literal["medic", "repair"] | None = None
    explodes: Literal["grenade"] | None = None
    mechanical: bool = False
    vehicle: bool = False
    hq: bool = False
    scanner: float = 0
    queen: bool = False
    bomb: bool = False
    goo: bool = False
    goo_immune: bool = False
    hard_to_hit: bool = False
    ignores_terrain: bool = False
    over_walls: bool = False
    windows: bool = False
    dies_out_of_ammo: bool = False
    no_damage_in_hth: bool = False

    @property
    def armed(self) -> bool:
        """Whether it has a ranged weapon."""
        return self.skill is not None

    def worth(self, elite: bool) -> int:
        """The force points of a figure of this profile: the profile's, 1 more for an elite
        troop (R57; a general and experience cost nothing). The one source of a figure's FPs:
        forces are priced, victory and surrender tallied and kills credited by it."""
        return self.fp + ELITE_FP * elite


class Modifier(_Strict):
    """A (reason, value) modifier of a table."""

    reason: str
    value: int


class Deviation(_Strict):
    """Grenade deviation distance: twice the miss, 2 to 16 cm."""

    per_point: int
    minimum: int
    maximum: int


class Goo(_Strict):
    """The acid spitter's goo."""

    wound_at_most: int
    radius: float


class Experience(_Strict):
    """OPTIONAL RULES, Experience: the enemy FPs killed at which each bonus comes."""

    shooting: int
    wound: int
    veteran: int
    action: int
    chart: int


class Layout(_Strict):
    """A building's floors and its openings, one a wall (OURS)."""

    floors: int = Field(ge=1, le=2)
    openings: tuple[
        tuple[Literal["south", "north", "west", "east"], Literal["door", "double", "window"]],
        ...,
    ]


class Tables(_Strict):
    """data/tables.yaml."""

    fire_modifiers: dict[str, Modifier]
    hth_modifiers: dict[str, int]
    flank_entry: dict[int, int]
    flank_depth: float
    scanner_range: float
    bursts: dict[str, tuple[tuple[float, int], ...]]
    deviation: Deviation
    egg_table: dict[int, str]
    egg_reroll: int
    goo: Goo
    general_abilities: dict[int, str]
    experience: Experience
    table_sizes: tuple[int, ...]
    deployment_small: float
    deployment_large: float
    scenery_min: float
    scenery_max: float
    openings: dict[str, float]
    scenery_kinds: dict[int, str]
    scenery_other: dict[int, str]
    river_width: float
    wreck: tuple[float, float]
    buildings: dict[int, Layout]


class Forces(_Strict):
    """data/forces.yaml."""

    races: dict[str, dict[str, Profile]]


def _load(name: str) -> object:
    return yaml.safe_load(resources.files(__package__ or "").joinpath(f"data/{name}").read_text())


@cache
def forces() -> dict[str, dict[str, Profile]]:
    """Every race's profiles by key."""
    return Forces.model_validate(_load("forces.yaml")).races


@cache
def tables() -> Tables:
    """The game's other tables."""
    return Tables.model_validate(_load("tables.yaml"))
