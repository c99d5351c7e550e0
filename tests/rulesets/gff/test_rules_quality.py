"""GENERAL PRINCIPLES: "Quality Tests: Roll one six-sided die, and if you score the model's
quality value or higher, then it counts as a success." "Modifiers: Regardless of modifiers,
rolls of 6 always succeed, and rolls of 1 always fail." — for hits, Defense and morale."""

from __future__ import annotations

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import gun, profile, state_of, unit
from warbench.core.dice import resolve
from warbench.rulesets.gff import morale
from warbench.rulesets.gff.attacks import Context, Hit, roll_blocks, roll_hits
from warbench.rulesets.gff.quality import quality_test, successes

SHOT = Context(melee=False, distance=5.0)


@pytest.mark.parametrize(
    ("quality", "face", "success"),
    [(4, 3, False), (4, 4, True), (4, 5, True), (2, 2, True), (5, 4, False), (6, 6, True)],
)
def test_quality_test_succeeds_on_quality_or_higher(quality: int, face: int, success: bool) -> None:
    roll = resolve(quality_test("test", quality), [face])
    assert successes(roll) == int(success)


@pytest.mark.parametrize("penalty", [-1, -3, -6])
def test_quality_test_six_always_succeeds_whatever_the_modifiers(penalty: int) -> None:
    roll = resolve(quality_test("test", 4, (("penalty", penalty),)), [6])
    assert successes(roll) == 1


@pytest.mark.parametrize("bonus", [1, 3, 6])
def test_quality_test_one_always_fails_whatever_the_modifiers(bonus: int) -> None:
    roll = resolve(quality_test("test", 2, (("bonus", bonus),)), [1])
    assert successes(roll) == 0


def test_pool_of_quality_tests_counts_each_die_with_naturals_first() -> None:
    roll = resolve(
        quality_test("pool", 4, (("penalty", -2), ("bonus", 0)), dice=5), [1, 4, 5, 6, 6]
    )
    assert successes(roll) == 2  # 4 and 5 fail at -2; the two 6s always succeed


def test_hits_need_quality_or_higher() -> None:
    ref = Ref([2, 3, 4, 5, 6])
    shooter = unit("r1", profile(quality=4, weapons=[gun(attacks=5)]), (0.0, 0.0))
    target = unit("b1", profile(), (0.0, 6.0))
    hits = roll_hits(ref, shooter, gun(attacks=5), 5, target, SHOT)
    assert len(hits) == 3


def test_to_hit_six_succeeds_through_negative_modifiers() -> None:
    """Quality 6+ with Stealth (−1) and Indirect after moving (−1): only the natural 6 hits."""
    ref = Ref([5, 6])
    mortar = gun("Mortar", rules=["Indirect"], attacks=2)
    shooter = unit("r1", profile(quality=6, weapons=[mortar]), (0.0, 0.0))
    target = unit("b1", profile(rules=["Stealth"]), (0.0, 20.0))
    ctx = Context(melee=False, distance=19.0, moved=True)
    hits = roll_hits(ref, shooter, mortar, 2, target, ctx)
    assert ref.rolls[0].request.modifier_total == -2
    assert len(hits) == 1


def test_to_hit_one_fails_through_positive_modifiers() -> None:
    """Reliable (2+) with the focus spell (+1): a natural 1 still misses."""
    ref = Ref([1, 1, 2])
    rifle = gun(rules=["Reliable"], attacks=3)
    shooter = unit("r1", profile(quality=6, weapons=[rifle]), (0.0, 0.0))
    shooter.focus = True
    target = unit("b1", profile(), (0.0, 6.0))
    hits = roll_hits(ref, shooter, rifle, 3, target, SHOT)
    assert len(hits) == 1


def test_defense_blocks_on_defense_value_or_higher() -> None:
    ref = Ref([3, 4, 5])
    target = unit("b1", profile(defense=4, size=3), (0.0, 0.0))
    wounds = roll_blocks(ref, target, [Hit(0, False, 0, False)] * 3, SHOT, gun())
    assert len(wounds) == 1


def test_defense_pushed_past_six_by_ap_still_blocks_on_a_natural_six() -> None:
    """Defense 5+ against AP(2): it would need a 7, yet the natural 6 blocks and the 5 fails."""
    ref = Ref([6, 5])
    target = unit("b1", profile(defense=5, size=2), (0.0, 0.0))
    wounds = roll_blocks(ref, target, [Hit(2, False, 0, False)] * 2, SHOT, gun(rules=["AP(2)"]))
    assert len(wounds) == 1


def test_defense_one_never_blocks_even_with_cover() -> None:
    """Defense 2+ in cover (+1): the 1 still fails, the 2 blocks."""
    ref = Ref([1, 2])
    target = unit("b1", profile(defense=2, size=2), (0.0, 0.0))
    covered = Context(melee=False, distance=5.0, cover=True)
    wounds = roll_blocks(ref, target, [Hit(0, False, 0, False)] * 2, covered, gun())
    assert ref.rolls[0].request.modifier_total == 1
    assert len(wounds) == 1


@pytest.mark.parametrize(
    ("quality", "face", "passed"), [(6, 6, True), (6, 5, False), (2, 1, False)]
)
def test_morale_test_is_a_quality_test(quality: int, face: int, passed: bool) -> None:
    ref = Ref([face])
    squad = unit("r1", profile(quality=quality), (10.0, 10.0))
    assert morale.morale_test(ref, state_of(squad), squad) is passed
    assert ref.script.remaining == 0


def test_morale_test_one_fails_even_with_a_hero_at_quality_2() -> None:
    ref = Ref([1])
    squad = unit("r1", profile(quality=5), (10.0, 10.0))
    hero = unit("r2", profile("Captain", quality=2, rules=["Hero"]), (12.0, 10.0))
    assert morale.morale_test(ref, state_of(squad, hero), squad) is False
    assert ref.rolls[0].request.target == 2
