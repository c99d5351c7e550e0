"""The AI's decision to strike back when spells are on the charger or the defender (ours,
docs/rules/gff.md GFF-R36).

Striking back is the defending player's choice (MELEE); the unit then counts as fatigued
until the end of the round: only unmodified 6s hit in its melee. With spells on either
unit the AI weighs it as it weighs shots and charges with spells, by exact means from the
play code (`odds.expected_strike_back`, `odds.expected_melee`):

- gain: the mean wounds its striking back deals the charger;
- cost: when the defender has yet to activate this round (so it may still charge) and is
  neither fatigued nor Shaken, what fatigue takes from its own charge at the charger this
  round: the mean wounds of that charge unfatigued less fatigued (its Impact is lost too),
  with the spells this melee uses up either way gone ("-3 to hit next time it fights in
  melee" spoils the strike back, not the later charge). A charge spell ("get Impact(3)
  next time they charge") makes this cost large; spells on the units change both means.

It strikes back when the gain is larger, by the charger's worth per model (`NoStrikeBack`
scores 0); without spells it strikes back whenever it can, as before.
"""

from __future__ import annotations

import dataclasses

from warbench.rulesets.gff.attacks import spend_spells
from warbench.rulesets.gff.odds import expected_melee, expected_strike_back
from warbench.rulesets.gff.spell_grants import use_up
from warbench.rulesets.gff.state import Unit


def strike_back_value(defender: Unit, charger: Unit) -> float:
    """Gain less cost of striking back (above), in mean wounds on the charger; −1 when no
    model may strike."""
    gain = expected_strike_back(defender, charger)
    if not gain:
        return -1.0
    cost = 0.0
    if not (defender.activated or defender.fatigued or defender.shaken):
        later = after_this_melee(defender)
        fresh = expected_melee(later, charger, charging=True)
        tired = expected_melee(dataclasses.replace(later, fatigued=True), charger, charging=True)
        cost = fresh - tired
    return gain - cost


def after_this_melee(defender: Unit) -> Unit:
    """A copy of the defender with the spells this melee uses up, whether it strikes back
    or not, gone (as `game._after_melee` uses them up: GFF-R28, R31)."""
    later = dataclasses.replace(defender)
    spend_spells(later, "to_hit", "melee")
    use_up(later, "charged", "melee", "attack", "attacked")
    return later
