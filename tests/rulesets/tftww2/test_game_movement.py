"""3.0 Movement through the game: 1" a movement point and 1 point each 90° of turn; each
action's limits (Run, Walk, Charge, Change position, Pivot, Aim, Disengage, Action to
unjam); prone men do not move; nobody ends on another man's base or off the table;
wounded men move half."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from tests.rulesets.tftww2.position import (
    attribute_mods,
    dice_left,
    man,
    only_roll,
    position,
    script,
    texts,
    three,
)
from warbench.core.actions import Action
from warbench.core.game import IllegalAction
from warbench.rulesets.tftww2.actions import (
    AimAt,
    ChangePosition,
    ChargeAt,
    Disengage,
    Fire,
    Flee,
    Manipulate,
    Pivot,
    Run,
    Walk,
)
from warbench.rulesets.tftww2.game import TFTGame

COSTS = "r1 has 8 movement points; that walk costs {:.1f} (1 per inch and 1 per 90° of turn)"


def lone() -> TFTGame:
    """r1, a Private (MOV 8) at 10,10 facing north; a blue man far off behind him."""
    return position([man(10, 10)], [man(40, 2, facing=180)])


@pytest.mark.parametrize(
    ("to", "facing", "cost"),
    [
        ((10.0, 18.0), 0.0, None),  # 8" straight ahead
        ((10.0, 18.5), 0.0, 8.5),
        ((10.0, 17.0), 90.0, None),  # 7" and a 90° turn
        ((10.0, 17.0), 91.0, 9.0),  # a turn of more than 90° costs 2
        ((17.0, 10.0), 90.0, None),  # turn 90° to walk east 7"
        ((17.0, 10.0), 0.0, 9.0),  # ... and turning back costs another point
        ((10.0, 4.0), 180.0, None),  # about turn (2) and 6" back
        ((10.0, 4.0), 0.0, 10.0),  # ... and about again
        ((13.6, 14.8), 0.0, None),  # 6" on a bearing of 36.9°: part of 90° is a whole point
        ((13.66, 14.88), 0.0, 8.1),
        ((10.0, 10.0), 270.0, None),  # a walk may be only a turn
    ],
)
def test_walk_costs_an_inch_a_point_and_a_point_each_90_degrees(
    to: tuple[float, float], facing: float, cost: float | None
) -> None:
    game = lone()
    assert game.check(Walk("r1", to, facing)) == (None if cost is None else COSTS.format(cost))
    if cost is None:
        game.apply(Walk("r1", to, facing))
        r1 = game.state.men["r1"]
        assert (r1.x, r1.y, r1.facing, r1.action) == (*to, facing, "walk")
        assert r1.moved == pytest.approx(math.dist((10, 10), to))


@pytest.mark.parametrize("facing", [360.0, 400.0, -90.0, math.nan])
@pytest.mark.parametrize(
    "make",
    [lambda f: Walk("r1", (10.0, 12.0), f), lambda f: Run("r1", 4.0, f), lambda f: Pivot("r1", f)],
)
def test_a_facing_is_compass_degrees_below_360(
    make: Callable[[float], Action], facing: float
) -> None:
    """Facings are compass degrees 0 <= f < 360: 400 or -90 is refused, not stored."""
    game = lone()
    before = game.state_hash()
    with pytest.raises(IllegalAction, match="a facing is compass degrees from 0 up to 360"):
        game.apply(make(facing))
    assert game.state_hash() == before
    assert game.check(make(0.0)) is None


def test_run_goes_straight_ahead_up_to_twice_mov_then_turns() -> None:
    game = position([man(10, 10, facing=90), man(10, 20)], [man(40, 2, facing=180)])
    assert game.check(Run("r1", 16.5, 0.0)) == 'r1 runs up to 16" (twice his move rate), not 16.5'
    assert game.check(Run("r1", 0.0, 0.0)) == 'r1 runs up to 16" (twice his move rate), not 0'
    events = game.apply(Run("r1", 16.0, 200.0))
    r1 = game.state.men["r1"]
    assert (r1.x, r1.y) == pytest.approx((26.0, 10.0))  # along his facing, not the new one
    assert (r1.facing, r1.moved, r1.action) == (200.0, 16.0, "run")
    assert 'r1 runs 16" and faces 200°' in texts(events)


def test_charge_makes_no_turn_and_ends_in_base_contact() -> None:
    game = position(
        [man(10, 10), man(30, 10)],
        [man(12, 19, facing=180), man(30, 19.1, facing=180), man(38, 14)],
    )
    assert game.check(ChargeAt("r1", "b3")) == (
        "a charge makes no turn: b3 is 82° off r1's facing (within 15° allowed); pivot first"
    )
    assert game.check(ChargeAt("r2", "b2")) == 'b2 is 8.1" away; r2 charges up to 8"'
    # b1 is 12.5° off r1's facing (inside the cone) but 8.2" off, base edge to base edge
    assert game.check(ChargeAt("r1", "b1")) == 'b1 is 8.2" away; r1 charges up to 8"'
    game.state.men["b1"].y = 18.7  # now 7.93" off
    game.apply(ChargeAt("r1", "b1"))
    r1, b1 = game.state.men["r1"], game.state.men["b1"]
    assert r1.distance(b1) == pytest.approx(1.0)  # base to base (1" bases)
    assert (r1.facing, r1.action) == (0.0, "charge")
    assert r1.moved == pytest.approx(math.hypot(2, 8.7) - 1)


def test_charge_refuses_a_man_out_of_the_fight_or_a_friend() -> None:
    game = position([man(10, 10), man(10, 13)], [man(10, 15, facing=180)])
    assert game.check(ChargeAt("r1", "r2")) == "'r2' is not an enemy in the fight"
    game.state.men["b1"].status = "dead"
    assert game.check(ChargeAt("r1", "b1")) == "'b1' is not an enemy in the fight"


def test_a_charge_does_not_end_on_another_mans_base() -> None:
    game = position([man(10, 10)], [man(10, 18, facing=180), man(10.6, 16.8)])
    assert game.check(ChargeAt("r1", "b1")) is not None


def test_change_position_toggles_prone_and_allows_no_combat() -> None:
    game = position([man(10, 10), man(12, 10)], [man(10, 20, facing=180)])
    events = game.apply(ChangePosition("r1"))
    assert "r1 is now prone" in texts(events)
    assert game.state.men["r1"].stance == "prone"
    assert game.state.men["r1"].action == "position"
    game.apply(Pivot("r2", 0.0))
    assert game.check(Fire("r1", "b1")) == (
        "r1 (position) may fire 0 shots this turn and has fired 0"
    )


def test_a_prone_man_stands_up_with_change_position() -> None:
    game = lone()
    game.state.men["r1"].stance = "prone"
    game.apply(ChangePosition("r1"))
    assert game.state.men["r1"].stance == "standing"


def test_pivot_turns_without_moving() -> None:
    game = lone()
    events = game.apply(Pivot("r1", 135.0))
    r1 = game.state.men["r1"]
    assert (r1.x, r1.y, r1.facing, r1.moved, r1.action) == (10, 10, 135.0, 0.0, "pivot")
    assert "r1 faces 135°" in texts(events)


@pytest.mark.parametrize("weapon", ["SMG", "LMG", "Automatic Rifle"])
def test_aim_is_not_for_automatic_weapons(weapon: str) -> None:
    game = position([man(10, 10, weapon=weapon, close="Bayonet/Knife")], [man(10, 30)])
    assert game.check(AimAt("r1", "b1")) == f"Aim is not for automatic weapons ({weapon})"


def test_aim_needs_the_target_straight_ahead() -> None:
    game = position(
        [man(10, 10, weapon="Pistol", close="Bayonet/Knife")],
        [man(30, 30), man(31, 29), man(10, 30)],
    )
    assert game.check(AimAt("r1", "b1")) is None  # 45° off: straight ahead, just
    assert game.check(AimAt("r1", "b2")) == "b2 is not straight ahead of r1 (within 45°)"
    game.apply(AimAt("r1", "b3"))
    r1 = game.state.men["r1"]
    assert (r1.action, r1.aim_target, r1.x, r1.y, r1.facing) == ("aim", "b3", 10, 10, 0)


def test_disengage_only_from_close_combat_and_directly_away() -> None:
    game = position([man(10, 10), man(30, 10)], [man(10, 11, facing=180)])
    assert game.check(Disengage("r2")) == "r2 is not in close combat: nothing to disengage from"
    game.apply(Disengage("r1"))
    r1 = game.state.men["r1"]
    assert (r1.x, r1.y) == pytest.approx((10.0, 2.0))
    assert r1.action == "disengage"


def test_unjam_only_when_jammed() -> None:
    game = lone()
    assert game.check(Manipulate("r1")) == "r1's weapon is not jammed"


@pytest.mark.parametrize(
    ("jam", "total", "cleared", "mods"),
    [
        (1, 10, True, {}),  # INT 10
        (1, 11, False, {}),
        (2, 6, True, {"hard jam (critical 18)": -4}),  # INT 10 - 4
        (2, 7, False, {"hard jam (critical 18)": -4}),
    ],
)
def test_unjam_is_an_int_roll_minus_4_after_an_18(
    jam: int, total: int, cleared: bool, mods: dict[str, int]
) -> None:
    game = position([man(10, 10), man(12, 10)], [man(10, 20, facing=180)])
    game.state.men["r1"].jam = jam
    script(game, *three(total))
    events = game.apply(Manipulate("r1"))
    roll = only_roll(events, "clear jam: r1 (Rifle)")
    assert roll.request.label.endswith("[INT 10]")
    assert attribute_mods(roll) == mods
    assert game.state.men["r1"].jam == (0 if cleared else jam)
    assert game.state.men["r1"].action == "unjam"
    assert dice_left(game) == 0
    game.apply(Pivot("r2", 0.0))
    assert game.check(Fire("r1", "b1")) == "r1 (unjam) may fire 0 shots this turn and has fired 0"


@pytest.mark.parametrize(
    "action",
    [
        Walk("r1", (10.0, 11.0), 0.0),
        Run("r1", 4.0, 0.0),
        ChargeAt("r1", "b1"),
        Disengage("r1"),
    ],
    ids=["walk", "run", "charge", "disengage"],
)
def test_a_prone_man_does_not_move(action: Action) -> None:
    game = position([man(10, 10)], [man(10, 11, facing=180)])
    game.state.men["r1"].stance = "prone"
    assert game.check(action) == "r1 is prone: change position first (position r1)"
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert (game.state.men["r1"].x, game.state.men["r1"].y) == (10, 10)


def test_a_prone_man_may_still_pivot_aim_and_change_position() -> None:
    game = position([man(10, 10)], [man(10, 30, facing=180)])
    game.state.men["r1"].stance = "prone"
    for action in (Pivot("r1", 90.0), AimAt("r1", "b1"), ChangePosition("r1")):
        assert game.check(action) is None


def test_a_prone_man_does_not_flee_either() -> None:
    game = position([man(10, 30)], [man(40, 44, facing=180)])
    game.state.men["r1"].stance = "prone"
    assert game.check(Flee("r1")) is not None


def test_no_move_ends_on_another_mans_base_or_off_the_table() -> None:
    game = position([man(10, 10), man(10, 14), man(1, 10, facing=270)], [man(40, 44)])
    assert game.check(Walk("r1", (10.0, 13.5), 0.0)) == (
        "10,13.5 is on r2's base: their centres would be 0.5\" apart; men on one floor keep"
        ' their centres 1" apart or more'
    )
    # the point as given (it said "10.0,13.0", a spot that is allowed), and the distance to
    # the tenth but never as the 1" a man must keep: 0.97" is "0.9"
    refused = game.check(Walk("r1", (10.0, 13.03), 0.0))
    assert refused is not None and refused.startswith("10,13.03 is on r2's base")
    assert 'would be 0.9" apart' in refused
    assert game.check(Walk("r1", (10.0, 13.0), 0.0)) is None  # touching is allowed
    assert game.check(Run("r2", 3.0, 0.0)) is None
    assert game.check(Run("r3", 0.6, 0.0)) == (
        '0.4,10 is off the 48"x48" table; r3\'s centre must lie within x 0.5 to 47.5'
        " and y 0.5 to 47.5"
    )
    assert game.check(Walk("r3", (0.25, 10.0), 270.0)) == (
        '0.25,10 is off the 48"x48" table; r3\'s centre must lie within x 0.5 to 47.5'
        " and y 0.5 to 47.5"
    )
    assert game.check(Walk("r3", (0.5, 10.0), 270.0)) is None  # the base just on the table
    game.state.men["r2"].status = "dead"  # the fallen are no obstacle
    assert game.check(Walk("r1", (10.0, 14.0), 0.0)) is None


def test_a_wounded_man_moves_half() -> None:
    game = position([man(10, 10), man(20, 10)], [man(10, 15.5, facing=180), man(40, 44)])
    for m in ("r1", "r2"):
        game.state.men[m].wounded = True
    assert game.check(Walk("r1", (10.0, 14.5), 0.0)) == (
        "r1 has 4 movement points; that walk costs 4.5 (1 per inch and 1 per 90° of turn)"
    )
    assert game.check(Walk("r1", (10.0, 14.0), 0.0)) is None
    assert game.check(Run("r1", 8.5, 0.0)) == 'r1 runs up to 8" (twice his move rate), not 8.5'
    assert game.check(Run("r1", 8.0, 0.0)) is None
    assert game.check(ChargeAt("r1", "b1")) == 'b1 is 4.5" away; r1 charges up to 4"'
    game.state.men["b1"].y = 15.0
    assert game.check(ChargeAt("r1", "b1")) is None
