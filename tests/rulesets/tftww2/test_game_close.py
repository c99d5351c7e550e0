"""4.0, 4.2, 4.4 Close combat through the game: strikes only in base contact and after
Charge, Close combat (fight) or Pivot; charging −3 with double damage; parry by a defender
with a parrying weapon who chose Close combat; after a miss the defender's player decides
on a riposte, which may itself be parried; criticals drop or break the close weapon."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.tftww2.position import (
    dice_left,
    done,
    man,
    only_roll,
    position,
    rolls,
    script,
    texts,
    three,
    where,
)
from warbench.core.actions import Action
from warbench.core.events import Event
from warbench.core.game import Decision, IllegalAction
from warbench.rulesets.tftww2.actions import (
    AimAt,
    ChangePosition,
    ChargeAt,
    CloseCombat,
    Done,
    NoRiposte,
    Pivot,
    Riposte,
    Run,
    Strike,
    Walk,
)
from warbench.rulesets.tftww2.game import TFTGame


def melee(
    red: dict[str, Any] | None = None,
    blue: dict[str, Any] | None = None,
    *,
    blue_action: str | None = "fight",
    gap: float = 0.0,
) -> TFTGame:
    """r1 at 10,10 facing north, b1 facing him `gap` inches off base to base; b1's action
    (chosen in blue's last turn) is `blue_action`."""
    game = position(
        [man(10, 10, **(red or {}))],
        [man(10, 11 + gap, facing=180, **(blue or {}))],
    )
    game.state.men["b1"].action = blue_action
    return game


def strike(game: TFTGame, *faces: int) -> list[Event]:
    """r1 strikes b1 with these dice, all of which must be used (after passing over the
    ranged step, if r1 could shoot)."""
    if game.state.phase == "ranged":
        game.apply(Done())
    script(game, *faces)
    events = game.apply(Strike("r1", "b1"))
    assert dice_left(game) == 0
    return events


def test_a_strike_needs_base_to_base_contact() -> None:
    game = position(
        [man(10, 10), man(30, 10)],
        [man(10, 11.5, facing=180), man(30, 11, facing=180)],
    )
    game.apply(CloseCombat("r1"))
    game.apply(CloseCombat("r2"))
    assert where(game) == (1, "red", "close", "red")
    assert game.check(Strike("r1", "b1")) == "b1 is not in base to base contact with r1"
    assert game.check(Strike("r1", "b2")) == "b2 is not in base to base contact with r1"
    assert game.check(Strike("r2", "b2")) is None


@pytest.mark.parametrize(
    ("order", "allowed"),
    [
        (CloseCombat("r1"), True),
        (Pivot("r1", 0.0), True),
        (Walk("r1", (10.0, 10.0), 0.0), False),
        (AimAt("r1", "b3"), False),
        (ChangePosition("r1"), False),
        (Run("r1", 0.5, 0.0), False),
    ],
    ids=["fight", "pivot", "walk", "aim", "position", "run"],
)
def test_only_charge_fight_or_pivot_allow_close_combat(order: Action, allowed: bool) -> None:
    game = position(
        [man(10, 10), man(30, 10)],
        [man(10, 11.5, facing=180), man(30, 11, facing=180), man(10, 40, facing=180)],
    )
    game.state.men["b1"].y = 11.0 if not isinstance(order, Run) else 11.5
    game.apply(order)
    game.apply(CloseCombat("r2"))
    assert where(game)[2] in ("ranged", "close")
    if where(game)[2] == "ranged":
        game.apply(Done())
    reason = game.check(Strike("r1", "b1"))
    action = game.state.men["r1"].action
    assert reason == (None if allowed else f"r1's action ({action}) allows no close combat")


def test_a_charge_strikes_at_the_end_of_the_turn() -> None:
    game = melee(gap=5.0)
    game.apply(ChargeAt("r1", "b1"))
    assert where(game) == (1, "red", "close", "red")
    assert game.check(Strike("r1", "b1")) is None


def test_one_strike_a_turn() -> None:
    game = melee(blue_action=None)
    game.apply(CloseCombat("r1"))
    strike(game, *three(13))  # a miss; b1 did not choose Close combat: no riposte
    assert where(game) == (1, "red", "close", "red")
    assert game.check(Strike("r1", "b1")) == "r1 has already struck this turn"


@pytest.mark.parametrize(("total", "hit"), [(9, True), (10, False)])
def test_charging_is_minus_3(total: int, hit: bool) -> None:
    game = melee(gap=3.0, blue_action=None)
    game.apply(ChargeAt("r1", "b1"))
    events = strike(game, *three(total), *([2, 2, 1] if hit else []))
    roll = only_roll(events, "close combat: r1 Attached Bayonet → b1")
    assert roll.request.modifiers == (("charging into combat (-3 DEX)", 3),)
    assert roll.success is hit


def test_a_charge_that_hits_does_double_damage() -> None:
    game = melee(gap=3.0, blue_action=None)
    game.apply(ChargeAt("r1", "b1"))
    events = strike(game, *three(9), 2, 2, 1)
    assert "damage: r1 → b1 (3d6): 2+2+1 = 5, doubled = 10" in texts(events)
    assert game.state.men["b1"].status == "incapacitated"


def test_the_same_blow_without_a_charge_does_single_damage() -> None:
    game = melee(blue_action=None)
    game.apply(Pivot("r1", 0.0))
    events = strike(game, *three(9), 2, 2, 1)
    assert "damage: r1 → b1 (3d6): 2+2+1 = 5" in texts(events)
    assert "doubled" not in texts(events)
    assert (game.state.men["b1"].status, game.state.men["b1"].wounded) == ("ok", True)


def test_a_charge_with_a_critical_4_is_doubled_once() -> None:
    game = melee(gap=3.0, blue_action=None)
    game.apply(ChargeAt("r1", "b1"))
    events = strike(game, *three(4), 1, 1, 1)
    assert "damage: r1 → b1 (3d6): 1+1+1 = 3, doubled = 6" in texts(events)
    assert game.state.men["b1"].wounded


@pytest.mark.parametrize(("total", "parried"), [(12, True), (13, False)])
def test_a_defender_who_chose_close_combat_parries_with_a_dex_roll(
    total: int, parried: bool
) -> None:
    game = melee()
    game.apply(Pivot("r1", 0.0))
    events = strike(game, *three(10), *three(total), *([] if parried else [1, 1, 1]))
    assert only_roll(events, "parry: b1").request.label == "parry: b1 [DEX 12]"
    assert ("b1 parries" in texts(events)) is parried
    assert game.state.men["b1"].wounded is not parried
    assert where(game) == (1, "red", "close", "red")  # a parried hit earns no riposte


@pytest.mark.parametrize(
    ("blue", "blue_action"),
    [({"close": "Bayonet/Knife"}, "fight"), ({}, "pivot"), ({}, None)],
    ids=["knife-cannot-parry", "pivot-cannot-parry", "no-action"],
)
def test_no_parry_without_a_parrying_weapon_and_the_close_combat_action(
    blue: dict[str, Any], blue_action: str | None
) -> None:
    game = melee(blue=blue, blue_action=blue_action)
    game.apply(Pivot("r1", 0.0))
    events = strike(game, *three(10), 1, 1, 1)
    assert not rolls(events, "parry")
    assert game.state.men["b1"].wounded


def test_after_a_miss_the_defenders_player_decides_on_a_riposte() -> None:
    game = melee()
    game.apply(Pivot("r1", 0.0))
    strike(game, *three(13))
    assert where(game) == (1, "red", "riposte", "blue")
    pending = game.pending
    assert isinstance(pending, Decision)
    assert (pending.kind, pending.prompt) == (
        "riposte",
        "blue, round 1: b1 was missed: riposte or not",
    )
    assert game.legal_actions("blue") == [Riposte(), NoRiposte()]
    assert game.legal_actions("red") == []
    assert game.check(Done()) == "now is the riposte step; allowed: riposte, no-riposte"
    with pytest.raises(IllegalAction, match="blue's decision"):
        game.apply(Riposte(), "red")


def test_the_riposte_may_be_declined() -> None:
    game = melee()
    game.apply(Pivot("r1", 0.0))
    strike(game, *three(13))
    script(game)
    events = game.apply(NoRiposte(), "blue")
    assert not rolls(events)
    assert where(game) == (1, "red", "close", "red")
    assert not game.state.men["r1"].wounded


def test_the_riposte_strikes_back() -> None:
    game = melee()
    game.apply(Pivot("r1", 0.0))  # a pivot: r1 cannot parry
    strike(game, *three(13))
    script(game, *three(10), 1, 1, 2)
    events = game.apply(Riposte(), "blue")
    assert "b1 ripostes" in texts(events)
    assert only_roll(events, "close combat: b1 Attached Bayonet → r1").success
    assert not rolls(events, "parry")
    assert game.state.men["r1"].wounded
    assert dice_left(game) == 0
    assert where(game) == (1, "red", "close", "red")


def test_the_riposte_may_be_parried_by_an_attacker_who_chose_close_combat() -> None:
    game = melee(blue={"close": "Rifle Butt/Club"})
    game.apply(CloseCombat("r1"))
    strike(game, *three(13))
    script(game, *three(10), *three(12))
    events = game.apply(Riposte(), "blue")
    assert "r1 parries" in texts(events)
    assert not game.state.men["r1"].wounded
    assert dice_left(game) == 0


@pytest.mark.parametrize("blue_action", ["pivot", None])
def test_no_riposte_for_a_defender_who_did_not_choose_close_combat(
    blue_action: str | None,
) -> None:
    game = melee(blue_action=blue_action)
    game.apply(Pivot("r1", 0.0))
    strike(game, *three(13))
    assert where(game) == (1, "red", "close", "red")


def test_a_charger_gets_no_parry_against_the_riposte() -> None:
    game = melee(gap=3.0)
    game.apply(ChargeAt("r1", "b1"))
    strike(game, *three(13))  # 13 + 3 misses
    script(game, *three(10), 1, 1, 2)
    events = game.apply(Riposte(), "blue")
    assert not rolls(events, "parry")
    assert game.state.men["r1"].wounded


def test_a_defender_chooses_close_combat_in_his_own_turn_and_keeps_it_through_the_next() -> None:
    game = position([man(10, 10)], [man(10, 11, facing=180)], first="blue")
    game.apply(CloseCombat("b1"))
    assert where(game) == (1, "blue", "close", "blue")  # b1 could strike r1 now
    done(game)
    assert where(game) == (1, "red", "orders", "red")
    game.apply(Pivot("r1", 0.0))
    strike(game, *three(10), *three(11))  # hit, parried
    assert game.state.men["b1"].action == "fight"
    assert not game.state.men["b1"].wounded


# -- criticals ------------------------------------------------------------------------------


def test_critical_16_is_an_automatic_miss_and_keeps_the_weapon() -> None:
    game = melee(blue_action=None)
    game.apply(Pivot("r1", 0.0))
    events = strike(game, *three(16))
    assert only_roll(events, "close combat: r1").success is False
    assert "close combat: r1 Attached Bayonet → b1: natural 16, automatic miss" in texts(events)
    assert game.state.men["r1"].close_state == "ok"


def test_critical_3_kills_in_close_combat_too() -> None:
    game = position([man(10, 10)], [man(10, 11, facing=180), man(30, 40)])
    game.apply(Pivot("r1", 0.0))
    events = strike(game, *three(3))
    assert game.state.men["b1"].status == "dead"
    assert "b1 is killed instantly (critical 3)" in texts(events)


@pytest.mark.parametrize(("total", "state"), [(17, "dropped"), (18, "broken")])
def test_critical_17_drops_18_breaks_the_close_weapon_then_improvised(
    total: int, state: str
) -> None:
    game = melee(red={"close": "Attached Bayonet"})
    game.apply(CloseCombat("r1"))
    events = strike(game, *three(total))
    assert game.state.men["r1"].close_state == state
    expected = (
        "r1 drops his Attached Bayonet" if state == "dropped" else "r1's Attached Bayonet breaks"
    )
    assert expected in texts(events)
    # the miss lets b1 riposte, and r1 has nothing left to parry with
    script(game, *three(10), 1, 1, 1)
    events = game.apply(Riposte(), "blue")
    assert not rolls(events, "parry")
    assert game.state.men["r1"].wounded
    # next round r1 fights on with an improvised weapon: 1d6
    game.state.men["r1"].wounded = False
    done(game)
    assert where(game) == (1, "blue", "orders", "blue")
    game.apply(ChangePosition("b1"))  # b1 neither strikes nor parries
    assert where(game) == (2, "red", "orders", "red")
    game.apply(CloseCombat("r1"))
    events = strike(game, *three(10), 4)
    roll = only_roll(events, "close combat: r1 Improvised → b1")
    assert roll.success
    assert "damage: r1 → b1 (1d6): 4 = 4" in texts(events)
