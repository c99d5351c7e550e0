"""`warbench odds tftww2 attack=afv` (an AFV's main gun at an AFV: to hit, hit location,
penetration, damage table, crew) and `attack=area` (thrown or indirect fire: hit roll,
scatter, every man the template touches): exact, by hand, and Monte Carlo."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from tests.odds_check import assert_monte_carlo_agrees, assert_readings_exact
from warbench.rulesets.tftww2.afv import afv_tables, vehicle
from warbench.rulesets.tftww2.odds import odds, query
from warbench.rulesets.tftww2.odds_afv import AFTER, BOUNCES, PENETRATES, PENETRATION, TO_HIT
from warbench.rulesets.tftww2.odds_area import FALL, HIT_ROLL, NOT_TOUCHED, ON_TARGET

THREE_D6: dict[int, int] = {}
for _faces in itertools.product(range(1, 7), repeat=3):
    THREE_D6[sum(_faces)] = THREE_D6.get(sum(_faces), 0) + 1


def p3(totals: range) -> Fraction:
    return Fraction(sum(THREE_D6.get(n, 0) for n in totals), 216)


def test_sherman_at_a_panzer_iv_front_by_hand() -> None:
    """Fire control 11, size 0: natural 6–11 hit, 5 hits, 4 penetrates, 3 knocks out.
    Penetration 8 goes through the front turret (5) and hull (8) alike; the damage table
    explodes it on 3d6 − HE modifier ≤ 5."""
    report = odds({"attack": "afv"})
    assert report.probability(TO_HIT, "hit") == p3(range(6, 12)) == Fraction(125, 216)
    assert report.probability(TO_HIT, "knocked out") == Fraction(1, 216)
    struck = p3(range(3, 12))
    assert report.probability(PENETRATION, PENETRATES) == struck
    assert report.probability(PENETRATION, BOUNCES) == 0
    he = vehicle("m4a1_sherman").main_gun.he_modifier  # type: ignore[union-attr]
    explodes = p3(range(3, afv_tables().damage_table.explodes_at_most + he + 1))
    assert report.probability(AFTER, "exploded") == (struck - Fraction(1, 216)) * explodes


def test_thick_armour_turns_shots_and_the_crew_tests() -> None:
    """An M8's 37mm (penetration 5) at a Panzer IV's front (turret 5, hull 8): only turret
    hits (1–2 on the d6) or a natural 4 go through; a bounce still tests the crew."""
    report = odds({"attack": "afv", "firer": "m8_greyhound", "target": "pzkpfw_iv_h"})
    hits = p3(range(5, 11))  # natural 5 auto hit, 6-10 at fire control 10
    through = Fraction(1, 216) + Fraction(3, 216) + hits / 3  # 3 KO, 4 penetrates, turret
    assert report.probability(PENETRATION, PENETRATES) == through
    assert report.probability(PENETRATION, BOUNCES) == hits * 2 / 3
    assert report.probability(AFTER, "crew pulls back") > 0


def test_the_title_counts_men_in_words() -> None:
    """It read "at 2 man(men)"."""
    assert odds({"attack": "area", "men": "0,2"}).title.endswith("at 2 men")
    assert odds({"attack": "area", "men": "0"}).title.endswith("at 1 man")


def test_off_table_artillery_hit_roll_by_hand() -> None:
    """Heavy artillery spotted by a CO (INT 14): natural 3–14 hit, 15 scatters, 16–18 no
    shot; a man 40" from the aim point is out of reach of any scatter."""
    report = odds({"attack": "area", "weapon": "heavy_artillery", "firer": "CO", "men": "0,40"})
    assert report.probability(HIT_ROLL, "hit") == p3(range(3, 15))
    assert report.probability(HIT_ROLL, "no shot") == p3(range(16, 19))
    assert report.probability(FALL, ON_TARGET) == p3(range(3, 15))
    assert report.probability('man 2 (40")', NOT_TOUCHED) == 1
    assert report.probability('man 1 (0")', NOT_TOUCHED) < p3(range(15, 19))


@pytest.mark.parametrize(
    "opts",
    [
        {"attack": "afv", "firer": "m8_greyhound", "target": "sdkfz_251_1", "facing": "rear"},
        {"attack": "area", "weapon": "grenade", "range": "6", "men": "0"},
    ],
)
def test_readings_give_the_face_by_face_odds(opts: dict[str, str]) -> None:
    assert_readings_exact(query(opts))


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"attack": "tank"}, "attack takes: shot, afv, area"),
        ({"attack": "afv", "firer": "sdkfz_251_1"}, "firer takes: m4a1_sherman"),
        ({"attack": "afv", "facing": "top"}, "facing takes: front, side, rear"),
        ({"attack": "area", "weapon": "grenade", "range": "30"}, "reaches"),
        ({"attack": "area", "men": "1,2,3,4"}, "1 to 3 distances"),
        ({"attack": "area", "weapon": "Rifle"}, "unknown option|weapon takes"),
        ({"men": "0"}, r"^men is an option of attack=area, not of attack=shot \(the default\)$"),
        ({"attack": "afv", "men": "0"}, "^men is an option of attack=area, not of attack=afv$"),
    ],
)
def test_bad_options_say_what_is_allowed(opts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds(opts)


@pytest.mark.parametrize(
    ("opts", "seed"),
    [
        ({"attack": "afv", "firer": "m8_greyhound", "target": "pzkpfw_iv_h"}, 41),
        ({"attack": "area", "men": "0,2,4"}, 42),
    ],
)
def test_exact_odds_agree_with_monte_carlo(opts: dict[str, str], seed: int) -> None:
    """1e5 plays of the same stages on seeded dice."""
    assert_monte_carlo_agrees(query(opts), seed=seed)
