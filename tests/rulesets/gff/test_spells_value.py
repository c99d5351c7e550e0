"""What the AI expects a casting to be worth (GFF-R38): buffs a unit can no longer use,
forced tests by their chance and consequence, areas and templates by every unit reached."""

from __future__ import annotations

import pytest

from tests.rulesets.gff.position import profile, state_of, unit
from tests.rulesets.gff.spell_setup import SQUAD, imported
from warbench.rulesets.gff import spells_value
from warbench.rulesets.gff.ai import worth, wound_chance
from warbench.rulesets.gff.profiles import Spell
from warbench.rulesets.gff.state import Unit

SEER = profile("Seer", rules=["Caster(2)"])
FOCUS = Spell(name="Foresight", cost=2, range=12, effect="focus")


def worth_of(spell: Spell, *units: Unit, targets: list[str], text: str = "") -> float:
    """`spells_value.value` of r1 casting `spell` at `targets` among `units`."""
    caster = unit("r1", SEER, (24, 10))
    state = state_of(caster, *units)
    chosen = [state.units[t] for t in targets]
    return spells_value.value(state, caster, spell, chosen, text, worth, wound_chance)


def test_a_buff_for_the_round_is_worth_nothing_once_the_unit_has_activated() -> None:
    """+1 to hit this round helps a unit yet to act, not one that has acted; a shield
    still helps it (it can be attacked)."""
    squad = unit("r2", SQUAD, (24, 14))
    assert worth_of(FOCUS, squad, targets=["r2"]) == 1
    squad.activated = True
    assert worth_of(FOCUS, squad, targets=["r2"]) == 0
    shield = Spell(name="Ward", cost=1, range=12, effect="shield")
    assert worth_of(shield, squad, targets=["r2"]) == 1
    later = imported('Target friendly unit within 12" gets +1 to hit next time they shoot.')
    assert worth_of(later, squad, targets=["r2"]) == 1  # its next shooting, next round


def test_a_forced_test_is_worth_its_chance_of_failing_times_what_failing_does() -> None:
    """Quality 4 fails half the time; D3 wounds are 2 on average; a Squad model is worth
    10/3: 0.5 × 2 × 10/3."""
    text = 'Target enemy unit within 12" must take a morale test. If failed it takes D3 wounds.'
    squad = unit("b1", SQUAD, (24, 20))
    assert worth_of(imported(text), squad, targets=["b1"]) == pytest.approx(10 / 3)
    squad.shaken = True  # a Shaken unit always fails
    assert worth_of(imported(text), squad, targets=["b1"]) == pytest.approx(20 / 3)


def test_the_units_around_the_target_count_and_own_ones_count_against() -> None:
    """2 hits on b1 and 1 on each other unit within 3": b2 adds a hit's worth, r2 (the
    caster's own) takes one away."""
    text = (
        'Target enemy unit within 18" takes 2 hits, and all other units within 3" of it take 1 hit.'
    )
    spell = imported(text)
    hit = wound_chance(4, 0) * 10 / 3
    alone = worth_of(spell, unit("b1", SQUAD, (24, 20)), targets=["b1"])
    assert alone == pytest.approx(2 * hit)
    crowd = [unit("b1", SQUAD, (24, 20)), unit("b2", SQUAD, (24, 22)), unit("r2", SQUAD, (20, 20))]
    assert worth_of(spell, *crowd, targets=["b1"]) == pytest.approx(2 * hit)
    assert worth_of(spell, *crowd[:2], targets=["b1"]) == pytest.approx(3 * hit)


def test_a_template_is_worth_its_hits_on_each_model_under_it() -> None:
    """Two of the squad's models are under the 3" template at 24.75,20: two hits."""
    spell = imported('Place a 3" template within 18". All models under it take 1 hit.')
    squad = unit("b1", SQUAD, (24, 20))
    value = worth_of(spell, squad, targets=["b1"], text="24.75,20")
    assert value == pytest.approx(2 * wound_chance(4, 0) * 10 / 3)


def test_dangerous_terrain_for_the_round_is_worth_nothing_on_a_unit_that_has_acted() -> None:
    spell = imported('Target enemy unit within 18" counts as being in dangerous terrain.')
    squad = unit("b1", SQUAD, (24, 20))
    assert worth_of(spell, squad, targets=["b1"]) == pytest.approx(3 / 6 * 10 / 3)
    squad.activated = True
    assert worth_of(spell, squad, targets=["b1"]) == 0
