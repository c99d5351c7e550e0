"""4.0-4.1, 4.4-4.5 Ranged combat through the game: who may fire by his action, the front
arc, sight through woods and buildings, aimed fire, additional targets, the modifiers that
reach the roll, criticals (kill, double damage, misfire, jams and the unjam action), and the
damage against STR."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.tftww2.position import (
    attribute_mods,
    dice_left,
    done,
    man,
    only_roll,
    position,
    rect,
    rolls,
    script,
    texts,
    three,
    where,
)
from warbench.core.actions import Action
from warbench.core.dice import Roll
from warbench.core.geometry import bearing
from warbench.rulesets.tftww2.actions import (
    AimAt,
    ChangePosition,
    ChargeAt,
    CloseCombat,
    Fire,
    Flee,
    Manipulate,
    Pivot,
    Run,
    Walk,
)
from warbench.rulesets.tftww2.game import TFTGame


def shot_limit(order: str, shots: int) -> str:
    """Why r1, who has fired all his `shots` after `order`, may fire no more."""
    noun = "shot" if shots == 1 else "shots"
    return f"r1 ({order}) may fire {shots} {noun} this turn and has fired {shots}"


def duel(*blue: dict[str, Any], weapon: str = "Rifle", **kw: Any) -> TFTGame:
    """r1 (DEX 12) at 10,10 facing north; r2 far off; the blue men given."""
    red = [man(10, 10, weapon=weapon, close="Bayonet/Knife"), man(46, 2, facing=90)]
    return position(red, list(blue), **kw)


def r2_covers(game: TFTGame, target: str) -> None:
    """r2 pivots to face `target`, so that red has someone to shoot and a ranged step."""
    r2, man_ = game.state.men["r2"], game.state.men[target]
    game.apply(Pivot("r2", round(bearing((r2.x, r2.y), (man_.x, man_.y)), 1)))


def fire(game: TFTGame, target: str, total: int, *damage: int, man_id: str = "r1") -> Roll:
    """r1 fires at `target`: the to-hit roll of natural `total`, then `damage` faces."""
    script(game, *three(total), *damage)
    events = game.apply(Fire(man_id, target))
    assert dice_left(game) == 0
    return only_roll(events, f"to hit: {man_id}")


# -- who may fire --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "label", "shots"),
    [
        (Walk("r1", (10.0, 32.0), 0.0), "walk", 1),  # one snap shot
        (Pivot("r1", 0.0), "pivot", 2),  # the pistol's 2 shots a round
        (AimAt("r1", "b1"), "aim", 2),
        (Run("r1", 2.0, 0.0), "run", 0),
        (ChargeAt("r1", "b1"), "charge", 0),
        (Flee("r1"), "flee", 0),
        (ChangePosition("r1"), "position", 0),
        (Manipulate("r1"), "unjam", 0),
        (CloseCombat("r1"), "fight", 0),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_who_may_fire_goes_by_his_action(order: Action, label: str, shots: int) -> None:
    game = position(
        [man(10, 30, weapon="Pistol", close="Bayonet/Knife"), man(20, 30)],
        [man(10, 38, facing=180)],
    )
    if label == "unjam":
        game.state.men["r1"].jam = 1
        script(game, *three(14))  # stays jammed
    game.apply(order)
    game.apply(Pivot("r2", 0.0))  # r2 can shoot b1: the ranged step is played
    assert where(game)[2] == "ranged"
    for fired in range(shots):
        assert game.check(Fire("r1", "b1")) is None
        fire(game, "b1", 16)  # a misfire: a miss whatever the modifiers
        assert game.state.men["r1"].shots == fired + 1
    assert game.check(Fire("r1", "b1")) == shot_limit(label, shots)


def test_no_snap_shot_with_a_machine_gun() -> None:
    game = duel(man(10, 30, facing=180), weapon="LMG")
    r2_covers(game, "b1")
    game.apply(Walk("r1", (10.0, 12.0), 0.0))
    assert game.check(Fire("r1", "b1")) == shot_limit("walk", 0)


def test_a_man_fires_only_into_his_front_arc() -> None:
    game = duel(man(20, 10, facing=270), man(30, 9.65, facing=270))
    done(game)
    assert game.check(Fire("r1", "b1")) is None  # 90° off: the edge of the front half
    assert game.check(Fire("r1", "b2")) == (
        "b2 is 91° off r1's facing; he fires into his front 180° (pivot to face him)"
    )


@pytest.mark.parametrize(
    ("target", "seen"),
    [
        ((10, 16.5), True),  # 1.5" into the woods
        ((10, 17.5), False),  # 2.5" into the woods
        ((10, 26), False),  # beyond the woods
        ((30, 16.5), True),  # 1.5" inside the house: at a window
        ((30, 18), False),  # 3" inside
        ((30, 26), False),  # behind the house
    ],
)
def test_sight_is_blocked_beyond_2_inches_of_woods_and_by_buildings(
    target: tuple[float, float], seen: bool
) -> None:
    game = position(
        [man(10, 10), man(30, 10)],
        [man(*target, facing=180)],
        terrain=[
            rect("woods", 0, 15, 20, 25, name="wood"),
            rect("building", 25, 15, 35, 25, name="house"),
        ],
    )
    game.apply(Pivot("r1", 0.0))
    game.state.men["r2"].action = "pivot"
    game.state.phase = "ranged"
    shooter = "r1" if target[0] == 10 else "r2"
    expected = None if seen else f"{shooter} cannot see b1"
    reason = game.check(Fire(shooter, "b1"))
    # a man inside a building is in full cover: seen, but not to be shot at (4.1 NP)
    if seen and target[0] == 30:
        assert reason is not None and "full hard cover" in reason
    else:
        assert reason == expected


def test_an_aimed_man_fires_only_at_his_target() -> None:
    game = duel(man(10, 20, facing=180), man(12, 20, facing=180), weapon="Pistol")
    game.apply(AimAt("r1", "b1"))
    game.apply(Pivot("r2", 90.0))
    assert game.check(Fire("r1", "b2")) == "r1 aimed at b1 and may fire only at him"
    roll = fire(game, "b1", 16)
    assert attribute_mods(roll)["aimed shot"] == 4


def test_further_targets_must_be_within_4_inches_of_the_previous() -> None:
    game = duel(
        man(10, 20, facing=180),
        man(13, 20, facing=180),
        man(19, 20, facing=180),  # 8" from b1 and 5" from b2, base edge to base edge
        weapon="SMG",
    )
    done(game)
    first = fire(game, "b1", 14)
    assert "additional target" not in attribute_mods(first)
    assert game.check(Fire("r1", "b3")) == (
        'an additional target must be within 4" of the previous target (this one is 8")'
    )
    second = fire(game, "b2", 14)
    assert attribute_mods(second) == {
        "additional auto weapon target": -2,
        "additional target": -2,
    }
    assert game.check(Fire("r1", "b3")) == (
        'an additional target must be within 4" of the previous target (this one is 5")'
    )
    third = fire(game, "b2", 14)  # the same target again is no additional target
    assert attribute_mods(third) == {}


def test_a_pistol_may_shift_to_a_further_target_without_the_auto_penalty() -> None:
    game = duel(man(10, 20, facing=180), man(13, 20, facing=180), weapon="Pistol")
    done(game)
    fire(game, "b1", 14)
    assert attribute_mods(fire(game, "b2", 14)) == {"additional target": -2}


def test_a_rifle_fires_once_so_no_further_target() -> None:
    game = duel(man(10, 20, facing=180), man(13, 20, facing=180))
    done(game)
    fire(game, "b1", 14)
    assert game.check(Fire("r1", "b2")) == shot_limit("pivot", 1)


# -- the modifiers that reach the roll --------------------------------------------------------

HEDGE = rect("hedge", 0, 20, 20, 21, name="hedge")
WALL = rect("wall", 0, 20, 20, 21, name="wall")


@pytest.mark.parametrize(
    ("target", "terrain", "setup", "expected"),  # natural 13 against DEX 12 + the modifiers
    [
        ((10, 22), [], {}, {}),
        ((10, 15), [], {}, {'short range (within 6")': 3}),
        ((10, 45), [], {}, {'extreme range (beyond 30")': -6}),
        ((10, 22), [], {"moved": 6.5}, {"target moved fast": -2}),
        ((10, 22), [], {"moved": 6.0}, {}),
        ((10, 22), [], {"stance": "prone"}, {"target prone": -3}),
        ((10, 22), [HEDGE], {}, {"target in soft cover": -2}),
        ((10, 22), [WALL], {}, {"target in hard cover": -4}),
        (
            (10, 22),
            [HEDGE],
            {"stance": "prone"},
            {"target prone": -3, "target in full soft cover": -6},
        ),
        (
            (10, 22),
            [WALL],
            {"stance": "prone", "fired_last_round": True},
            {"target prone": -3, "target in hard cover": -4},
        ),
    ],
    ids=[
        "open",
        "short",
        "extreme",
        "moved-fast",
        "moved-6",
        "prone",
        "soft",
        "hard",
        "full-soft",
        "full-hard-but-shot-last-round",
    ],
)
def test_the_ranged_modifiers_reach_the_roll_and_its_explanation(
    target: tuple[float, float],
    terrain: list[dict[str, Any]],
    setup: dict[str, Any],
    expected: dict[str, int],
) -> None:
    game = duel(man(*target, facing=180), terrain=terrain)
    b1 = game.state.men["b1"]
    for field, value in setup.items():
        setattr(b1, field, value)
    done(game)
    needed = 12 + sum(expected.values())
    roll = fire(game, "b1", 13, *([1, 1, 1, 1] if needed >= 13 else []))
    assert attribute_mods(roll) == expected
    assert roll.request.label == "to hit: r1 Rifle → b1 [DEX 12]"
    text = roll.explain()
    for reason, value in expected.items():
        assert f"{reason} ({value:+d} DEX)" in text
    assert roll.success is (needed >= 13)


def test_a_man_in_full_hard_cover_who_did_not_shoot_cannot_be_shot_at() -> None:
    game = duel(man(10, 22, facing=180), man(30, 40), terrain=[WALL])
    game.state.men["b1"].stance = "prone"
    done(game)  # r1 could shoot b2 in the open
    assert game.check(Fire("r1", "b1")) == (
        "the target is in full hard cover and did not shoot last round: it cannot be shot at (NP)"
    )


def test_full_cover_is_lost_for_the_round_after_the_man_shoots() -> None:
    # b2 stands in the open far off so that red always has a ranged step
    game = duel(man(10, 22, facing=180), man(30, 40), terrain=[WALL], first="blue")
    game.state.men["b1"].stance = "prone"
    done(game)  # blue's round 1: b1 fires from behind the wall
    fire(game, "r1", 14, man_id="b1")
    done(game)
    done(game)  # red's round 1
    assert where(game) == (1, "red", "ranged", "red")
    assert attribute_mods(fire(game, "b1", 14)) == {
        "target prone": -3,
        "target in hard cover": -4,
    }
    done(game)
    done(game, 2)  # blue's round 2: b1 holds his fire
    done(game)
    assert where(game) == (2, "red", "ranged", "red")
    assert game.check(Fire("r1", "b1")) is None  # he shot in the previous round
    done(game)
    done(game, 2)  # blue's round 3: still no shot
    done(game)
    assert where(game) == (3, "red", "ranged", "red")
    assert game.check(Fire("r1", "b1")) == (
        "the target is in full hard cover and did not shoot last round: it cannot be shot at (NP)"
    )


def test_a_man_who_ran_more_than_6_inches_is_hard_to_hit() -> None:
    game = duel(man(30, 14, facing=270), first="blue")
    game.apply(Run("b1", 7.0, 180.0))
    assert where(game) == (1, "red", "orders", "red")
    done(game)
    roll = fire(game, "b1", 11)
    assert attribute_mods(roll) == {"target moved fast": -2}


@pytest.mark.parametrize(
    ("weapon", "penalty"), [("Rifle", -6), ("Pistol", -2), ("SMG", -2), ("Automatic Rifle", -4)]
)
def test_a_walking_man_takes_his_weapons_snap_shot_penalty(weapon: str, penalty: int) -> None:
    game = duel(man(10, 24, facing=180), weapon=weapon)
    r2_covers(game, "b1")
    game.apply(Walk("r1", (10.0, 12.0), 0.0))
    roll = fire(game, "b1", 11)
    assert attribute_mods(roll) == {f"snap shot ({weapon})": penalty}
    assert roll.total == 11 - penalty and roll.success is False


@pytest.mark.parametrize(("total", "hit"), [(12, True), (13, False)])
def test_a_hit_is_3d6_at_most_the_modified_dex(total: int, hit: bool) -> None:
    game = duel(man(10, 22, facing=180))
    done(game)
    damage = [1, 1, 1, 1] if hit else []
    events_before = len(game.log)
    fire(game, "b1", total, *damage)
    new = texts(game.log[events_before:])
    assert ("r1 misses b1" in new) is not hit
    assert game.state.men["b1"].wounded is hit


# -- criticals ------------------------------------------------------------------------------


def far_prone_in_cover() -> TFTGame:
    """b1 prone in soft cover at extreme range: DEX 12 - 6 - 3 - 6 = -3, out of reach."""
    game = duel(man(10, 45, facing=180), terrain=[rect("hedge", 0, 43, 20, 44)])
    game.state.men["b1"].stance = "prone"
    done(game)
    return game


def test_critical_5_is_a_hit_whatever_was_needed() -> None:
    game = far_prone_in_cover()
    roll = fire(game, "b1", 5, 1, 1, 1, 2)  # 5 damage: wounded
    assert roll.success and roll.forced == "natural 5 always succeeds"
    assert game.state.men["b1"].wounded


def test_critical_4_doubles_the_damage() -> None:
    game = far_prone_in_cover()
    script(game, *three(4), 1, 1, 1, 1)
    events = game.apply(Fire("r1", "b1"))
    assert "to hit: r1 Rifle → b1: natural 4, critical hit, double damage" in texts(events)
    assert "damage: r1 → b1 (4d6): 1+1+1+1 = 4, doubled = 8" in texts(events)
    assert game.state.men["b1"].status == "incapacitated"  # 8 is over half STR 12


def test_critical_3_kills_outright_without_a_damage_roll() -> None:
    game = far_prone_in_cover()
    script(game, *three(3))
    events = game.apply(Fire("r1", "b1"))
    assert game.state.men["b1"].status == "dead"
    assert "b1 is killed instantly (critical 3)" in texts(events)
    assert len(rolls(events)) == 1


@pytest.mark.parametrize(("total", "jam"), [(16, 0), (17, 1), (18, 2)])
def test_critical_failures_misfire_or_jam_whatever_was_needed(total: int, jam: int) -> None:
    game = duel(man(10, 14, facing=180))  # short range, aimed: DEX 12 + 3 + 4 = 19
    r2_covers(game, "b1")
    game.apply(AimAt("r1", "b1"))
    roll = fire(game, "b1", total)
    assert roll.total <= 12  # the modified roll would have hit
    assert roll.success is False and roll.forced == f"natural {total} always fails"
    assert game.state.men["r1"].jam == jam
    assert not game.state.men["b1"].wounded


def test_a_jammed_weapon_fires_no_more_until_an_unjam_action_clears_it() -> None:
    game = duel(man(10, 20), weapon="SMG")  # b1 faces away: blue never shoots
    done(game)
    fire(game, "b1", 17)
    assert game.check(Fire("r1", "b1")) == "r1's SMG is jammed (unjam r1 next turn)"
    done(game, 2)  # red's ranged step; blue's orders
    assert where(game) == (2, "red", "orders", "red")
    r2_covers(game, "b1")
    game.apply(Pivot("r1", 0.0))
    assert game.check(Fire("r1", "b1")) == "r1's SMG is jammed (unjam r1 next turn)"
    done(game, 2)
    assert where(game) == (3, "red", "orders", "red")
    script(game, *three(10))  # INT 10: cleared
    events = game.apply(Manipulate("r1"))
    assert "r1 clears his SMG" in texts(events)
    game.apply(Pivot("r2", 90.0))  # nobody may fire: r1 spent his turn on the jam
    done(game)
    assert where(game) == (4, "red", "orders", "red")
    game.apply(Pivot("r2", 90.0))
    game.apply(Pivot("r1", 0.0))
    assert game.check(Fire("r1", "b1")) is None


# -- damage against STR (4.5) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "effect"),
    [
        ((1, 1, 1, 3), "wounded"),  # 6: up to half STR 12
        ((1, 1, 1, 4), "incapacitated"),  # 7
        ((3, 3, 3, 3), "incapacitated"),  # 12: up to STR
        ((4, 3, 3, 3), "dead"),  # 13: more than STR
    ],
)
def test_damage_is_compared_with_str(faces: tuple[int, ...], effect: str) -> None:
    game = duel(man(10, 22, facing=180))
    done(game)
    fire(game, "b1", 10, *faces)
    b1 = game.state.men["b1"]
    if effect == "wounded":
        assert (b1.status, b1.wounded) == ("ok", True)
    else:
        assert b1.status == effect


@pytest.mark.parametrize(
    ("faces", "status"),
    [
        ((1, 1), "incapacitated"),  # 2: up to half his STR 6, a second wound
        ((3, 3), "incapacitated"),  # 6: up to his STR 6
        ((3, 4), "dead"),  # 7: more than STR 6 (an unwounded man would live)
    ],
)
def test_a_wounded_man_has_half_str_and_a_second_wound_incapacitates(
    faces: tuple[int, int], status: str
) -> None:
    game = duel(man(10, 22, facing=180), weapon="Pistol")
    game.state.men["b1"].wounded = True
    done(game)
    fire(game, "b1", 10, *faces)
    assert game.state.men["b1"].status == status


@pytest.mark.parametrize(
    ("faces", "wounded", "text"),
    [
        (
            (1, 1, 1, 3),
            False,
            "b1 is wounded: his attributes are halved (damage 6 against STR 12: up to half STR)",
        ),
        (
            (1, 1, 1, 4),
            False,
            "b1 is incapacitated (damage 7 against STR 12: over half STR, up to STR)",
        ),
        ((4, 3, 3, 3), False, "b1 is dead (damage 13 against STR 12: more than STR)"),
        (
            (1, 1),
            True,
            "b1 is incapacitated (damage 2 against STR 6: up to half STR, and he "
            "was already wounded)",
        ),
    ],
)
def test_the_log_reads_the_damage_against_str(
    faces: tuple[int, ...], wounded: bool, text: str
) -> None:
    """The log said only "r8 is dead" after the damage roll: now the line of 4.5 applied."""
    game = duel(man(10, 22, facing=180), weapon="Pistol" if wounded else "Rifle")
    game.state.men["b1"].wounded = wounded
    done(game)
    script(game, *three(10), *faces)
    assert text in texts(game.apply(Fire("r1", "b1")))


def test_a_wounded_man_shoots_with_half_dex() -> None:
    game = duel(man(10, 22, facing=180))
    game.state.men["r1"].wounded = True
    done(game)
    roll = fire(game, "b1", 7)
    assert roll.request.label == "to hit: r1 Rifle → b1 [DEX 6]"
    assert roll.success is False


def test_short_range_is_measured_base_edge_to_base_edge() -> None:
    game = duel(man(10, 16.8, facing=180))
    done(game)
    roll = fire(game, "b1", 16)
    assert attribute_mods(roll) == {'short range (within 6")': 3}


def test_extreme_range_goes_out_to_three_times_the_effective_range() -> None:
    game = duel(man(10, 47.5, facing=180), man(12, 45, facing=180), weapon="Pistol")
    done(game)
    assert game.check(Fire("r1", "b1")) == 'b1 is 36.5" away, beyond 3x the Pistol\'s 12"'
    roll = fire(game, "b2", 14)
    assert attribute_mods(roll) == {'extreme range (beyond 12")': -6}
