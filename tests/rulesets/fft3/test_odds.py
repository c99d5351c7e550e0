"""`warbench odds fft3`: one stand's fire at one target, exactly, from `fire.resolve_volleys`."""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import pytest

from tests.odds_check import STANDARD_ERRORS, assert_monte_carlo_agrees, assert_readings_exact
from tests.rulesets.fft3.position import At, play, position
from warbench.core.dice import SeededDice
from warbench.rulesets.fft3.odds import (
    AFTER,
    CHECK,
    DESTROYED,
    FAILED,
    FIRE,
    NOTHING,
    PASSED,
    odds,
    query,
)

EXAMPLE = {
    "firer": "nato-tank",
    "weapon": "gun",
    "target": "soviet-tank",
    "range": "25",
    "difficult": "yes",
    "arc": "front",
}


def test_nato_tank_gun_at_a_soviet_tank_25_inches_away_in_difficult_terrain() -> None:
    """Long range (25" > 24"): 3 dice at 4+ (−1 long, +1 NATO quality), each hit saved on
    5+, then Pen 12 (14 − 2 long) against front armour 10: two dice per hit; any 6
    destroys, else any 4–5 forces a check."""
    report = odds(EXAMPLE)
    third, sixth = Fraction(1, 3), Fraction(1, 6)

    def kept(k: int) -> Fraction:  # k of the 3 shots hit and are not saved: 1/2 x 2/3 each
        return comb(3, k) * third**k * (1 - third) ** (3 - k)

    destroyed = sum(kept(k) * (1 - (1 - sixth) ** (2 * k)) for k in range(4))
    nothing = sum(kept(k) * Fraction(1, 2) ** (2 * k) for k in range(4))
    assert report.probability(FIRE, DESTROYED) == destroyed
    assert report.probability(FIRE, NOTHING) == nothing == Fraction(27, 64)
    assert report.probability(FIRE, CHECK) == 1 - destroyed - nothing
    check = report.probability(FIRE, CHECK)
    # the Soviet check passes on 5+
    assert report.probability(AFTER, PASSED) == check * Fraction(1, 3)
    assert report.probability(AFTER, FAILED) == check * Fraction(2, 3)
    assert dict(report.situation)["range"] == '25" (long)'
    to_hit = report.requested[0]
    assert to_hit.needs == "each d6 4+"
    assert dict(to_hit.modifiers) == {"long range": -1, "quality": 1}
    assert [r.label.split(":")[0] for r in report.requested] == [
        "to hit",
        "terrain save",
        "penetration",
        "quality check",
    ]


def test_flank_arc_strikes_the_flank_armour() -> None:
    front = odds({"range": "10", "arc": "front"})
    flank = odds({"range": "10", "arc": "flank"})
    assert flank.probability(FIRE, DESTROYED) > front.probability(FIRE, DESTROYED)
    assert "flank armour" in flank.requested[1].label


def test_anti_infantry_hits_force_one_check_at_minus_one_per_extra_hit() -> None:
    report = odds({"firer": "soviet-ifv", "target": "nato-infantry", "weapon": "gun", "range": "3"})
    assert report.probability(FIRE, DESTROYED) == 0
    # 4 dice at 4+ (close +1, AI -1): P(no hit) = 1/16
    assert report.probability(FIRE, NOTHING) == Fraction(1, 16)
    checks = [r for r in report.requested if r.label.startswith("quality check")]
    assert {m for r in checks for m in r.modifiers} >= {("additional hits", -1)}


def test_out_of_cohesion_costs_one_on_the_check() -> None:
    steady = odds(EXAMPLE)
    loose = odds({**EXAMPLE, "cohesion": "no"})
    check = steady.probability(FIRE, CHECK)
    assert loose.probability(AFTER, PASSED) == check * Fraction(1, 6)  # needs a 6


@pytest.mark.parametrize(
    "opts",
    [
        {"firer": "soviet-tank", "target": "nato-tank", "range": "20"},  # long: 1 die per hit
        {"firer": "nato-ifv", "target": "soviet-tank", "range": "20"},  # Pen below armour
        {"firer": "soviet-ifv", "target": "nato-ifv", "weapon": "missile", "difficult": "yes"},
        {"firer": "nato-infantry", "target": "soviet-infantry", "weapon": "ai", "range": "5"},
    ],
)
def test_readings_give_the_face_by_face_odds(opts: dict[str, str]) -> None:
    assert_readings_exact(query(opts))


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"firer": "t-80"}, "firer takes: nato-tank"),
        ({"weapon": "missile"}, "weapon takes: gun"),
        ({"range": "40"}, "beyond long range"),
        ({"firer": "nato-infantry", "weapon": "missile", "target": "soviet-infantry"}, "infantry"),
        ({"arc": "rear"}, "arc takes: front, flank"),
    ],
)
def test_bad_options_say_what_is_allowed(opts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds(opts)


def test_exact_odds_agree_with_monte_carlo() -> None:
    """1e5 plays of the same rules code on seeded dice."""
    assert_monte_carlo_agrees(query(EXAMPLE), seed=31)


def test_exact_odds_agree_with_the_game_firing() -> None:
    """`fire n1t1 gun s1t1`, `resolve s1t1` through `FFT3Game.apply` on seeded dice (the
    Soviet tank 25" ahead of the NATO tank, in its front arc, open ground), the position
    put back each time: P(the Soviet tank is gone) agrees within 4 standard errors."""
    game = position([At("s1t1", 36, 10, 0.0), At("n1t1", 36, 10 + 25 + 1.25, 180.0)], mover="blue")
    game.track_hashes = False
    game.dice = SeededDice(8)
    start = game.state.copy()
    runs = 4_000
    gone = 0
    for _ in range(runs):
        game.state = start.copy()
        play(game, "fire n1t1 gun s1t1", "resolve s1t1")
        gone += not game.state.stands["s1t1"].alive
    report = odds({"range": "25"})
    p = float(report.probability(AFTER, DESTROYED) + report.probability(AFTER, FAILED))
    assert abs(gone / runs - p) <= STANDARD_ERRORS * math.sqrt(p * (1 - p) / runs)
