"""SPECIAL MOVES (optional): Pushing; Jumping and Falling on terrain with height, Strider's
and Flying's jumping parts, pushing off heights, and melee's 4" vertical reach."""

from __future__ import annotations

from typing import Any

import pytest

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
    square,
    unit,
)
from warbench.core.dice import SeededDice
from warbench.rulesets.gff import jumping
from warbench.rulesets.gff.battlefield import Battlefield, elevation, generate_battlefield
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.melee import strikers
from warbench.rulesets.gff.profiles import UnitProfile

JUMPING = {"jumping": True}
PLATFORM = square(10, 10, 16, 16, "platform", height=5)  # 5" up
NEXT_DOOR = square(18, 10, 24, 16, "platform", height=5)  # 2" gap east of PLATFORM
CLOSE_BY = square(16.8, 10, 24, 16, "platform", height=5)  # 0.8" gap
TOWER = square(10, 10, 16, 16, "platform", height=7)  # too high to drop off
LEDGE = square(10, 10, 16, 16, "platform", height=3)  # dropped as regular movement
FAR = {"b1": (40.0, 44.0)}


def field(*pieces: dict[str, Any]) -> Battlefield:
    return Battlefield.from_data(list(pieces))


def game_at(
    prof: UnitProfile,
    where: tuple[float, float] | list[tuple[float, float]],
    terrain: list[dict[str, Any]],
    dice: list[int],
    switches: dict[str, bool] | None = None,
) -> GFFGame:
    """Red's unit r1 at `where` (blue far away), red to activate."""
    return position(
        [prof],
        [profile("Far")],
        {"r1": where, **FAR},
        dice=dice,
        terrain=terrain,
        switches=JUMPING if switches is None else switches,
    )


# --- pushing -------------------------------------------------------------------------------------


def test_pushing_moves_a_shaken_model_2_inches_away_on_a_4_plus() -> None:
    """Hit (4), Defense 1 fails, wound effects 1 + 1 → Shaken, push roll 4: 2" away from the
    attacker's nearest model (ruling GFF-R10)."""
    game = position(
        [profile(weapons=[gun()])],
        [profile("Target")],
        {"r1": (13.0, 2.0), "b1": (13.0, 15.5)},
        dice=[4, 1, 1, 4],
        switches={"pushing": True},
    )
    events = play(game, "hold r1", "fire r1 rifle b1")
    b1 = game.state.units["b1"].models[0]
    assert (b1.x, b1.y) == (13.0, 17.5)
    assert rolled(events, "pushing")[0].request.target == 4
    assert script(game).remaining == 0


def test_a_failed_push_roll_leaves_the_model() -> None:
    game = position(
        [profile(weapons=[gun()])],
        [profile("Target")],
        {"r1": (13.0, 2.0), "b1": (13.0, 15.5)},
        dice=[4, 1, 1, 3],
        switches={"pushing": True},
    )
    play(game, "hold r1", "fire r1 rifle b1")
    b1 = game.state.units["b1"].models[0]
    assert (b1.x, b1.y) == (13.0, 15.5)


# --- reading the heights along a move -----------------------------------------------------------


def test_elevation_is_the_height_of_the_piece_under_the_centre() -> None:
    bf = field(PLATFORM, square(30, 30, 36, 36, "building", height=6))
    assert elevation((13, 13), bf) == 5.0
    assert elevation((16, 13), bf) == 5.0  # on the edge
    assert elevation((17, 13), bf) == 0.0
    assert elevation((33, 33), bf) == 0.0  # impassable pieces are not stood on


def test_climbing_up_counts_its_height_toward_the_move() -> None:
    climb = jumping.plan((8, 13), (12, 13), field(PLATFORM))
    assert climb == jumping.Climb(5.0, ())


def test_a_drop_of_up_to_3_inches_is_regular_movement_and_counts() -> None:
    climb = jumping.plan((13, 13), (19, 13), field(LEDGE))
    assert climb == jumping.Climb(3.0, ())


def test_a_drop_of_more_than_3_inches_is_a_jump_of_x_plus_one_dice() -> None:
    climb = jumping.plan((13, 13), (19, 13), field(PLATFORM))
    assert climb.extra == 0.0 and climb.problem is None
    (leap,) = climb.jumps
    assert (leap.kind, leap.span, leap.fall, leap.dice) == ("drop", 5.0, 5.0, 2)
    assert leap.at == pytest.approx(3.0)


def test_a_drop_of_more_than_6_inches_is_not_allowed() -> None:
    climb = jumping.plan((13, 13), (19, 13), field(TOWER))
    assert climb.problem is not None and 'at most 6"' in climb.problem


def test_a_gap_of_1_inch_is_crossed_as_regular_movement() -> None:
    assert jumping.plan((14, 13), (20, 13), field(PLATFORM, CLOSE_BY)) == jumping.Climb(0.0, ())


def test_a_wider_gap_is_jumped_and_its_width_does_not_count() -> None:
    climb = jumping.plan((14, 13), (20, 13), field(PLATFORM, NEXT_DOOR))
    (leap,) = climb.jumps
    assert (leap.kind, leap.dice) == ("gap", 1)
    assert leap.span == pytest.approx(2.0)
    assert climb.extra == pytest.approx(-2.0)


def test_a_gap_over_6_inches_is_climbed_down_and_up() -> None:
    far_side = square(23, 10, 29, 16, "platform", height=5)  # 7" gap
    climb = jumping.plan((14, 13), (26, 13), field(PLATFORM, far_side))
    assert [j.kind for j in climb.jumps] == ["drop"]
    assert climb.extra == pytest.approx(5.0)  # the climb back up


def test_flying_ignores_heights() -> None:
    assert jumping.plan((13, 13), (19, 13), field(TOWER), flying=True) == jumping.Climb(0.0, ())


# --- in play ------------------------------------------------------------------------------------


def test_a_successful_jump_lands_where_the_move_ends() -> None:
    game = game_at(profile(), (13.0, 13.0), [PLATFORM], [3, 4])
    events = play(game, "advance r1 19,13")
    (roll,) = rolled(events, "jumping")
    assert roll.request.dice == 2 and roll.request.target == 3
    model = game.state.units["r1"].models[0]
    assert (model.x, model.y, model.z) == (19.0, 13.0, 0.0)
    assert script(game).remaining == 0


def test_a_failed_jump_falls_takes_a_hit_with_ap_and_ends_the_activation() -> None:
    """5" fall: AP(1); Defense 4 rolls 4 − 1 → wound; wound effects 1 + 1 marker → Shaken."""
    game = game_at(profile(weapons=[gun()]), (13.0, 13.0), [PLATFORM], [3, 1, 4, 1])
    events = play(game, "advance r1 19,13")
    (defense,) = rolled(events, "Defense")
    assert ("AP(1)", -1) in defense.request.modifiers
    r1 = game.state.units["r1"]
    model = r1.models[0]
    assert (model.x, model.y, model.z) == (16.5, 13.0, 0.0)  # at the foot of the drop
    assert r1.shaken and model.wounds == 1
    assert decision(game) == ("blue", "activate")  # no shooting after the fall
    assert script(game).remaining == 0


def test_falling_kills_a_model_of_a_unit_of_several() -> None:
    game = game_at(profile(size=2), [(12.0, 13.0), (13.5, 13.0)], [PLATFORM], [1, 3, 3, 3])
    events = play(game, "advance r1 18,13")
    r1 = game.state.units["r1"]
    assert [m.id for m in r1.models] == ["r1.2"]
    assert any("falls" in e.text and "killed" in e.text for e in events)
    assert not rolled(events, "Defense")
    assert script(game).remaining == 0


def test_strider_passes_jumping_rolls_on_2_plus() -> None:
    game = game_at(profile(rules=["Strider"]), (13.0, 13.0), [PLATFORM], [2, 2])
    events = play(game, "advance r1 19,13")
    (roll,) = rolled(events, "jumping")
    assert roll.request.target == 2 and roll.successes == 2
    assert game.state.units["r1"].models[0].x == 19.0


def test_flying_passes_jumping_automatically() -> None:
    game = game_at(profile(rules=["Flying"]), (13.0, 13.0), [TOWER], [])
    events = play(game, "advance r1 19,13")
    assert not rolled(events, "jumping")
    assert game.state.units["r1"].models[0].x == 19.0


def test_dropping_more_than_6_inches_is_refused() -> None:
    game = game_at(profile(), (13.0, 13.0), [TOWER], [])
    reason = refusal(game, "advance r1 19,13")
    assert reason is not None and 'at most 6"' in reason


def test_climbing_counts_toward_the_move() -> None:
    game = game_at(profile(), (8.0, 13.0), [PLATFORM], [])
    reason = refusal(game, "advance r1 12,13")
    assert reason is not None and '9.00" in all' in reason
    assert refusal(game, "rush r1 12,13") is None
    play(game, "rush r1 12,13")
    assert game.state.units["r1"].models[0].z == 5.0


def test_without_the_switch_heights_are_ignored() -> None:
    game = game_at(profile(), (8.0, 13.0), [PLATFORM], [], switches={})
    assert refusal(game, "advance r1 12,13") is None
    game = game_at(profile(), (13.0, 13.0), [TOWER], [], switches={})
    events = play(game, "advance r1 19,13")
    assert not rolled(events, "jumping")


def test_a_jumped_gap_is_rolled_with_one_die_per_full_3_inches_plus_one() -> None:
    game = game_at(profile(), (14.0, 13.0), [PLATFORM, NEXT_DOOR], [3])
    events = play(game, "advance r1 20,13")
    (roll,) = rolled(events, "jumping")
    assert roll.request.dice == 1
    assert game.state.units["r1"].models[0].z == 5.0


def test_pushed_off_a_height_of_2_inches_or_more_falls() -> None:
    """Hit (4), Defense 1 fails, wound effects 1 + 1 → Shaken, push 4+ moves it 2" north off
    the 5" platform: a fall, 1 hit AP(1), blocked on a 6. The shooter stands on an 8" tower
    (from the ground it could not see onto the far side of the platform: GFF-R29)."""
    game = position(
        [profile(weapons=[gun()])],
        [profile("Target")],
        {"r1": (13.0, 2.0), "b1": (13.0, 15.5)},
        dice=[4, 1, 1, 4, 6],
        terrain=[PLATFORM, square(10, 0, 16, 4, "platform", height=8)],
        switches={"jumping": True, "pushing": True},
    )
    events = play(game, "hold r1", "fire r1 rifle b1")
    b1 = game.state.units["b1"].models[0]
    assert (b1.x, b1.y, b1.z) == (13.0, 17.5, 0.0)
    assert any("pushed off and falls" in e.text for e in events)
    fall_defense = rolled(events, "Defense")[-1]
    assert ("AP(1)", -1) in fall_defense.request.modifiers
    assert script(game).remaining == 0


def test_melee_strikes_reach_4_inches_vertically() -> None:
    attacker = unit("r1", profile(weapons=[blade()]), (10.0, 10.0))
    low = unit("b1", profile(), (11.5, 10.0))
    assert strikers(attacker, low) == [0]
    low.models[0].z = 4.0
    assert strikers(attacker, low) == [0]
    low.models[0].z = 4.5
    assert strikers(attacker, low) == []


def test_platforms_are_generated_only_for_the_jumping_rules() -> None:
    plain = [generate_battlefield(SeededDice(seed)) for seed in range(6)]
    assert not any(p.kind == "platform" for bf in plain for p in bf.pieces)
    jumpy = [generate_battlefield(SeededDice(seed), jumping=True) for seed in range(6)]
    assert any(p.kind == "platform" for bf in jumpy for p in bf.pieces)
