"""MOVEMENT and SHOOTING inside buildings: doors (1 action to open, then open for everyone),
double doors (the only way for tanks and MTs), windows (drones fly through; no hand to hand
through them), stairs to an upper floor (1 action) with the higher-shooter and the
inside-sight rules, and the vehicle wreck figures get in and out of (1 action each)."""

from __future__ import annotations

from tests.referee import Ref
from tests.rulesets.fftt.position import fig, game, state
from warbench.core.dice import SeededDice
from warbench.rulesets.fftt import movement, setup, shooting
from warbench.rulesets.fftt.actions import Charge, Climb, Move
from warbench.rulesets.fftt.movement import actions_for, move_problem
from warbench.rulesets.fftt.sight import can_see
from warbench.rulesets.fftt.table import Piece

# a 20 x 10 cm house: a door south, a double door north, windows west and east, two floors
HOUSE = Piece(
    "building",
    40,
    40,
    60,
    50,
    (("south", "door"), ("north", "double"), ("west", "window"), ("east", "window")),
    2,
)


def test_opening_a_door_costs_an_action_and_walls_stop_the_rest() -> None:
    grunt = fig("r1", "grunt", 50, 36)
    s = state(grunt, fig("b1", "terminator", 90, 90), pieces=[HOUSE], stage="move")
    assert move_problem(s, grunt, (50.0, 42.0)) is None  # through the south door
    assert actions_for(s, grunt, (50.0, 42.0)) == 2  # 6 cm (2 of them inside, counted double)
    assert actions_for(s, grunt, (50.0, 39.0)) == 1  # up to the door: no door opened
    wall = move_problem(s, grunt, (44.0, 42.0)) or ""
    assert wall.startswith("the move meets the south wall of a building at")
    assert "r1 passes walls only through doors" in wall
    grunt.ap = 1
    assert "after 1 for doors" in (move_problem(s, grunt, (50.0, 42.0)) or "")


def test_drones_fly_through_windows_and_nobody_else() -> None:
    drone = fig("b1", "drone", 36, 45, race="insectoids")
    grunt = fig("r1", "grunt", 36, 42)
    s = state(grunt, drone, pieces=[HOUSE], stage="move")
    assert move_problem(s, drone, (43.0, 45.0)) is None  # the west window
    assert actions_for(s, drone, (43.0, 45.0)) == 1  # no door to open
    assert "only through doors" in (move_problem(s, grunt, (43.0, 42.0)) or "")
    grunt.y = 45.0
    drone.x = 20.0
    assert "only through doors" in (move_problem(s, grunt, (43.0, 45.0)) or "")


def test_tanks_and_mts_only_through_double_doors() -> None:
    tank = fig("b1", "tank", 50, 53)
    s = state(fig("r1", "grunt", 10, 10), tank, pieces=[HOUSE], stage="move")
    assert move_problem(s, tank, (50.0, 48.0)) is None  # the north double door
    assert actions_for(s, tank, (50.0, 48.0)) == 2  # 3 cm + 2 inside (7 of 8) and the door
    tank.x, tank.y = 50.0, 48.0
    assert "only through double doors" in (move_problem(s, tank, (50.0, 35.0)) or "")
    assert "tanks and MTs do not climb" in (movement.climb_problem(s, tank) or "")
    grunt = fig("r2", "grunt", 50, 55)
    s.figs["r2"] = grunt
    assert move_problem(s, grunt, (50.0, 52.0)) is None
    assert move_problem(s, grunt, (50.0, 44.0)) is None  # figures use double doors too


def test_climbing_the_stairs_costs_an_action_through_the_game() -> None:
    grunt = fig("r1", "grunt", 50, 45)
    s = state(grunt, fig("b1", "terminator", 90, 90), pieces=[HOUSE], stage="move")
    g = game(s)
    assert Climb("r1") in g.legal_actions("red")
    events = g.apply(Climb("r1"), "red")
    assert (g.state.figs["r1"].level, g.state.figs["r1"].ap) == (1, 2)
    assert events[0].text == "r1 climbs the stairs up to the upper floor"
    upstairs = g.state.figs["r1"]
    assert move_problem(g.state, upstairs, (45.0, 45.0)) is None  # about the upper floor
    assert "climb down before leaving" in (move_problem(g.state, upstairs, (50.0, 38.0)) or "")
    assert g.view("red")["figures"][0]["level"] == 1
    g.apply(Climb("r1"), "red")
    assert g.state.figs["r1"].level == 0


def test_no_stairs_in_a_one_floor_building_or_outside() -> None:
    shed = Piece("building", 10, 10, 20, 20, (("south", "door"),))
    inside, outside = fig("r1", "grunt", 15, 15), fig("r2", "grunt", 30, 30)
    s = state(inside, outside, pieces=[shed], stage="move")
    assert "not inside a building with an upper floor" in (movement.climb_problem(s, inside) or "")
    assert "not inside a building" in (movement.climb_problem(s, outside) or "")


def test_a_move_through_a_door_spends_the_door_in_the_game() -> None:
    grunt = fig("r1", "grunt", 50, 36)
    s = state(grunt, fig("b1", "terminator", 90, 90), pieces=[HOUSE], stage="move")
    g = game(s)
    events = g.apply(Move("r1", (50.0, 42.0)), "red")
    assert g.state.figs["r1"].ap == 1 and g.state.figs["r1"].pos == (50.0, 42.0)
    assert events[0].text == "r1 moves to 50,42 (+1 action: doors, getting in or out)"


def test_a_door_once_opened_stays_open_for_everyone() -> None:
    """R40: 'Opening doors ... cost 1 action': a door opened stays open, and passing an open
    door (either side's, in or out) costs nothing more."""
    grunt, other = fig("r1", "grunt", 50, 36), fig("r2", "grunt", 50, 33)
    enemy = fig("b1", "terminator", 50, 53, ap=1)  # too few actions for opportunity fire
    s = state(grunt, other, enemy, pieces=[HOUSE], stage="move")
    g = game(s)
    assert actions_for(s, other, (50.0, 42.0)) == 3  # 11 cm and the door still to open
    assert g.view("red")["open_doors"] == []
    g.apply(Move("r1", (50.0, 46.0)), "red")
    s = g.state
    assert s.open_doors == frozenset({(0, "south")})
    assert g.view("blue")["open_doors"] == [[0, "south"]]  # on the table for all to see
    assert actions_for(s, s.figs["r2"], (50.0, 42.0)) == 2  # open: only the ground
    events = g.apply(Move("r2", (50.0, 42.0)), "red")
    assert events[0].text == "r2 moves to 50,42"  # no door to pay
    assert actions_for(s, s.figs["r1"], (50.0, 36.0)) == 2  # out again by the open door
    assert "door south (open), double north," in g.ruleset.board_text(g)
    labels = [area.label for area in g.ruleset.scene(g, "blue").terrain]
    assert labels == ["building", "door (open)", "double", "window", "window"]
    # the double door is still shut: the terminator pays to open it, then it is open too
    s.figs["b1"].ap = 2
    assert actions_for(s, s.figs["b1"], (50.0, 49.0)) == 2
    s.player, s.part = "blue", 1
    g.apply(Move("b1", (50.0, 49.0)), "blue")
    assert g.state.open_doors == frozenset({(0, "south"), (0, "north")})


def test_a_door_is_open_once_the_move_through_it_starts() -> None:
    """The action paid, the door is open even while opportunity fire may stop the mover."""
    grunt = fig("r1", "grunt", 50, 30)
    s = state(grunt, fig("b1", "terminator", 50, 70), pieces=[HOUSE], stage="move")
    g = game(s)
    g.apply(Move("r1", (50.0, 42.0)), "red")
    assert g.pending.kind == "opfire"  # type: ignore[union-attr]
    assert g.state.open_doors == frozenset({(0, "south")})


def test_the_moves_listed_follow_the_doors_opened() -> None:
    """The legal moves a figure's place remembers (`route_tester`) are kept per open doors."""
    grunt = fig("r1", "grunt", 50, 36, ap=1)
    s = state(grunt, fig("b1", "terminator", 90, 90), pieces=[HOUSE], stage="move")
    assert not movement.route_tester(s, grunt)((50.0, 42.0))  # 1 action: no door to open
    s.open_doors = frozenset({(0, "south")})
    assert movement.route_tester(s, grunt)((50.0, 42.0))


def test_upstairs_the_higher_shooter_rule_and_the_border_rule_hold() -> None:
    shooter = fig("r1", "grunt", 50, 41)  # at the south border of the house
    target = fig("b1", "terminator", 50, 25)
    screen = fig("r2", "grunt", 50, 37)  # nearer the shooter than the target
    s = state(shooter, target, screen, pieces=[HOUSE])
    assert not can_see(s, shooter, target)  # on the ground floor the friend is in the way
    shooter.level = 1
    assert can_see(s, shooter, target)  # higher: it sees over what is nearer to it
    assert shooting.fire_problem(s, shooter, target, indirect=False) is None
    shooter.y = 45.0  # deep inside: the border rule holds upstairs too
    assert not can_see(s, shooter, target)


def test_inside_a_building_floors_hide_and_5_cm_on_the_same_floor() -> None:
    a, b = fig("r1", "grunt", 48, 45), fig("b1", "terminator", 52, 45)
    s = state(a, b, pieces=[HOUSE])
    assert can_see(s, a, b)  # 4 cm apart inside, same floor
    b.level = 1
    assert not can_see(s, a, b)  # the floor is between them
    assert "another floor" in (movement.charge_problem(s, a, b) or "")
    assert not movement.in_contact(s, fig("r3", "grunt", 52, 46), b)


def test_no_hand_to_hand_through_a_window() -> None:
    outside = fig("r1", "grunt", 37.5, 45)
    inside = fig("b1", "terminator", 41.6, 45)  # bases touch across the west window
    s = state(outside, inside, pieces=[HOUSE], stage="move")
    assert not movement.in_contact(s, outside, inside)
    assert "from a window" in (movement.charge_problem(s, outside, inside) or "")
    assert move_problem(s, outside, (38.0, 45.0)) is None  # not a charge: no contact
    at_door = fig("r2", "grunt", 50, 39)
    s.figs["r2"] = at_door
    behind = fig("b2", "terminator", 50, 41)
    s.figs["b2"] = behind
    assert movement.in_contact(s, at_door, behind)  # through the door they fight


def test_a_charge_through_a_door_pays_the_door() -> None:
    grunt = fig("r1", "grunt", 50, 36)
    target = fig("b1", "terminator", 50, 44)
    s = state(grunt, target, pieces=[HOUSE], stage="move")
    g = game(s)
    g.apply(Charge("r1", "b1"), "red")
    assert g.state.figs["r1"].ap == 1  # one for the charge, one for the door


def test_getting_in_and_out_of_a_vehicle_wreck_costs_an_action() -> None:
    wreck = Piece("vehicle", 40, 40, 45, 50)
    grunt = fig("r1", "grunt", 36, 45)
    tank = fig("b1", "tank", 50, 30)
    s = state(grunt, tank, pieces=[wreck], stage="move")
    assert actions_for(s, grunt, (42.5, 45.0)) == 2  # 6.5 cm and getting in
    assert actions_for(s, fig("r2", "grunt", 39, 45), (46.0, 45.0)) == 3  # in and out again
    assert "cannot get into a vehicle wreck" in (move_problem(s, tank, (42.5, 42.0)) or "")
    grunt.x = 42.5
    assert actions_for(s, grunt, (43.5, 46.0)) == 1  # about inside: nothing more
    assert s.table.in_cover((42.5, 20.0), grunt.pos)


def test_generated_buildings_have_doors_windows_and_some_an_upper_floor() -> None:
    kinds: set[str] = set()
    floors: set[int] = set()
    for seed in range(12):
        pieces = setup.scenery(Ref(dice=SeededDice(seed)), 100.0, 100.0)
        kinds |= {p.kind for p in pieces}
        for p in pieces:
            if p.kind == "building":
                floors.add(p.floors)
                assert any(kind in ("door", "double") for _, kind in p.openings)
            else:
                assert p.openings == () and p.floors == 1
    assert floors == {1, 2}
    assert {"building", "river", "lake", "pool", "vehicle"} <= kinds


def test_the_board_and_the_scene_show_doors_windows_and_floors() -> None:
    g = game(state(fig("r1", "grunt", 50, 45), pieces=[HOUSE], stage="move"))
    text = g.ruleset.board_text(g)
    assert (
        "building 40,40 to 60,50, door south, double north, window west, window east, two floors"
        in (text)
    )
    labels = [area.label for area in g.ruleset.scene(g, "red").terrain]
    assert labels == ["building", "door", "double", "window", "window"]


def test_tanks_are_not_deployed_inside_buildings_or_wrecks() -> None:
    tank = fig("b1", "tank", 50, 90)
    wreck = Piece("vehicle", 10, 85, 20, 90)
    house = Piece("building", 40, 85, 60, 95, (("south", "double"),))
    s = state(fig("r1", "grunt", 10, 10), tank, pieces=[house, wreck])
    s.south = "red"
    for at in ((50.0, 90.0), (15.0, 87.5)):
        reason = movement.deploy_problem(s, tank, at) or ""
        assert reason.startswith("b1 is a Tank: it is not set down inside a building or wreck")
    assert movement.deploy_problem(s, tank, (30.0, 90.0)) is None
    assert movement.deploy_problem(s, fig("b2", "terminator", 0, 0), (45.0, 90.0)) is None
