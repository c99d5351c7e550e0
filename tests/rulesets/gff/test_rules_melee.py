"""MELEE and the special rules of charges: "Charging models must move into base contact with
targets, or as close as possible, and then defenders must do the same by moving up to 3".
Models must strike enemies within 2" ... Then defenders may choose to strike back, but don't
have to. If one of the units is destroyed, the other may move by up to 3", else chargers must
move back and separate by 1" (if possible)." Fatigue, Impact, Counter, Furious, Thrust, Fear."""

from __future__ import annotations

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import (
    blade,
    decision,
    gun,
    play,
    position,
    profile,
    refusal,
    rolled,
    script,
    state_of,
    unit,
)
from warbench.core.geometry import edge_distance
from warbench.rulesets.gff import melee
from warbench.rulesets.gff.actions import StrikeBack
from warbench.rulesets.gff.attacks import Context, roll_hits
from warbench.rulesets.gff.movement import close_in
from warbench.rulesets.gff.state import Unit


def gap(a: Unit, b: Unit) -> float:
    """Edge to edge between the nearest models of two units."""
    return min(float(edge_distance(x, y)) for x in a.bases() for y in b.bases())


# --- the charge ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "distance", "legal"),
    [
        ((), 12.0, True),
        ((), 12.5, False),
        (("Fast",), 16.0, True),
        (("Fast",), 16.5, False),
        (("Slow",), 8.0, True),
        (("Slow",), 8.5, False),
    ],
)
def test_charge_needs_a_model_within_charge_distance(
    rules: tuple[str, ...], distance: float, legal: bool
) -> None:
    """12" (Fast +4", Slow −4"), edge to edge between 1" bases."""
    game = position(
        [profile(rules=rules, weapons=[blade()])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 11 + distance)},
    )
    reason = refusal(game, "charge r1 b1")
    if legal:
        assert reason is None
    else:
        assert reason is not None and "charge distance" in reason


def test_chargers_end_in_base_contact_and_defenders_close_in() -> None:
    """The charger touches the nearest defender; the other defender (0.96" away once the
    charger arrives) moves into contact too."""
    game = position(
        [profile(weapons=[blade()])],
        [profile(size=2, weapons=[blade()])],
        {"r1": (24, 10), "b1": [(24, 20), (25.4, 21)]},
        dice=[1],
    )
    play(game, "charge r1 b1")
    assert decision(game) == ("blue", "strike-back")
    (charger,) = game.state.units["r1"].bases()
    for defender in game.state.units["b1"].bases():
        assert edge_distance(charger, defender) == pytest.approx(0.0, abs=1e-6)


def test_defenders_close_in_by_up_to_three_inches() -> None:
    chargers = unit("r1", profile(), (0.0, 0.0))
    defenders = unit("b1", profile(), (0.0, 6.0))
    close_in(state_of(chargers, defenders), defenders, chargers, melee.DEFENDER_MOVE)
    assert defenders.models[0].y == pytest.approx(3.0)


def test_charge_is_legal_when_a_model_is_within_reach_off_the_centre_line() -> None:
    game = position(
        [profile(weapons=[blade()])],
        [profile(size=2)],
        {"r1": (24, 10), "b1": [(24, 20), (27, 22)]},
    )
    assert refusal(game, "charge r1 b1") is None


def test_models_strike_enemies_within_two_inches() -> None:
    """Models 0.5", 2" and 2.35" from the enemy: the first two strike (2 attacks)."""
    ref = Ref([1, 1])
    attacker = unit("r1", profile(size=3, weapons=[blade()]), [(0, 1.5), (0, 0), (1.5, 0)])
    defender = unit("b1", profile(), (0.0, 3.0))
    melee.strike(ref, attacker, defender, charging=True, fatigued=False, keep=lambda w: True)
    (to_hit,) = ref.rolls
    assert to_hit.request.dice == 2


def test_melee_works_like_shooting_quality_tests_then_defense() -> None:
    ref = Ref([4, 3, 5, 2, 4])
    attacker = unit("r1", profile(quality=4, weapons=[blade(attacks=3)]), (0.0, 0.0))
    defender = unit("b1", profile(size=3, defense=4), (0.0, 1.0))
    melee.strike(ref, attacker, defender, charging=True, fatigued=False, keep=lambda w: True)
    assert [r.request.dice for r in ref.rolls] == [3, 2]  # 3 attacks, 2 hits, 1 blocked
    assert len(defender.models) == 2


# --- striking back ---------------------------------------------------------------------------


def test_strike_back_is_a_decision_of_the_defending_player_mid_activation() -> None:
    game = position(
        [profile(weapons=[blade()])],
        [profile(weapons=[blade()])],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[1, 1],
    )
    play(game, "charge r1 b1")
    assert decision(game) == ("blue", "strike-back")
    assert game.state.active == "r1"
    refused = game.check(StrikeBack(), "red")
    assert refused is not None and "blue's decision" in refused
    events = play(game, "strike-back")
    (to_hit,) = rolled(events, "to hit")
    assert to_hit.request.label.startswith("to hit: b1")
    assert game.state.units["r1"].activated
    assert decision(game) == ("blue", "activate")


def test_defender_may_decline_to_strike_back() -> None:
    game = position(
        [profile(weapons=[blade()])],
        [profile(weapons=[blade()])],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[1],
    )
    play(game, "charge r1 b1")
    events = play(game, "no-strike-back")
    assert rolled(events, "to hit") == []
    assert not game.state.units["b1"].fatigued
    assert script(game).remaining == 0


# --- fatigue ---------------------------------------------------------------------------------


def test_charging_and_striking_back_fatigue_until_the_end_of_the_round() -> None:
    game = position(
        [profile(weapons=[blade()])],
        [profile(weapons=[blade()])],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[1, 1],
    )
    r1, b1 = game.state.units["r1"], game.state.units["b1"]
    play(game, "charge r1 b1", "strike-back")
    assert r1.fatigued and b1.fatigued
    play(game, "idle b1")
    assert game.state.round == 2
    assert not r1.fatigued and not b1.fatigued


@pytest.mark.parametrize(("fatigued", "hits"), [(False, 2), (True, 1)])
def test_fatigued_units_hit_only_on_unmodified_sixes_in_melee(fatigued: bool, hits: int) -> None:
    """Quality 2+ with Thrust (+1): fresh, a 5 and a 6 hit; fatigued, only the 6."""
    spear = blade("Spear", attacks=2, rules=["Thrust"])
    ref = Ref([5, 6])
    attacker = unit("r1", profile(quality=2, weapons=[spear]))
    target = unit("b1", profile(), (0.0, 1.0))
    ctx = Context(melee=True, charging=True, fatigued=fatigued)
    assert len(roll_hits(ref, attacker, spear, 2, target, ctx)) == hits


def test_fatigued_unit_striking_back_again_hits_only_on_sixes() -> None:
    """b1 (Quality 2+) struck back at r1; charged again by r2 the same round, its 5 misses."""
    game = position(
        [profile(weapons=[blade()]), profile(weapons=[blade()])],
        [profile(quality=2, weapons=[blade()])],
        {"r1": (24, 10), "r2": (30, 18), "b1": (24, 15)},
        dice=[1, 1, 1, 5],
    )
    play(game, "charge r1 b1", "strike-back", "idle b1", "charge r2 b1")
    events = play(game, "strike-back")
    (to_hit,) = rolled(events, "to hit: b1")
    assert "fatigued" in to_hit.request.label
    assert not to_hit.success
    assert game.state.units["r2"].models[0].wounds == 0


def test_shaken_unit_strikes_back_counting_as_fatigued() -> None:
    game = position(
        [profile(weapons=[blade()])],
        [profile(quality=2, weapons=[blade()])],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[1, 5],
    )
    game.state.units["b1"].shaken = True
    play(game, "charge r1 b1")
    events = play(game, "strike-back")
    (to_hit,) = rolled(events, "to hit: b1")
    assert "fatigued" in to_hit.request.label
    assert not to_hit.success


# --- Impact(X) and Counter -------------------------------------------------------------------


def test_impact_rolls_x_dice_and_each_two_plus_is_a_hit() -> None:
    ref = Ref([1, 2, 6, 6, 6])
    charger = unit("r1", profile(rules=["Impact(3)"]))
    defender = unit("b1", profile(size=3), (0.0, 1.0))
    melee.impact(ref, charger, defender)
    impact_roll, defense = ref.rolls
    assert impact_roll.request.dice == 3
    assert defense.request.dice == 2


def test_impact_is_per_model() -> None:
    ref = Ref([1, 1, 1, 1])
    charger = unit("r1", profile(size=2, rules=["Impact(2)"]))
    defender = unit("b1", profile(), (0.0, 1.0))
    melee.impact(ref, charger, defender)
    assert ref.rolls[0].request.dice == 4


def test_no_impact_when_fatigued() -> None:
    ref = Ref()
    charger = unit("r1", profile(rules=["Impact(3)"]))
    charger.fatigued = True
    melee.impact(ref, charger, unit("b1", profile(), (0.0, 1.0)))
    assert ref.rolls == []


def test_impact_minus_one_die_per_counter_model() -> None:
    ref = Ref([1])
    charger = unit("r1", profile(rules=["Impact(3)"]))
    pikes = unit("b1", profile(size=2, weapons=[blade("Pike", rules=["Counter"])]), (0.0, 1.0))
    melee.impact(ref, charger, pikes)
    assert ref.rolls[0].request.dice == 1


def test_counter_strikes_first_then_impact_then_the_chargers() -> None:
    game = position(
        [profile(rules=["Impact(2)"], weapons=[blade()])],
        [profile(weapons=[blade("Pike", rules=["Counter"])])],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[1, 1, 1],
    )
    events = play(game, "charge r1 b1")
    labels = [r.request.label for r in rolled(events, "")]
    assert labels[0].startswith("to hit: b1 Trooper Pike")
    assert labels[1].startswith("Impact(2)") and "1 fewer for Counter" in labels[1]
    assert labels[2].startswith("to hit: r1 Trooper Blade")
    # the Counter weapon already struck: no strike-back decision is left for it
    assert decision(game) == ("blue", "activate")


def test_charger_killed_by_counter_does_not_strike() -> None:
    game = position(
        [profile(defense=6, weapons=[blade()])],
        [profile(weapons=[blade("Pike", rules=["Counter"])])],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[6, 1, 6],
    )
    events = play(game, "charge r1 b1")
    assert not game.state.units["r1"].alive
    assert rolled(events, "to hit: r1") == []
    assert decision(game) == ("blue", "consolidate")


# --- Furious, Thrust, Fear -------------------------------------------------------------------


@pytest.mark.parametrize(("charging", "hits"), [(True, 2), (False, 1)])
def test_furious_six_deals_an_extra_hit_when_charging(charging: bool, hits: int) -> None:
    ref = Ref([6])
    attacker = unit("r1", profile(rules=["Furious"], weapons=[blade()]))
    target = unit("b1", profile(), (0.0, 1.0))
    ctx = Context(melee=True, charging=charging)
    assert len(roll_hits(ref, attacker, blade(), 1, target, ctx)) == hits


def test_furious_extra_hit_does_not_count_as_a_six() -> None:
    ref = Ref([6])
    rending = blade(rules=["Rending"])
    attacker = unit("r1", profile(rules=["Furious"], weapons=[rending]))
    hits = roll_hits(ref, attacker, rending, 1, unit("b1", profile()), Context(True, charging=True))
    assert sorted(h.ap for h in hits) == [0, 4]


@pytest.mark.parametrize(("charging", "hits", "ap"), [(True, 1, 2), (False, 0, None)])
def test_thrust_gives_plus_one_to_hit_and_ap_plus_one_when_charging(
    charging: bool, hits: int, ap: int | None
) -> None:
    spear = blade("Spear", rules=["Thrust", "AP(1)"])
    ref = Ref([3])
    attacker = unit("r1", profile(quality=4, weapons=[spear]))
    found = roll_hits(
        ref, attacker, spear, 1, unit("b1", profile()), Context(True, charging=charging)
    )
    assert len(found) == hits
    if ap is not None:
        assert found[0].ap == ap


@pytest.mark.parametrize(("action", "knocked_out"), [("charge r1 b1", True), ("hold r1", False)])
def test_fear_adds_wounds_to_the_wound_effects_check_in_melee_only(
    action: str, knocked_out: bool
) -> None:
    """One wound and a 3: with Fear(2) in melee 3 + 1 + 2 = 6 Knocked Out; shooting, 4: Shaken."""
    game = position(
        [profile(rules=["Fear(2)"], weapons=[blade(), gun()])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[4, 1, 3],
    )
    play(game, action)
    if action == "hold r1":
        play(game, "fire r1 rifle b1")
    assert game.state.units["b1"].alive is not knocked_out
    (effects,) = rolled(game.log, "wound effects")
    assert (("Fear", 2) in effects.request.modifiers) is knocked_out


def test_fear_needs_at_least_one_wound() -> None:
    game = position(
        [profile(rules=["Fear(2)"], weapons=[blade()])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[4, 6],
    )
    play(game, "charge r1 b1")
    assert rolled(game.log, "wound effects") == []
    assert not game.state.units["b1"].shaken
    assert script(game).remaining == 0


def test_fear_counts_towards_tough() -> None:
    """Tough(3) with one wound and Fear(2): 3 counted, so it rolls (4 + 1 + 2 = 7: Shaken)."""
    ref = Ref([4, 1, 4])
    attacker = unit("r1", profile(rules=["Fear(2)"], weapons=[blade()]))
    tough = unit("b1", profile(rules=["Tough(3)"]), (0.0, 1.0))
    melee.strike(ref, attacker, tough, charging=True, fatigued=False, keep=lambda w: True)
    assert ref.rolls[-1].request.label.startswith("wound effects")
    assert tough.shaken and tough.alive


# --- after the melee -------------------------------------------------------------------------


def test_consolidate_up_to_three_inches_when_a_unit_is_destroyed() -> None:
    game = position(
        [profile(weapons=[blade()])],
        [profile(), profile()],
        {"r1": (24, 10), "b1": (24, 15), "b2": (5, 40)},
        dice=[4, 1, 6],
    )
    play(game, "charge r1 b1")
    assert not game.state.units["b1"].alive
    assert decision(game) == ("red", "consolidate")
    x, y = game.state.units["r1"].centre()
    assert refusal(game, f"consolidate r1 {x:.4f},{y + 3:.4f}") is None
    too_far = refusal(game, f"consolidate r1 {x:.4f},{y + 3.5:.4f}")
    assert too_far is not None and 'may move 3"' in too_far
    play(game, f"consolidate r1 {x:.4f},{y + 3:.4f}")
    assert game.state.units["r1"].centre()[1] == pytest.approx(y + 3, abs=1e-3)
    assert game.state.units["r1"].activated


def test_chargers_separate_by_one_inch_when_both_units_survive() -> None:
    game = position(
        [profile(weapons=[blade()])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 15)},
        dice=[1],
    )
    play(game, "charge r1 b1")
    r1, b1 = game.state.units["r1"], game.state.units["b1"]
    assert 1.0 <= gap(r1, b1) < 1.2
    assert decision(game) == ("blue", "activate")


def test_shaken_defender_counter_strike_counts_as_fatigued() -> None:
    ref = Ref([5, 1, 1, 1])
    charger = unit("r1", profile(weapons=[blade()]), (0.0, 0.0))
    pikes = unit("b1", profile(quality=2, weapons=[blade("Pike", rules=["Counter"])]), (0.0, 1.0))
    pikes.shaken = True
    melee.chargers_attack(ref, charger, pikes)
    assert "fatigued" in ref.rolls[0].request.label
    assert not ref.rolls[0].success
