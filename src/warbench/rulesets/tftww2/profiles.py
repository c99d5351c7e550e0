"""2.0 Basic Characters, 4.1–4.4 combat tables and the 5.0 LDR modifiers, read from `data/`.

Rulings on the garbled 4.3 Infantry Weapons table (also as comments in data/weapons.yaml):

- W1 Columns are Damage (number of d6, summed as in TFT), (effective) Range in inches,
  Snap Shot modifier to DEX, Shots per Round.
- W2 "Auto Rifle -4 2" lost its damage and range: an automatic rifle fires the rifle's
  round, so it takes the Rifle's 4 dice and 30"; snap shot −4, 2 shots per round.
- W3 "LMG/HMG 5/6 60 NP 4" is two weapons: LMG 5 dice, HMG 6 dice; both 60", no snap shot
  (NP = not possible, `snap_shot=None`), 4 shots per round.
- W4 Automatic weapons: SMG, Automatic Rifle, LMG, HMG (no Aim action with them). The
  pistol's 2 shots are not automatic.
- W5 Grenade: 4 dice, 12" thrown, 4" diameter area (6.1's area 2 is the same template as a
  radius). Its "-" snap shot is no penalty (the table writes NP where a snap shot is
  forbidden); its "-" shots is one throw per round.
- W6 Close combat weapons: no range, no snap shot (`snap_shot=None`), one blow per round;
  only the Attached Bayonet and the Rifle Butt/Club can parry.
- W7 Improvised (1 die) is also what a close combat weapon broken by a critical 18 becomes.

Other rulings: troops neither green nor elite are "regular" (LDR +0); "Additional Auto Wep
target" lost its value and is read as a further −2 on top of "Additional Target" when an
automatic weapon's burst sweeps onto a further target within 4"; a grenade cannot jam, so
a thrown 16 or 17 is an automatic miss and an 18 explodes in the hand.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

Quality = Literal["green", "regular", "elite"]
AttackKind = Literal["ranged", "close", "thrown"]
Critical = Literal[
    "killed",
    "double_damage",
    "automatic_hit",
    "misfire",
    "automatic_miss",
    "jam",
    "jam-hard",
    "dropped",
    "broken",
    "explodes_in_hand",
]
CRITICAL_ROLLS = frozenset({3, 4, 5, 16, 17, 18})

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class CharacterProfile(BaseModel):
    """2.0 Basic Characters: one troop type's STR INT DEX LDR MOV (aliases as in the table)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    name: str = Field(min_length=1)
    strength: int = Field(alias="STR", ge=1)
    intelligence: int = Field(alias="INT", ge=1)
    dexterity: int = Field(alias="DEX", ge=1)
    leadership: int = Field(alias="LDR", ge=1)
    movement: int = Field(alias="MOV", ge=1)


class WeaponProfile(BaseModel):
    """4.3 Infantry Weapons: one weapon (see the module's rulings W1–W7)."""

    model_config = _FROZEN

    name: str = Field(min_length=1)
    damage_dice: int = Field(ge=1)  # d6, summed
    effective_range: int | None = Field(default=None, ge=1)  # inches; None for melee
    snap_shot: int | None = None  # DEX modifier; None = snap shot not possible (NP)
    shots: int = Field(default=1, ge=1)  # per round
    automatic: bool = False
    melee: bool = False
    thrown: bool = False
    area_diameter: int | None = Field(default=None, ge=1)  # inches
    can_parry: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> WeaponProfile:
        if self.melee:
            if self.effective_range is not None or self.snap_shot is not None:
                raise ValueError(f"{self.name}: a close combat weapon has no range or snap shot")
            if self.automatic or self.thrown or self.shots != 1:
                raise ValueError(f"{self.name}: a close combat weapon strikes once, by hand")
        else:
            if self.effective_range is None:
                raise ValueError(f"{self.name}: a ranged weapon needs an effective range")
            if self.can_parry:
                raise ValueError(f"{self.name}: only close combat weapons can parry")
        if self.thrown and self.area_diameter is None:
            raise ValueError(f"{self.name}: a thrown weapon needs its area effect diameter")
        return self


class RangedModifierTable(BaseModel):
    """4.1 Ranged weapon modifiers (to DEX); `hard_full_cover` None means not possible."""

    model_config = _FROZEN

    short_range: int
    short_range_within: float
    extreme_range: int
    aimed_shot: int
    target_moved_fast: int
    target_prone: int
    soft_cover: int
    soft_full_cover: int | None
    hard_cover: int
    hard_full_cover: int | None
    additional_target: int
    additional_auto_target: int
    additional_target_within: float


class CloseCombatModifierTable(BaseModel):
    """4.2 Close combat modifiers."""

    model_config = _FROZEN

    charging: int
    charging_doubles_damage: bool


class CombatTables(BaseModel):
    """data/weapons.yaml: 4.3 weapons, 4.1 and 4.2 modifiers, 4.4 criticals."""

    model_config = _FROZEN

    weapons: tuple[WeaponProfile, ...]
    ranged_modifiers: RangedModifierTable
    close_combat_modifiers: CloseCombatModifierTable
    criticals: dict[AttackKind, dict[int, Critical]]
    critical_text: dict[Critical, str]

    @model_validator(mode="after")
    def _complete(self) -> CombatTables:
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names):
            raise ValueError("weapon names must be unique")
        kinds: tuple[AttackKind, ...] = ("ranged", "close", "thrown")
        for kind in kinds:
            rolls = set(self.criticals.get(kind, {}))
            if rolls != CRITICAL_ROLLS:
                raise ValueError(f"criticals for {kind} attacks must name 3, 4, 5, 16, 17, 18")
        missing = {c for table in self.criticals.values() for c in table.values()}
        missing -= set(self.critical_text)
        if missing:
            raise ValueError(f"critical_text lacks {sorted(missing)}")
        return self


class LdrModifierTable(BaseModel):
    """5.0 Modifiers to LDR (ranges in inches, for the engine to measure)."""

    model_config = _FROZEN

    co_within: int
    co_range: float
    per_casualty: int
    in_cover: int
    air_flame_rocket: int
    afv_support: int
    afv_range: float


class CharacterTables(BaseModel):
    """data/characters.yaml: 2.0 Basic Characters and the 5.0 LDR modifiers."""

    model_config = _FROZEN

    characters: dict[str, CharacterProfile]
    ldr_modifiers: LdrModifierTable
    troop_quality: dict[Quality, int]

    @model_validator(mode="before")
    @classmethod
    def _name_characters(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("characters"), dict):
            data = dict(data)
            data["characters"] = {
                name: {"name": name, **row} if isinstance(row, dict) else row
                for name, row in data["characters"].items()
            }
        return data

    @model_validator(mode="after")
    def _every_quality(self) -> CharacterTables:
        if set(self.troop_quality) != {"green", "regular", "elite"}:
            raise ValueError("troop_quality must give green, regular and elite")
        return self


def _load(name: str) -> Any:
    return yaml.safe_load(resources.files(__package__).joinpath(f"data/{name}").read_text())


@cache
def character_tables() -> CharacterTables:
    """data/characters.yaml, validated."""
    return CharacterTables.model_validate(_load("characters.yaml"))


@cache
def combat_tables() -> CombatTables:
    """data/weapons.yaml, validated."""
    return CombatTables.model_validate(_load("weapons.yaml"))


def characters() -> dict[str, CharacterProfile]:
    """2.0 Basic Characters by troop type: Private, NCO, CO."""
    return dict(character_tables().characters)


def weapons() -> dict[str, WeaponProfile]:
    """4.3 Infantry Weapons (WWII) by name."""
    return dict(_weapons_by_name())


def weapon_profile(name: str) -> WeaponProfile:
    """One weapon of 4.3 by name (KeyError if none): `weapons()[name]` without copying the
    table (a look-up made for every shot and order weighed)."""
    return _weapons_by_name()[name]


@cache
def _weapons_by_name() -> dict[str, WeaponProfile]:
    return {w.name: w for w in combat_tables().weapons}


def quality_modifier(quality: Quality) -> int:
    """5.0 Modifiers to LDR by troop quality: green −4, regular 0, elite +4."""
    table = character_tables().troop_quality
    if quality not in table:
        raise ValueError(f"unknown troop quality {quality!r}; known: {', '.join(table)}")
    return table[quality]
