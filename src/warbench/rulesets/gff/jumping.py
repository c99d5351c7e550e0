"""SPECIAL MOVES (optional): Jumping and Falling, on terrain that has height.

"Models may cross 1" gaps or drop off 3" of elevation as regular movement, but they must
jump to cross gaps or drop off elevation of up to 6". Roll X+1 dice, trying to score 3+,
where X is one die for every full 3" the model wants to move. If all rolls are successes,
then the model may cross the distance, without counting it towards its move. If any roll is
failed, then the model falls instead."

"If a model falls or is pushed off an elevated position at least 2" tall, it takes 1 hit with
AP(X), where X is AP(1) for every full 3" it fell. Then place the model within 2" of the
bottom, and its activation ends immediately. For units with multiple models, falling kills
the model instead, until only one last model remains, which falls normally."

Rulings (docs/rules/gff.md, GFF-R22 to R26): a model stands at `battlefield.elevation` of
its centre; a straight move is read as stretches of one height (`height_stretches`).
Climbing up counts its height toward the move, and so does a drop of up to 3"; a drop of
more than 3" and up to 6" is jumped (its height is X); more than 6" may not be dropped. A
gap is lower ground at least 2" below both its sides: up to 1" wide it is crossed as
regular movement, from 1" to 6" it is jumped (its width is X, and does not count toward the
move), wider it is climbed down and up. Flying ignores all of it ("ignores terrain effects
whilst moving"); Strider passes jumping rolls on 2+.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from warbench.core.dice import Read, RollRequest
from warbench.core.geometry import Point
from warbench.core.words import counted
from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff.attacks import Context, Hit, regenerate, roll_blocks
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.profiles import Weapon
from warbench.rulesets.gff.quality import Referee
from warbench.rulesets.gff.state import Model, Unit
from warbench.rulesets.gff.wounds import take_wounds

REGULAR_DROP = 3.0  # "drop off 3" of elevation as regular movement"
REGULAR_GAP = 1.0  # "cross 1" gaps ... as regular movement"
MOST_JUMP = 6.0  # "must jump to cross gaps or drop off elevation of up to 6""
JUMP_STEP = 3.0  # "one die for every full 3" the model wants to move"
JUMP_ON = 3  # "trying to score 3+"
STRIDER_ON = 2  # Strider: "only needs 2+ to pass jumping rolls"
FALL_HEIGHT = 2.0  # "an elevated position at least 2" tall"
GAP_DEPTH = 2.0  # ours: lower ground this far below both sides is a gap
FALL_STEP = 3.0  # "AP(1) for every full 3" it fell"
_EPS = 1e-9


@dataclass(frozen=True)
class Jump:
    """One jump on a model's path: a drop or a gap, where it takes off (inches along the
    path), what is jumped (the drop's height or the gap's width), how far the model falls if
    it fails, and where along the path the bottom is."""

    kind: Literal["drop", "gap"]
    at: float
    span: float
    fall: float
    bottom: float

    @property
    def dice(self) -> int:
        """X+1, X one die for every full 3"."""
        return int(self.span / JUMP_STEP + _EPS) + 1


@dataclass(frozen=True)
class Climb:
    """What heights do to one model's straight move: inches to add to its length (heights
    climbed and dropped, less the widths of gaps jumped), the jumps, or why it cannot go."""

    extra: float
    jumps: tuple[Jump, ...]
    problem: str | None = None


def plan(start: Point, end: Point, field: Battlefield, *, flying: bool = False) -> Climb:
    """Read the heights along a model's straight move (see the rulings above)."""
    if flying or math.dist(start, end) <= _EPS:
        return Climb(0.0, ())
    stretches = bfm.height_stretches(start, end, field)
    extra, jumps = 0.0, []
    top = stretches[0][2]
    i = 1
    while i < len(stretches):
        at, _, height = stretches[i]
        if height > top:
            extra += height - top
            top, i = height, i + 1
            continue
        if height == top:
            i += 1
            continue
        far = i
        while far < len(stretches) and stretches[far][2] <= top - GAP_DEPTH:
            far += 1
        floor = max(s[2] for s in stretches[i:far]) if far > i else height  # its highest
        width = stretches[far][0] - at if far < len(stretches) else math.inf
        is_gap = far < len(stretches) and stretches[far][2] >= floor + GAP_DEPTH
        if is_gap and width <= REGULAR_GAP + _EPS:
            i = far  # crossed at the top
            continue
        if is_gap and width <= MOST_JUMP + _EPS:
            jumps.append(Jump("gap", at, width, top - height, min(at + width / 2, at + 1.0)))
            extra -= width
            i = far
            continue
        drop = top - height
        if drop > MOST_JUMP + _EPS:
            return Climb(
                extra,
                tuple(jumps),
                f'the move drops {drop:g}" at {at:.2f}" along it; models may drop at most '
                f'{MOST_JUMP:g}" (jumping)',
            )
        if drop > REGULAR_DROP + _EPS:
            jumps.append(Jump("drop", at, drop, drop, at))
        else:
            extra += drop
        top, i = height, i + 1
    return Climb(extra, tuple(jumps))


def jump(ref: Referee, unit: Unit, model: Model, leap: Jump) -> bool:
    """Roll X+1 dice, 3+ each (Strider 2+); whether all succeed."""
    need = STRIDER_ON if unit.all_have("Strider") else JUMP_ON
    roll = ref.roll(
        RollRequest(
            label=f'jumping: {model.id} of {unit.name} jumps a {leap.span:.1f}" {leap.kind} '
            f"({leap.dice} dice, {need}+ each)",
            dice=leap.dice,
            read=Read.COUNT_AT_LEAST,
            target=need,
        )
    )
    return roll.successes == leap.dice


_FALL = Weapon(name="Falling", range=0, attacks=1)


def fall(ref: Referee, unit: Unit, model: Model, height: float) -> None:
    """Falling from `height`: from 2" up, a model of a unit of several is killed, and the last
    model takes 1 hit with AP(1) per full 3" fallen (Defense, Regeneration, wound effects)."""
    if height < FALL_HEIGHT - _EPS:
        ref.emit("fall", f'{model.id} of {unit.name} drops {height:g}" unharmed')
        return
    if len(unit.models) > 1:
        unit.models.remove(model)
        ref.emit("casualty", f'{model.id} of {unit.name} falls {height:g}" and is killed')
        return
    ap = int(height / FALL_STEP + _EPS)
    ref.emit("fall", f'{unit.name} falls {height:g}": 1 hit with AP({ap})')
    hits = [Hit(ap, False, 0, False)]
    wounds = regenerate(ref, unit, roll_blocks(ref, unit, hits, Context(melee=False), _FALL))
    ref.emit("wounds", f"{unit.name} takes {counted(len(wounds), 'wound')}")
    take_wounds(ref, unit, wounds)
    if not unit.alive:
        ref.emit("destroyed", f"{unit.name} is destroyed")
