"""What a spell of re-rolls, lasting dangerous terrain, a condition on the action, or a
template must hold (ours, docs/rules/gff.md GFF-R37); `profiles.Spell` calls `check`.

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


def check(spell: Spell) -> None:
    """Raise ValueError naming what is wrong with the spell's re-roll, condition or
    template fields, and what is allowed."""
    name = f"spell {spell.name}"
    if (spell.effect == "reroll") != (spell.reroll is not None):
        raise ValueError(f"{name}: a 'reroll' spell needs reroll (ones, failed, sixes, successes)")
    if spell.when in CONDITIONS:
        if spell.effect not in CONDITIONED:
            allowed = ", ".join(CONDITIONED)
            raise ValueError(f"{name}: a condition on the action goes with {allowed} spells")
        if spell.effect == "reroll" and spell.roll != "to_hit":
            raise ValueError(f"{name}: a condition on the action goes with re-rolls to hit")
    if spell.template and (not spell.point or spell.effect not in ("hits", "wounds") or spell.dice):
        raise ValueError(
            f"{name}: a template is put at a point and deals a number of hits or wounds "
            "to each model under it"
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
