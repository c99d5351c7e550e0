"""5.0 Morale: what triggers the LDR check, the modifiers to LDR, and the check."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.referee import Ref
from warbench.core.dice import DiceSource, exact_outcomes
from warbench.rulesets.tftww2.morale import ldr_check, ldr_modifiers, morale_triggers
from warbench.rulesets.tftww2.profiles import Quality, characters


def three(total: int) -> list[int]:
    """Three d6 faces with this total."""
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


# --- triggers -----------------------------------------------------------------------------------


def test_no_trigger_no_check() -> None:
    assert (
        morale_triggers(
            nearest_co_down=False, squad_casualties_this_round=0, under_air_artillery_flame=False
        )
        == []
    )


def test_nearest_co_incapacitated_or_killed_triggers() -> None:
    reasons = morale_triggers(
        nearest_co_down=True, squad_casualties_this_round=0, under_air_artillery_flame=False
    )
    assert reasons == ["nearest CO incapacitated or killed"]


@pytest.mark.parametrize(("casualties", "check"), [(0, False), (1, False), (2, True), (5, True)])
def test_more_than_one_squad_casualty_in_a_round_triggers(casualties: int, check: bool) -> None:
    reasons = morale_triggers(
        nearest_co_down=False,
        squad_casualties_this_round=casualties,
        under_air_artillery_flame=False,
    )
    assert bool(reasons) is check
    if check:
        assert f"{casualties} squad members" in reasons[0]


def test_air_artillery_or_flame_attack_triggers() -> None:
    reasons = morale_triggers(
        nearest_co_down=False, squad_casualties_this_round=0, under_air_artillery_flame=True
    )
    assert reasons == ["under air, artillery or flame thrower attack this round"]


def test_every_trigger_is_named() -> None:
    reasons = morale_triggers(
        nearest_co_down=True, squad_casualties_this_round=3, under_air_artillery_flame=True
    )
    assert len(reasons) == 3


def test_negative_casualties_are_refused() -> None:
    with pytest.raises(ValueError):
        morale_triggers(
            nearest_co_down=False, squad_casualties_this_round=-1, under_air_artillery_flame=False
        )
    with pytest.raises(ValueError):
        ldr_modifiers(
            co_within_6=False,
            casualties=-1,
            in_cover=False,
            under_air_flame_rocket=False,
            afv_within_12=False,
            quality="regular",
        )


# --- modifiers to LDR ------------------------------------------------------------------------


def mods(
    *,
    co_within_6: bool = False,
    casualties: int = 0,
    in_cover: bool = False,
    under_air_flame_rocket: bool = False,
    afv_within_12: bool = False,
    quality: Quality = "regular",
) -> list[tuple[str, int]]:
    return ldr_modifiers(
        co_within_6=co_within_6,
        casualties=casualties,
        in_cover=in_cover,
        under_air_flame_rocket=under_air_flame_rocket,
        afv_within_12=afv_within_12,
        quality=quality,
    )


def test_regular_troops_with_nothing_to_note_have_no_modifier() -> None:
    assert mods() == []


def test_co_or_political_officer_within_6_plus_2() -> None:
    assert mods(co_within_6=True) == [('CO or political officer within 6"', 2)]


@pytest.mark.parametrize(("casualties", "value"), [(1, -2), (2, -4), (3, -6)])
def test_minus_2_per_casualty_suffered(casualties: int, value: int) -> None:
    assert [v for _, v in mods(casualties=casualties)] == [value]


def test_unit_in_cover_plus_2() -> None:
    assert mods(in_cover=True) == [("unit in cover", 2)]


def test_air_flame_or_rocket_attack_minus_4() -> None:
    assert mods(under_air_flame_rocket=True) == [("under air, flame or rocket attack", -4)]


def test_afv_support_within_12_plus_2() -> None:
    assert mods(afv_within_12=True) == [('supported by AFV within 12"', 2)]


@pytest.mark.parametrize(
    ("quality", "expected"),
    [("green", [("green troops", -4)]), ("elite", [("elite troops", 4)]), ("regular", [])],
)
def test_troop_quality(quality: Quality, expected: list[tuple[str, int]]) -> None:
    assert mods(quality=quality) == expected


def test_ldr_modifiers_add_up() -> None:
    everything = mods(
        co_within_6=True,
        casualties=2,
        in_cover=True,
        under_air_flame_rocket=True,
        afv_within_12=True,
        quality="green",
    )
    assert sum(v for _, v in everything) == 2 - 4 + 2 - 4 + 2 - 4


@given(st.integers(0, 10), st.sampled_from(["green", "regular", "elite"]), st.booleans())
def test_each_casualty_costs_2(casualties: int, quality: Quality, cover: bool) -> None:
    base = sum(v for _, v in mods(quality=quality, in_cover=cover))
    assert sum(v for _, v in mods(casualties=casualties, quality=quality, in_cover=cover)) == (
        base - 2 * casualties
    )


# --- the check -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "passed"), [(3, True), (8, True), (9, False), (12, False), (18, False)]
)
def test_private_ldr_check_is_3d6_at_most_ldr_8(total: int, passed: bool) -> None:
    ldr = characters()["Private"].leadership
    assert ldr_check(Ref(three(total)), "morale", ldr) is passed


@pytest.mark.parametrize(("total", "passed"), [(10, True), (11, False)])
def test_ldr_check_uses_the_modified_ldr(total: int, passed: bool) -> None:
    ref = Ref(three(total))
    assert ldr_check(ref, "morale", 8, mods(co_within_6=True)) is passed
    assert 'CO or political officer within 6" (+2 LDR)' in ref.rolls[0].explain()


@pytest.mark.parametrize("total", [3, 4, 5])
def test_natural_3_to_5_always_passes(total: int) -> None:
    hopeless = mods(casualties=4, quality="green", under_air_flame_rocket=True)
    assert ldr_check(Ref(three(total)), "morale", 8, hopeless)


@pytest.mark.parametrize("total", [16, 17, 18])
def test_natural_16_to_18_always_fails(total: int) -> None:
    steady = mods(co_within_6=True, in_cover=True, afv_within_12=True, quality="elite")
    assert not ldr_check(Ref(three(total)), "morale", 14, steady)


@pytest.mark.parametrize(
    ("ldr", "ways"),
    [(8, 1 + 3 + 6 + 10 + 15 + 21), (14, 216 - (10 + 6 + 3 + 1)), (0, 10), (30, 206)],
)
def test_exact_odds_of_the_ldr_check(ldr: int, ways: int) -> None:
    def experiment(dice: DiceSource) -> bool:
        return ldr_check(Ref(dice=dice), "morale", ldr)

    assert exact_outcomes(experiment)[True] == Fraction(ways, 216)
