"""Moves out of turn that spells give (ours, docs/rules/gff.md GFF-R33): "may immediately
move by up to 6"", and after a failed morale test "you may move it by up to 6" in a
straight line in any direction".

After a successful casting the caster's player decides, unit by unit, where each unit the
spell lets it move goes (`shift UNIT x,y`), or leaves it (`done`): a decision in the middle
of the caster's activation, whichever side the unit is on. The move is a block move (every
model by the same vector, so a straight line) of up to the spell's inches, legal as an
Advance of that length is (terrain, 1" from other units; difficult terrain caps it at 6");
dangerous terrain and jumps are rolled as for any move. It is no action of the moved unit:
it does not activate it, and move spells' inches neither add to it nor are used up by it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from warbench.core.geometry import Base
from warbench.rulesets.gff.actions import Shift
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.movement import block_move_problem
from warbench.rulesets.gff.state import State, Unit

DIRECTIONS = 8


def waiting(state: State) -> tuple[Unit, int] | None:
    """The unit the caster's player may move now, with the inches, if any."""
    queue = state.step.get("shifts") or []
    if not queue:
        return None
    uid, inches = queue[0]
    return state.units[uid], int(inches)


def samples(unit: Unit, inches: int) -> list[Shift]:
    """Destinations in eight directions, at the full distance and at half of it."""
    cx, cy = unit.centre()
    points = []
    for k in range(DIRECTIONS):
        angle = 2 * math.pi * k / DIRECTIONS
        for frac in (1.0, 0.5):
            x, y = cx + inches * frac * math.sin(angle), cy + inches * frac * math.cos(angle)
            points.append((round(x, 2), round(y, 2)))
    return [Shift(unit.id, p) for p in points]


def problem(
    state: State,
    field: Battlefield,
    action: Shift,
    obstacles: Sequence[Base] | None,
    *,
    jumping: bool,
) -> str | None:
    """Why the shift is not allowed now (which unit may be moved, and how far)."""
    found = waiting(state)
    if found is None:
        return "no spell lets a unit move now"
    unit, inches = found
    if action.unit != unit.id:
        return f"the spell lets you move {unit.name} now (shift {unit.id} x,y), or done"
    return block_move_problem(
        state, field, unit, action.to, float(inches), obstacles=obstacles, jumping=jumping
    )


def value(state: State, action: Shift, player: str) -> float:
    """The AI's worth of a shift: its own unit nearer an objective, an enemy's farther."""
    unit = state.units[action.unit]
    if not state.markers:
        return 0.0
    x, y = action.to
    cx, cy = unit.centre()
    before = min(math.hypot(m.x - cx, m.y - cy) for m in state.markers)
    after = min(math.hypot(m.x - x, m.y - y) for m in state.markers)
    return (before - after) if unit.side == player else (after - before)
