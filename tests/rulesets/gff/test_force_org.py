"""PREPARATION: equal points, and the optional Force Org. limits with our roundings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warbench.rulesets.gff.armies import army
from warbench.rulesets.gff.force_org import (
    check_force_org,
    check_points,
    max_copies,
    max_heroes,
    max_models,
    max_unit_cost,
    max_units,
)
from warbench.rulesets.gff.profiles import ArmyList, UnitProfile


def _unit(name: str, cost: int, size: int = 1, hero: bool = False) -> UnitProfile:
    return UnitProfile.model_validate(
        {
            "name": name,
            "size": size,
            "quality": 4,
            "defense": 4,
            "cost": cost,
            "rules": ["Hero"] if hero else [],
            "equipment": [{"count": size, "weapon": {"name": "Knife", "range": 0, "attacks": 1}}],
        }
    )


def _army(*units: UnitProfile, name: str = "Test Army") -> ArmyList:
    return ArmyList(name=name, faction="test", units=units)


def _filler(n: int, cost: int = 30, size: int = 1) -> list[UnitProfile]:
    """n units of different profiles (so no copy limit is touched)."""
    return [_unit(f"Squad {i}", cost, size) for i in range(n)]


# --- the rulings: limits at each size -----------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "heroes", "copies", "unit_cost", "units", "models"),
    [
        (100, 0, 1, 35, 3, 5),
        (149, 0, 1, 52.15, 4, 7),
        (150, 1, 2, 52.5, 5, 7),
        (200, 1, 2, 70, 6, 10),
        (300, 2, 3, 105, 10, 15),
        (450, 3, 4, 157.5, 15, 22),
    ],
)
def test_limits_count_full_steps_of_the_points_limit(
    limit: int, heroes: int, copies: int, unit_cost: float, units: int, models: int
) -> None:
    assert max_heroes(limit) == heroes
    assert max_copies(limit) == copies
    assert max_unit_cost(limit) == pytest.approx(unit_cost)
    assert max_units(limit) == units
    assert max_models(limit) == models


def test_a_valid_army_has_no_problems() -> None:
    good = _army(_unit("Boss", 60, hero=True), *_filler(4, cost=35, size=2))
    assert check_force_org(good, 200) == []


# --- heroes -------------------------------------------------------------------------------


def test_one_hero_per_150_points() -> None:
    two = _army(_unit("Boss", 50, hero=True), _unit("Sage", 50, hero=True), *_filler(2))
    problems = check_force_org(two, 200)
    assert problems == [
        "Test Army at 200 pts: up to 1 hero per 150 pts allows 1 hero, but the army has 2: "
        "Boss (1 model, 50 pts), Sage (1 model, 50 pts)"
    ]
    assert check_force_org(two, 300) == []


def test_no_hero_below_150_points() -> None:
    problems = check_force_org(_army(_unit("Boss", 40, hero=True)), 120)
    assert len(problems) == 1
    assert "allows 0 heroes, but the army has 1: Boss" in problems[0]


# --- copies -------------------------------------------------------------------------------


def test_one_plus_x_copies_of_a_unit() -> None:
    three = _army(*[_unit("Gaunts", 30, size=2) for _ in range(3)])
    problems = check_force_org(three, 200)
    assert problems == [
        "Test Army at 200 pts: 1+X copies of the same unit (X = 1 per 150 pts) allows 2 "
        "copies, but the army has 3 copies of Gaunts"
    ]
    assert check_force_org(three, 300) == []
    assert check_force_org(_army(*[_unit("Gaunts", 30) for _ in range(2)]), 200) == []


# --- 35% ----------------------------------------------------------------------------------


def test_no_unit_over_35_percent_of_the_points_limit() -> None:
    big = _army(_unit("Titan", 75), *_filler(3))
    problems = check_force_org(big, 200)
    assert problems == [
        "Test Army at 200 pts: no single unit may be worth over 35% of total points (70 pts), "
        "but Titan costs 75 pts (37.5%)"
    ]
    assert check_force_org(_army(_unit("Titan", 70), *_filler(3)), 200) == []  # exactly 35%


def test_each_oversized_profile_is_named_once() -> None:
    big = _army(_unit("Titan", 75), _unit("Titan", 75), _unit("Colossus", 90))
    problems = check_force_org(big, 200)
    assert len(problems) == 2
    assert "Titan costs 75 pts" in problems[0] and "Colossus costs 90 pts (45.0%)" in problems[1]


# --- units and models ---------------------------------------------------------------------


def test_max_one_unit_per_30_points() -> None:
    seven = _army(*_filler(7, cost=25))
    problems = check_force_org(seven, 200)
    assert len(problems) == 1
    assert problems[0].startswith(
        "Test Army at 200 pts: max. 1 unit per 30 pts allows 6 units, but the army has 7: "
        "Squad 0 (1 model, 25 pts), Squad 1"
    )
    assert "Squad 6 (1 model, 25 pts)" in problems[0]
    assert check_force_org(_army(*_filler(6, cost=25)), 200) == []


def test_max_one_model_per_full_20_points() -> None:
    crowd = _army(*_filler(2, cost=60, size=5), _unit("Gaunts", 40, size=1))
    problems = check_force_org(crowd, 200)
    assert problems == [
        "Test Army at 200 pts: max. 1 model per full 20 pts allows 10 models, but the army has "
        "11: Squad 0 (5 models, 60 pts), Squad 1 (5 models, 60 pts), Gaunts (1 model, 40 pts)"
    ]
    assert check_force_org(_army(*_filler(2, cost=60, size=5)), 200) == []


def test_copies_are_counted_in_the_unit_list() -> None:
    crowd = _army(*[_unit("Gaunts", 30, size=6) for _ in range(2)])
    problems = check_force_org(crowd, 200)
    assert problems and "12: Gaunts ×2 (6 models, 30 pts each)" in problems[0]


def test_every_broken_limit_is_reported() -> None:
    bad = _army(
        _unit("Boss", 80, hero=True),
        _unit("Sage", 40, hero=True),
        *[_unit("Gaunts", 10, size=3) for _ in range(5)],
    )
    problems = check_force_org(bad, 200)
    assert [p.split(": ", 1)[1].split(" ", 3)[:3] for p in problems] == [
        ["up", "to", "1"],
        ["1+X", "copies", "of"],
        ["no", "single", "unit"],
        ["max.", "1", "unit"],
        ["max.", "1", "model"],
    ]


def test_the_points_limit_must_be_positive() -> None:
    good = _army(_unit("Boss", 50))
    for bad in (0, -200):
        with pytest.raises(ValueError, match="points limit must be a whole number"):
            check_force_org(good, bad)
        with pytest.raises(ValueError, match="points limit must be a whole number"):
            check_points(good, good, bad)


@given(
    units=st.lists(
        st.tuples(st.integers(0, 5), st.integers(5, 120), st.integers(1, 6), st.booleans()),
        min_size=1,
        max_size=14,
    ),
    low=st.integers(50, 400),
    extra=st.integers(0, 400),
)
def test_a_bigger_game_never_breaks_more_limits(
    units: list[tuple[int, int, int, bool]], low: int, extra: int
) -> None:
    # Profiles are keyed by number, so the same number always gives the same profile.
    profiles = {n: _unit(f"Unit {n}", cost, size, hero) for n, cost, size, hero in units}
    chosen = _army(*[profiles[n] for n, *_ in units])
    small, large = check_force_org(chosen, low), check_force_org(chosen, low + extra)
    assert len(large) <= len(small)
    models = sum(u.size for u in chosen.units)
    heroes = sum(u.has("Hero") for u in chosen.units)
    expect_ok = (
        heroes <= low // 150
        and len(chosen.units) <= low // 30
        and models <= low // 20
        and all(u.cost * 100 <= 35 * low for u in chosen.units)
        and all(
            [u.name for u in chosen.units].count(p.name) <= 1 + low // 150 for p in chosen.units
        )
    )
    assert (small == []) == expect_ok


# --- equal points -------------------------------------------------------------------------


def test_armies_within_the_limit_pass() -> None:
    red, blue = army("ashen-wardens", "skirmish"), army("chitin-swarm", "skirmish")
    assert check_points(red, blue, 200) == []
    assert check_points(army("ashen-wardens", "full-match"), blue, 300) == []


def test_each_army_over_the_limit_is_reported() -> None:
    red = _army(_unit("Boss", 120), _unit("Mob", 90), name="Reds")
    blue = _army(_unit("Beast", 205), name="Blues")
    assert check_points(red, blue, 200) == [
        "red army Reds is 210 pts, 10 pts over the 200 pts limit: Boss (1 model, 120 pts), "
        "Mob (1 model, 90 pts)",
        "blue army Blues is 205 pts, 5 pts over the 200 pts limit: Beast (1 model, 205 pts)",
    ]
    assert len(check_points(red, army("chitin-swarm", "skirmish"), 200)) == 1
    assert check_points(army("ashen-wardens", "full-match"), red, 200)[0].startswith(
        "red army Ashen Wardens: full-match is 300 pts, 100 pts over"
    )
