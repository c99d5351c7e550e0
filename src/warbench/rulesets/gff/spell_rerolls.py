"""Spells that make a unit re-roll dice (ours, docs/rules/gff.md GFF-R37, R39).

"Target friendly unit within 12\\" may re-roll results of 1 when shooting until end of
round", "Target enemy unit within 12\\" must re-roll successful blocks next time it takes
hits": the effect sits on the unit that rolls (`state.SpellEffect`, kind `reroll`, `rule`
naming the roll and the dice, e.g. `to_hit:ones`, `defense:successes`). When that unit next
rolls to hit (melee, shooting or either by `when`, or shooting after the action a condition
names), rolls Defense or takes a morale test (GFF-R39: "may re-roll failed morale
tests", before any Fearless roll), the dice the spell picks are rolled again at once, through the
game's dice, and the second result stands: a die is never re-rolled twice, so Bane's
re-roll of Defense 6s leaves the dice a spell re-rolled alone. Several spells on one roll
re-roll every die any of them picks, once. A unit re-rolls its own failures (1s or every
failure) whenever a spell lets it (it can only gain), and the dice a spell forces on it.
"""

from __future__ import annotations

from dataclasses import replace

from warbench.core.dice import RollRequest
from warbench.rulesets.gff.quality import Referee, die_succeeds
from warbench.rulesets.gff.spell_grants import applies
from warbench.rulesets.gff.state import SpellEffect, Unit

ONES = "re-roll 1s"
"""The note a roll's label carries when a spell re-rolls its 1s, so the exact odds read 1s
apart from other failures (`odds_units.reading`)."""

WORDS = {
    "ones": "1s",
    "failed": "failures",
    "sixes": "unmodified 6s",
    "successes": "successes",
}
"""How the log names the dice each kind of re-roll picks."""


def rerolls(unit: Unit, roll: str, side: str) -> list[SpellEffect]:
    """The re-roll spells on `unit` for its `roll` (to_hit, defense, or morale: GFF-R39) on
    `side` (melee or shooting, or any) now."""
    if not unit.effects:
        return []
    return [
        e
        for e in unit.effects
        if e.kind == "reroll" and e.rule.split(":")[0] == roll and applies(e, unit, side)
    ]


def note(unit: Unit, roll: str, side: str) -> str:
    """What a roll's label adds for the re-rolls to come (`" (re-roll 1s: Spell)"`), so the
    log says it before the dice and the odds keep 1s apart."""
    found = rerolls(unit, roll, side)
    if not found:
        return ""
    parts = [f"re-roll {WORDS[e.rule.split(':')[1]]}: {e.spell}" for e in found]
    return f" ({'; '.join(parts)})"


def reroll(
    ref: Referee, unit: Unit, request: RollRequest, faces: tuple[int, ...], roll: str, side: str
) -> tuple[list[int], list[int]]:
    """The dice the re-roll spells on `unit` leave as they are, and those they rolled again
    (the second result standing)."""
    found = rerolls(unit, roll, side)
    if not found:
        return list(faces), []
    picks = {e.rule.split(":")[1] for e in found}
    chosen = [n for n, face in enumerate(faces) if any(_picks(request, face, p) for p in picks)]
    if not chosen:
        return list(faces), []
    names = ", ".join(dict.fromkeys(e.spell for e in found))
    label = f"{names}: {unit.name} re-rolls {len(chosen)} {roll.replace('_', ' ')} dice"
    second = ref.roll(replace(request, label=label, dice=len(chosen)))
    taken = set(chosen)
    return [f for n, f in enumerate(faces) if n not in taken], list(second.faces)


def _picks(request: RollRequest, face: int, kind: str) -> bool:
    """Whether a re-roll of `kind` picks the die showing `face` in `request`."""
    if kind == "ones":
        return face == 1
    if kind == "sixes":
        return face == 6
    return die_succeeds(request, face) == (kind == "successes")
