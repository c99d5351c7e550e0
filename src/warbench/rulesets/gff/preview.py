"""What a gff player sees before and around play in the browser: the ranges of a unit's
shooting weapons (SHOOTING: a model shoots at a unit within its weapon's range), how the
rules read their dice in play (`odds_units.reading` with Bane's 6s kept: a finer reading is
always exact), a game's army from an uploaded Army Forge export, and where a unit may
move (MOVEMENT: every model by the same vector, `movement.block_move_problem`) and what a
move costs (its length, with heights climbed and dropped under the optional jumping rules,
`jumping.plan`)."""

from __future__ import annotations

import copy
import math
from typing import Any

from warbench.core.actions import Action
from warbench.core.dice import ReadingPolicy
from warbench.core.preview import PathCost, Reach
from warbench.core.preview import reach as scan_reach
from warbench.rulesets.gff import jumping, odds_units
from warbench.rulesets.gff.actions import Advance, Rush
from warbench.rulesets.gff.army_forge import import_army_forge
from warbench.rulesets.gff.battlefield import DIFFICULT_MOVE
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.movement import allowance
from warbench.rulesets.gff.scenario import SIDES, validate
from warbench.rulesets.gff.spell_grants import range_bonus


def reading() -> ReadingPolicy:
    """Every pool read by success and unmodified 6s, totals in any order."""
    return odds_units.reading(bane=True)


def ranges(game: GFFGame, piece: str) -> list[tuple[str, float]]:
    """Each shooting weapon of the unit's models with its range in inches, with what range
    spells add to it (GFF-R31)."""
    unit = game.state.units.get(piece)
    if unit is None:
        return []
    bonus = range_bonus(unit)
    found = {
        (w.name, float(max(0, w.range + bonus)))
        for m in unit.models
        for w in m.weapons
        if w.range > 0
    }
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


def reach(game: GFFGame, player: str, piece: str) -> list[Reach]:
    """Where the unit's centre may move by Advance and Rush (a block move: every model by
    the same vector), as far as the move allows."""
    unit = game.state.units.get(piece)
    if unit is None or unit.side != player or not unit.alive or not unit.deployed:
        return []  # an undeployed unit has no place to measure from
    limits = {kind: allowance(unit, kind) for kind in ("advance", "rush")}
    return scan_reach(game, player, piece, unit.centre(), limits)


def path_cost(game: GFFGame, player: str, action: Action) -> PathCost | None:
    """The inches the unit's models move: the straight distance, and with the optional
    jumping rules the most any model adds by climbing and dropping."""
    if not isinstance(action, Advance | Rush):
        return None
    unit = game.state.units.get(action.unit)
    if unit is None or unit.side != player or not unit.alive or not unit.models:
        return None
    cx, cy = unit.centre()
    dx, dy = action.to[0] - cx, action.to[1] - cy
    straight = math.hypot(dx, dy)
    climb = 0.0
    if game.spec.jumping:
        flying = unit.all_have("Flying")
        for base in unit.bases():
            end = (base.centre[0] + dx, base.centre[1] + dy)
            climb = max(climb, jumping.plan(base.centre, end, game.field, flying=flying).extra)
    kind = "advance" if isinstance(action, Advance) else "rush"
    detail = f'{straight:.1f}" straight'
    if climb:
        detail += f', {climb:.1f}" climbing and dropping'
    detail += f'; through difficult terrain at most {DIFFICULT_MOVE:g}"'
    return PathCost(straight + climb, allowance(unit, kind), "inch", detail)
