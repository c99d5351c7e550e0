"""MORALE: "At the end of each round, if an army is down to half or less of its starting
units, then all of its units must take a morale test. To take a morale test, take a quality
test, and if failed the unit is Shaken, and if the unit was already Shaken, then it routs
instead (remove from play as destroyed)." With Shaken, Fearless and Hero."""

from __future__ import annotations

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import play, position, profile, rolled, state_of, unit
from warbench.rulesets.gff.morale import end_of_round_morale, morale_test


@pytest.mark.parametrize(
    ("starting", "alive", "tested"),
    [(4, 2, True), (4, 3, False), (3, 1, True), (3, 2, False), (2, 1, True), (1, 1, False)],
)
def test_army_at_half_or_fewer_of_its_starting_units_tests_every_unit(
    starting: int, alive: int, tested: bool
) -> None:
    reds = [unit(f"r{n}", profile(), (5.0 * n, 10.0)) for n in range(1, alive + 1)]
    blue = unit("b1", profile(), (24.0, 40.0))
    state = state_of(*reds, blue, starting={"red": starting, "blue": 1})
    ref = Ref([6] * alive)
    end_of_round_morale(ref, state)
    tests = [r for r in ref.rolls if r.request.label.startswith("morale")]
    assert len(tests) == (alive if tested else 0)
    assert all(r.request.label.startswith("morale: r") for r in tests)


@pytest.mark.parametrize(("face", "shaken"), [(3, True), (4, False)])
def test_failed_morale_test_makes_a_unit_shaken(face: int, shaken: bool) -> None:
    squad = unit("r1", profile(quality=4), (10.0, 10.0))
    state = state_of(squad, unit("b1", profile()), starting={"red": 2, "blue": 1})
    end_of_round_morale(Ref([face]), state)
    assert squad.shaken is shaken
    assert squad.alive


def test_shaken_unit_always_fails_and_routs() -> None:
    squad = unit("r1", profile(quality=2, size=3), (10.0, 10.0))
    squad.shaken = True
    state = state_of(squad, unit("b1", profile()), starting={"red": 2, "blue": 1})
    ref = Ref()
    end_of_round_morale(ref, state)
    assert ref.rolls == []  # no die can save it
    assert not squad.alive


def test_shaken_unit_fails_its_morale_test_without_rolling() -> None:
    squad = unit("r1", profile(quality=2), (10.0, 10.0))
    squad.shaken = True
    ref = Ref()
    assert morale_test(ref, state_of(squad), squad) is False
    assert ref.rolls == []


@pytest.mark.parametrize(("fearless_face", "passed"), [(4, True), (6, True), (3, False)])
def test_fearless_turns_a_failed_morale_test_into_a_pass_on_four_plus(
    fearless_face: int, passed: bool
) -> None:
    squad = unit("r1", profile(quality=5, rules=["Fearless"]), (10.0, 10.0))
    ref = Ref([2, fearless_face])
    assert morale_test(ref, state_of(squad), squad) is passed
    assert [r.request.label.split(":")[0] for r in ref.rolls] == ["morale", "Fearless"]


def test_fearless_rolls_only_after_a_failure() -> None:
    squad = unit("r1", profile(quality=5, rules=["Fearless"]), (10.0, 10.0))
    ref = Ref([5])
    assert morale_test(ref, state_of(squad), squad) is True
    assert len(ref.rolls) == 1


def test_fearless_can_save_a_shaken_unit_from_routing() -> None:
    squad = unit("r1", profile(rules=["Fearless"]), (10.0, 10.0))
    squad.shaken = True
    state = state_of(squad, unit("b1", profile()), starting={"red": 2, "blue": 1})
    end_of_round_morale(Ref([4]), state)
    assert squad.alive and squad.shaken


@pytest.mark.parametrize(
    ("hero_at", "hero_shaken", "hero_side", "passed"),
    [
        ((20.0, 10.0), False, "r", True),  # 10" away: Quality 3+
        ((20.0, 10.0), True, "r", False),  # a Shaken hero lends nothing
        ((24.0, 10.0), False, "r", False),  # 14" away
        ((20.0, 10.0), False, "b", False),  # an enemy hero
    ],
)
def test_hero_within_twelve_inches_lends_its_quality_unless_shaken(
    hero_at: tuple[float, float], hero_shaken: bool, hero_side: str, passed: bool
) -> None:
    squad = unit("r1", profile(quality=5), (10.0, 10.0))
    hero = unit(f"{hero_side}2", profile("Captain", quality=3, rules=["Hero"]), hero_at)
    hero.shaken = hero_shaken
    ref = Ref([3])
    assert morale_test(ref, state_of(squad, hero), squad) is passed


def test_hero_range_is_measured_edge_to_edge() -> None:
    squad = unit("r1", profile(quality=5), (10.0, 10.0))
    hero = unit("r2", profile("Captain", quality=3, rules=["Hero"]), (22.5, 10.0))
    assert morale_test(Ref([3]), state_of(squad, hero), squad) is True


def test_morale_is_tested_at_the_end_of_the_round() -> None:
    game = position(
        [profile(quality=4), profile()],
        [profile()],
        {"r1": (10, 10), "r2": (30, 10), "b1": (24, 40)},
        dice=[3],
    )
    game.state.units["r2"].models.clear()  # destroyed: red is down to 1 of 2 units
    events = play(game, "idle r1")
    assert rolled(events, "morale") == []
    events = play(game, "idle b1")
    (test,) = rolled(events, "morale")
    assert "r1" in test.request.label
    assert game.state.units["r1"].shaken
    assert game.state.round == 2
