"""The Forces, Quality and combat tables of A Fistful of TOWs 3, read from `data/`.

`data/forces.yaml` holds the data lines of the four vehicles and two infantry stands, the
two sides' quality and the unit organisations; `data/combat.yaml` the numbers of the combat
sections. Both are checked by pydantic when first read.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

Side = Literal["nato", "soviet"]
Kind = Literal["tank", "ifv", "infantry"]
Band = Literal["close", "effective", "long"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Quality(BaseModel):
    """Quality Checks table: the rating to pass and the to-hit bonus."""

    model_config = _FROZEN
    quality: int = Field(ge=2, le=6)
    to_hit: int


class Armour(BaseModel):
    """Arm: front and flank armour."""

    model_config = _FROZEN
    front: int
    flank: int


class Gun(BaseModel):
    """A vehicle's gun: Pen, ROF, effective range and anti-infantry rating."""

    model_config = _FROZEN
    pen: int
    rof: int = Field(ge=1)
    range: float = Field(gt=0)
    ai: int


class Launcher(BaseModel):
    """A missile or LAW: Pen, ROF and its single range."""

    model_config = _FROZEN
    pen: int
    rof: int = Field(ge=1)
    range: float = Field(gt=0)


class AntiInfantry(BaseModel):
    """An infantry stand's anti-infantry fire: AI rating, ROF and effective range."""

    model_config = _FROZEN
    ai: int
    rof: int = Field(ge=1)
    range: float = Field(gt=0)


class StandProfile(BaseModel):
    """One data line of The Forces."""

    model_config = _FROZEN
    name: str
    side: Side
    kind: Kind
    mov: int = Field(ge=1)
    armour: Armour | None = None
    gun: Gun | None = None
    missile: Launcher | None = None
    law: Launcher | None = None
    anti_infantry: AntiInfantry | None = None

    @property
    def vehicle(self) -> bool:
        """Tanks and IFVs are vehicles (armour, facing, half speed in difficult terrain)."""
        return self.kind != "infantry"


class Organisation(BaseModel):
    """Units: how many tanks and IFVs a unit of this kind has (each IFV carries infantry)."""

    model_config = _FROZEN
    name: str
    side: Side
    tanks: tuple[int, int]
    ifvs: tuple[int, int]
    vehicles: tuple[int, int] | None = None


class Forces(BaseModel):
    """data/forces.yaml."""

    model_config = _FROZEN
    sides: dict[Side, Quality]
    stands: dict[str, StandProfile]
    organisations: dict[str, Organisation]


class ArtilleryTable(BaseModel):
    """Artillery: the template and the effects by die for exposed and protected stands."""

    model_config = _FROZEN
    template_diameter: float
    units_per_template: int
    exposed: dict[int, str]
    protected: dict[int, str]

    def effect(self, face: int, *, exposed: bool) -> str:
        """The table's line for `face`: the highest row at or below it, else no effect."""
        rows = self.exposed if exposed else self.protected
        met = [least for least in rows if face >= least]
        return rows[max(met)] if met else "no-effect"


class CombatTables(BaseModel):
    """data/combat.yaml."""

    model_config = _FROZEN
    range_bands: dict[Literal["close", "long"], float]
    to_hit: int
    terrain_save: int
    to_hit_modifiers: dict[str, int]
    gun_pen: dict[Literal["close", "long"], int]
    penetration: dict[Literal["destroyed", "check"], int]
    artillery: ArtilleryTable
    suppressed_mp_loss: int
    strategic_mp: int
    strategic_keep_away: float
    enemy_keep_away: float
    cohesion: float
    embark_mp: int
    debark_mp: int
    debark_infantry_mp_loss: int
    missile_ifv_mp_fraction: float


def _read(name: str) -> Any:
    return yaml.safe_load(
        resources.files(__package__ or "").joinpath("data").joinpath(name).read_text()
    )


@cache
def forces() -> Forces:
    """The Forces, Quality and Units tables."""
    return Forces.model_validate(_read("forces.yaml"))


@cache
def tables() -> CombatTables:
    """The combat numbers."""
    return CombatTables.model_validate(_read("combat.yaml"))


def profile(side: Side, kind: Kind) -> StandProfile:
    """The data line of `side`'s `kind` of stand."""
    return forces().stands[f"{side}-{'infantry' if kind == 'infantry' else kind}"]


def range_band(distance: float, effective: float) -> Band | None:
    """Range: close up to ½ effective, effective up to it, long up to 1½; None beyond."""
    bands = tables().range_bands
    if distance <= effective * bands["close"]:
        return "close"
    if distance <= effective:
        return "effective"
    if distance <= effective * bands["long"]:
        return "long"
    return None
