"""Faction catalogues and their army lists, as data (PREPARATION: The Armies), and our points.

The rulebook has no army lists. Each file in data/armies/ is a faction catalogue authored by
us (`authored: ours`): the faction's unit profiles and named lists for the recommended game
sizes (200 pts to start, 300 pts for a full match). A list names profiles of the catalogue;
the same name may appear more than once (copies of a unit).

Points (ours; the rulebook gives no formula). `unit_points` prices a profile as follows:

- Each model's body is DEFENSE_POINTS[defense] + QUALITY_POINTS[quality] (Quality also sets
  morale and every hit roll) plus the points of its unit rules (UNIT_RULE_POINTS, a flat
  amount per model, or per point of rating for Caster, Fear and Impact).
- Each carried weapon is worth WEAPON_POINTS per attack × the chance to hit ((7 - Quality)/6;
  5/6 with Reliable) × the range factor (1 for melee, 1 + range/24 for ranged weapons) × the
  factor of each of its rules (WEAPON_RULE_FACTORS; AP, Blast and Deadly per point of rating).
- Tough(X) multiplies the bodies by 1 + (X-1)/3 and the weapons by 1 + (X-1)/6: a tough
  model lives longer, and so do its weapons, but they hit no harder.
- A Caster's spells add SPELL_POINTS per hit (× the spell's rule factors) for `hits` spells,
  SPELL_POINTS flat for `shield` and `focus`, SPELL_POINTS per point of a `to_hit`, `defense`
  or `morale` modifier, per rule a `rule` spell grants, per 3" of a `move` spell's Advance
  (or 6" of its Rush), each times the spell's targets; the Caster(X) rule prices the tokens.
- The sum is rounded to the nearest 5 points (halves round up), and is at least 5.

Every shipped profile's `cost` equals `unit_points` of it (tests/rulesets/gff/test_armies.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from warbench.core.scenario_files import problem_text, read_yaml, yaml_data
from warbench.rulesets.gff.profiles import ArmyList, Rule, Spell, UnitProfile, Weapon

# --- our points formula -------------------------------------------------------------------

DEFENSE_POINTS: dict[int, float] = {2: 10.0, 3: 7.0, 4: 5.0, 5: 3.5, 6: 2.5}
"""Body points of one model by its Defense value."""

QUALITY_POINTS: dict[int, float] = {2: 3.0, 3: 2.5, 4: 2.0, 5: 1.5, 6: 1.0}
"""Body points of one model by its Quality value (morale, and being worth following)."""

UNIT_RULE_POINTS: dict[str, float] = {
    "Ambush": 2.0,
    "Caster": 3.0,  # per spell token (rating)
    "Fast": 2.0,
    "Fear": 1.5,  # per point of rating
    "Fearless": 1.0,
    "Flying": 3.0,
    "Furious": 1.0,
    "Hero": 6.0,
    "Immobile": -4.0,
    "Impact": 1.5,  # per point of rating
    "Regeneration": 3.0,
    "Relentless": 1.0,
    "Scout": 2.0,
    "Slow": -2.0,
    "Stealth": 2.0,
    "Strider": 1.0,
    "Tough": 0.0,  # a multiplier, see TOUGH_*
}
"""Points per model for each unit rule (rated ones: per point of rating)."""

RATED_UNIT_RULES = frozenset({"Caster", "Fear", "Impact"})

WEAPON_POINTS = 3.5
"""Points of one melee attack that always hits."""

WEAPON_RULE_FACTORS: dict[str, float] = {
    "AP": 0.25,  # + per point of rating
    "Bane": 1.15,
    "Blast": 0.5,  # + per point of rating above 1
    "Counter": 1.1,
    "Deadly": 0.25,  # + per point of rating above 1
    "Indirect": 1.2,
    "Limited": 0.35,
    "Reliable": 1.0,  # priced through the chance to hit instead
    "Rending": 1.2,
    "Surge": 1.15,
    "Thrust": 1.1,
    "Unstoppable": 1.1,
}
"""Multiplier of a weapon's points for each of its rules (AP, Blast, Deadly: see rule_factor)."""

SPELL_POINTS = 1.5
"""Points per hit of a `hits` spell, flat for `shield` or `focus`, per ± of a modifier, per
granted rule, per 3" of a move (`spell_points`)."""

TOUGH_BODY = 1 / 3
"""Tough(X) multiplies the bodies by 1 + TOUGH_BODY × (X - 1)."""

TOUGH_WEAPONS = 1 / 6
"""Tough(X) multiplies the weapons by 1 + TOUGH_WEAPONS × (X - 1)."""


def rule_factor(rule: Rule) -> float:
    """The multiplier a weapon (or spell) rule puts on its points."""
    rating = rule.rating or 0
    if rule.name == "AP":
        return 1.0 + WEAPON_RULE_FACTORS["AP"] * rating
    if rule.name in ("Blast", "Deadly"):
        return 1.0 + WEAPON_RULE_FACTORS[rule.name] * max(rating - 1, 0)
    return WEAPON_RULE_FACTORS[rule.name]


def hit_chance(quality: int, weapon: Weapon) -> float:
    """The chance to hit with a quality test: (7 - Quality)/6, or 5/6 for Reliable weapons."""
    if weapon.rating("Reliable") is not None:
        return 5 / 6
    return (7 - quality) / 6


def range_factor(weapon: Weapon) -> float:
    """1 for melee weapons, 1 + range/24 for ranged ones."""
    return 1.0 if weapon.melee else 1.0 + weapon.range / 24


def weapon_points(weapon: Weapon, quality: int) -> float:
    """Points of one copy of `weapon` in the hands of a model of `quality`."""
    value = WEAPON_POINTS * weapon.attacks * hit_chance(quality, weapon) * range_factor(weapon)
    for rule in weapon.rules:
        value *= rule_factor(rule)
    return value


def spell_points(spell: Spell) -> float:
    """Points of one spell: per hit (× rule factors; the dice's mean when rolled), per wound
    twice that (no Defense: GFF-R35; × its rule factors, GFF-R39), flat per point of
    modifier or extra attack, per granted rule, per 3" of a move spell's Advance (or 6" of
    its Rush and Charge), per 6" of a move out of turn, flat for a forced morale test or a
    limit on actions or moves, for each of its targets (a spell on every unit in range
    counts two, an area one more: GFF-R33)."""
    return _one_target_points(spell) * (
        2 if spell.everyone else spell.targets + (1 if spell.area else 0)
    )


def _one_target_points(spell: Spell) -> float:
    """`spell_points` for one target."""
    if spell.effect in ("shift", "test"):
        return SPELL_POINTS * max(1, spell.value // 6)
    if spell.effect == "rule":
        return SPELL_POINTS * len(spell.rules)
    if spell.effect == "range":
        return SPELL_POINTS * max(1, abs(spell.value) // 6)
    if spell.effect == "move":
        return SPELL_POINTS * max(1, abs(spell.value) // 3, abs(spell.far) // 6)
    count = spell.mean_count
    if spell.effect not in ("hits", "wounds"):
        return SPELL_POINTS * max(1, abs(spell.value))
    value = SPELL_POINTS * count * (2 if spell.effect == "wounds" else 1)
    for rule in spell.rules:
        value *= rule_factor(rule)
    return value


def model_rule_points(profile: UnitProfile) -> float:
    """Points of the unit rules of one model of `profile`."""
    total = 0.0
    for rule in profile.rules:
        points = UNIT_RULE_POINTS[rule.name]
        total += points * (rule.rating or 0) if rule.name in RATED_UNIT_RULES else points
    return total


def unit_points_exact(profile: UnitProfile) -> float:
    """The unrounded points of a profile by our formula (see the module docstring)."""
    tough = profile.rating("Tough") or 1
    body = profile.size * (
        DEFENSE_POINTS[profile.defense]
        + QUALITY_POINTS[profile.quality]
        + model_rule_points(profile)
    )
    weapons = sum(e.count * weapon_points(e.weapon, profile.quality) for e in profile.equipment)
    spells = sum(spell_points(s) for s in profile.spells)
    return (
        body * (1 + TOUGH_BODY * (tough - 1)) + weapons * (1 + TOUGH_WEAPONS * (tough - 1)) + spells
    )


def unit_points(profile: UnitProfile) -> int:
    """The points of a profile by our formula, rounded to the nearest 5 (at least 5)."""
    return max(5, 5 * math.floor(unit_points_exact(profile) / 5 + 0.5))


# --- faction catalogues -------------------------------------------------------------------

_FACTION_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Faction(BaseModel):
    """A faction catalogue: its unit profiles and named lists of them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    faction: str = Field(min_length=1)
    name: str = Field(min_length=1)
    authored: str = Field(min_length=1)
    units: tuple[UnitProfile, ...] = Field(min_length=1)
    lists: dict[str, tuple[str, ...]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Faction:
        problems = []
        if not _FACTION_ID.match(self.faction):
            problems.append(
                f"faction: '{self.faction}' is not an id; use lower-case words joined by '-'"
            )
        seen: set[str] = set()
        for unit in self.units:
            if unit.name in seen:
                problems.append(f"units: the name '{unit.name}' is used by more than one profile")
            seen.add(unit.name)
        known = ", ".join(u.name for u in self.units)
        for list_name, names in self.lists.items():
            if not names:
                problems.append(f"lists.{list_name}: names no units")
            for i, name in enumerate(names):
                if name not in seen:
                    problems.append(
                        f"lists.{list_name}[{i}]: unknown unit '{name}'; known: {known}"
                    )
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def unit(self, name: str) -> UnitProfile:
        """The profile called `name`."""
        for unit in self.units:
            if unit.name == name:
                return unit
        known = ", ".join(u.name for u in self.units)
        raise ValueError(f"{self.name} has no unit '{name}'; known: {known}")

    def army(self, list_name: str) -> ArmyList:
        """The named list as an army."""
        if list_name not in self.lists:
            known = ", ".join(self.lists) or "none"
            raise ValueError(f"{self.name} has no list '{list_name}'; lists: {known}")
        return ArmyList(
            name=f"{self.name}: {list_name}",
            faction=self.faction,
            units=tuple(self.unit(n) for n in self.lists[list_name]),
            authored=self.authored,
        )


def _where(loc: Sequence[int | str], data: Any) -> str:
    """A readable path, naming units by their name: units[2] 'Battle Brothers'.cost."""
    text = ""
    node = data
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
            item = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
            if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                text += f" '{item['name']}'"
            node = item
        else:
            text += f".{part}" if text else part
            node = node.get(part) if isinstance(node, Mapping) else None
    return text


def _problem(error: Mapping[str, Any], data: Any) -> str:
    msg = problem_text(error)
    where = _where(error["loc"], data)
    return f"{where}: {msg}" if where else msg


def validate_faction(data: Any, source: str) -> Faction:
    """A validated catalogue; ValueError names every broken field with its path."""
    if not isinstance(data, Mapping):
        raise ValueError(
            f"{source}: a faction catalogue is a mapping with faction, name, authored, units "
            f"and lists, not {type(data).__name__}"
        )
    try:
        return Faction.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(_problem(e, data) for e in err.errors())
        raise ValueError(f"{source}: {problems}") from None


def load_faction(text: str, source: str) -> Faction:
    """A catalogue from YAML text; `source` names it in error messages."""
    return validate_faction(yaml_data(text, source), source)


def read_faction_file(path: Path | str) -> Faction:
    """A catalogue from a YAML file."""
    return validate_faction(read_yaml(Path(path), "faction catalogue"), str(path))


@cache
def factions() -> dict[str, Faction]:
    """The shipped catalogues of data/armies/, by faction id (the file name without .yaml)."""
    folder = resources.files(__package__).joinpath("data/armies")
    found: dict[str, Faction] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".yaml"):
            continue
        faction = load_faction(entry.read_text(), f"data/armies/{entry.name}")
        if f"{faction.faction}.yaml" != entry.name:
            raise ValueError(
                f"data/armies/{entry.name}: faction '{faction.faction}' must be in "
                f"data/armies/{faction.faction}.yaml"
            )
        found[faction.faction] = faction
    return found


def faction(faction_id: str) -> Faction:
    """One shipped catalogue."""
    known = factions()
    if faction_id not in known:
        raise ValueError(f"unknown faction '{faction_id}'; known: {', '.join(known) or 'none'}")
    return known[faction_id]


def army(faction_id: str, list_name: str) -> ArmyList:
    """A shipped list of a shipped faction, as an army."""
    return faction(faction_id).army(list_name)
