"""5.0's air, flame and rocket attacks through the game (ours in 6.1's form, ruling I12):
a flame thrower thrown on its carrier's DEX within 6", a bomb run and a rocket battery
called by a radio CO; each makes the squads it touches test morale at -4, as artillery
makes them test without it, and grenades neither (rulings M2, I12)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.tftww2.position import (
    attribute_mods,
    dice_left,
    done,
    man,
    new_game,
    only_roll,
    rolls,
    scenario,
    script,
    squad,
    three,
)
from warbench.core.events import Event
from warbench.rulesets.tftww2.actions import Bombard, Pivot
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.indirect import indirect_weapon

FLAME: dict[str, Any] = {"weapon": "Pistol", "close": "Bayonet/Knife", "support": "flame_thrower"}
AIR_FLAME_ROCKET = "under air, flame or rocket attack"


def flamer(target_at: tuple[float, float] = (22.0, 25.0)) -> TFTGame:
    """r1 (DEX 12) with a flame thrower at 22,20 facing north; a blue squad of three."""
    blue = [man(*target_at, rank="NCO"), man(40, 44), man(44, 44)]
    return new_game(scenario([squad(man(22, 20, **FLAME), name="red")], [squad(*blue, name="b")]))


def support(kind: str) -> TFTGame:
    """r1 a radio CO at 10,10 with one mission of `kind`; a blue squad of three at 26,30."""
    blue = [man(26, 30, rank="NCO"), man(26, 31.5), man(44, 46)]
    return new_game(
        scenario(
            [squad(man(10, 10, rank="CO", radio=True), name="hq")],
            [squad(*blue, name="b")],
            red_artillery=kind,
            red_missions=1,
        )
    )


def act(game: TFTGame, action: Bombard, *faces: int) -> list[Event]:
    script(game, *faces)
    events = game.apply(action)
    assert dice_left(game) == 0
    return events


def morale_roll(game: TFTGame, *faces: int) -> dict[str, int]:
    """End red's turn with these dice for blue's morale check: its modifiers."""
    script(game, *faces)
    return attribute_mods(only_roll(done(game), "morale: b"))


def test_the_flame_thrower_and_rockets_are_ours_in_table_6_1s_form() -> None:
    flame, rockets = indirect_weapon("flame_thrower"), indirect_weapon("rockets")
    assert (flame.row, flame.thrown, flame.reach, flame.attack) == (None, True, 6, "flame")
    assert (rockets.row, rockets.table, rockets.scatter, rockets.attack) == (
        None,
        "off",
        "bomb",
        "rocket",
    )
    assert [indirect_weapon(k).attack for k in ("light_bomb", "medium_bomb", "heavy_bomb")] == [
        "air"
    ] * 3
    assert indirect_weapon("light_artillery").attack == "artillery"
    assert indirect_weapon("grenade").attack == "grenade"


def test_a_flame_thrower_reaches_6_inches() -> None:
    game = flamer()
    game.apply(Pivot("r1", 0.0))
    assert game.check(Bombard("r1", (22.0, 26.0))) is None
    assert game.check(Bombard("r1", (22.0, 26.5))) == (
        'r1\'s Flame Thrower reaches 6"; that point is 6.5" away'
    )


def test_a_flame_attack_is_thrown_on_dex_and_tests_morale_at_minus_4() -> None:
    game = flamer()
    game.apply(Pivot("r1", 0.0))
    # DEX 12: 12 hits; 4d6 on b1 under the 1" template (b2, b3 are far away)
    events = act(game, Bombard("r1", (22.0, 25.0)), *three(12), 1, 1, 1, 1)
    roll = only_roll(events, "Flame Thrower: r1 → 22,25 (skill")
    assert roll.request.label == "Flame Thrower: r1 → 22,25 (skill 12)"
    assert game.state.men["b1"].under_fire and not game.state.men["b2"].under_fire
    squad = game.state.squads["bs1"]
    assert (squad.area_attack, squad.air_flame_rocket) == (True, True)
    assert morale_roll(game, *three(3)) == {AIR_FLAME_ROCKET: -4}


def test_a_flame_throwers_18_goes_up_in_his_hands() -> None:
    game = flamer()
    game.apply(Pivot("r1", 0.0))
    events = act(game, Bombard("r1", (22.0, 25.0)), *three(18), 6, 6, 6, 6)
    assert any("explodes in hand" in e.text for e in events)
    assert game.state.men["r1"].status == "dead"  # 24 against STR 12
    assert game.state.men["b1"].status == "ok"


@pytest.mark.parametrize(
    ("kind", "name", "dice"),
    [("light_bomb", "Lgt Bomb (250lbs)", 6), ("rockets", "Rockets (ours)", 7)],
)
def test_a_bomb_run_or_a_rocket_salvo_tests_morale_at_minus_4(
    kind: str, name: str, dice: int
) -> None:
    game = support(kind)
    done(game)
    # INT 14: a hit; the template (radius 5 or 6) covers b1 and b2, not b3
    events = act(game, Bombard("r1", (26.0, 30.0)), *three(14), *[1] * dice * 2)
    assert only_roll(events, f"{name}: r1 → 26,30 (skill").success
    assert game.state.missions["red"] == 0
    squad = game.state.squads["bs1"]
    assert (squad.area_attack, squad.air_flame_rocket) == (True, True)
    assert morale_roll(game, *three(3))[AIR_FLAME_ROCKET] == -4


@pytest.mark.parametrize(("kind", "scatter_dice"), [("light_bomb", 4), ("rockets", 4)])
def test_bombs_and_rockets_scatter_4d6(kind: str, scatter_dice: int) -> None:
    game = support(kind)
    done(game)
    # INT 14: a 15 misses; the scatter's direction (d6) and distance, then nobody is touched
    events = act(game, Bombard("r1", (26.0, 30.0)), *three(15), 1, *[6] * scatter_dice)
    [distance] = [r for r in rolls(events, "") if "distance" in r.request.label]
    assert len(distance.faces) == scatter_dice


def test_artillery_tests_morale_without_the_minus_4() -> None:
    game = support("light_artillery")
    done(game)
    act(game, Bombard("r1", (26.0, 30.0)), *three(14), *[1] * 12)
    squad = game.state.squads["bs1"]
    assert (squad.area_attack, squad.air_flame_rocket) == (True, False)
    assert AIR_FLAME_ROCKET not in morale_roll(game, *three(3))


def test_the_minus_4_lasts_the_round_it_came_in() -> None:
    game = support("rockets")
    done(game)
    act(game, Bombard("r1", (26.0, 30.0)), *three(14), *[1] * 14)
    script(game, *three(3))
    done(game, 3)  # blue's check, then blue's turn passes: the round ends
    assert not game.state.squads["bs1"].air_flame_rocket


def test_a_flame_throwers_fuel_lasts_three_bursts() -> None:
    # ruling I13 (ours): three bursts, a critical failure's included; then it is empty
    game = flamer(target_at=(40.0, 40.0))  # b1 out of the 1" template: no damage dice
    assert game.state.men["r1"].support_shots == 3
    for left in (2, 1, 0):
        while game.state.side != "red" or game.state.phase != "orders":
            done(game)
        game.apply(Pivot("r1", 0.0))
        faces = [*three(16), 1, 1] if left == 0 else three(12)  # a 16 misses and scatters 1"
        act(game, Bombard("r1", (22.0, 25.0)), *faces)
        assert game.state.men["r1"].support_shots == left
    while game.state.side != "red" or game.state.phase != "orders":
        done(game)
    game.apply(Pivot("r1", 0.0))
    assert game.check(Bombard("r1", (22.0, 25.0))) == ("r1's Flame Thrower is empty (ruling I13)")


def test_fire_called_off_the_table_names_the_table_and_where_a_point_may_lie() -> None:
    game = support("light_artillery")
    game.apply(Pivot("r1", 270.0))
    assert game.check(Bombard("r1", (-0.5, 10.0))) == (
        '-0.5,10 is off the 48"x48" table; a point fired at must lie within x 0.5 to 47.5'
        " and y 0.5 to 47.5"
    )
