"""`warbench odds fft3 attack=artillery` (a template on the stands touching it) and
`group=...` (a declared fire group at one stand): exact, by hand, Monte Carlo, the game."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tests.odds_check import STANDARD_ERRORS, assert_monte_carlo_agrees, assert_readings_exact
from tests.rulesets.fft3.position import At, play, position
from warbench.core.dice import SeededDice
from warbench.rulesets.fft3.odds import AFTER, CHECK, DESTROYED, FIRE, NOTHING, odds, query
from warbench.rulesets.fft3.odds_artillery import FAILED, LOST, SUPPRESSED

TANK_AND_INFANTRY = {"attack": "artillery", "stands": "soviet-tank,soviet-infantry"}
GROUP = {"group": "nato-tank:gun:20,nato-tank:gun:10:flank,nato-ifv:missile:15"}
AI_GROUP = {"group": "soviet-ifv:gun:3,soviet-infantry:ai:2", "target": "nato-infantry"}


def test_the_effects_table_by_hand() -> None:
    """A Soviet tank (quality 5+): 6 → check, failed 2/3 → eliminated; passed or 4–5 →
    suppressed. Soviet infantry in the open: 6 destroyed; 4–5 check, passed → suppressed."""
    report = odds(TANK_AND_INFANTRY)
    sixth, third = Fraction(1, 6), Fraction(1, 3)
    tank, infantry = "stand 1: Soviet Tank", "stand 2: Soviet Infantry"
    assert report.probability(tank, DESTROYED) == 0
    assert report.probability(tank, FAILED) == sixth * 2 * third
    assert report.probability(tank, SUPPRESSED) == sixth * third + 2 * sixth
    assert report.probability(infantry, DESTROYED) == sixth
    assert report.probability(infantry, FAILED) == 2 * sixth * 2 * third
    assert report.probability(infantry, SUPPRESSED) == 2 * sixth * third
    lost_tank, lost_inf = sixth * 2 * third, sixth + 2 * sixth * 2 * third
    assert report.probability(LOST, "2") == lost_tank * lost_inf


def test_difficult_terrain_protects_infantry_and_a_second_check_is_not_taken() -> None:
    protected = odds({**TANK_AND_INFANTRY, "difficult": "yes"})
    assert protected.probability("stand 2: Soviet Infantry", DESTROYED) == 0
    checked = odds({**TANK_AND_INFANTRY, "checked": "yes"})
    assert checked.probability("stand 1: Soviet Tank", FAILED) == 0
    assert checked.probability("stand 1: Soviet Tank", SUPPRESSED) == Fraction(1, 2)


def test_a_group_is_the_volleys_in_turn_and_one_check() -> None:
    """Two IFV guns' anti-infantry hits add up and force one check at −1 a hit after the
    first: a single check request, whatever the hits."""
    one = odds({"firer": "soviet-ifv", "target": "nato-infantry", "weapon": "gun", "range": "3"})
    two = odds(AI_GROUP)
    assert two.probability(FIRE, NOTHING) < one.probability(FIRE, NOTHING)
    assert two.probability(AFTER, DESTROYED) == 0
    single = odds({"group": "nato-tank:gun:25", "difficult": "yes"})
    alone = odds({"range": "25", "difficult": "yes"})
    assert single.tables == alone.tables


@pytest.mark.parametrize(
    "opts",
    [
        {"attack": "artillery", "stands": "nato-tank,nato-infantry", "cohesion": "no"},
        {"group": "soviet-tank:gun:20,nato-ifv:gun:5", "target": "nato-tank"},
        {"group": "nato-infantry:ai:3,nato-infantry:ai:2", "target": "soviet-infantry"},
    ],
)
def test_readings_give_the_face_by_face_odds(opts: dict[str, str]) -> None:
    assert_readings_exact(query(opts))


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"attack": "barrage"}, "attack takes: fire, artillery"),
        ({"attack": "artillery", "stands": "t-80"}, "stands takes: nato-tank"),
        ({"attack": "artillery", "stands": "nato-tank," * 5}, "1 to 4 stands"),
        (
            {"attack": "artillery", "range": "3"},
            "range is an option of attack=fire, not of attack=artillery",
        ),
        ({"group": "nato-tank:gun"}, "FIRER:WEAPON:RANGE"),
        ({"group": "nato-tank:gun:20", "firer": "nato-ifv"}, "either group or firer"),
        ({"group": "nato-tank:gun:90"}, "beyond long range"),
    ],
)
def test_bad_options_say_what_is_allowed(opts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds(opts)


@pytest.mark.parametrize(
    ("opts", "seed"),
    [
        ({"attack": "artillery", "stands": "nato-infantry,soviet-tank,soviet-ifv"}, 5),
        (GROUP, 6),
        (AI_GROUP, 7),
    ],
)
def test_exact_odds_agree_with_monte_carlo(opts: dict[str, str], seed: int) -> None:
    """1e5 plays of the same stages on seeded dice."""
    assert_monte_carlo_agrees(query(opts), seed=seed)


def test_exact_odds_agree_with_the_game_barrage() -> None:
    """`barrage 36,36` through `FFT3Game.apply` on a NATO tank and NATO infantry touching
    the template, the position put back each time: each stand's fate agrees."""
    game = position(
        [At("s1t1", 36, 20), At("n1t1", 36, 37.5), At("n1i1", 36, 34.7)],
        phase="artillery",
        mover="red",
    )
    game.state.templates_left = 1
    game.track_hashes = False
    game.dice = SeededDice(9)
    start = game.state.copy()
    runs = 4_000
    tank_lost = infantry_suppressed = 0
    for _ in range(runs):
        game.state = start.copy()
        play(game, "barrage 36,36")
        tank_lost += not game.state.stands["n1t1"].alive
        infantry_suppressed += game.state.stands["n1i1"].suppressed
    report = odds({"attack": "artillery", "stands": "nato-tank,nato-infantry"})
    for seen, p in (
        (tank_lost, report.probability("stand 1: NATO Tank", FAILED)),
        (infantry_suppressed, report.probability("stand 2: NATO Infantry", SUPPRESSED)),
    ):
        q = float(p)
        assert abs(seen / runs - q) <= STANDARD_ERRORS * math.sqrt(q * (1 - q) / runs)


def test_group_odds_agree_with_the_game_firing() -> None:
    """Two NATO tanks fire at one Soviet tank and it is resolved once, through the game."""
    game = position(
        [At("s1t1", 36, 10, 0.0), At("n1t1", 36, 31.25, 180.0), At("n1t2", 37, 26.25, 180.0)],
        mover="blue",
    )
    game.track_hashes = False
    game.dice = SeededDice(10)
    start = game.state.copy()
    runs = 2_000
    gone = 0
    for _ in range(runs):
        game.state = start.copy()
        play(game, "fire n1t1 gun s1t1", "fire n1t2 gun s1t1", "resolve s1t1")
        gone += not game.state.stands["s1t1"].alive
    d1 = math.dist((36, 10), (36, 31.25)) - 1.25
    d2 = math.dist((36, 10), (37, 26.25)) - 1.25
    report = odds({"group": f"nato-tank:gun:{d1:.4f},nato-tank:gun:{d2:.4f}"})
    p = float(report.probability(AFTER, DESTROYED) + report.probability(AFTER, FAILED))
    assert report.probability(FIRE, CHECK) > 0
    assert abs(gone / runs - p) <= STANDARD_ERRORS * math.sqrt(p * (1 - p) / runs)
