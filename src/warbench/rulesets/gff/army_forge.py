"""Import an army list exported by Army Forge (army-forge.onepagerules.com) as JSON.

The export (`api/tts?id=...`) is either an object with list-level `name`, `gameSystem`,
`listPoints` and a `units` list, or a bare list of units. Each unit has `name`, optional
`customName`, `size`, `quality`, `defense`, `cost`, `rules` ([{key, name, rating}]) and
`equipment` (or `loadout`: [{name, label, range, attacks, count, specialRules}]), and may have
`selectionId`, `joinToUnit`, `combined`, `armyId` and `bases` ({round: "32", ...} in mm).

Every problem in the file is collected and reported at once, in one ValueError, so nothing is
half-imported. Rulings (ours):

- Special rules are matched to this rulebook's reference by `name` (falling back to `key`),
  case-insensitively (Poison, the older name of Bane, as Bane: GFF-R31); ratings may be
  numbers or numeric strings ("1", "+1"); an empty or
  absent rating means none. A rule the rulebook lacks ("Shielded", "Takedown", ...) is an
  error, as is a weapon rule among a unit's rules or a unit rule among a weapon's.
- Unit fields `name`, `size`, `quality`, `defense`, `cost` and `equipment`/`loadout` are
  required; `rules` and a weapon's `specialRules` may be absent (no rules). Weapon fields
  `name`, `range`, `attacks` and `count` are required; `label` is display text only.
- `customName` is display text: the profile keeps `name`, so copies of a unit are counted by
  the army book's name however they are nicknamed.
- Firefight has no joined heroes or combined units: `joinToUnit` and `combined` are ignored
  and every entry imports as a unit of its own.
- A base's `round` size in mm becomes its diameter in inches (25.4 mm to the inch, to 0.01");
  without it, 1".
- `listPoints`, if present, must equal the sum of the units' `cost`.
- Spells: `army_forge_spells` (a list-level or unit `spells` array if the export carries
  one, else the default spellbook for every Caster).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from warbench.core.scenario_files import problem_text
from warbench.core.words import counted
from warbench.rulesets.gff.army_forge_spells import default_spells, read_spells
from warbench.rulesets.gff.profiles import (
    ALIASES,
    ArmyList,
    Rule,
    Spell,
    UnitProfile,
    special_rules,
)

GAME_SYSTEMS = ("gf", "gff")
"""Army Forge's ids of Grimdark Future and Grimdark Future Firefight."""

MM_PER_INCH = 25.4


class _Problems:
    """The problems found so far, each prefixed with where it was found."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}" if where else message)


def _is_int(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _number(
    data: Mapping[str, Any],
    field: str,
    where: str,
    problems: _Problems,
    *,
    low: int = 0,
    high: int | None = None,
) -> int | None:
    """A required whole number at least `low` (and at most `high`), or None after a problem."""
    if field not in data or data[field] is None:
        problems.add(where, f"missing field '{field}'")
        return None
    value = data[field]
    if not _is_int(value):
        problems.add(where, f"{field} must be a whole number, not {json.dumps(value)}")
        return None
    number = int(value)
    if number < 0:
        problems.add(where, f"{field} is negative ({number})")
        return None
    if number < low or (high is not None and number > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        problems.add(where, f"{field} must be {bounds}, not {number}")
        return None
    return number


def _text(data: Mapping[str, Any], field: str, where: str, problems: _Problems) -> str | None:
    """A required non-empty string, or None after a problem."""
    value = data.get(field)
    if value is None:
        problems.add(where, f"missing field '{field}'")
        return None
    if not isinstance(value, str) or not value.strip():
        problems.add(where, f"{field} must be a non-empty text, not {json.dumps(value)}")
        return None
    return value.strip()


def _rating(value: object) -> int | str | None:
    """A rating as an int, None for no rating, or the text of a problem."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    return f"rating {json.dumps(value)} is not a whole number"


def _rules(
    entries: object, where: str, kind: Literal["unit", "weapon"], problems: _Problems
) -> list[Rule] | None:
    """Army Forge special rules as our rules; None if any is broken (problems added)."""
    if entries is None:
        return []
    field = "rules" if kind == "unit" else "specialRules"
    if not isinstance(entries, list):
        problems.add(where, f"{field} must be a list, not {json.dumps(entries)}")
        return None
    known = special_rules()
    by_lower = {name.lower(): name for name in known}
    by_lower.update({alias.lower(): name for alias, name in ALIASES.items()})  # GFF-R31
    found: list[Rule] = []
    ok = True
    for entry in entries:
        if not isinstance(entry, Mapping):
            problems.add(where, f"{field}: {json.dumps(entry)} is not a rule {{key, name, rating}}")
            ok = False
            continue
        raw = entry.get("name") or entry.get("key")
        if not isinstance(raw, str) or not raw.strip():
            problems.add(where, f"{field}: a rule without a name: {json.dumps(entry)}")
            ok = False
            continue
        name = by_lower.get(raw.strip().lower())
        if name is None and isinstance(entry.get("key"), str):
            name = by_lower.get(str(entry["key"]).strip().lower())
        if name is None:
            problems.add(
                where,
                f"unknown special rule '{raw}' (not in this rulebook); known rules: "
                f"{', '.join(known)}",
            )
            ok = False
            continue
        spec = known[name]
        rating = _rating(entry.get("rating"))
        if isinstance(rating, str):
            problems.add(where, f"{name}: {rating}")
            ok = False
            continue
        if spec.where not in (kind, "both"):
            problems.add(where, f"{name} is a {spec.where} rule, not a {kind} rule")
            ok = False
            continue
        if spec.rated and rating is None:
            problems.add(where, f"{name} needs a rating, like {name}(1)")
            ok = False
            continue
        if not spec.rated and rating is not None:
            problems.add(where, f"{name} takes no rating, but has rating {rating}")
            ok = False
            continue
        found.append(Rule(name=name, rating=rating))
    return found if ok else None


def _weapon(item: object, where: str, problems: _Problems) -> dict[str, Any] | None:
    """One equipment entry as our Equipment data, or None after problems."""
    if not isinstance(item, Mapping):
        problems.add(where, f"{json.dumps(item)} is not a weapon")
        return None
    name = _text(item, "name", where, problems)
    if name is not None:
        where = f"{where} '{name}'"
    before = len(problems.items)
    weapon_range = _number(item, "range", where, problems)
    attacks = _number(item, "attacks", where, problems, low=1)
    count = _number(item, "count", where, problems, low=1)
    rules = _rules(item.get("specialRules"), where, "weapon", problems)
    if name is None or len(problems.items) > before or rules is None:
        return None
    return {
        "count": count,
        "weapon": {"name": name, "range": weapon_range, "attacks": attacks, "rules": rules},
    }


def _base(unit: Mapping[str, Any], where: str, problems: _Problems) -> float | None:
    bases = unit.get("bases")
    if bases is None:
        return 1.0
    size = bases.get("round") if isinstance(bases, Mapping) else None
    if size is None:
        return 1.0
    try:
        mm = float(size)
    except (TypeError, ValueError):
        problems.add(where, f"bases.round {json.dumps(size)} is not a size in mm")
        return None
    if mm <= 0:
        problems.add(where, f"bases.round must be above 0 mm, not {size}")
        return None
    return round(mm / MM_PER_INCH, 2)


def _unit(
    index: int, unit: object, problems: _Problems, book: tuple[Spell, ...] | None = None
) -> UnitProfile | None:
    """One Army Forge unit as a profile, or None after problems."""
    where = f"unit {index + 1}"
    if not isinstance(unit, Mapping):
        problems.add(where, f"a unit is an object with name, size, ..., not {json.dumps(unit)}")
        return None
    name = _text(unit, "name", where, problems)
    custom = unit.get("customName")
    if name is not None:
        shown = custom.strip() if isinstance(custom, str) and custom.strip() else None
        where = f"{where} '{shown}' ({name})" if shown and shown != name else f"{where} '{name}'"
    before = len(problems.items)
    size = _number(unit, "size", where, problems, low=1)
    quality = _number(unit, "quality", where, problems, low=2, high=6)
    defense = _number(unit, "defense", where, problems, low=2, high=6)
    cost = _number(unit, "cost", where, problems, low=1)
    rules = _rules(unit.get("rules"), where, "unit", problems)
    base = _base(unit, where, problems)

    field = "equipment" if "equipment" in unit else "loadout"
    items = unit.get(field)
    equipment = []
    if items is None:
        problems.add(where, "missing field 'equipment' (or 'loadout')")
    elif not isinstance(items, list):
        problems.add(where, f"{field} must be a list, not {json.dumps(items)}")
    else:
        for i, item in enumerate(items):
            weapon = _weapon(item, f"{where} {field}[{i}]", problems)
            if weapon is not None:
                equipment.append(weapon)
    spells = read_spells(unit.get("spells"), where, problems)
    if len(problems.items) > before or name is None:
        return None
    if spells is None and any(r.name == "Caster" for r in rules or ()):
        spells = book if book is not None else default_spells()
    try:
        return UnitProfile.model_validate(
            {
                "name": name,
                "size": size,
                "quality": quality,
                "defense": defense,
                "cost": cost,
                "rules": rules,
                "equipment": equipment,
                "base": base,
                "spells": spells or (),
            }
        )
    except ValidationError as err:
        for e in err.errors():
            problems.add(where, problem_text(e))
        return None


def import_army_forge(text: str, source: str) -> ArmyList:
    """An army from Army Forge's exported JSON; `source` names it (file name, URL).

    Raises one ValueError listing every problem found, if there is any.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(
            f"{source}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg}); "
            "expected Army Forge's export, an object with a 'units' list or a list of units"
        ) from None
    problems = _Problems()
    list_name: str | None = None
    list_points: int | None = None
    book: tuple[Spell, ...] | None = None
    if isinstance(data, Mapping):
        book = read_spells(data.get("spells"), "list", problems)
        system = data.get("gameSystem")
        if system is not None and (
            not isinstance(system, str) or system.lower() not in GAME_SYSTEMS
        ):
            problems.add(
                "",
                f"gameSystem {json.dumps(system)} is not Grimdark Future; accepted: "
                f"{', '.join(GAME_SYSTEMS)}",
            )
        if isinstance(data.get("name"), str) and data["name"].strip():
            list_name = data["name"].strip()
        if "listPoints" in data:
            list_points = _number(data, "listPoints", "list", problems)
        if "units" not in data:
            problems.add("", "missing field 'units' (the list of units)")
        units_data = data.get("units")
    elif isinstance(data, list):
        units_data = data
    else:
        raise ValueError(
            f"{source}: expected Army Forge's export, an object with a 'units' list or a list "
            f"of units, not {type(data).__name__}"
        )
    units: list[UnitProfile] = []
    if isinstance(units_data, list):
        if not units_data:
            problems.add("", "the list has no units")
        for i, unit in enumerate(units_data):
            profile = _unit(i, unit, problems, book)
            if profile is not None:
                units.append(profile)
    elif units_data is not None:
        problems.add("", f"units must be a list, not {json.dumps(units_data)}")
    if list_points is not None and not problems.items:
        total = sum(u.cost for u in units)
        if total != list_points:
            problems.add(
                "list", f"listPoints is {list_points} but the units' costs add up to {total}"
            )
    if problems.items:
        count = len(problems.items)
        raise ValueError(
            f"{source}: {counted(count, 'problem')}, nothing imported:\n"
            + "\n".join(f"- {p}" for p in problems.items)
        )
    army_ids = (
        sorted({str(u["armyId"]) for u in units_data if isinstance(u, Mapping) and u.get("armyId")})
        if isinstance(units_data, list)
        else []
    )
    return ArmyList(
        name=list_name or Path(source).stem or "Army Forge list",
        faction="+".join(army_ids) or "army-forge",
        units=tuple(units),
        authored=f"Army Forge export: {source}",
    )


def import_army_forge_file(path: Path | str) -> ArmyList:
    """An army from an Army Forge JSON file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: cannot read Army Forge export: {err}") from None
    return import_army_forge(text, str(path))
