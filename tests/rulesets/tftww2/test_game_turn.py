"""1.0 Turn Sequence through the game: each side in turn gives its orders, then ranged
combat, close combat and the morale check; the first side leads every round; `done` lets
the rest stand fast; the round limit and the victory conditions."""

from __future__ import annotations

import pytest

from tests.rulesets.tftww2.position import (
    done,
    man,
    only_roll,
    play,
    position,
    rect,
    script,
    three,
    where,
)
from warbench.core.game import GameOver, IllegalAction
from warbench.rulesets.tftww2.actions import CloseCombat, Fire, Pivot, Strike, Walk

# Nobody can shoot anybody: each side faces away from the other (front arc, 4.0).
FACING_AWAY = {
    "red": [man(10, 5, facing=180), man(20, 5, facing=180)],
    "blue": [man(10, 40), man(20, 40)],
}


def test_a_turn_goes_orders_ranged_close_morale_then_the_other_side() -> None:
    game = position(
        [man(10, 10, weapon="SMG", close="Bayonet/Knife"), man(30, 10)],
        [man(10, 20, facing=180), man(12, 20, facing=180), man(30, 11, facing=180)],
    )
    seen = [where(game)]
    play(game, Pivot("r1", 0.0), CloseCombat("r2"))
    seen.append(where(game))
    script(game, *three(3), *three(3))  # two critical 3s: b1 and b2 killed outright
    shots = play(game, Fire("r1", "b1"), Fire("r1", "b2"))
    assert [game.state.men[b].status for b in ("b1", "b2")] == ["dead", "dead"]
    assert not [e for e in shots if e.roll and e.roll.request.label.startswith("morale")]
    done(game)
    seen.append(where(game))
    script(game, *three(13))  # r2 misses b3 (DEX 12)
    game.apply(Strike("r2", "b3"))
    script(game, *three(4))  # the blue squad lost two men this round: it checks morale
    end = done(game)
    seen.append(where(game))
    assert seen == [
        (1, "red", "orders", "red"),
        (1, "red", "ranged", "red"),
        (1, "red", "close", "red"),
        (1, "blue", "orders", "blue"),
    ]
    morale = only_roll(end, "morale: blue")
    assert morale.success
    assert game.state.squads["bs1"].fleeing is False


def test_steps_with_nothing_to_do_are_passed_over() -> None:
    game = position(FACING_AWAY["red"], FACING_AWAY["blue"])
    events = done(game)
    assert where(game) == (1, "blue", "orders", "blue")
    assert not [e for e in events if e.roll]


def test_the_first_side_leads_every_round() -> None:
    game = position(FACING_AWAY["red"], FACING_AWAY["blue"], first="blue")
    seen = [where(game)]
    for _ in range(4):
        done(game)
        seen.append(where(game))
    assert [(r, side) for r, side, _, _ in seen] == [
        (1, "blue"),
        (1, "red"),
        (2, "blue"),
        (2, "red"),
        (3, "blue"),
    ]


def test_done_gives_the_men_without_orders_a_stand_fast_pivot() -> None:
    game = position(
        [man(10, 10), man(20, 10, facing=30), man(30, 10, weapon="SMG", close="Bayonet/Knife")],
        [man(20, 30, facing=180)],
    )
    game.apply(Walk("r1", (10.0, 14.0), 0.0))
    assert where(game) == (1, "red", "orders", "red")
    done(game)
    men = game.state.men
    assert [men[m].action for m in ("r1", "r2", "r3")] == ["walk", "pivot", "pivot"]
    assert (men["r2"].x, men["r2"].y, men["r2"].facing) == (20, 10, 30)
    assert where(game) == (1, "red", "ranged", "red")
    # standing fast is a pivot: the SMG man has his weapon's three shots (4.3)
    script(game, *three(14), *three(14), *three(14))
    play(game, *[Fire("r3", "b1")] * 3)
    assert game.check(Fire("r3", "b1")) == "r3 (pivot) may fire 3 shots this turn and has fired 3"


def test_each_man_takes_one_action_a_turn() -> None:
    game = position([man(10, 10), man(20, 10)], [man(10, 40)])
    game.apply(Pivot("r1", 90.0))
    assert game.check(Walk("r1", (10.0, 12.0), 0.0)) == (
        "r1 already has an action this turn; still to order: r2"
    )
    with pytest.raises(IllegalAction, match="already has an action"):
        game.apply(Pivot("r1", 0.0))
    assert game.state.men["r1"].facing == 90


def test_only_the_side_whose_turn_it_is_gives_orders_to_its_own_men() -> None:
    game = position([man(10, 10)], [man(10, 40)])
    assert game.check(Pivot("b1", 0.0)) == "'b1' is not one of your men in the fight; yours: r1"
    assert game.check(Pivot("r1", 0.0), "blue") == (
        "it is red's decision now (red, round 1: give each man an action "
        "(or done: the rest stand fast))"
    )
    assert game.check(Pivot("r1", 0.0), "red") is None


def test_actions_of_another_step_are_refused_with_the_allowed_forms() -> None:
    game = position([man(10, 10)], [man(10, 20, facing=180)])
    reason = game.check(Fire("r1", "b1"))
    assert reason is not None
    assert reason.startswith("now is the orders step; allowed: run MAN DIST FACING, walk MAN TO")
    game.apply(Pivot("r1", 0.0))
    reason = game.check(Walk("r1", (10.0, 12.0), 0.0))
    assert reason is not None
    assert reason.startswith("now is the ranged step; allowed: fire MAN TARGET, throw MAN AT")
    assert reason.endswith(", done")
    assert "walk" not in reason


def test_the_round_limit_ends_the_game_equal_casualties_is_a_draw() -> None:
    game = position(
        FACING_AWAY["red"], FACING_AWAY["blue"], victory={"kind": "casualties", "rounds": 2}
    )
    done(game, 3)
    assert where(game) == (2, "blue", "orders", "blue")
    events = done(game)
    pending = game.pending
    assert isinstance(pending, GameOver)
    assert pending.winner is None
    assert pending.reason == "equal casualties after 2 rounds (casualties: red lost 0, blue lost 0)"
    assert [e.kind for e in events][-1] == "over"
    assert game.check(Pivot("r1", 0.0)) == f"the game is over ({pending.line()})"


def test_more_casualties_inflicted_wins_at_the_round_limit() -> None:
    game = position(
        [man(10, 10), man(30, 10)],
        [man(10, 20, facing=180), man(40, 40)],
        victory={"kind": "casualties", "rounds": 1},
    )
    done(game)
    script(game, *three(3))
    game.apply(Fire("r1", "b1"))
    done(game)  # red's turn ends
    assert where(game) == (1, "blue", "orders", "blue")
    game.apply(Pivot("b2", 0.0))  # b2 faces away: nothing for blue to shoot
    pending = game.pending
    assert isinstance(pending, GameOver)
    assert pending.winner == "red"
    assert pending.reason == (
        "red inflicted more casualties in 1 rounds (casualties: red lost 0, blue lost 1)"
    )
    assert pending.score == {"red": 1.0, "blue": 0.0}


def test_a_side_with_no_men_left_loses_at_once() -> None:
    game = position([man(10, 10), man(12, 10)], [man(10, 20, facing=180)])
    done(game)
    script(game, *three(3))
    game.apply(Fire("r1", "b1"))
    pending = game.pending
    assert isinstance(pending, GameOver)
    assert (pending.winner, pending.reason) == ("red", "blue has no men left in the fight")
    assert game.state.round == 1


HOUSE = rect("building", 20, 20, 28, 28, name="house")


@pytest.mark.parametrize(
    ("red_at", "blue_at", "winner", "reason"),
    [
        ((24, 24), (40, 44), "red", "red took the house"),
        ((24, 24), (22, 22), "blue", "blue held the house"),
        ((4, 4), (40, 44), "blue", "blue held the house"),
    ],
    ids=["attacker-alone-inside", "both-inside", "nobody-inside"],
)
def test_hold_building_goes_to_the_attacker_only_if_he_alone_is_inside(
    red_at: tuple[float, float], blue_at: tuple[float, float], winner: str, reason: str
) -> None:
    game = position(
        [man(*red_at, facing=180)],
        [man(*blue_at, facing=180)] if blue_at[1] > 30 else [man(*blue_at, facing=90)],
        terrain=[HOUSE],
        victory={"kind": "hold_building", "rounds": 1, "building": "house", "defender": "blue"},
    )
    done(game, 2)
    pending = game.pending
    assert isinstance(pending, GameOver)
    assert (pending.winner, pending.reason) == (winner, reason)


def test_the_legal_actions_of_one_unit_are_its_share_of_the_legal_actions() -> None:
    game = position(
        [man(10, 10, weapon="SMG", close="Bayonet/Knife"), man(30, 10)],
        [man(10, 20, facing=180), man(30, 30, facing=180)],
    )
    for phase in ("orders", "ranged"):
        if phase == "ranged":
            play(game, Pivot("r1", 0.0), Pivot("r2", 0.0))
        assert where(game)[2] == phase
        every = game.legal_actions("red")
        for unit in ("r1", "r2"):
            mine = [a for a in every if getattr(a, "man", None) == unit]
            assert game.legal_actions_of(unit) == mine
            assert mine
    assert game.legal_actions_of("b1") == []  # not the side to play
