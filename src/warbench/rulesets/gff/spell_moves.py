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

A spell may give the move a direction (GFF-R35): "toward the nearest enemy" (from the
unit's model nearest an enemy model to that model), "toward the caster" or "away from the
caster" (from the caster's model nearest the unit to the unit's model nearest it); the
move then runs straight that way (within 1°), by any distance up to the inches.

GFF-R39: "toward the nearest objective" runs from the unit's model nearest a marker to that
marker. A move the unit **must** make ("must move 6"", after a failed test "it must
retreat 6"", away from the caster) goes the full inches: the caster's player names a point
to give its line (on the heading, if it has one), and the unit moves along that line the
full inches or, where that is not legal, as far as it legally can (the farthest of the
full inches, then every quarter inch less); `done` is refused (it is moved if it can be).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from warbench.core.geometry import Base
from warbench.rulesets.gff.actions import Shift
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.movement import block_move_problem
from warbench.rulesets.gff.state import Marker, Model, State, Unit

Spot = Model | Marker
"""Something standing on the table: a model or an objective marker."""

DIRECTIONS = 8
STRAIGHT = math.cos(math.radians(1.0))
"""A directed move may stray from its heading by 1° (points are written to 0.01")."""


def waiting(state: State) -> tuple[Unit, int, str] | None:
    """The unit the caster's player may move now, with the inches and the direction
    (`any`, or `enemy`, `caster`, `away`: GFF-R35), if any."""
    queue = state.step.get("shifts") or []
    if not queue:
        return None
    uid, inches, *way = queue[0]
    return state.units[uid], int(inches), str(way[0]) if way else "any"


WAYS = {
    "enemy": "toward the nearest enemy",
    "caster": "toward the caster",
    "objective": "toward the nearest objective",
}
"""How a direction is worded (else away from the caster)."""

MUST = "must"
"""The mark of a move the unit must make in full, last in its queue item (GFF-R39)."""

STEP = 0.25
"""How much shorter each try of a forced move is, when the full inches are not legal."""


def forced(state: State) -> bool:
    """Whether the move waiting now is one the unit must make in full (GFF-R39)."""
    queue = state.step.get("shifts") or []
    return bool(queue) and queue[0][-1] == MUST


def prompt(state: State) -> str:
    """What the decision asks: `move b1 by up to 6" [toward the nearest enemy] (a spell)`."""
    uid, inches, *way = state.step["shifts"][0]
    toward = f" {WAYS.get(way[0], 'away from the caster')}" if way and way[0] != "any" else ""
    if forced(state):
        return (
            f'move {uid} {inches}"{toward} (a spell: it must; name a point on its line, '
            "it goes the full distance or as far as it can)"
        )
    return f'move {uid} by up to {inches}"{toward} (a spell), or done'


def heading(state: State, unit: Unit, way: str) -> tuple[float, float] | None:
    """The unit vector a move of direction `way` follows; None for any direction (or when
    there is no enemy or marker, the unit stands on it, or the caster moves itself)."""
    if way == "any":
        return None
    ends: list[tuple[Spot, Spot]]
    if way == "enemy":
        others = [m for u in state.side_units(other_side(unit.side)) for m in u.models]
        ends = [(m, n) for m in unit.models for n in others]
    elif way == "objective":  # GFF-R39
        ends = [(m, n) for m in unit.models for n in state.markers]
    else:
        caster = state.units.get(state.active or "")
        if caster is None or caster is unit:
            return None
        ends = [(m, n) for m in unit.models for n in caster.models]
    if not ends:
        return None
    mine, theirs = min(ends, key=lambda e: math.hypot(e[0].x - e[1].x, e[0].y - e[1].y))
    dx, dy = theirs.x - mine.x, theirs.y - mine.y
    if way == "away":
        dx, dy = -dx, -dy
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length > 1e-9 else None


def other_side(side: str) -> str:
    """The opposing side."""
    return "blue" if side == "red" else "red"


def samples(state: State, unit: Unit, inches: int, way: str = "any") -> list[Shift]:
    """Destinations in eight directions, at the full distance and at half of it; along the
    heading of a directed move at the full distance, three quarters, half and a quarter."""
    cx, cy = unit.centre()
    points = []
    ahead = heading(state, unit, way)
    fracs = (1.0,) if forced(state) else (1.0, 0.75, 0.5, 0.25)
    if ahead is not None:
        for frac in fracs:
            x, y = cx + inches * frac * ahead[0], cy + inches * frac * ahead[1]
            points.append((round(x, 2), round(y, 2)))
        return [Shift(unit.id, p) for p in points]
    for k in range(DIRECTIONS):
        angle = 2 * math.pi * k / DIRECTIONS
        for frac in (1.0,) if forced(state) else (1.0, 0.5):
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
    unit, inches, way = found
    if action.unit != unit.id:
        return f"the spell lets you move {unit.name} now (shift {unit.id} x,y), or done"
    ahead = heading(state, unit, way)
    cx, cy = unit.centre()
    dx, dy = action.to[0] - cx, action.to[1] - cy
    length = math.hypot(dx, dy)
    if ahead is not None and length > 0.01 and (dx * ahead[0] + dy * ahead[1]) < STRAIGHT * length:
        x, y = cx + inches * ahead[0], cy + inches * ahead[1]
        return (
            f"the spell moves {unit.name} straight {WAYS.get(way, 'away from the caster')} "
            f"(e.g. shift {unit.id} {x:.2f},{y:.2f})" + ("" if forced(state) else ", or done")
        )
    if forced(state):  # any line: the move goes as far along it as it can (GFF-R39)
        if length > 0.01:
            return None
        return f'{unit.name} must move {inches}": name a point other than its centre'
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


def done_problem(state: State) -> str | None:
    """Why the caster's player may not leave the unit where it is (it must move: GFF-R39)."""
    found = waiting(state)
    if found is None or not forced(state):
        return None
    unit, inches, _ = found
    return f'{unit.name} must move {inches}": shift {unit.id} x,y (a point on its line)'


def farthest(
    state: State,
    field: Battlefield,
    unit: Unit,
    towards: tuple[float, float],
    inches: int,
    obstacles: Sequence[Base] | None,
    *,
    jumping: bool,
) -> tuple[float, float] | None:
    """Where a forced move along the line from the unit's centre through `towards` ends:
    the full inches, or the farthest legal point a quarter inch shorter at a time; None
    when none is legal (GFF-R39)."""
    cx, cy = unit.centre()
    dx, dy = towards[0] - cx, towards[1] - cy
    length = math.hypot(dx, dy)
    steps = round(inches / STEP)
    for n in range(steps, 0, -1):
        far = n * STEP / length
        to = (cx + dx * far, cy + dy * far)
        problem = block_move_problem(
            state, field, unit, to, float(inches), obstacles=obstacles, jumping=jumping
        )
        if problem is None:
            return to
    return None
