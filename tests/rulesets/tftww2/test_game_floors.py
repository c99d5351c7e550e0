"""Floors and windows of buildings (ours, rulings F1-F5 in floors.py): sight only through a
window, men on upper floors, the stairs, close combat on one floor, 6.2's -6 for a throw
through a window, a thrown weapon bursting on one floor, and a collapse burying every floor."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.tftww2.position import (
    dice_left,
    done,
    man,
    new_game,
    only_roll,
    position,
    rect,
    scenario,
    script,
    squad,
    texts,
    three,
)
from warbench.core import registry
from warbench.rulesets.tftww2 import terrain
from warbench.rulesets.tftww2.actions import Bombard, Climb, Fire, Pivot, Strike, Throw, Walk
from warbench.rulesets.tftww2.game import TFTGame

# 8" square, two floors; no windows given: one in the middle of each wall (24,20 24,28 ...)
HOUSE = rect("building", 20, 20, 28, 28, name="house", floors=2)
MORTAR: dict[str, Any] = {"weapon": "Pistol", "close": "Bayonet/Knife", "support": "light_mortar"}


def house(red: list[dict[str, Any]], blue: list[dict[str, Any]]) -> TFTGame:
    return position(red, blue, terrain=[HOUSE])


def test_a_building_given_no_windows_has_one_in_the_middle_of_every_wall() -> None:
    game = house([man(2, 2)], [man(46, 46)])
    points = {(w.x, w.y) for w in game.table.windows["house"]}
    assert points == {(24.0, 20.0), (28.0, 24.0), (24.0, 28.0), (20.0, 24.0)}


def test_a_window_lies_on_the_walls() -> None:
    data = scenario(
        [squad(man(2, 2))], [squad(man(46, 46))], terrain=[HOUSE | {"windows": [[24, 22]]}]
    )
    with pytest.raises(ValueError, match="window 24,22 is not on its walls"):
        registry.get("tftww2").scenario_from_data(data)


def test_sight_between_inside_and_outside_passes_a_window() -> None:
    # b1 1" inside the south wall in front of its window; b2 as near the wall, 3" from it
    game = house([man(24, 10), man(21, 10)], [man(24, 21, facing=180), man(21, 21, facing=180)])
    r1, r2, b1, b2 = (game.state.men[k] for k in ("r1", "r2", "b1", "b2"))
    assert terrain.sees(game.table, r1, b1)
    assert not terrain.sees(game.table, r2, b2)  # within 2" of the wall, but no window
    b1.fired_last_round = b2.fired_last_round = True  # else no shot at a man inside (4.1)
    done(game)  # red's ranged step: r1 may shoot b1 through the window, r2 not b2
    assert game.check(Fire("r1", "b1")) is None
    assert game.check(Fire("r2", "b2")) == "r2 cannot see b2"


def test_men_on_different_floors_do_not_see_or_fight_each_other() -> None:
    game = house([man(23, 24, facing=90)], [man(24, 24, facing=270), man(23, 25, facing=180)])
    r1, b1 = game.state.men["r1"], game.state.men["b1"]
    assert terrain.sees(game.table, r1, b1)
    b1.floor = 1
    assert not terrain.sees(game.table, r1, b1)
    game.apply(Pivot("r1", 90.0))
    assert game.state.phase == "close"  # b2 downstairs is in base contact, b1 above is not
    assert game.check(Strike("r1", "b2")) is None
    assert game.check(Strike("r1", "b1")) == "b1 is not in base to base contact with r1"


def test_climbing_is_a_mans_action_one_floor_at_a_time_inside_a_building() -> None:
    game = house([man(24, 24), man(10, 10)], [man(46, 46)])
    assert "not inside a building with an upper floor" in (game.check(Climb("r2", 1)) or "")
    assert "one floor" in (game.check(Climb("r1", 2)) or "")
    assert Climb("r1", 1) in game.legal_actions_of("r1")
    events = game.apply(Climb("r1", 1))
    assert game.state.men["r1"].floor == 1
    assert "r1 climbs to floor 1" in texts(events)
    assert game.state.men["r1"].action == "climb"


def test_the_stairs_need_a_free_spot_and_a_standing_man() -> None:
    game = house([man(24, 24), man(25.5, 24, rank="NCO")], [man(46, 46)])
    game.state.men["r2"].floor = 1
    game.state.men["r2"].x = 24.0  # r2 stands upstairs right above r1
    assert game.check(Climb("r1", 1)) == "r2 holds that spot on floor 1"
    game.state.men["r2"].x = 26.0
    game.state.men["r1"].stance = "prone"
    assert "prone" in (game.check(Climb("r1", 1)) or "")


def test_a_man_upstairs_moves_only_within_his_building() -> None:
    game = house([man(24, 24)], [man(46, 46)])
    game.state.men["r1"].floor = 1
    assert game.check(Walk("r1", (24.0, 26.0), 0.0)) is None
    assert game.check(Walk("r1", (24.0, 29.0), 0.0)) == (
        "r1 is on floor 1 of the house: climb down before leaving it"
    )


def test_a_man_upstairs_is_not_on_the_base_of_a_man_below() -> None:
    game = house([man(24, 24), man(24, 26)], [man(46, 46)])
    assert "on r1's base" in (game.check(Walk("r2", (24.0, 24.5), 180.0)) or "")
    game.state.men["r1"].floor = 1
    assert game.check(Walk("r2", (24.0, 24.5), 180.0)) is None


def test_a_fleeing_man_upstairs_first_comes_down() -> None:
    red = [squad(man(24, 24), name="upstairs"), squad(man(10, 10), name="other")]
    game = new_game(scenario(red, [squad(man(46, 46))], terrain=[HOUSE]))
    r1 = game.state.men["r1"]
    r1.floor = 1
    game.state.squads[r1.squad].fleeing = True
    game.state.side = "blue"
    while game.state.side == "blue":
        done(game)  # blue's turn ends; red's begins with its flight
    assert (r1.floor, r1.x, r1.y, r1.status) == (0, 24.0, 24.0, "ok")


def test_a_grenade_through_a_window_is_minus_6_and_bursts_on_the_ground_floor() -> None:
    # b1 downstairs behind the south window, b2 upstairs beside him: only b1 is touched
    game = house([man(24, 14, grenades=1)], [man(24, 21), man(25, 22)])
    game.state.men["b2"].floor = 1
    done(game)
    script(game, *three(6), 1, 1, 1, 1, 6, 6, 6, 6)  # DEX 12 - 6 = 6 hits; the house, b1
    events = game.apply(Throw("r1", (24.0, 21.0)))
    assert dice_left(game) == 0
    roll = only_roll(events, "grenade: r1 → 24,21 (skill")
    assert roll.request.label == "grenade: r1 → 24,21 (skill 12, -6 throwing through window)"
    assert (roll.request.target, roll.success) == (6, True)
    damaged = [e.text for e in events if e.kind == "damage" and "→ b" in e.text]
    assert damaged == ["grenade: r1 → 24,21 → b1: 0 damage (-6 a die for cover)"]


def test_a_throw_through_a_wall_without_a_window_is_not_allowed() -> None:
    game = house([man(21, 14, grenades=1)], [man(21, 21), man(10, 20)])
    done(game)  # red's ranged step (r1 sees b2)
    assert game.check(Throw("r1", (21.0, 21.0))) == "no window on the line from r1 to 21,21 (F4)"


def test_a_grenade_thrown_upstairs_touches_only_that_floor() -> None:
    # r1 upstairs throws within the house at b1 upstairs; b2 below him is not touched
    game = house([man(21, 21, grenades=1)], [man(24, 24), man(24, 25.5)])
    game.state.men["r1"].floor = game.state.men["b1"].floor = 1
    game.apply(Pivot("r1", 45.0))
    script(game, *three(12), 1, 1, 1, 1, 6, 6, 6, 6)  # no wall between: no -6; house, b1
    events = game.apply(Throw("r1", (24.0, 24.0)))
    assert dice_left(game) == 0
    roll = only_roll(events, "grenade: r1 → 24,24 (skill")
    assert roll.request.label == "grenade: r1 → 24,24 (skill 12)"
    damaged = [e.text for e in events if e.kind == "damage" and "→ b" in e.text]
    assert damaged == ["grenade: r1 → 24,24 → b1: 0 damage (-6 a die for cover)"]


def test_indirect_fire_touches_every_floor_and_a_collapse_buries_them_all() -> None:
    game = new_game(
        scenario(
            [squad(man(24, 10, **MORTAR), name="mortar")],
            [squad(man(24, 21), man(25, 22), man(40, 44), name="blue")],
            terrain=[HOUSE | {"material": "wood"}],  # medium wood, 2 floors: 48 hits
        )
    )
    game.state.men["b2"].floor = 1
    done(game)
    at = (24.0, 21.0)  # behind the south window: the mortar man sees it
    script(game, *three(3), 1, 1, 1, 1, 1)  # a critical 3: the house falls, whatever the hits
    events = game.apply(Bombard("r1", at))
    assert game.state.collapsed == ["house"]
    assert [game.state.men[k].status for k in ("b1", "b2", "b3")] == [
        "incapacitated",
        "incapacitated",
        "ok",
    ]
    assert "b2 is buried: incapacitated" in texts(events)


def test_the_building_assault_farmhouse_has_two_floors_and_nine_windows() -> None:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("building-assault"), 1)
    assert isinstance(game, TFTGame)
    assert game.table.specs["farmhouse"].floors == 2
    assert len(game.table.windows["farmhouse"]) == 9
