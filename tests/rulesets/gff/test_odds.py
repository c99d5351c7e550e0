"""`warbench odds gff`: a unit's weapons at a unit — wounds, models removed, Shaken or
Knocked Out — exactly, from the public shooting rule functions, and as the game plays it."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from tests.odds_check import STANDARD_ERRORS, assert_monte_carlo_agrees, assert_readings_exact
from tests.rulesets.gff.position import play, position
from warbench.core.dice import SeededDice
from warbench.rulesets.gff.armies import factions
from warbench.rulesets.gff.odds import LAST, REMOVED, WOUNDS, odds, query
from warbench.rulesets.gff.odds_units import DESTROYED, SHAKEN, STEADY

UNITS = {u.name: u for f in factions().values() for u in f.units}
BROTHERS_AT_GAUNTS = {"attacker": "Warden Brothers", "target": "Spitter Gaunts", "range": "6"}


def test_storm_rifles_at_gaunts_by_hand() -> None:
    """3 Storm Rifles, Quality 3+ (4/6), AP(1) against Defense 6+: only an unmodified 6
    blocks (5/6 get through); within 9" Relentless adds nothing. Wounds ~ Binomial(3, 5/9),
    one model removed per wound (5 Gaunts), so never a wound-effects roll."""
    report = odds(BROTHERS_AT_GAUNTS)
    p = Fraction(4, 6) * Fraction(5, 6)
    for k in range(4):
        want = comb(3, k) * p**k * (1 - p) ** (3 - k)
        assert report.probability(WOUNDS, str(k)) == want
        assert report.probability(REMOVED, str(k)) == want
    assert report.probability(LAST, STEADY) == 1
    labels = [r.label.split(":")[0] for r in report.requested]
    assert labels == ["to hit", "Defense"]
    assert dict(report.requested[1].modifiers) == {"AP(1)": -1}


def test_last_model_shaken_or_knocked_out() -> None:
    """A lone Warden Captain (Tough(3)) with two wound markers: any wound forces the
    wound-effects roll — Knocked Out on 8+ (5 + Tough) with the d6 + markers, else Shaken."""
    report = odds(
        {
            "attacker": "Spitter Gaunts",
            "target": "Warden Captain",
            "target-wounds": "2",
            "range": "6",
        }
    )
    gaunts, captain = UNITS["Spitter Gaunts"], UNITS["Warden Captain"]
    wound = Fraction(7 - gaunts.quality, 6) * Fraction(captain.defense - 1, 6)
    none = (1 - wound) ** 5
    assert report.probability(WOUNDS, "0") == none
    assert report.probability(LAST, STEADY) == none
    destroyed = report.probability(LAST, DESTROYED)
    assert destroyed + report.probability(LAST, SHAKEN) == 1 - none
    # one wound: d6 + 3 markers >= 8 on a 5 or 6 — a third of the single-wound cases at least
    assert destroyed >= (1 - none) / 3
    assert any(r.label.startswith("wound effects") for r in report.requested)


def test_every_weapon_of_the_unit_fires_in_turn() -> None:
    report = odds({"attacker": "Warden Captain", "target": "Spitter Gaunts", "range": "6"})
    assert dict(report.situation)["weapons"] == "Master Rifle x2 attacks"
    heavy = odds({"attacker": "Heavy Support Team", "target": "Spitter Gaunts", "range": "20"})
    assert dict(heavy.situation)["weapons"] == "Frag Mortar x1 attacks, Lascannon x1 attacks"


def test_cover_and_shield_each_add_one_defense() -> None:
    at_brothers = {"attacker": "Spitter Gaunts", "target": "Warden Brothers", "range": "6"}
    base = odds(at_brothers).probability(WOUNDS, "0")
    cover = odds({**at_brothers, "cover": "yes"}).probability(WOUNDS, "0")
    shield = odds({**at_brothers, "shield": "yes"}).probability(WOUNDS, "0")
    hit = Fraction(7 - UNITS["Spitter Gaunts"].quality, 6)
    assert base == (1 - hit * Fraction(2, 6)) ** 5  # Defense 3+: 1 and 2 fail
    assert cover == shield == (1 - hit * Fraction(1, 6)) ** 5  # 2+: only the 1 fails


@pytest.mark.parametrize(
    "opts",
    [
        BROTHERS_AT_GAUNTS,
        {"attacker": "Hive Tyrant", "target": "Warden Captain", "range": "12"},  # Bane
        {"attacker": "Warden Captain", "target": "Warden Seer", "target-wounds": "2"},
        {"attacker": "Warden Captain", "target": "Hive Warriors", "range": "6"},  # Regeneration
    ],
)
def test_readings_give_the_face_by_face_odds(opts: dict[str, str]) -> None:
    assert_readings_exact(query(opts))


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"attacker": "Space Marines"}, "attacker takes: Warden Captain"),
        ({"weapon": "lascannon"}, "weapon takes: all, storm-rifle"),
        ({"range": "40"}, 'no weapon reaches 40"'),
        ({"models": "9"}, "models takes 1 to 3"),
        ({"attacker": "Leaper Gaunts"}, "carries no ranged weapon"),
    ],
)
def test_bad_options_say_what_is_allowed(opts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds(opts)


def test_exact_odds_agree_with_monte_carlo() -> None:
    """1e5 plays of the same rule functions on seeded dice (Relentless at 12")."""
    assert_monte_carlo_agrees(
        query({"attacker": "Warden Brothers", "target": "Spitter Gaunts"}), seed=11
    )


def test_exact_odds_agree_with_the_game_firing() -> None:
    """`hold r1`, `fire r1 storm-rifle b1` through `GFFGame.apply` on seeded dice, the
    position put back each time: the models removed agree within 4 standard errors."""
    brothers, gaunts = UNITS["Warden Brothers"], UNITS["Spitter Gaunts"]
    game = position([brothers], [gaunts], {"r1": [(24.0, 10.0)] * 3, "b1": [(24.0, 23.0)] * 5})
    game.track_hashes = False
    game.dice = SeededDice(77)
    start = game.state.copy()
    runs = 4_000
    removed: Counter[int] = Counter()
    for _ in range(runs):
        game.state = start.copy()
        play(game, "hold r1", "fire r1 storm-rifle b1")
        removed[5 - len(game.state.units["b1"].models)] += 1
    report = odds({"attacker": "Warden Brothers", "target": "Spitter Gaunts", "range": "12"})
    for row in report.table(REMOVED).rows:
        p = float(row.probability)
        error = math.sqrt(p * (1 - p) / runs)
        assert abs(removed[int(row.name)] / runs - p) <= STANDARD_ERRORS * error, row.name
