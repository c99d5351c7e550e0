"""Spells for Caster(X) units imported from Army Forge.

Army Forge keeps spells in its army books (`spells`: `name`, `threshold` — the token cost —,
`effect`, `effectSkirmish` for Firefight, `type`), not on the units of a list; the list
export (`api/tts`) carries none. Rulings (ours, docs/rules/gff.md GFF-R27):

- An export may carry them anyway: a list-level `spells` array (the army book's, for every
  Caster of the list) or a unit's own `spells` (for that unit only, instead of the list's).
  Each is read from its Firefight text (`effectSkirmish`, else `effect`) when it has one of
  the shapes the engine resolves: "... within N" takes X hit(s) [with RULES]" (an enemy unit
  takes X hits with those weapon rules), "... within N" gets +1 to defense ..." (our
  `shield`) or "... within N" gets +1 to hit ..." / "to quality" (our `focus`). Any other
  text is a problem named in the import's error (nothing is half-imported); leave the
  `spells` out to fall back on the default below.
- A Caster with no spells from the export gets the default spellbook of
  data/default_spells.yaml (ours, priced like our factions' spells), so its tokens have a use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Protocol

import yaml
from pydantic import TypeAdapter, ValidationError

from warbench.rulesets.gff.profiles import Rule, Spell

_RANGE = re.compile(r'within\s+(\d+)\s*(?:"|”|″|in\b|inches\b)', re.IGNORECASE)
_HITS = re.compile(r"\btakes?\s+(\d+)\s+hits?\b(?:\s+with\s+(.+?))?\s*\.?\s*$", re.IGNORECASE)
_SHIELD = re.compile(r"\+1\s+to\s+defen[cs]e", re.IGNORECASE)
_FOCUS = re.compile(r"\+1\s+to\s+(?:hit|quality)", re.IGNORECASE)
_RULE_SPLIT = re.compile(r"\s*(?:,|\band\b)\s*")
SHAPES = (
    '"... within N" takes X hits [with RULES]", "... within N" gets +1 to defense ...", '
    '"... within N" gets +1 to hit ..."'
)


class Problems(Protocol):
    """Where the importer collects problems."""

    def add(self, where: str, message: str) -> None: ...


@cache
def default_spells() -> tuple[Spell, ...]:
    """The default spellbook of an imported Caster (data/default_spells.yaml, ours)."""
    text = resources.files(__package__).joinpath("data/default_spells.yaml").read_text()
    spells = TypeAdapter(tuple[Spell, ...]).validate_python(yaml.safe_load(text)["spells"])
    return spells


def read_spells(entries: object, where: str, problems: Problems) -> tuple[Spell, ...] | None:
    """Army Forge spells as ours; None when absent or after problems (added to `problems`)."""
    if entries is None:
        return None
    if not isinstance(entries, list):
        problems.add(where, f"spells must be a list, not {json.dumps(entries)}")
        return None
    spells: list[Spell] = []
    ok = True
    for i, entry in enumerate(entries):
        spell = _spell(entry, f"{where} spells[{i}]", problems)
        if spell is None:
            ok = False
        else:
            spells.append(spell)
    return tuple(spells) if ok else None


def _spell(entry: object, where: str, problems: Problems) -> Spell | None:
    if not isinstance(entry, Mapping):
        problems.add(where, f"a spell is an object with name, threshold, effect, not {entry!r}")
        return None
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.add(where, f"a spell needs a name, not {json.dumps(name)}")
        return None
    where = f"{where} '{name.strip()}'"
    text = _effect_text(entry)
    if text is None:
        problems.add(where, "missing field 'effect' (or 'effectSkirmish'): the spell's text")
        return None
    data: dict[str, Any] = {"name": name.strip(), "cost": entry.get("threshold")}
    reach = _RANGE.search(text)
    hits = _HITS.search(text)
    if reach is None or not (hits or _SHIELD.search(text) or _FOCUS.search(text)):
        problems.add(
            where, f"cannot read the spell's effect {json.dumps(text)}; understood: {SHAPES}"
        )
        return None
    data["range"] = int(reach.group(1))
    if hits:
        data.update(effect="hits", hits=int(hits.group(1)))
        rules = _weapon_rules(hits.group(2), where, problems)
        if rules is None:
            return None
        data["rules"] = rules
    else:
        data["effect"] = "shield" if _SHIELD.search(text) else "focus"
    try:
        return Spell.model_validate(data)
    except ValidationError as err:
        for e in err.errors():
            field = ".".join(str(p) for p in e["loc"]).replace("cost", "threshold")
            problems.add(where, f"{field}: {str(e['msg']).removeprefix('Value error, ')}")
        return None


def _effect_text(entry: Mapping[str, Any]) -> str | None:
    for field in ("effectSkirmish", "effect"):
        value = entry.get(field)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _weapon_rules(text: str | None, where: str, problems: Problems) -> list[Rule] | None:
    """`AP(1) and Blast(3)` as weapon rules; None after problems."""
    if not text:
        return []
    rules = []
    for part in _RULE_SPLIT.split(text.strip().rstrip(".")):
        if not part:
            continue
        try:
            rules.append(Rule.parse(part.replace(" ", ""), "weapon"))
        except ValueError as err:
            problems.add(where, f"spell rule '{part}': {err}")
            return None
    return rules
