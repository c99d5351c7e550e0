"""What the AI expects a successful casting to be worth (ours, docs/rules/gff.md GFF-R38).

The value of each unit the spell reaches, summed: positive when it harms an enemy unit or
helps a friendly one, negative the other way round (a point's or an area's own units).

- Hits: their count (the dice's mean, a template's hits on each model under it, an area's
  own hits for the units around the target) times the share Defense lets through, times
  what a model of the unit is worth; wounds: their count times that worth; a dangerous
  terrain test: its dice (a die per model, or per Tough) over 6 times that worth.
- A forced morale test: the chance it fails (Shaken always; Fearless passes half the
  failures) times what the failure does: Shaken a model's worth (a Shaken unit routs: all
  of them), its wounds or hits as above, fatigue half a model's worth before the unit
  activates and a quarter after (it strikes back fatigued), a move out of turn its inches.
- A spell that acts on the unit's own actions (modifiers and re-rolls to hit, attacks,
  range, moves, granted rules but those acting when it is attacked, limits on actions or
  moves, dangerous terrain when it moves, a condition on the action) and lasts the round is
  worth nothing on a unit that has activated this round: it has no action left to use it.
- Otherwise a modifier counts its size, another effect 1, as before; a move out of turn its
  inches.
"""

from __future__ import annotations

from collections.abc import Callable

from warbench.rulesets.gff import spells
from warbench.rulesets.gff.morale import morale_quality
from warbench.rulesets.gff.profiles import Spell
from warbench.rulesets.gff.state import State, Unit

Worth = Callable[[Unit], float]
Unblocked = Callable[[int, int], float]

ACTING = frozenset({"to_hit", "focus", "attacks", "range", "move", "only", "difficult"})
"""Effects that act on the unit's own actions (GFF-R38)."""

DEFENSIVE = frozenset({"Regeneration", "Stealth", "Fearless", "Counter"})
"""Granted rules that act when the unit is attacked or tested, not on its own actions."""


def value(
    state: State,
    caster: Unit,
    spell: Spell,
    targets: list[Unit],
    text: str,
    worth: Worth,
    unblocked: Unblocked,
) -> float:
    """The expected worth of the spell cast as `text` on `targets` (GFF-R38)."""
    around = spells.in_area(state, spell, targets)
    point = spells.point_of(text) if spell.template else None
    total = 0.0
    for target in [*targets, *around]:
        sign = 1.0 if (target.side != caster.side) == spell.on_enemies else -1.0
        count = spell.mean_count
        if target in around and spell.area_hits:
            count = spell.area_hits
        if point is not None:
            count = spell.mean_count * spells.under(spell, target, point)
        total += sign * _one(state, spell, target, count, worth, unblocked)
    return total


def _one(
    state: State, spell: Spell, target: Unit, count: float, worth: Worth, unblocked: Unblocked
) -> float:
    """The worth of the spell's effect on one unit (`count` hits or wounds)."""
    if spell.effect == "hits":
        return count * _unblocked(spell, target, unblocked) * worth(target)
    if spell.effect == "wounds":
        return count * worth(target)
    if spell.effect in ("dangerous", "in_dangerous"):
        test = len(target.models) * (target.profile.rating("Tough") or 1) / 6 * worth(target)
        return test * _usable(spell, target) if spell.effect == "in_dangerous" else test
    if spell.effect == "test":
        return _failing(state, target) * _failure(spell, target, worth, unblocked)
    if spell.effect == "shift":
        return float(spell.value)
    return _usable(spell, target) * max(1, abs(spell.value))


def _usable(spell: Spell, target: Unit) -> float:
    """0 for an effect on the target's own actions lasting the round once it activated."""
    if spell.lasts != "round" or not target.activated:
        return 1.0
    acting = spell.effect in ACTING or spell.when in ("hold", "advance")
    if spell.effect == "reroll":
        acting = spell.roll == "to_hit"
    if spell.effect == "rule":
        acting = any(r.name not in DEFENSIVE for r in spell.rules)
    if spell.effect == "in_dangerous":
        acting = True
    return 0.0 if acting else 1.0


def _unblocked(spell: Spell, target: Unit, unblocked: Unblocked) -> float:
    ap = next((r.rating or 0 for r in spell.rules if r.name == "AP"), 0)
    return unblocked(target.profile.defense, ap)


def _failing(state: State, target: Unit) -> float:
    """The chance the target fails a morale test: always when Shaken; else its Quality
    test (a Hero's within 12"), Fearless passing half the failures."""
    if target.shaken:
        return 1.0
    quality, _ = morale_quality(state, target)
    fails = min(5, max(1, quality - 1)) / 6
    return fails / 2 if target.all_have("Fearless") else fails


def _failure(spell: Spell, target: Unit, worth: Worth, unblocked: Unblocked) -> float:
    """What a failed forced test does, worth as `_one` counts it."""
    if spell.then == "wounds":
        return spell.mean_count * worth(target)
    if spell.then == "hits":
        return spell.mean_count * _unblocked(spell, target, unblocked) * worth(target)
    if spell.then == "fatigued":
        return (0.25 if target.activated else 0.5) * worth(target)
    if spell.then == "shift":
        return float(spell.value)
    if spell.then == "dangerous":  # GFF-R39: as a dangerous terrain spell
        return len(target.models) * (target.profile.rating("Tough") or 1) / 6 * worth(target)
    if spell.then in ("only", "difficult"):  # GFF-R39: a hindrance counts 1, as R38's
        return 1.0
    return worth(target) * (len(target.models) if target.shaken else 1)
