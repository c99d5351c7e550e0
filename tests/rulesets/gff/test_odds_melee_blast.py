"""`warbench odds gff attack=melee` (a charge: strikes, strike back, fatigue) and Blast
weapons in the shooting odds: exact, by hand, Monte Carlo, and as the game plays them."""

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
from warbench.rulesets.gff.odds import REMOVED, WOUNDS, odds, query
from warbench.rulesets.gff.odds_melee import AFTER, CHARGER, DEFENDER, Tally
from warbench.rulesets.gff.odds_units import DESTROYED, STEADY

UNITS = {u.name: u for f in factions().values() for u in f.units}
CHARGE = {"attack": "melee", "attacker": "Warden Brothers", "target": "Spitter Gaunts"}
MORTAR = {"attacker": "Heavy Support Team", "target": "Spitter Gaunts", "weapon": "frag-mortar"}


def binomial(n: int, p: Fraction, k: int) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k) if 0 <= k <= n else Fraction(0)


def test_a_charge_by_hand() -> None:
    """3 Combat Blades at Quality 3+ (4/6) against Defense 6+ (5/6 through): the Gaunts
    lose k ~ Binomial(3, 5/9) models; the 5 − k left strike back with Claws at 5+ (2/6)
    against Defense 3+ (2/6 through)."""
    report = odds(CHARGE)
    removed = [binomial(3, Fraction(5, 9), k) for k in range(4)]
    for k in range(4):
        assert report.probability(f"{DEFENDER}: {REMOVED}", str(k)) == removed[k]
    for j in range(6):
        want = sum(removed[k] * binomial(5 - k, Fraction(1, 9), j) for k in range(4))
        assert report.probability(f"{CHARGER}: {WOUNDS}", str(j)) == want
    assert report.probability(f"{DEFENDER}: {AFTER}", STEADY) == 1


def test_the_tally_counts_the_wounds_as_the_game_words_them() -> None:
    """The log says "takes 1 wound" and "takes 2 wounds"; the tally read only "wound(s)"."""
    tally = Tally(SeededDice(1))
    tally.emit("wounds", "b1 Trooper takes 1 wound")
    tally.emit("wounds", "b1 Trooper takes 2 wounds")
    tally.emit("wounds", "r1 Brute takes 0 wounds")
    assert tally.wounds == {"b1 Trooper": 3, "r1 Brute": 0}


def test_fatigue_and_shaken_strike_only_on_sixes_and_no_strike_back_is_a_choice() -> None:
    tired = odds({**CHARGE, "fatigued": "yes", "strike-back": "no"})
    assert tired.probability(f"{DEFENDER}: {WOUNDS}", "0") == (1 - Fraction(1, 6 * 6) * 5) ** 3
    assert tired.probability(f"{CHARGER}: {WOUNDS}", "0") == 1
    shaken = odds({**CHARGE, "target-shaken": "yes"})
    removed = [binomial(3, Fraction(5, 9), k) for k in range(4)]
    untouched = sum(removed[k] * (1 - Fraction(1, 6) * Fraction(2, 6)) ** (5 - k) for k in range(4))
    assert shaken.probability(f"{CHARGER}: {WOUNDS}", "0") == untouched


def test_a_lone_hero_is_knocked_out_or_shaken() -> None:
    """Hive Warriors charge a Warden Captain with two wound markers: any wound rolls for
    its effects."""
    report = odds(
        {
            "attack": "melee",
            "attacker": "Hive Warriors",
            "target": "Warden Captain",
            "target-wounds": "2",
        }
    )
    table = report.table(f"{DEFENDER}: {AFTER}")
    assert sum(row.probability for row in table.rows) == 1
    assert report.probability(f"{DEFENDER}: {AFTER}", DESTROYED) > 0


def test_a_blast_weapon_by_hand() -> None:
    """Frag Mortar, 1 attack at 3+ (4/6), Blast(3): a hit is 3 hits on 5 Gaunts (Defense
    6+, 5/6 through each); within 9" no Relentless extra hit."""
    report = odds({**MORTAR, "range": "6"})
    hit = Fraction(4, 6)
    for k in range(4):
        want = hit * binomial(3, Fraction(5, 6), k) + (1 - hit if k == 0 else 0)
        assert report.probability(WOUNDS, str(k)) == want
    assert "Blast" in dict(report.situation)
    lone = odds({**MORTAR, "target": "Warden Captain", "range": "6"})
    # Blast(3) makes at most as many hits as the target has models: one
    assert [row.name for row in lone.table(WOUNDS).rows] == ["0", "1"]


@pytest.mark.parametrize(
    "opts",
    [
        {"attack": "melee", "attacker": "Warden Captain", "target": "Warden Seer"},
        {"attack": "melee", "attacker": "Hive Tyrant", "target": "Warden Captain"},
        {"attack": "melee", "attacker": "Acid Mites", "target": "Warden Captain", "models": "1"},
        {**MORTAR, "target": "Hive Warriors", "target-models": "2"},
    ],
)
def test_readings_give_the_face_by_face_odds(opts: dict[str, str]) -> None:
    assert_readings_exact(query(opts))


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"attack": "brawl"}, "attack takes: shooting, melee"),
        (
            {"attack": "melee", "range": "3"},
            "range is an option of attack=shooting, not of attack=melee",
        ),
        ({"attack": "melee", "target-wounds": "5"}, "target-wounds takes 0 to 0"),
        ({"attack": "melee", "models": "9"}, "models takes 1 to 3"),
    ],
)
def test_bad_options_say_what_is_allowed(opts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds(opts)


@pytest.mark.parametrize(
    ("opts", "seed"),
    [
        ({"attack": "melee", "attacker": "Warden Captain", "target": "Warden Seer"}, 21),
        ({**MORTAR, "range": "20"}, 22),
    ],
)
def test_exact_odds_agree_with_monte_carlo(opts: dict[str, str], seed: int) -> None:
    """1e5 plays of the same stages on seeded dice."""
    assert_monte_carlo_agrees(query(opts), seed=seed)


def test_exact_odds_agree_with_the_game_charging() -> None:
    """`charge r1 b1`, `strike-back` through `GFFGame.apply` on seeded dice, the position
    put back each time: both units' losses agree within 4 standard errors."""
    brothers, gaunts = UNITS["Warden Brothers"], UNITS["Spitter Gaunts"]
    game = position([brothers], [gaunts], {"r1": [(24.0, 10.0)] * 3, "b1": [(24.0, 14.0)] * 5})
    game.track_hashes = False
    game.dice = SeededDice(78)
    start = game.state.copy()
    runs = 2_000
    lost: Counter[tuple[str, int]] = Counter()
    for _ in range(runs):
        game.state = start.copy()
        play(game, "charge r1 b1", "strike-back")
        lost[DEFENDER, 5 - len(game.state.units["b1"].models)] += 1
        lost[CHARGER, 3 - len(game.state.units["r1"].models)] += 1
    report = odds(CHARGE)
    for who in (DEFENDER, CHARGER):
        for row in report.table(f"{who}: {REMOVED}").rows:
            p = float(row.probability)
            error = math.sqrt(p * (1 - p) / runs)
            assert abs(lost[who, int(row.name)] / runs - p) <= STANDARD_ERRORS * error, row.name
