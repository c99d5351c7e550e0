"""`warbench odds tftww2`: one shot — hit, each critical, damage against STR — exactly, from
`combat.to_hit` and `damage.hit_man`, and as the game plays it."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest

from tests.odds_check import STANDARD_ERRORS, assert_monte_carlo_agrees, assert_readings_exact
from tests.rulesets.tftww2.position import man, position
from warbench.core.dice import SeededDice
from warbench.rulesets.tftww2.actions import AimAt, Fire, Pivot
from warbench.rulesets.tftww2.odds import CRITICAL, DAMAGE, HIT, MISS, odds, query
from warbench.rulesets.tftww2.state import MAN_BASE

RIFLE_AT_10 = {"weapon": "Rifle", "range": "10", "shot": "aimed"}


def _sums(dice: int) -> Counter[int]:
    return Counter(sum(r) for r in itertools.product(range(1, 7), repeat=dice))


def test_a_rifle_aimed_at_10_inches_by_hand() -> None:
    """DEX 12 + 4 aimed = 16; natural 3–5 always hit (3 kills, 4 doubles the damage),
    16–18 always miss; 4d6 damage against STR 12: up to 6 wounds, 7–12 incapacitates, more
    kills."""
    report = odds(RIFLE_AT_10)
    assert report.probability(HIT, "hit") == Fraction(206, 216)
    naturals = _sums(3)
    expected = {
        "killed": 3,
        "double_damage": 4,
        "automatic_hit": 5,
        "misfire": 16,
        "jam": 17,
        "jam-hard": 18,
    }
    for critical, natural in expected.items():
        row = next(r for r in report.table(CRITICAL).rows if r.name.startswith(critical + ":"))
        assert row.probability == Fraction(naturals[natural], 216)
    damage = _sums(4)
    plain = Fraction(216 - 1 - 3 - 10, 216)  # naturals 5..15: damage as rolled
    double = Fraction(3, 216)

    def share(test: Callable[[int], bool]) -> Fraction:
        return Fraction(sum(n for d, n in damage.items() if test(d)), 6**4)

    assert report.probability(DAMAGE, "dead") == (
        Fraction(1, 216) + plain * share(lambda d: d > 12) + double * share(lambda d: 2 * d > 12)
    )
    assert report.probability(DAMAGE, "wounded") == plain * share(lambda d: d <= 6)
    assert report.probability(DAMAGE, MISS) == Fraction(10, 216)
    (to_hit, roll) = report.requested
    assert to_hit.needs == "3d6 12 or less"
    assert to_hit.modifiers == (("aimed shot (+4 DEX)", -4),)
    assert roll.needs == "4d6 total"


def test_a_wounded_man_is_incapacitated_by_a_light_wound() -> None:
    report = odds({**RIFLE_AT_10, "wounded": "yes"})
    assert report.probability(DAMAGE, "wounded") == 0
    assert ("target", "Private (wounded), STR 6") in report.situation


def test_cover_prone_and_a_snap_shot_reach_the_roll() -> None:
    report = odds({"range": "4", "shot": "snap", "cover": "hard", "prone": "yes"})
    (to_hit, _) = report.requested
    reasons = [reason.split(" (")[0] for reason, _ in to_hit.modifiers]
    assert reasons == ["short range", "snap shot", "target prone", "target in hard cover"]


@pytest.mark.parametrize(
    "opts",
    [
        {"weapon": "Pistol", "shot": "snap", "range": "3"},
        RIFLE_AT_10,
        {**RIFLE_AT_10, "wounded": "yes", "firer": "NCO", "target": "CO"},
    ],
)
def test_readings_give_the_face_by_face_odds(opts: dict[str, str]) -> None:
    assert_readings_exact(query(opts))


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"weapon": "SMG", "shot": "aimed"}, "no automatic weapons"),
        ({"weapon": "LMG", "shot": "snap"}, "cannot make a snap shot"),
        ({"cover": "hard", "full-cover": "yes"}, "cannot be shot at"),
        ({"weapon": "Bayonet"}, "weapon takes: Rifle"),
        ({"target": "General"}, "target takes: Private, NCO, CO"),
    ],
)
def test_bad_options_say_what_is_allowed(opts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds(opts)


def test_exact_odds_agree_with_monte_carlo() -> None:
    """1e5 plays of the same rule functions on seeded dice."""
    assert_monte_carlo_agrees(query(RIFLE_AT_10), seed=5)


def test_exact_odds_agree_with_the_game_firing() -> None:
    """r1 aims at b1 10" away and fires through `TFTGame.apply` on seeded dice, the
    position put back each time: b1's fate agrees within 4 standard errors."""
    red = [man(10, 10), man(46, 2, facing=90)]
    game = position(red, [man(10, 20 + MAN_BASE, facing=180)])
    game.apply(AimAt("r1", "b1"))
    game.apply(Pivot("r2", 0.0))
    game.track_hashes = False
    game.dice = SeededDice(99)
    start = game.state.copy()
    runs = 4_000
    fates: Counter[str] = Counter()
    for _ in range(runs):
        game.state = start.copy()
        game.apply(Fire("r1", "b1"))
        b1 = game.state.men["b1"]
        fates[b1.status if not b1.active else "wounded" if b1.wounded else "unhurt"] += 1
    report = odds(RIFLE_AT_10)
    exact = {row.name: float(row.probability) for row in report.table(DAMAGE).rows}
    exact["unhurt"] = exact.pop(MISS) + exact.pop("no harm")
    assert set(fates) <= set(exact)
    for fate, p in exact.items():
        error = math.sqrt(p * (1 - p) / runs)
        assert abs(fates[fate] / runs - p) <= STANDARD_ERRORS * error, fate
