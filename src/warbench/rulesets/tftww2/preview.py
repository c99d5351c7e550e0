"""What a TFT WW2 player sees before confirming: a man's range bands (4.1: short range
within the table's distance, the weapon's effective range, extreme beyond it), an AFV's
machine gun's (4.1 for its kind; the main gun's 8.2 to hit has no range), how the rules
read their dice in play (3d6 roll-unders by their natural total, as `odds.reading`), and
what a move costs (3.0: a walk 1 per inch and 1 per 90° of turn, `movement.walk_cost`;
8.1: a drive by the ground and the turn, `vehicles.drive_cost`) and how far one may go."""

from __future__ import annotations

import math
import typing

from warbench.core.actions import Action
from warbench.core.dice import Read, Reading, RollRequest
from warbench.core.preview import PathCost
from warbench.rulesets.tftww2.actions import Drive, Walk
from warbench.rulesets.tftww2.afv import TerrainKind, move_cost, vehicle
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.movement import walk_cost
from warbench.rulesets.tftww2.profiles import combat_tables, weapons
from warbench.rulesets.tftww2.vehicles import drive_cost


def reading(request: RollRequest) -> Reading | None:
    """Roll-unders (to hit, LDR) are read by their natural total (criticals come from it),
    totals (damage) in any order; any other roll face by face."""
    if request.read is Read.AT_MOST:
        return Reading.natural_total(request.sides)
    return Reading.unordered(request.sides) if request.read is Read.TOTAL else None


def ranges(game: TFTGame, piece: str) -> list[tuple[str, float]]:
    """Short range and the effective range of the man's firearm, in inches, edge to edge;
    for an AFV, its machine gun's (`vehicles.fire_mg` measures those from its centre)."""
    short = combat_tables().ranged_modifiers.short_range_within
    tank = game.state.tanks.get(piece)
    if tank is not None:
        mgs = vehicle(tank.key).mgs
        if not mgs or tank.mgs_out:
            return []
        mg = weapons()[mgs[0].kind]
        return [("short", short), (f"{mgs[0].name} effective", float(mg.effective_range or 0))]
    man = game.state.men.get(piece)
    if man is None:
        return []
    weapon = weapons().get(man.weapon)
    if weapon is None or weapon.effective_range is None:
        return []
    return [("short", short), (f"{weapon.name} effective", float(weapon.effective_range))]


def reach_limits(game: TFTGame, player: str, piece: str) -> dict[str, float]:
    """A walk goes at most the man's move rate; a drive its movement points on the
    cheapest ground for its kind of drive."""
    man = game.state.men.get(piece)
    if man is not None and man.side == player:
        return {"walk": float(attributes(man).mov)}
    tank = game.state.tanks.get(piece)
    if tank is None or tank.side != player:
        return {}
    profile = vehicle(tank.key)
    cheapest = min(move_cost(profile.drive, k) for k in typing.get_args(TerrainKind))
    return {"drive": profile.movement_points / cheapest}


def path_cost(game: TFTGame, player: str, action: Action) -> PathCost | None:
    """A walk's movement points (turns and inches, `movement.walk_cost`) of the man's move
    rate; a drive's (`vehicles.drive_cost`) of the AFV's movement points."""
    if isinstance(action, Walk):
        man = game.state.men.get(action.man)
        if man is None or man.side != player:
            return None
        straight = math.hypot(action.to[0] - man.x, action.to[1] - man.y)
        cost = walk_cost(man, action.to, action.facing)
        turns = cost - straight
        detail = f'{straight:.1f}" and {turns:.0f} for turns (1 per 90° or part)'
        return PathCost(cost, float(attributes(man).mov), "MP", detail)
    if isinstance(action, Drive):
        tank = game.state.tanks.get(action.tank)
        if tank is None or tank.side != player:
            return None
        profile = vehicle(tank.key)
        found = drive_cost(game, tank, action.to)
        if found is None:
            return PathCost(
                math.inf, float(profile.movement_points), "MP", "a building is in the way"
            )
        straight = math.hypot(action.to[0] - tank.x, action.to[1] - tank.y)
        detail = f"{straight:.1f}\" by the ground's cost, the turn first ({profile.drive})"
        return PathCost(found, float(profile.movement_points), "MP", detail)
    return None
