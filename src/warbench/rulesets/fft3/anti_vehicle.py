"""Anti-vehicle Attack and Missile Attacks, fifth step: resolve hits with penetration dice.

"For each hit remaining, roll a number of d6s equal to the firing stand's penetration less
the target's armor." Equal → one die; less → one die with the (negative) difference applied.
Guns get +2 Pen at close range and −2 at long; LAWs and missiles do not. Each die: 6 destroys
the target, 4–5 forces a quality check (at most one per firing phase), 3 or less nothing.
"""

from __future__ import annotations

from typing import Literal

from warbench.core.dice import Modifier, Read, RollRequest
from warbench.rulesets.fft3.profiles import Band, tables
from warbench.rulesets.fft3.referee import Referee

Outcome = Literal["destroyed", "check", "no effect"]


def gun_penetration(pen: int, band: Band) -> int:
    """A gun's Pen at `band`: +2 close, −2 long."""
    change = tables().gun_pen
    if band == "close":
        return pen + change["close"]
    if band == "long":
        return pen + change["long"]
    return pen


def penetration_dice(pen: int, armour: int) -> tuple[int, tuple[Modifier, ...]]:
    """Dice per hit and the modifier: Pen − armour dice, or one die less the shortfall."""
    difference = pen - armour
    if difference > 0:
        return difference, ()
    if difference == 0:
        return 1, ()
    return 1, (("Pen below armour", difference),)


def resolve_hits(ref: Referee, label: str, hits: int, pen: int, armour: int) -> Outcome:
    """Roll the penetration dice of `hits` hits: destroyed on any 6, a check on any 4–5."""
    if hits <= 0:
        return "no effect"
    per_hit, modifiers = penetration_dice(pen, armour)
    numbers = tables().penetration
    roll = ref.roll(
        RollRequest(
            label=f"penetration: {label} (Pen {pen} v armour {armour}; 6 destroys, 4-5 check)",
            dice=hits * per_hit,
            read=Read.COUNT_AT_LEAST,
            target=numbers["destroyed"],
            modifiers=modifiers,
        )
    )
    shift = sum(value for _, value in modifiers)
    if roll.successes:
        return "destroyed"
    if any(face + shift >= numbers["check"] for face in roll.faces):
        return "check"
    return "no effect"
