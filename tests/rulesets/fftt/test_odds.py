"""`warbench odds fftt`: a figure's shot, a grenade or missile burst, or a hand to hand round,
exactly, from `shooting.resolve` and `hand_to_hand.defence` / `assault`, and as the game
plays them."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from fractions import Fraction

import pytest

from tests.odds_check import STANDARD_ERRORS, assert_monte_carlo_agrees, assert_readings_exact
from tests.rulesets.fftt.position import fig, game, state
from warbench.core.dice import SeededDice
from warbench.core.game import Decision
from warbench.rulesets.fftt.actions import Done, Shoot, WoundAttacker
from warbench.rulesets.fftt.odds import (
    AFTER,
    ATTACKER,
    CHARGERS_DEAD,
    CHARGERS_HURT,
    DESTROYED,
    OTHERS,
    OUT_OF_AMMO,
    TARGET,
    UNHURT,
    WOUNDED,
    _Round,
    odds,
    query,
)
from warbench.rulesets.fftt.state import Melee

GRUNTS_CHARGE = {"attack": "charge", "attacker": "grunt,grunt,grunt", "target": "engineer"}


def _two_d6_at_most(n: int) -> Fraction:
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= n), 36)


def test_a_grunt_shooting() -> None:
    """Weapon skill 7 at short range: 7 or less on 2D6 makes one wound, and a grunt with one
    of its two wounds is wounded."""
    report = odds({"attacker": "grunt", "target": "grunt", "range": "15"})
    assert report.probability(TARGET, "1") == _two_d6_at_most(7) == Fraction(7, 12)
    assert report.probability(AFTER, WOUNDED) == Fraction(7, 12)
    assert report.probability(ATTACKER, "as before") == 1
    assert report.requested[0].needs == "2d6 7 or less"


def test_every_fire_modifier_reaches_the_roll() -> None:
    """Long range -1, wounded -1, indirect -1, at a Drone -1, elite +1: 6 - 4 + 1 = 3; cover
    does not count against a grenade."""
    report = odds(
        {
            "attacker": "grenadier",
            "target": "drone",
            "range": "15",
            "cover": "yes",
            "wounded": "yes",
            "indirect": "yes",
            "elite": "yes",
        }
    )
    label = report.requested[0].label
    for reason in ("long range", "firer wounded", "indirect fire", "Drone or Sentinel", "elite"):
        assert reason in label
    assert "target in cover" not in label  # cover does not help against a grenade
    assert report.requested[0].needs == "2d6 3 or less"
    covered = odds({"attacker": "grunt", "range": "25", "cover": "yes"})
    assert covered.requested[0].needs == "2d6 5 or less"  # 7 - 1 long - 1 cover


def test_the_engineers_doubles_make_two_wounds() -> None:
    """'if he gets two and two or three and three or four and four ... two wounds'."""
    report = odds({"attacker": "engineer", "target": "grunt", "range": "20"})
    assert report.probability(TARGET, "2") == Fraction(4, 36)
    assert report.probability(TARGET, "1") == _two_d6_at_most(8) - Fraction(4, 36)
    assert report.probability(AFTER, DESTROYED) == Fraction(4, 36)
    sniper = odds({"attacker": "sniper", "target": "engineer", "range": "50"})  # 9 - 1 long
    assert sniper.probability(TARGET, "2") == Fraction(4, 36)


def test_the_tank_twin_laser_fires_twice() -> None:
    report = odds({"attacker": "tank", "target": "razor_dog", "range": "20"})
    miss = 1 - _two_d6_at_most(7)
    assert report.probability(TARGET, "0") == miss * miss


def test_a_grenade_deviates_by_twice_the_miss() -> None:
    """The rulebook's grenadier at 20 cm needs 5: a hit or a 6 (2 cm off) puts the grunt's
    base in the inner circle (2 wounds), a 7 (4 cm off) in the outer (1 wound), worse
    misses land clear of it."""
    report = odds({"attacker": "grenadier", "target": "grunt", "range": "20"})
    assert report.probability(TARGET, "2") == _two_d6_at_most(6) == Fraction(5, 12)
    assert report.probability(TARGET, "1") == Fraction(6, 36)
    assert report.probability(TARGET, "0") == 1 - _two_d6_at_most(7)
    assert [r.label.split(" of ")[0] for r in report.requested] == [
        "to hit: r1 → b1 (skill 6, -1 long range)",
        "deviation",
    ]


def test_a_grenade_at_close_range_can_catch_its_thrower() -> None:
    report = odds({"attacker": "grenadier", "target": "grunt", "range": "3"})
    assert report.probability(ATTACKER, "hurt by its own attack") > 0


def test_a_shot_into_a_melee_can_hit_the_other_figure() -> None:
    report = odds({"attacker": "grunt", "target": "terminator", "range": "10", "melee": "yes"})
    hit = _two_d6_at_most(7)
    assert report.probability(TARGET, "1") == hit * Fraction(4, 6)
    assert report.probability(OTHERS, "1") == hit * Fraction(2, 6)


def test_without_hqs_a_miss_runs_out_of_ammo_and_kills_insectoid_shooters() -> None:
    marine = odds({"attacker": "grunt", "hq": "no"})
    assert marine.probability(ATTACKER, OUT_OF_AMMO) == 1 - _two_d6_at_most(7)
    stinger = odds({"attacker": "stinger", "hq": "no"})
    assert stinger.probability(ATTACKER, "destroyed") == 1 - _two_d6_at_most(6)
    assert odds({"attacker": "stinger"}).probability(ATTACKER, "as before") == 1


def test_three_grunts_charge_an_engineer() -> None:
    """The rulebook's example: each grunt's 1D6 +2 (two extra combatants) against the
    engineer's 1D6 +2: no grunt beats him when every grunt's die is at most his."""
    report = odds(GRUNTS_CHARGE)
    no_grunt_wins = sum(Fraction(e**3, 6**4) for e in range(1, 7))
    assert report.probability(TARGET, "0") == no_grunt_wins == Fraction(49, 144)
    assert sum(r.probability for r in report.table(AFTER).rows) == 1
    # he deals at most one wound a round (one die): the dearest beaten grunt takes it
    assert report.probability(CHARGERS_HURT, "0") == Fraction(49, 144)
    assert [r.modifiers for r in report.requested] == [
        (("being Engineer", 2),),
        (("two extra combatants", 2),),
    ]
    situation = dict(report.situation)
    assert "1D6 +2 two extra combatants" in situation["chargers"]
    assert ", 3 actions left, 1D6" in situation["chargers"]


def test_insectoids_attack_with_a_die_per_action_left() -> None:
    full = odds({"attack": "charge", "attacker": "razor_dog", "target": "grunt"})
    tired = odds({"attack": "charge", "attacker": "razor_dog", "target": "grunt", "ap": "1"})
    assert full.probability(AFTER, UNHURT) < tired.probability(AFTER, UNHURT)
    spent = odds({"attack": "charge", "attacker": "grunt", "target": "grunt", "target-ap": "0"})
    assert spent.probability(CHARGERS_HURT, "0") == 1  # no action left: no damage
    assert spent.probability(CHARGERS_DEAD, "0") == 1


@pytest.mark.parametrize(
    "opts",
    [
        {"attacker": "engineer", "target": "drone", "range": "35"},
        {"attacker": "grenadier", "target": "grunt", "range": "4"},
        {"attacker": "tank", "target": "grunt", "range": "30"},
        {"attacker": "grunt", "target": "grunt", "range": "25", "melee": "yes"},
        {"attack": "charge", "attacker": "razor_dog", "target": "stinger", "ap": "2"},
        {"attack": "charge", "attacker": "grunt,medic", "target": "razor_dog", "target-ap": "2"},
    ],
)
def test_readings_give_the_face_by_face_odds(opts: dict[str, str]) -> None:
    assert_readings_exact(query(opts))


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"attacker": "razor_dog"}, "has no ranged weapon"),
        ({"attacker": "grunt", "range": "31"}, "beyond"),
        ({"attacker": "grunt", "indirect": "yes"}, "only grenadiers"),
        ({"attacker": "hq"}, "attacker takes: "),
        ({"attack": "charge", "attacker": "grunt,stinger"}, "one race"),
        ({"attack": "charge", "range": "10"}, "option of shooting"),
        ({"ap": "1"}, "option of a charge"),
        ({"target": "grunt", "target-wounds": "2"}, "out of range"),
    ],
)
def test_bad_options_say_what_is_allowed(opts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds(opts)


@pytest.mark.parametrize(
    ("opts", "seed"),
    [
        ({"attacker": "grenadier", "target": "grunt", "range": "12"}, 3),
        (GRUNTS_CHARGE, 4),
    ],
)
def test_exact_odds_agree_with_monte_carlo(opts: dict[str, str], seed: int) -> None:
    """1e5 plays of the same rule functions on seeded dice."""
    assert_monte_carlo_agrees(query(opts), seed=seed)


def _agrees(exact: dict[str, Fraction], seen: Counter[str], runs: int) -> None:
    assert set(seen) <= {k for k, p in exact.items() if p}
    for name, p in exact.items():
        error = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(seen[name] / runs - float(p)) <= STANDARD_ERRORS * error, name


def test_exact_odds_agree_with_the_game_firing() -> None:
    """An engineer fires at a terminator 20 cm away through `FFTTGame.apply` in general firing on
    seeded dice, the position put back each time: the terminator's wounds agree."""
    start = state(fig("r1", "engineer", 50, 30), fig("b1", "terminator", 50, 50))
    g = game(start.copy())
    g.track_hashes = False
    g.dice = SeededDice(8)
    runs = 4_000
    seen: Counter[str] = Counter()
    for _ in range(runs):
        g.state = start.copy()
        g.apply(Shoot("r1", "b1"), "red")
        seen[str(g.state.pending_wounds.get("b1", 0))] += 1
    report = odds({"attacker": "engineer", "target": "terminator", "range": "20"})
    _agrees({r.name: r.probability for r in report.table(TARGET).rows}, seen, runs)


def test_exact_odds_agree_with_the_game_in_hand_to_hand() -> None:
    """Three grunts charge an engineer through `FFTTGame.apply`: the defender's choice of
    whom to wound is the dearest beaten grunt; the engineer's fate agrees."""
    engineer = fig("b1", "engineer", 50, 50, race="marines")
    grunts = [fig(f"r{n}", "grunt", x, y) for n, x, y in ((1, 48, 50), (2, 50, 48), (3, 52, 50))]
    start = state(engineer, *grunts)
    start.part, start.player = 1, "blue"
    start.melees = [Melee("b1", ["r1", "r2", "r3"])]
    engineer.ap = 1  # fights rather than answering with a shot, as the odds assume
    g = game(start.copy())
    g.track_hashes = False
    g.dice = SeededDice(9)
    runs = 2_000
    seen: Counter[str] = Counter()
    for _ in range(runs):
        g.state = start.copy()
        g.apply(Done(), "blue")
        pending = g.pending
        if isinstance(pending, Decision) and pending.kind == "allocate":
            beaten = g.state.allocation["beaten"]
            dearest = max(beaten, key=lambda b: (b[1], [-ord(c) for c in b[0]]))
            g.apply(WoundAttacker(dearest[0]), "blue")
        b1 = g.state.figs["b1"]
        seen[DESTROYED if b1.where != "table" else WOUNDED if b1.wounded else "other"] += 1
    report = odds({**GRUNTS_CHARGE, "ap": "3", "target-ap": "1"})
    exact = {r.name: r.probability for r in report.table(AFTER).rows}
    exact["other"] = exact.pop("hurt, not yet wounded") + exact.pop(UNHURT)
    _agrees(exact, seen, runs)


@pytest.mark.parametrize(
    ("chargers", "target", "extra"),
    [
        ("razor_dog," * 5 + "razor_dog", "queen", {}),
        ("razor_dog,razor_dog,razor_dog", "queen", {"wounded": "yes"}),
        ("grunt,grunt,grunt,grunt", "engineer", {}),
        ("drone,drone,drone", "engineer", {"ap": "1"}),
    ],
)
def test_alike_chargers_folded_as_twins_give_the_same_exact_odds(
    chargers: str, target: str, extra: dict[str, str]
) -> None:
    """The speed-up for alike chargers (`odds.py::_as_twins`) changes no probability: the
    same query with every charger told apart by its id gives the same report."""
    twins = query({"attack": "charge", "attacker": chargers, "target": target, **extra})
    assert isinstance(twins.stages, _Round) and twins.stages.twins
    apart = dataclasses.replace(twins, stages=dataclasses.replace(twins.stages, twins=False))
    assert twins.report() == apart.report()


def test_mixed_or_exploding_chargers_are_not_folded_as_twins() -> None:
    for chargers in ("grunt,grunt,engineer", "bomb_bug,bomb_bug"):
        stages = query({"attack": "charge", "attacker": chargers, "target": "queen"}).stages
        assert isinstance(stages, _Round) and not stages.twins


def test_bomb_bugs_bursting_in_a_charge_stop_at_what_kills_the_target() -> None:
    """Killed bomb bugs go off among the chargers and on the target: its wounds stop at its
    two (R36); the chargers' table runs as far as their bursts wound them."""
    report = odds({"attack": "charge", "attacker": "bomb_bug,bomb_bug", "target": "grunt"})
    assert [r.name for r in report.table(TARGET).rows] == ["0", "1", "2"]
    hurt = report.table(CHARGERS_HURT).rows
    assert len(hurt) > 4 and sum(r.probability for r in hurt) == 1


def test_one_extra_combatant_reads_in_the_singular() -> None:
    report = odds({"attack": "charge", "attacker": "grunt,grunt", "target": "engineer"})
    assert "1D6 +1 one extra combatant" in dict(report.situation)["chargers"]


def test_actions_left_are_counted_in_the_right_number() -> None:
    """They read "1 action left", never "1 action(s) left"."""
    report = odds({"attack": "charge", "attacker": "grunt", "target": "grunt", "target-ap": "1"})
    assert ", 1 action left, " in dict(report.situation)["target"]
