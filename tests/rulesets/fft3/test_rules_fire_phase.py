"""Combat through the game: who may fire what, declaration before resolution, the quality
check limits, facing, sight and range."""

from __future__ import annotations

from tests.rulesets.fft3.position import At, legal, play, position, stand, texts

TOWN = {"kind": "town", "polygon": [[0, 20], [72, 20], [72, 26], [0, 26]]}


def test_a_vehicle_makes_one_attack_a_turn() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 30, 180), At("n1i1", 14, 30)])
    play(game, "fire s1t1 gun n1t1")
    reason = legal(game, "fire s1t1 gun n1i1")
    assert reason is not None and "a vehicle makes one" in reason


def test_an_ifv_never_fires_missile_and_gun_in_one_phase() -> None:
    game = position([At("s1v1", 10, 10), At("n1t1", 10, 30, 180)])
    play(game, "fire s1v1 missile n1t1")
    assert legal(game, "fire s1v1 gun n1t1") is not None


def test_infantry_makes_anti_infantry_law_and_missile_attacks() -> None:
    game = position(
        [At("s1i1", 10, 10), At("n1t1", 10, 13, 180), At("n1i1", 12, 12), At("n1v1", 8, 12)]
    )
    play(game, "fire s1i1 ai n1i1", "fire s1i1 law n1v1", "fire s1i1 missile n1t1")
    assert legal(game, "fire s1i1 ai n1i1") is not None  # each attack once


def test_ifvs_fire_missiles_only_after_half_their_movement_or_less() -> None:
    """NATO IFV: Mov 14; missiles after spending 7 MP or less."""
    game = position(
        [At("n1v1", 10, 40, 180), At("n2v1", 11.5, 40), At("s1t1", 10, 10)],
        phase="movement",
        mover="blue",
    )
    play(game, "move n1v1 10,33", "end")
    assert legal(game, "fire n1v1 missile s1t1") is None
    game = position(
        [At("n1v1", 10, 40, 180), At("n2v1", 11.5, 40), At("s1t1", 10, 10)],
        phase="movement",
        mover="blue",
    )
    play(game, "move n1v1 10,32", "end")
    reason = legal(game, "fire n1v1 missile s1t1")
    assert reason is not None and "7 MP or less" in reason
    assert legal(game, "fire n1v1 gun s1t1") is None


def test_infantry_may_move_fully_and_fire_missiles() -> None:
    game = position(
        [At("n1i1", 10, 30), At("n2i1", 11, 30), At("s1t1", 10, 20)],
        phase="movement",
        mover="blue",
    )
    play(game, "move n1i1 10,26", "end")
    assert legal(game, "fire n1i1 missile s1t1") is None


def test_all_fire_at_a_stand_is_declared_before_any_is_resolved() -> None:
    game = position([At("s1t1", 10, 10), At("s1t2", 12, 10), At("n1t1", 10, 30, 180)], faces=[1, 1])
    play(game, "fire s1t1 gun n1t1", "resolve n1t1")
    reason = legal(game, "fire s1t2 gun n1t1")
    assert reason is not None and "declared before any is resolved" in reason


def test_declared_fire_resolves_at_the_end_of_the_phase() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 30, 180)], faces=[1, 1])
    events = play(game, "fire s1t1 gun n1t1", "end")
    assert sum(e.roll is not None for e in events) == 1


def test_anti_infantry_hits_add_up_over_the_phase_for_one_check() -> None:
    """Two Soviet tanks each hit once (6 at −1 AI rating); no saves in the open; the NATO
    infantry checks once at −1 for the second hit: 4 − 1 = 3 fails at 4+."""
    game = position(
        [At("s1t1", 10, 10), At("s1t2", 12, 10), At("n1i1", 10, 20)],
        faces=[6, 1, 6, 1, 4],
    )
    events = play(game, "fire s1t1 gun n1i1", "fire s1t2 gun n1i1", "resolve n1i1")
    rolls = [e.roll for e in events if e.roll is not None]
    check = rolls[-1]
    assert check.request.modifiers == (("additional hits", -1),)
    assert not stand(game, "n1i1").alive


def test_penetration_checks_are_one_per_firing_phase() -> None:
    """Two tanks both roll a 4-5 on penetration: one quality check, not two."""
    game = position(
        [At("n1t1", 10, 40, 180), At("n1t2", 12, 40, 180), At("s1t1", 10, 20)],
        mover="blue",
        faces=[6, 1, 1, 4, 1, 1, 1, 1, 1, 6, 1, 1, 4, 1, 6],
    )
    events = play(game, "fire n1t1 gun s1t1", "fire n1t2 gun s1t1", "resolve s1t1")
    checks = [e.roll for e in events if e.roll and e.roll.request.label.startswith("quality")]
    assert len(checks) == 1 and stand(game, "s1t1").alive


def test_a_passed_check_from_fire_ignores_further_checks_that_turn() -> None:
    """Red's fire phase: one hit on the NATO infantry, which passes its check (4). Red's
    other tank takes overwatch; in blue's half of the same turn the infantry moves, is hit
    again by overwatch fire, and takes no second check."""
    game = position(
        [At("s1t1", 10, 10), At("s1t2", 12, 10), At("n1i1", 10, 20), At("n1t1", 11, 21)],
        faces=[6, 1, 4, 6, 1],
    )
    play(game, "fire s1t1 gun n1i1", "resolve n1i1", "overwatch s1t2", "end")
    assert stand(game, "n1i1").fire_checked and game.state.turn == 1
    events = play(game, "move n1i1 10,22", "owfire s1t2 gun 1")
    assert any("has taken its check from enemy fire this turn" in t for t in texts(events))
    assert stand(game, "n1i1").alive


def test_fire_from_behind_strikes_flank_armour() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 20, 0)], faces=[6, 1, 1] + [1] * 10)
    events = play(game, "fire s1t1 gun n1t1", "resolve n1t1")
    assert any("flank armour" in (e.roll.request.label if e.roll else "") for e in events)


def test_fire_from_the_front_arc_strikes_front_armour() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 20, 180)], faces=[6, 1, 1, 1, 1])
    events = play(game, "fire s1t1 gun n1t1", "resolve n1t1")
    assert any("front armour" in (e.roll.request.label if e.roll else "") for e in events)


def test_targets_beyond_long_range_cannot_be_attacked() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 36, 180)])  # 24.75" > 16 x 1.5
    reason = legal(game, "fire s1t1 gun n1t1")
    assert reason is not None and "beyond long range" in reason


def test_missiles_have_a_single_range() -> None:
    game = position([At("s1v1", 10, 10), At("n1t1", 10, 42.5, 180)])  # 31.25" > 30"
    reason = legal(game, "fire s1v1 missile n1t1")
    assert reason is not None and "30" in reason


def test_difficult_terrain_blocks_sight_but_its_edge_sees_and_is_seen() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 32, 180)], terrain=[TOWN])
    reason = legal(game, "fire s1t1 gun n1t1")
    assert reason is not None and "line of sight" in reason
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 21, 180)], terrain=[TOWN])
    assert legal(game, "fire s1t1 gun n1t1") is None  # 1" into the town: at its edge


def test_targets_in_difficult_terrain_make_terrain_saves() -> None:
    game = position(
        [At("s1t1", 10, 10), At("n1t1", 10, 21, 180)], terrain=[TOWN], faces=[6, 6, 5, 5]
    )
    events = play(game, "fire s1t1 gun n1t1", "resolve n1t1")
    labels = [e.roll.request.label for e in events if e.roll]
    assert labels[1].startswith("terrain save")
    assert stand(game, "n1t1").alive  # both hits saved


def test_weapons_against_the_wrong_kind_of_target_are_refused() -> None:
    game = position([At("s1i1", 10, 10), At("n1i1", 10, 12), At("n1t1", 12, 12, 180)])
    reason = legal(game, "fire s1i1 law n1i1")
    assert reason is not None and "tanks and IFVs" in reason
    reason = legal(game, "fire s1i1 ai n1t1")
    assert reason is not None and "is a vehicle" in reason
