"""`warbench odds ttt`: any piece at any piece on any square, exactly, and as the game plays it."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tests.odds_check import RUNS, STANDARD_ERRORS, assert_monte_carlo_agrees
from tests.rulesets.ttt.position import position
from warbench.core.dice import SeededDice
from warbench.rulesets.ttt.actions import Attack
from warbench.rulesets.ttt.odds import ATTACK, odds, query
from warbench.rulesets.ttt.pieces import squad_sheet
from warbench.rulesets.ttt.terrain import terrain_table

HIT = "hit: target bagged"


def _by_hand(th: int, aimed: bool, cover: int, tbh: int) -> Fraction:
    """ATTACKING: d6 + TH (+1 aimed) − terrain TBH > piece TBH; 6 hits, 1 misses."""
    return Fraction(
        sum(1 for n in range(1, 7) if n == 6 or (n > 1 and n + th + aimed - cover > tbh)), 6
    )


@pytest.mark.parametrize("terrain", ["plain", "woods", "rocky"])
@pytest.mark.parametrize("aimed", [False, True])
def test_every_piece_at_every_piece(terrain: str, aimed: bool) -> None:
    sheet = squad_sheet()
    for a in sheet.values():
        for t in sheet.values():
            opts = {"attacker": a.name, "target": t.name, "terrain": terrain}
            if aimed:
                opts["aimed"] = "yes"
            report = odds(opts)
            want = _by_hand(a.th, aimed, terrain_table()[terrain].tbh, t.tbh)
            assert report.probability(ATTACK, HIT) == want
            assert report.probability(ATTACK, "miss") == 1 - want


def test_sniper_aimed_at_a_guard_in_woods_with_its_breakdown() -> None:
    report = odds({"attacker": "Sniper", "target": "Guard", "terrain": "woods", "aimed": "yes"})
    assert report.probability(ATTACK, HIT) == Fraction(1, 3)  # needs 5+: 5 + 1 + 1 - 2 > 4
    (roll,) = report.requested
    assert roll.needs == "d6 more than 4"
    assert dict(roll.modifiers) == {
        "Sniper to-hit bonus": 1,
        "aimed": 1,
        "target in woods": -2,
    }


def test_a_square_of_the_operation_and_the_attackers_square() -> None:
    report = odds({"operation": "cap-the-capn", "at": "A1", "from": "A3", "attacker": "Recon"})
    assert ("target", "Recon at A1 (plain)") in report.situation
    assert report.probability(ATTACK, HIT) == Fraction(1, 2)  # 4+: 4 > TBH 3


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"attacker": "Tank"}, "attacker takes: Recon, Shot-Gun"),
        ({"at": "Z99"}, "at=Z99 is not on the boards"),
        ({"at": "C"}, "'C' is not a square"),
        ({"operation": "cap-the-capn", "terrain": "river"}, "terrain=river: no such square"),
        ({"terrain": "building"}, "a building square cannot hold a piece"),
        ({"from": "A1", "at": "H8"}, "H8 is not within M-Gunner's Range 5"),
        ({"speed": "1"}, "unknown option"),
    ],
)
def test_bad_options_say_what_is_allowed(opts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds(opts)


def test_monte_carlo_of_the_roll_agrees() -> None:
    assert_monte_carlo_agrees(query({"attacker": "Guard", "target": "Recon"}), seed=7, runs=RUNS)


def test_exact_odds_agree_with_monte_carlo_through_the_engine() -> None:
    """Attacks made by `TTTGame.apply` on seeded dice, the position put back each time (10^4:
    the whole game contract costs ~100 µs an action; the 1e5 runs are the stages' test)."""
    game = position({"r1": ("Guard", "B2"), "b1": ("Recon", "B4")}, phase="attack")
    game.track_hashes = False
    game.dice = SeededDice(2026)
    start = game.state.copy()
    hits = 0
    runs = 10_000
    for _ in range(runs):
        game.state = start.copy()
        game.apply(Attack("r1", "b1"))
        hits += "b1" not in game.state.pieces
    p = float(odds({"attacker": "Guard", "target": "Recon"}).probability(ATTACK, HIT))
    assert p == 2 / 3  # 3+ on d6: 3 + 1 > 3
    assert abs(hits / runs - p) <= STANDARD_ERRORS * math.sqrt(p * (1 - p) / runs)
