"""Army lists: units, models' weapons and special rules, as data (PREPARATION, SPECIAL RULES).

Special rules are written as in the rulebook: `AP(1)`, `Tough(3)`, `Fast`. Each is checked
against data/special_rules.yaml: its name, whether it takes a rating, and whether it
belongs on a unit or on a weapon.
"""

from __future__ import annotations

import re
from functools import cache, cached_property
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_RULE = re.compile(r"^\s*([A-Za-z]+)\s*(?:\(\s*([+-]?\d+)\s*\))?\s*$")


class RuleSpec(BaseModel):
    """One entry of the special rules reference."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rated: bool
    where: Literal["unit", "weapon", "both"]


@cache
def special_rules() -> dict[str, RuleSpec]:
    """The rulebook's special rules by name."""
    text = resources.files(__package__).joinpath("data/special_rules.yaml").read_text()
    return {k: RuleSpec.model_validate(v) for k, v in yaml.safe_load(text).items()}


class Rule(BaseModel):
    """A special rule with its rating, if it takes one: `AP(2)` is Rule(name="AP", rating=2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    rating: int | None = None

    def __str__(self) -> str:
        return self.name if self.rating is None else f"{self.name}({self.rating})"

    @classmethod
    def parse(cls, text: str, where: Literal["unit", "weapon"]) -> Rule:
        """Read `AP(1)` and check it exists, is rated as the reference says, and fits `where`."""
        match = _RULE.match(text)
        if not match:
            raise ValueError(f"'{text}' is not a special rule; write Name or Name(X)")
        name, rating = match.group(1), match.group(2)
        known = special_rules()
        spec = known.get(name)
        if spec is None:
            raise ValueError(f"unknown special rule '{name}'; known: {', '.join(known)}")
        if spec.rated and rating is None:
            raise ValueError(f"{name} needs a rating, like {name}(1)")
        if not spec.rated and rating is not None:
            raise ValueError(f"{name} takes no rating")
        if spec.where not in (where, "both"):
            raise ValueError(f"{name} is a {spec.where} rule, not a {where} rule")
        return cls(name=name, rating=None if rating is None else int(rating))


def _ratings(rules: tuple[Rule, ...]) -> dict[str, int]:
    """Rule name → rating (0 for an unrated rule); the first rule of a name counts."""
    found: dict[str, int] = {}
    for rule in rules:
        found.setdefault(rule.name, 0 if rule.rating is None else rule.rating)
    return found


class Weapon(BaseModel):
    """A weapon: range in inches (0 = melee), attacks, and its special rules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    range: int = Field(ge=0)
    attacks: int = Field(ge=1)
    rules: tuple[Rule, ...] = ()

    @field_validator("rules", mode="before")
    @classmethod
    def _parse_rules(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            return tuple(Rule.parse(v, "weapon") if isinstance(v, str) else v for v in value)
        return value

    @property
    def melee(self) -> bool:
        """Range 0 marks a melee weapon."""
        return self.range == 0

    @cached_property
    def _ratings(self) -> dict[str, int]:
        """Its rules by name, looked up once (the first of a name counts)."""
        return _ratings(self.rules)

    def rating(self, name: str) -> int | None:
        """The rating of special rule `name` on this weapon (0 for an unrated rule), or None."""
        return self._ratings.get(name)


class Equipment(BaseModel):
    """`count` models of the unit carry `weapon`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    count: int = Field(ge=1)
    weapon: Weapon


class Spell(BaseModel):
    """A spell of a Caster: its token cost, range, and what it does on a 4+.

    Effects (ours; the rulebook leaves spells to army lists; GFF-R27, R28): `hits` — each
    target enemy unit takes `hits` hits with the spell's weapon rules; `shield` — the
    friendly target gets +1 Defense until the end of the round; `focus` — the friendly
    target gets +1 to hit until the end of the round; `to_hit`, `defense`, `morale` — each
    target unit (friendly or enemy, `side`) gets `value` (±) to its hit rolls (`when`: any,
    melee or shooting), its Defense rolls or its morale tests, until the end of the round
    (`lasts: round`) or only the next time it applies (`lasts: next`). `targets` is how many
    different units one casting may pick.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    cost: int = Field(ge=1, le=6)
    range: int = Field(ge=1)
    effect: Literal["hits", "shield", "focus", "to_hit", "defense", "morale"]
    hits: int = Field(default=0, ge=0)
    rules: tuple[Rule, ...] = ()
    targets: int = Field(default=1, ge=1, le=6)
    side: Literal["friendly", "enemy"] | None = None
    value: int = Field(default=0, ge=-3, le=3)
    when: Literal["any", "melee", "shooting"] = "any"
    lasts: Literal["round", "next"] = "round"

    @field_validator("rules", mode="before")
    @classmethod
    def _parse_rules(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            return tuple(Rule.parse(v, "weapon") if isinstance(v, str) else v for v in value)
        return value

    @model_validator(mode="after")
    def _hits_need_a_count(self) -> Spell:
        if self.effect == "hits" and self.hits < 1:
            raise ValueError(f"spell {self.name}: a 'hits' spell needs hits >= 1")
        if self.effect in ("to_hit", "defense", "morale") and self.value == 0:
            raise ValueError(f"spell {self.name}: a '{self.effect}' spell needs a value (±1-3)")
        return self

    @property
    def on_enemies(self) -> bool:
        """Whether its targets are enemy units: `hits` always; modifiers by `side`, or by
        their sign when no side is given; `shield` and `focus` help friends."""
        if self.effect == "hits":
            return True
        if self.side is not None:
            return self.side == "enemy"
        return self.value < 0


class UnitProfile(BaseModel):
    """A unit as bought: models, Quality, Defense, equipment, rules, spells, points."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    size: int = Field(ge=1, le=40)
    quality: int = Field(ge=2, le=6)
    defense: int = Field(ge=2, le=6)
    cost: int = Field(ge=1)
    equipment: tuple[Equipment, ...] = ()
    rules: tuple[Rule, ...] = ()
    spells: tuple[Spell, ...] = ()
    base: float = Field(default=1.0, gt=0, description="base diameter in inches")

    @field_validator("rules", mode="before")
    @classmethod
    def _parse_rules(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            return tuple(Rule.parse(v, "unit") if isinstance(v, str) else v for v in value)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> UnitProfile:
        for item in self.equipment:
            if item.count > self.size:
                raise ValueError(
                    f"{self.name}: {item.count} x {item.weapon.name} but only {self.size} models"
                )
        if self.spells and self.rating("Caster") is None:
            raise ValueError(f"{self.name} has spells but no Caster(X) rule")
        return self

    @cached_property
    def _ratings(self) -> dict[str, int]:
        """Its rules by name, looked up once (the first of a name counts)."""
        return _ratings(self.rules)

    def rating(self, name: str) -> int | None:
        """The rating of unit rule `name` (0 for an unrated rule), or None if it lacks it."""
        return self._ratings.get(name)

    def has(self, name: str) -> bool:
        """Whether the unit has special rule `name`."""
        return name in self._ratings


class ArmyList(BaseModel):
    """An army: a name, a faction, and its units (several may share a profile name)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    faction: str
    units: tuple[UnitProfile, ...] = Field(min_length=1)
    authored: str = ""

    @property
    def points(self) -> int:
        """The army's total points."""
        return sum(u.cost for u in self.units)
