"""The AI's decision to strike back with spells on either unit (GFF-R36): exact means from
the play code, gain against what fatigue takes from the defender's own charge."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import (
    blade,
    caster_export,
    decision,
    play,
    position,
    profile,
    unit,
)
from warbench.rulesets.gff import spells
from warbench.rulesets.gff.actions import NoStrikeBack, StrikeBack
from warbench.rulesets.gff.ai import FirefightAI
from warbench.rulesets.gff.ai_strike_back import strike_back_value
from warbench.rulesets.gff.army_forge import import_army_forge
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.odds import expected_strike_back
from warbench.rulesets.gff.profiles import Spell

FIGHTERS = profile("Fighters", size=3, weapons=[blade()])
IMPACT = 'Target friendly unit within 12" gets Impact(3) next time it charges.'


def imported(text: str) -> Spell:
    (spell,) = import_army_forge(caster_export(("Spell", text)), "list.json").units[0].spells
    return spell


def given(game: GFFGame, uid: str, text: str) -> None:
    """The spell's lasting effect on unit `uid`, as a successful casting leaves it."""
    target = game.state.units[uid]
    spells.affect(Ref(), target, imported(text), target)


def at_strike_back(*, spell: str | None, activated: bool = False) -> GFFGame:
    """Red's Fighters charged blue's (their three to-hit dice all miss); blue decides."""
    game = position(
        [FIGHTERS], [FIGHTERS], {"r1": (24, 10), "b1": (24, 14)}, dice=[1, 1, 1], round=2
    )
    if spell:
        given(game, "b1", spell)
    game.state.units["b1"].activated = activated
    play(game, "charge r1 b1")
    assert decision(game) == ("blue", "strike-back")
    return game


def test_the_mean_of_striking_back_is_exact_with_spells_and_fatigue() -> None:
    """One model, Quality 4, one attack, at Defense 4: 1/2 x 1/2; +2 attacks triple it;
    fatigued only 6s hit (1/6 x 1/2); a Counter weapon struck first and is left out."""
    one = profile("One", weapons=[blade()])
    defender, charger = unit("b1", one, (24, 14)), unit("r1", one, (24, 13))
    assert Fraction(expected_strike_back(defender, charger)).limit_denominator() == Fraction(1, 4)
    spells.affect(Ref(), defender, imported(_attacks()), defender)
    assert expected_strike_back(defender, charger) == pytest.approx(0.75)
    tired = dataclasses.replace(defender, fatigued=True)
    assert expected_strike_back(tired, charger) == pytest.approx(3 / 12)
    shaken = dataclasses.replace(defender, shaken=True)
    assert expected_strike_back(shaken, charger) == pytest.approx(3 / 12)
    counter = profile("Spears", weapons=[blade("Spear", rules=["Counter"])])
    assert expected_strike_back(unit("b2", counter, (24, 14)), charger) == 0


def _attacks() -> str:
    return 'Target friendly unit within 12" gets +2 attacks in melee until end of round.'


def test_without_spells_the_ai_strikes_back_whenever_it_can() -> None:
    game = at_strike_back(spell=None)
    assert FirefightAI(0).choose(game, "blue") == StrikeBack()


def test_a_charge_spell_still_to_use_makes_it_keep_fresh_for_its_own_charge() -> None:
    """b1 holds Impact(3) for its next charge and has yet to activate: striking back would
    fatigue it (no Impact, only 6s hit) for a charge worth more than the strike."""
    game = at_strike_back(spell=IMPACT)
    b1, r1 = game.state.units["b1"], game.state.units["r1"]
    assert strike_back_value(b1, r1) < 0 < expected_strike_back(b1, r1)
    assert FirefightAI(0).choose(game, "blue") == NoStrikeBack()


def test_once_activated_the_same_defender_strikes_back() -> None:
    """Having activated this round it cannot charge again before fatigue ends: no cost."""
    game = at_strike_back(spell=IMPACT, activated=True)
    b1, r1 = game.state.units["b1"], game.state.units["r1"]
    assert strike_back_value(b1, r1) == pytest.approx(expected_strike_back(b1, r1))
    assert FirefightAI(0).choose(game, "blue") == StrikeBack()


def test_a_spell_that_spoils_only_this_melee_makes_it_hold_back() -> None:
    """-3 to hit the next time it fights in melee: its strike back would hit on 6s only,
    and the spell is used up by this melee either way, so its own charge later would not
    be spoiled by the spell but by fatigue: it holds back (and strikes back once
    activated)."""
    spoiled = 'Target enemy unit within 12" gets -3 to hit next time it fights in melee.'
    game = at_strike_back(spell=spoiled)
    b1, r1 = game.state.units["b1"], game.state.units["r1"]
    assert expected_strike_back(b1, r1) == pytest.approx(3 / 12)
    assert strike_back_value(b1, r1) == pytest.approx(3 / 12 - (3 / 4 - 3 / 12))
    assert FirefightAI(0).choose(game, "blue") == NoStrikeBack()
    assert b1.effects, "the decision leaves the spell on the unit"
    game = at_strike_back(spell=spoiled, activated=True)
    assert FirefightAI(0).choose(game, "blue") == StrikeBack()
