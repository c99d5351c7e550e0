"""What a gff player sees before and around play in the browser: the ranges of a unit's
shooting weapons (SHOOTING: a model shoots at a unit within its weapon's range), how the
rules read their dice in play (`odds_units.reading` with Bane's 6s kept: a finer reading is
always exact), and a game's army from an uploaded Army Forge export."""

from __future__ import annotations

import copy
from typing import Any

from warbench.core.dice import ReadingPolicy
from warbench.rulesets.gff import odds_units
from warbench.rulesets.gff.army_forge import import_army_forge
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.scenario import SIDES, validate


def reading() -> ReadingPolicy:
    """Every pool read by success and unmodified 6s, totals in any order."""
    return odds_units.reading(bane=True)


def ranges(game: GFFGame, piece: str) -> list[tuple[str, float]]:
    """Each shooting weapon of the unit's models with its range in inches."""
    unit = game.state.units.get(piece)
    if unit is None:
        return []
    found = {(w.name, float(w.range)) for m in unit.models for w in m.weapons if w.range > 0}
    return sorted(found, key=lambda item: (item[1], item[0]))


def with_army_list(scenario: dict[str, Any], side: str, name: str, text: str) -> dict[str, Any]:
    """`scenario` with `side`'s army imported from an Army Forge export (`army_forge`),
    validated as a scenario file is (points limit, force organisation); one ValueError lists
    every problem."""
    if side not in SIDES:
        raise ValueError(f"side '{side}': give one of {', '.join(SIDES)}")
    army = import_army_forge(text, name)
    data = copy.deepcopy(scenario)
    data["armies"][side] = {"army": army.model_dump(mode="json")}
    return validate(data, name).model_dump(mode="json")
