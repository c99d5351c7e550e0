"""Movement, Cohesion and Carrying Infantry, played through the game."""

from __future__ import annotations

import pytest

from tests.rulesets.fft3.position import At, legal, play, position, stand, texts

WOODS = {"kind": "woods", "polygon": [[20, 10], [40, 10], [40, 30], [20, 30]]}
ROAD = {"kind": "road", "line": [[0, 5], [72, 5]]}


def test_open_ground_costs_one_mp_an_inch() -> None:
    """ "Stands in open terrain move 1" per movement point": a Soviet tank has 10."""
    game = position([At("s1t1", 10, 20)], phase="movement")
    assert legal(game, "move s1t1 20,20") is None
    reason = legal(game, "move s1t1 20.5,20")
    assert reason is not None and "costs 10.50 MP" in reason and "10.00 MP left" in reason
    # both ends written alike (the start read "10.0,20.0" beside "20,20")
    moved = texts(play(game, "move s1t1 20,20"))[0]
    assert moved == "s1t1 Soviet Tank moves from 10,20 to 20,20 (10.00 MP, 0.00 left)"


def test_vehicles_in_difficult_terrain_move_half_an_inch_a_point() -> None:
    game = position([At("s1t1", 21, 20)], phase="movement", terrain=[WOODS])
    assert legal(game, "move s1t1 26,20") is None  # 5" of woods: 10 MP
    assert legal(game, "move s1t1 26.5,20") is not None


def test_infantry_in_difficult_terrain_move_an_inch_a_point() -> None:
    game = position([At("s1i1", 21, 20)], phase="movement", terrain=[WOODS])
    assert legal(game, "move s1i1 25,20") is None  # 4 MP
    assert legal(game, "move s1i1 25.5,20") is not None


def test_roads_move_two_inches_a_point() -> None:
    game = position([At("s1t1", 10, 5)], phase="movement", terrain=[ROAD])
    assert legal(game, "move s1t1 30,5") is None  # 20" of road: 10 MP
    assert legal(game, "move s1t1 30.5,5") is not None


def test_a_road_through_woods_is_still_a_road_for_movement() -> None:
    road = {"kind": "road", "line": [[0, 20], [72, 20]]}
    game = position([At("s1t1", 15, 20)], phase="movement", terrain=[WOODS, road])
    assert legal(game, "move s1t1 35,20") is None  # 20" of road, 5 of them in the woods


def test_moving_spends_points_across_legs_and_faces_the_way_it_went() -> None:
    game = position([At("s1t1", 10, 20)], phase="movement")
    play(game, "move s1t1 16,20")
    tank = stand(game, "s1t1")
    assert tank.mp_left() == pytest.approx(4)
    assert tank.facing == pytest.approx(90)
    assert legal(game, "move s1t1 16,25") is not None  # 5" with 4 MP left
    assert legal(game, "move s1t1 16,24") is None


def test_strategic_movement_doubles_movement_points() -> None:
    game = position([At("s1t1", 10, 20)], phase="movement")
    assert legal(game, "move s1t1 30,20") is not None
    assert legal(game, "strategic s1t1 30,20") is None


def test_strategic_movement_forbids_firing_that_turn() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 40)], phase="movement")
    play(game, "strategic s1t1 10,16", "end")
    reason = legal(game, "fire s1t1 gun n1t1")
    assert reason is not None and "moved strategically" in reason
    assert legal(game, "overwatch s1t1") is not None


def test_strategic_movement_never_comes_within_ten_inches_of_an_enemy() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 32)], phase="movement")
    reason = legal(game, "strategic s1t1 10,22")
    assert reason is not None and 'within 10"' in reason
    assert legal(game, "strategic s1t1 10,19") is None
    assert legal(game, "move s1t1 10,20") is None  # a normal move may close in


def test_stands_never_move_within_an_inch_of_an_enemy() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 19)], phase="movement")
    # centres 9" apart, bases 1.25" across: an edge gap of 7.75"
    assert legal(game, "move s1t1 10,16.6") is None  # gap 1.15"
    reason = legal(game, "move s1t1 10,17")
    assert reason is not None and 'within 1"' in reason.replace('0.75"', "")
    # passing by an enemy within 1" is just as illegal as stopping there
    reason = legal(game, "move s1t1 10.5,18.5")
    assert reason is not None


def test_a_move_past_an_enemy_is_checked_along_its_whole_path() -> None:
    game = position([At("s1t1", 5, 20), At("n1t1", 10, 20.5)], phase="movement")
    reason = legal(game, "move s1t1 15,20")
    assert reason is not None and "n1t1" in reason


def test_suppressed_stands_lose_two_movement_points() -> None:
    game = position([At("s1t1", 10, 20)], phase="movement", suppressed=["s1t1"])
    assert stand(game, "s1t1").mp_left() == 8
    assert legal(game, "move s1t1 18,20") is None
    assert legal(game, "move s1t1 18.5,20") is not None


def test_a_stand_out_of_cohesion_must_move_back_towards_its_unit() -> None:
    game = position([At("s1t1", 10, 20), At("s1t2", 20, 20)], phase="movement")
    assert not stand(game, "s1t1").began_in_cohesion
    reason = legal(game, "move s1t1 5,20")
    assert reason is not None and "out of cohesion" in reason
    assert legal(game, "move s1t1 14,20") is None  # closer, still out
    assert legal(game, "move s1t1 18,20") is None  # back in cohesion


def test_a_stand_in_cohesion_may_leave_it_and_is_then_out_of_cohesion() -> None:
    """ "Stands can be moved out of cohesion if a player wishes"; it is in cohesion only if
    it begins and ends its movement phase within 2" of another stand of its unit."""
    game = position([At("s1t1", 10, 20), At("s1t2", 12, 20)], phase="movement")
    play(game, "move s1t1 10,12", "end")
    assert not stand(game, "s1t1").cohesive
    assert not stand(game, "s1t2").cohesive  # its only unit-mate left it
    assert stand(game, "s1t1").on_table


def test_cohesion_needs_the_start_as_well_as_the_end() -> None:
    game = position([At("s1t1", 10, 20), At("s1t2", 16, 20)], phase="movement")
    play(game, "move s1t1 13,20", "end")
    assert not stand(game, "s1t1").cohesive  # began out of cohesion, ended in it


def test_an_ifv_next_to_infantry_picks_it_up_for_two_points() -> None:
    game = position([At("s1v1", 10, 20), At("s1i1", 11.5, 20)], phase="movement")
    play(game, "embark s1v1 s1i1")
    ifv, inf = stand(game, "s1v1"), stand(game, "s1i1")
    assert inf.carried_by == "s1v1" and ifv.carrying == "s1i1"
    assert ifv.mp_left() == 8
    assert not inf.on_table
    play(game, "move s1v1 15,20")
    assert inf.at == (15, 20)


def test_infantry_not_next_to_the_ifv_cannot_embark() -> None:
    game = position([At("s1v1", 10, 20), At("s1i1", 13, 20)], phase="movement")
    reason = legal(game, "embark s1v1 s1i1")
    assert reason is not None and "next to" in reason


def test_debarking_costs_the_ifv_two_points_and_the_infantry_two() -> None:
    game = position([At("s1v1", 10, 20)], phase="movement", carried={"s1i1": "s1v1"})
    play(game, "debark s1v1 11.5,20")
    ifv, inf = stand(game, "s1v1"), stand(game, "s1i1")
    assert ifv.mp_left() == 8
    assert inf.on_table and inf.mp_left() == 2
    assert legal(game, "move s1i1 13.5,20") is None
    assert legal(game, "move s1i1 14,20") is not None


def test_infantry_is_put_down_next_to_its_ifv() -> None:
    game = position([At("s1v1", 10, 20)], phase="movement", carried={"s1i1": "s1v1"})
    reason = legal(game, "debark s1v1 14,20")
    assert reason is not None and "next to" in reason


def test_naming_the_passenger_instead_of_its_ifv_shows_the_form_to_write() -> None:
    """ "debark s1i1 ..." was told "s1i1 is riding in s1v1; debark it first", and "embark
    s1i1 s1v1" that the infantry "is a infantry"."""
    game = position([At("s1v1", 10, 20)], phase="movement", carried={"s1i1": "s1v1"})
    assert legal(game, "debark s1i1 11.5,20") == (
        "s1i1 Soviet Infantry is riding in s1v1; debark it first (debark s1v1 X,Y)"
    )
    game = position([At("s1v1", 10, 20), At("s1i1", 11.5, 20)], phase="movement")
    reason = legal(game, "embark s1i1 s1v1")
    assert reason is not None and reason.startswith(
        "only IFVs carry infantry, and s1i1 Soviet Infantry is not one; write embark IFV INFANTRY"
        " (your IFVs: s1v1"
    )


def test_a_passenger_survives_its_ifv_on_a_passed_check() -> None:
    """ "If an IFV is destroyed, its infantry stand survives if the infantry stand can make a
    quality check." A NATO IFV's gun at a Soviet IFV 10" off (effective range): 2 hits
    (6, 6), Pen 7 - armour 5 = 2 dice per hit (6, 1, 1, 1): destroyed; the passenger rolls
    5 (5+ passes)."""
    game = position(
        [At("s1v1", 10, 20), At("n1v1", 10, 31.25, 180)],
        carried={"s1i1": "s1v1"},
        mover="blue",
        faces=[6, 6, 6, 1, 1, 1, 5],
    )
    events = play(game, "fire n1v1 gun s1v1", "resolve s1v1")
    assert not stand(game, "s1v1").alive
    inf = stand(game, "s1i1")
    assert inf.alive and inf.on_table and inf.at == (10, 20)
    assert any("its IFV s1v1 was destroyed" in t for t in texts(events))


def test_a_passenger_dies_with_its_ifv_on_a_failed_check() -> None:
    game = position(
        [At("s1v1", 10, 20), At("n1v1", 10, 31.25, 180)],
        carried={"s1i1": "s1v1"},
        mover="blue",
        faces=[6, 6, 6, 1, 1, 1, 4],
    )
    play(game, "fire n1v1 gun s1v1", "resolve s1v1")
    assert not stand(game, "s1i1").alive


def test_riding_infantry_cannot_act_or_be_targeted() -> None:
    game = position(
        [At("s1v1", 10, 20), At("n1t1", 10, 30, 180)], carried={"s1i1": "s1v1"}, mover="red"
    )
    reason = legal(game, "fire s1i1 ai n1t1")
    assert reason is not None and "riding" in reason
    game = position(
        [At("s1v1", 10, 20), At("n1t1", 10, 30, 180)], carried={"s1i1": "s1v1"}, mover="blue"
    )
    assert legal(game, "fire n1t1 gun s1i1") is not None


def test_deployment_keeps_units_in_their_strip() -> None:
    from tests.rulesets.fft3.position import scenario
    from warbench.rulesets.fft3.ruleset import FistfulOfTows3

    game = FistfulOfTows3().new_game(scenario(), seed=1)
    assert game.pending.player == "blue"  # type: ignore[union-attr]
    reason = game.check(game.parse("deploy n1 36,30"))
    assert reason is not None and "outside your strip" in reason
    assert game.check(game.parse("deploy n1 36,44")) is None


def test_an_off_table_deployment_names_the_typed_point_and_where_the_unit_fits() -> None:
    """The refusal quotes the point the player typed (not a stand's offset from it) and the
    points around which the whole unit fits on the table and in its strip."""
    from tests.rulesets.fft3.position import scenario
    from warbench.rulesets.fft3.ruleset import FistfulOfTows3

    game = FistfulOfTows3().new_game(scenario(), seed=1)
    reason = game.check(game.parse("deploy n1 80,44"))
    assert reason is not None
    assert reason.startswith('the point 80,44 would put n1t1 NATO Tank off the 72"x48" table')
    assert "77,44" not in reason
    assert reason.endswith("unit n1 fits around points with x 3.625 to 68.375 and y 40 to 47.375")
    assert game.check(game.parse("deploy n1 68.375,47.375")) is None
    assert game.check(game.parse("deploy n1 3.625,40")) is None
    reason = game.check(game.parse("deploy n1 36,30"))
    assert reason is not None and reason.startswith("the point 36,30 would put n1t1")


def test_a_move_or_debark_off_the_table_names_where_the_stand_fits() -> None:
    """It said only "80,20 is off the table", as if the player knew the table's size."""
    game = position([At("s1t1", 10, 20)], phase="movement")
    assert legal(game, "move s1t1 0.1,20") == (
        '0.1,20 is off the 72"x48" table for s1t1 Soviet Tank; its centre must lie within'
        " x 0.625 to 71.375 and y 0.625 to 47.375"
    )
    assert legal(game, "move s1t1 0.625,20") is None
    game = position([At("s1v1", 1, 20)], phase="movement", carried={"s1i1": "s1v1"})
    assert legal(game, "debark s1v1 0,20") == (
        '0,20 is off the 72"x48" table for s1i1 Soviet Infantry; its centre must lie within'
        " x 0.375 to 71.625 and y 0.375 to 47.625"
    )
    assert legal(game, "debark s1v1 0.375,20") is None
