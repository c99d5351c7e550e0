"""What a spell of re-rolls, lasting dangerous terrain, a condition on the action, or a
template must hold (ours, docs/rules/gff.md GFF-R37), and what the counts, wounds, forced
moves and conditions of GFF-R39 must; `profiles.Spell` calls `check`.

Kept apart from `profiles` so that the Spell model stays the catalogue's shape and these
rules sit with the spells they belong to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # profiles imports this module to check its Spell
    from warbench.rulesets.gff.profiles import Spell

CONDITIONS = ("hold", "advance")
"""`when` values that tie a shooting effect to the action taken (GFF-R37)."""

CONDITIONED = ("to_hit", "rule", "attacks", "range", "reroll")
"""The effects a condition on the action may go with (they act when the unit shoots)."""

CHARGE = "charge"
"""`when` that ties a melee effect to a charge: it acts in the melees the unit charges
into, not when it strikes back (GFF-R39)."""

CHARGED = ("to_hit", "rule", "reroll", "mark")
"""The effects a condition on a charge may go with (they act on the charge's hit rolls; a
mark's, on the hit rolls of units charging the marked one)."""


WOUND_RULES = ("Bane", "Deadly", "Unstoppable")
"""The weapon rules that act on wounds, which no Defense roll meets (GFF-R39): Bane and
Unstoppable ignore Regeneration, Deadly multiplies each wound."""


def check(spell: Spell) -> None:
    """Raise ValueError naming what is wrong with the spell's re-roll, condition,
    template, count, wounds or forced move fields, and what is allowed."""
    name = f"spell {spell.name}"
    if (
        spell.effect == "test"
        and spell.then in ("only", "difficult")
        and (spell.lasts == "next") != bool(spell.trigger)
    ):
        raise ValueError(
            f"{name}: a failed test's '{spell.then}' lasting until next time needs a trigger, "
            "and one lasting the round none"
        )
    if spell.must and not (spell.effect == "shift" or spell.then == "shift"):
        raise ValueError(f"{name}: 'must' goes with a move out of turn (shift)")
    if spell.less > spell.rolled:
        raise ValueError(
            f"{name}: a count rolled on dice may not fall below 0: {spell.rolled}D{spell.dice} "
            f"takes at most -{spell.rolled}, not -{spell.less}"
        )
    if "wounds" in (spell.effect, spell.then if spell.effect == "test" else ""):
        for rule in spell.rules:
            if rule.name not in WOUND_RULES:
                raise ValueError(
                    f"{name}: wounds are taken without Defense rolls, so only "
                    f"{', '.join(WOUND_RULES)} act on them, not {rule.name}"
                )
    if (spell.effect == "reroll") != (spell.reroll is not None):
        raise ValueError(f"{name}: a 'reroll' spell needs reroll (ones, failed, sixes, successes)")
    if spell.when in CONDITIONS:
        if spell.effect not in CONDITIONED:
            allowed = ", ".join(CONDITIONED)
            raise ValueError(f"{name}: a condition on the action goes with {allowed} spells")
        if spell.effect == "reroll" and spell.roll != "to_hit":
            raise ValueError(f"{name}: a condition on the action goes with re-rolls to hit")
    if spell.when == CHARGE and (
        spell.effect not in CHARGED or (spell.effect == "reroll" and spell.roll != "to_hit")
    ):
        raise ValueError(
            f"{name}: a condition on a charge goes with to_hit, rule, mark and re-roll to hit "
            "spells"
        )
    if spell.template and (not spell.point or spell.effect not in ("hits", "wounds")):
        raise ValueError(
            f"{name}: a template is put at a point and deals hits or wounds to each model under it"
        )
    if spell.effect in ("reroll", "in_dangerous") and (spell.lasts == "next") != bool(
        spell.trigger
    ):
        raise ValueError(
            f"{name}: a '{spell.effect}' spell lasting until next time needs a trigger, "
            "and one lasting the round none"
        )
    if spell.effect == "in_dangerous" and spell.side == "friendly":
        raise ValueError(f"{name}: an 'in_dangerous' spell goes to enemy units")
