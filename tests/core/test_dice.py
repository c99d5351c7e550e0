"""Dice: reading faces (`resolve`), explanations, the seeded / scripted / exact sources."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.core.dice import (
    DiceExhausted,
    DiceSource,
    Read,
    RollRequest,
    ScriptedDice,
    SeededDice,
    exact_outcomes,
    resolve,
)

DETERMINISTIC = settings(derandomize=True, max_examples=60, deadline=None)

D6 = RollRequest("d6")
TWO_D6 = RollRequest("2d6", dice=2)


# -- resolve: each way of reading the faces -------------------------------------------------


def test_total_sums_faces_and_modifiers_and_has_no_success() -> None:
    request = RollRequest("damage", dice=2, modifiers=(("bonus", 2), ("worn", -1)))
    roll = resolve(request, [3, 5])
    assert roll.total == 9
    assert roll.success is None
    assert roll.successes is None
    assert roll.faces == (3, 5)


@pytest.mark.parametrize(
    ("face", "expected"),
    [(1, False), (2, False), (3, False), (4, True), (5, True), (6, True)],
)
def test_over_needs_strictly_more_than_target(face: int, expected: bool) -> None:
    request = RollRequest("to hit", read=Read.OVER, target=3)
    assert resolve(request, [face]).success is expected


def test_over_counts_modifiers() -> None:
    request = RollRequest("to hit", read=Read.OVER, target=3, modifiers=(("cover", -1),))
    assert resolve(request, [4]).success is False  # 4 - 1 = 3, not more than 3
    assert resolve(request, [5]).success is True
    assert resolve(request, [5]).total == 4


@pytest.mark.parametrize(("face", "expected"), [(3, False), (4, True), (5, True)])
def test_at_least_includes_target(face: int, expected: bool) -> None:
    request = RollRequest("quality", read=Read.AT_LEAST, target=4)
    assert resolve(request, [face]).success is expected


@pytest.mark.parametrize(("faces", "expected"), [((5, 5), True), ((5, 6), False), ((1, 1), True)])
def test_at_most_includes_target(faces: tuple[int, int], expected: bool) -> None:
    request = RollRequest("morale", dice=2, read=Read.AT_MOST, target=10)
    assert resolve(request, faces).success is expected


def test_at_most_counts_modifiers() -> None:
    request = RollRequest("morale", dice=2, read=Read.AT_MOST, target=7, modifiers=(("shaken", 2),))
    assert resolve(request, [3, 3]).total == 8
    assert resolve(request, [3, 3]).success is False
    assert resolve(request, [2, 3]).success is True


def test_count_at_least_counts_each_modified_face() -> None:
    request = RollRequest("pool", dice=4, read=Read.COUNT_AT_LEAST, target=4, modifiers=(("x", 1),))
    roll = resolve(request, [1, 3, 4, 6])  # each +1: 2, 4, 5, 7
    assert roll.successes == 3
    assert roll.success is True
    none = resolve(request, [1, 1, 2, 2])  # 2, 2, 3, 3
    assert none.successes == 0
    assert none.success is False


def test_count_at_least_without_modifiers() -> None:
    request = RollRequest("pool", dice=3, read=Read.COUNT_AT_LEAST, target=5)
    assert resolve(request, [5, 6, 4]).successes == 2
    assert resolve(request, [4, 4, 4]).successes == 0


# -- natural totals override the modifiers ---------------------------------------------------


def _ttt_like(modifier: int) -> RollRequest:
    return RollRequest(
        "to hit",
        read=Read.OVER,
        target=3,
        modifiers=(("mod", modifier),),
        always_succeed=frozenset({6}),
        always_fail=frozenset({1}),
    )


def test_natural_six_always_hits_whatever_the_modifiers() -> None:
    roll = resolve(_ttt_like(-10), [6])
    assert roll.total == -4
    assert roll.success is True
    assert "natural 6 always succeeds" in roll.forced


def test_natural_one_always_misses_whatever_the_modifiers() -> None:
    roll = resolve(_ttt_like(+10), [1])
    assert roll.total == 11
    assert roll.success is False
    assert "natural 1 always fails" in roll.forced


def test_natural_totals_only_decide_their_own_totals() -> None:
    assert resolve(_ttt_like(-10), [5]).success is False
    assert resolve(_ttt_like(+10), [2]).success is True
    assert resolve(_ttt_like(0), [4]).forced == ""


def test_always_succeed_on_natural_total_of_several_dice() -> None:
    request = RollRequest(
        "leadership",
        dice=2,
        read=Read.AT_MOST,
        target=2,
        always_succeed=frozenset({2}),
        always_fail=frozenset({12}),
    )
    assert resolve(request, [6, 6]).success is False
    assert resolve(request, [1, 1]).success is True
    assert resolve(request, [1, 2]).success is False
    lenient = RollRequest("x", dice=2, read=Read.AT_MOST, target=20, always_fail=frozenset({12}))
    assert resolve(lenient, [6, 6]).success is False
    assert resolve(lenient, [6, 5]).success is True


def test_always_fail_applies_to_at_least() -> None:
    request = RollRequest(
        "save", read=Read.AT_LEAST, target=2, modifiers=(("armour", 3),), always_fail=frozenset({1})
    )
    assert resolve(request, [1]).success is False
    assert resolve(request, [2]).success is True


# -- explanations -------------------------------------------------------------------------


def test_explain_shows_faces_modifiers_target_and_result() -> None:
    request = RollRequest(
        "to hit: red Recon r1 → blue Guard b2",
        read=Read.OVER,
        target=3,
        modifiers=(("aimed", 1), ("target in woods", -2)),
    )
    text = resolve(request, [4]).explain()
    assert text.startswith("to hit: red Recon r1 → blue Guard b2")
    assert "rolled 4" in text
    assert "+1 aimed" in text
    assert "-2 target in woods" in text
    assert "= 3" in text
    assert "more than 3" in text
    assert text.endswith("failure")
    assert resolve(request, [6]).explain().endswith("success")


def test_explain_shows_every_face_of_several_dice() -> None:
    request = RollRequest("morale", dice=3, read=Read.AT_MOST, target=10)
    text = resolve(request, [2, 5, 3]).explain()
    assert "3d6" in text
    assert "2+5+3" in text
    assert "= 10" in text
    assert "10 or less" in text
    assert "success" in text


def test_explain_at_least_names_the_number_needed() -> None:
    request = RollRequest("quality", read=Read.AT_LEAST, target=4, modifiers=(("veteran", 1),))
    text = resolve(request, [2]).explain()
    assert "4 or more" in text
    assert "+1 veteran" in text
    assert "failure" in text


def test_explain_says_when_the_natural_roll_decided() -> None:
    text = resolve(_ttt_like(-10), [6]).explain()
    assert "natural 6" in text
    assert "-10 mod" in text
    assert "success" in text
    miss = resolve(_ttt_like(10), [1]).explain()
    assert "natural 1" in miss
    assert "+10 mod" in miss
    assert "failure" in miss


def test_explain_total_has_no_verdict() -> None:
    text = resolve(RollRequest("damage", dice=2, modifiers=(("big", 1),)), [3, 4]).explain()
    assert "3+4" in text
    assert "+1 big" in text
    assert "= 8" in text
    assert "success" not in text
    assert "failure" not in text


def test_explain_count_shows_faces_and_successes_needed() -> None:
    request = RollRequest("pool", dice=3, read=Read.COUNT_AT_LEAST, target=5)
    text = resolve(request, [5, 6, 1]).explain()
    assert "5+6+1" in text
    assert "2 of 3 succeed at 5+" in text
    one = resolve(request, [5, 2, 1]).explain()
    assert "1 of 3 succeeds at 5+" in one  # it said "1 of 3 succeed"


# -- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize("faces", [[7], [0], [-1], [1, 2], []])
def test_faces_that_do_not_fit_are_rejected(faces: list[int]) -> None:
    with pytest.raises(ValueError, match="do not fit d6"):
        resolve(RollRequest("to hit", read=Read.OVER, target=3), faces)


def test_face_over_sides_of_bigger_die_rejected() -> None:
    with pytest.raises(ValueError, match="2d10"):
        resolve(RollRequest("x", dice=2, sides=10), [10, 11])
    assert resolve(RollRequest("x", dice=2, sides=10), [10, 9]).total == 19


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dice": 0}, "at least one die"),
        ({"dice": -2}, "at least one die"),
        ({"sides": 1}, "at least two sides"),
        ({"read": Read.OVER}, "needs a target"),
        ({"read": Read.AT_LEAST}, "needs a target"),
        ({"read": Read.AT_MOST}, "needs a target"),
        ({"read": Read.COUNT_AT_LEAST}, "needs a target"),
    ],
)
def test_roll_request_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        RollRequest("my label", **kwargs)  # type: ignore[arg-type]
    assert "my label" in str(info.value)


def test_roll_request_properties() -> None:
    request = RollRequest("x", dice=3, modifiers=(("a", 2), ("b", -5)))
    assert request.modifier_total == -3
    assert request.dice_text == "3d6"
    assert RollRequest("y", sides=10).dice_text == "d10"


# -- seeded dice ----------------------------------------------------------------------------


_REQUESTS = [RollRequest("a", dice=1, sides=6), RollRequest("b", dice=3, sides=10)] * 10


@DETERMINISTIC
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_seeded_dice_reproducible(seed: int) -> None:
    one, two = SeededDice(seed), SeededDice(seed)
    first = [one.faces(r) for r in _REQUESTS]
    assert first == [two.faces(r) for r in _REQUESTS]
    for request, faces in zip(_REQUESTS, first, strict=True):
        assert len(faces) == request.dice
        assert all(1 <= f <= request.sides for f in faces)


@DETERMINISTIC
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    other=st.integers(min_value=0, max_value=2**63),
)
def test_seeded_dice_differ_for_different_seeds(seed: int, other: int) -> None:
    if seed == other:
        other += 1
    request = RollRequest("many", dice=40)
    assert SeededDice(seed).faces(request) != SeededDice(other).faces(request)


@DETERMINISTIC
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    dice=st.integers(min_value=1, max_value=6),
    sides=st.integers(min_value=2, max_value=20),
)
def test_seeded_faces_in_range(seed: int, dice: int, sides: int) -> None:
    source = SeededDice(seed)
    request = RollRequest("r", dice=dice, sides=sides)
    for _ in range(20):
        faces = source.faces(request)
        assert len(faces) == dice
        assert all(1 <= f <= sides for f in faces)
        resolve(request, faces)  # accepted by the reader


@DETERMINISTIC
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    dice=st.integers(min_value=1, max_value=6),
    sides=st.integers(min_value=2, max_value=20),
)
def test_seeded_faces_are_randints_draw_for_draw(seed: int, dice: int, sides: int) -> None:
    """The faces are `random.Random(seed).randint(1, sides)` a die, and leave the generator
    where those calls leave it (the games of a seed are the games they were)."""
    source, rng = SeededDice(seed), random.Random(seed)
    request = RollRequest("r", dice=dice, sides=sides)
    for _ in range(20):
        assert source.faces(request) == tuple(rng.randint(1, sides) for _ in range(dice))
    assert source._rng.getstate() == rng.getstate()


def test_seeded_dice_cover_every_face() -> None:
    source = SeededDice(5)
    seen = Counter(source.faces(D6)[0] for _ in range(600))
    assert set(seen) == {1, 2, 3, 4, 5, 6}


# -- scripted dice --------------------------------------------------------------------------


def test_scripted_dice_consume_in_order() -> None:
    dice = ScriptedDice([3, 1, 6, 2, 5])
    assert dice.remaining == 5
    assert dice.faces(D6) == (3,)
    assert dice.faces(TWO_D6) == (1, 6)
    assert dice.remaining == 2
    assert dice.faces(TWO_D6) == (2, 5)
    assert dice.remaining == 0


def test_scripted_dice_running_out_names_the_label() -> None:
    dice = ScriptedDice([4])
    request = RollRequest("to hit: red Recon r1 → blue Guard b2", dice=2)
    with pytest.raises(DiceExhausted, match="to hit: red Recon r1") as info:
        dice.faces(request)
    assert str(info.value).endswith("needs 2d6 but the script has 1 face left")
    assert dice.remaining == 1
    dice.faces(D6)
    with pytest.raises(DiceExhausted, match="d6"):
        dice.faces(RollRequest("last roll"))


def test_scripted_dice_reject_face_not_on_the_die() -> None:
    dice = ScriptedDice([7, 2])
    with pytest.raises(ValueError, match="7 is not on a d6") as info:
        dice.faces(RollRequest("damage"))
    assert "damage" in str(info.value)
    assert dice.remaining == 2
    assert dice.faces(RollRequest("d8", sides=8)) == (7,)


# -- exact dice -----------------------------------------------------------------------------


def _total(request: RollRequest) -> dict[int, Fraction]:
    return exact_outcomes(lambda dice: resolve(request, dice.faces(request)).total)


def test_exact_2d6_totals() -> None:
    odds = _total(TWO_D6)
    assert sum(odds.values()) == 1
    assert odds[7] == Fraction(1, 6)
    assert odds[2] == Fraction(1, 36)
    assert odds[12] == Fraction(1, 36)
    assert odds[6] == odds[8] == Fraction(5, 36)
    assert set(odds) == set(range(2, 13))
    assert all(isinstance(p, Fraction) for p in odds.values())


def test_exact_3d6_at_most_10_is_a_half() -> None:
    request = RollRequest("3d6", dice=3, read=Read.AT_MOST, target=10)
    odds = exact_outcomes(lambda dice: resolve(request, dice.faces(request)).success)
    assert odds == {True: Fraction(1, 2), False: Fraction(1, 2)}


def test_exact_ttt_to_hit() -> None:
    # TBH 3, +1 to hit, -2 cover: needs natural 5+ (5-1=4 > 3), or the natural 6
    request = RollRequest(
        "to hit",
        read=Read.OVER,
        target=3,
        modifiers=(("th", 1), ("cover", -2)),
        always_succeed=frozenset({6}),
        always_fail=frozenset({1}),
    )
    odds = exact_outcomes(lambda dice: resolve(request, dice.faces(request)).success)
    assert odds == {True: Fraction(1, 3), False: Fraction(2, 3)}
    hopeless = _ttt_like(-10)
    odds = exact_outcomes(lambda dice: resolve(hopeless, dice.faces(hopeless)).success)
    assert odds[True] == Fraction(1, 6)


def test_exact_count_distribution() -> None:
    request = RollRequest("pool", dice=2, read=Read.COUNT_AT_LEAST, target=5)
    odds = exact_outcomes(lambda dice: resolve(request, dice.faces(request)).successes)
    assert odds == {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}


_FIRST = RollRequest("first", read=Read.OVER, target=4)  # 5 or 6: 1/3
_SECOND = RollRequest("second", read=Read.AT_LEAST, target=5)  # 5 or 6: 1/3


def _two_stage(dice: DiceSource) -> str:
    """Roll the second die only when the first fails."""
    if resolve(_FIRST, dice.faces(_FIRST)).success:
        return "first"
    if resolve(_SECOND, dice.faces(_SECOND)).success:
        return "second"
    return "none"


def test_exact_two_stage_experiment() -> None:
    odds = exact_outcomes(_two_stage)
    assert odds == {"first": Fraction(1, 3), "second": Fraction(2, 9), "none": Fraction(4, 9)}
    assert sum(odds.values()) == 1


def test_exact_outcomes_runs_experiment_once_per_branch() -> None:
    runs: list[int] = []

    def counted(dice: DiceSource) -> str:
        runs.append(1)
        return _two_stage(dice)

    exact_outcomes(counted)
    assert len(runs) == 2 + 4 * 6  # the first die succeeds twice; fails four times x 6


def test_exact_with_no_dice_is_certain() -> None:
    assert exact_outcomes(lambda dice: "same") == {"same": Fraction(1)}


def test_exact_two_stage_agrees_with_monte_carlo() -> None:
    odds = exact_outcomes(_two_stage)
    dice = SeededDice(20240607)
    trials = 20_000
    counts = Counter(_two_stage(dice) for _ in range(trials))
    assert set(counts) == set(odds)
    for outcome, probability in odds.items():
        assert abs(counts[outcome] / trials - float(probability)) < 0.02, outcome


def test_exact_2d6_agrees_with_monte_carlo() -> None:
    odds = _total(TWO_D6)
    dice = SeededDice(7)
    trials = 20_000
    counts = Counter(resolve(TWO_D6, dice.faces(TWO_D6)).total for _ in range(trials))
    for total, probability in odds.items():
        assert abs(counts[total] / trials - float(probability)) < 0.02, total


def test_a_natural_roll_is_called_forcing_only_when_it_changes_the_result() -> None:
    request = RollRequest(
        "to hit",
        read=Read.OVER,
        target=1,
        modifiers=(("woods", -2),),
        always_succeed=frozenset({6}),
        always_fail=frozenset({1}),
    )
    assert resolve(request, [6]).forced == ""  # 6 - 2 = 4 > 1 succeeds anyway
    hard = RollRequest(
        "to hit", read=Read.OVER, target=6, always_succeed=frozenset({6}), always_fail=frozenset()
    )
    assert resolve(hard, [6]).forced == "natural 6 always succeeds"
