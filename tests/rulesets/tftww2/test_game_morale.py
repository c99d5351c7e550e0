"""5.0 Morale through the game: at the end of a turn a squad checks LDR when its CO fell,
when more than one of its men fell this round, or when it came under artillery or mortar
attack, once a round; failing, it flees at Run speed toward cover the enemy does not hold,
then toward its table edge and off the table; surrounded men surrender; a CO who is not
fleeing rallies a squad within 12" with an LDR roll."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.tftww2.position import (
    attribute_mods,
    dice_left,
    done,
    kinds,
    man,
    new_game,
    only_roll,
    play,
    rect,
    rolls,
    scenario,
    script,
    squad,
    texts,
    three,
    where,
)
from warbench.core.events import Event
from warbench.rulesets.tftww2.actions import Bombard, Fire, Pivot, Throw
from warbench.rulesets.tftww2.game import TFTGame

# the riflemen: b1 their NCO in the middle, privates 2" apart either side
RIFLEMEN = {"b1": (22, 30), "b2": (20, 30), "b3": (24, 30), "b4": (18, 30), "b5": (26, 30)}


def riflemen(
    co_at: tuple[float, float] = (44, 46),
    *,
    red: list[dict[str, Any]] | None = None,
    terrain: list[dict[str, Any]] | None = None,
    quality: str = "regular",
    **kw: Any,
) -> TFTGame:
    """r1 (SMG) at 22,20 facing north at the blue rifle squad (facing north, away from
    him); the blue CO b6 in a squad of his own."""
    men = [
        man(*at, rank="NCO" if mid == "b1" else "Private", facing=0) for mid, at in RIFLEMEN.items()
    ]
    return new_game(
        scenario(
            [squad(*(red or [man(22, 20, weapon="SMG", close="Bayonet/Knife")]), name="reds")],
            [
                squad(*men, name="rifles", quality=quality),
                squad(man(*co_at, rank="CO"), name="command"),
            ],
            terrain=terrain or [],
            **kw,
        )
    )


def kill(game: TFTGame, *targets: str) -> list[Event]:
    """In red's turn r1 stands fast and kills `targets` with critical 3s."""
    if where(game)[2] == "orders":
        done(game)
    script(game, *[f for _ in targets for f in three(3)])
    events = play(game, *[Fire("r1", t) for t in targets])
    assert all(game.state.men[t].status == "dead" for t in targets)
    return events


def morale_rolls(events: list[Event]) -> list[str]:
    return [r.request.label for r in rolls(events, "morale")]


def to_blue(game: TFTGame) -> list[Event]:
    """Red passes until blue's turn (or until blue's turn has passed by on its own)."""
    events: list[Event] = []
    start = game.state.round
    while where(game)[:2] == (start, "red"):
        events += done(game)
    return events


@pytest.mark.parametrize(("total", "flees"), [(8, False), (9, True)])
def test_more_than_one_man_lost_in_a_round_makes_the_squad_check_at_the_end_of_the_turn(
    total: int, flees: bool
) -> None:
    game = riflemen()
    shots = kill(game, "b2", "b4")
    assert not rolls(shots, "morale")
    script(game, *three(total))
    events = done(game)
    roll = only_roll(events, "morale: rifles")
    assert roll.request.label == "morale: rifles (b1) [LDR 12]"
    assert attribute_mods(roll) == {"2 casualties suffered": -4}
    assert game.state.squads["bs1"].fleeing is flees
    assert ("rifles breaks and flees" in texts(events)) is flees
    assert dice_left(game) == 0


def test_one_man_lost_is_no_reason_to_check() -> None:
    game = riflemen()
    kill(game, "b2")
    events = done(game)
    assert morale_rolls(events) == []
    assert where(game) == (1, "blue", "orders", "blue")


def test_the_ldr_modifiers_the_game_measures() -> None:
    woods = rect("woods", 21, 29, 23, 31, name="thicket")
    game = riflemen((22, 35), terrain=[woods], quality="elite")
    kill(game, "b2", "b4")
    script(game, *three(14))
    roll = only_roll(done(game), "morale: rifles")
    assert attribute_mods(roll) == {
        'CO or political officer within 6"': 2,
        "2 casualties suffered": -4,
        "unit in cover": 2,
        "elite troops": 4,
    }
    assert roll.success  # 14 against LDR 12 + 4


def test_a_fallen_co_makes_every_squad_of_his_side_check() -> None:
    game = riflemen((22, 36))
    done(game)
    script(game, *three(3))
    game.apply(Fire("r1", "b6"))  # the CO, straight through the riflemen
    assert game.state.men["b6"].status == "dead"
    script(game, *three(6))
    events = done(game)
    # the CO's own squad has nobody left to check
    assert morale_rolls(events) == ["morale: rifles (b1) [LDR 12]"]
    assert attribute_mods(only_roll(events, "morale")) == {}


def test_a_mortar_attack_makes_the_squad_check_though_nobody_falls() -> None:
    mortar = man(22, 20, weapon="Pistol", close="Bayonet/Knife", support="light_mortar")
    game = riflemen(red=[mortar])
    done(game)
    # INT 10: a hit; 5d6 of damage for each of b1, b2, b3 under the 3" template
    script(game, *three(10), *[1] * 15)
    events = game.apply(Bombard("r1", (22.0, 30.0)))
    assert [m for m in ("b1", "b2", "b3") if game.state.men[m].wounded] == ["b1", "b2", "b3"]
    assert not morale_rolls(events)
    script(game, *three(6))
    # b1 was wounded: his LDR is halved (4.5)
    assert morale_rolls(done(game)) == ["morale: rifles (b1) [LDR 6]"]


def test_a_grenade_is_no_artillery_attack() -> None:
    game = riflemen(red=[man(22, 20, grenades=1)])
    done(game)
    script(game, *three(10), *[1] * 12)  # DEX 12: a hit on b1, b2 and b3
    game.apply(Throw("r1", (22.0, 30.0)))
    assert game.state.men["b2"].wounded
    assert morale_rolls(done(game)) == []


def test_a_squad_checks_at_most_once_a_round() -> None:
    game = riflemen()
    kill(game, "b2", "b4")
    script(game, *three(4))
    assert len(morale_rolls(done(game))) == 1  # passed
    events = done(game)  # blue's turn: the trigger still stands, the check is made
    assert morale_rolls(events) == []
    assert where(game) == (2, "red", "orders", "red")
    kill(game, "b3", "b5")
    script(game, *three(4))
    assert morale_rolls(done(game)) == ["morale: rifles (b1) [LDR 12]"]


def test_a_fallen_co_is_a_reason_to_check_only_in_the_round_he_falls() -> None:
    game = riflemen((22, 36))
    done(game)
    script(game, *three(3))
    game.apply(Fire("r1", "b6"))
    script(game, *three(6))
    assert len(morale_rolls(done(game))) == 1
    done(game)  # blue's turn 1
    assert where(game) == (2, "red", "orders", "red")
    script(game, *three(6))  # dice for a check, should one be (wrongly) called for
    events = done(game, 2)  # red's round 2: orders, ranged; nobody falls
    assert morale_rolls(events) == []


# -- fleeing ---------------------------------------------------------------------------------

NEAR_WOODS = rect("woods", 30, 36, 40, 44, name="near wood")  # 10" from b1
FAR_WOODS = rect("woods", 2, 26, 10, 34, name="far wood")  # 12" from b1


@pytest.mark.parametrize(
    ("enemy_in_near_woods", "to"),
    [(False, (30.0, 36.0)), (True, (10.0, 30.0))],
    ids=["nearest-cover", "cover-held-by-the-enemy-is-passed-by"],
)
def test_a_broken_squad_flees_at_run_speed_toward_the_nearest_cover_the_enemy_does_not_hold(
    enemy_in_near_woods: bool, to: tuple[float, float]
) -> None:
    red = [man(22, 20, weapon="SMG", close="Bayonet/Knife")]
    if enemy_in_near_woods:
        red.append(man(35, 35.8, facing=180))
    game = riflemen(red=red, terrain=[NEAR_WOODS, FAR_WOODS])
    kill(game, "b2", "b4")
    script(game, *three(17))
    events = done(game)
    assert "rifles breaks and flees" in texts(events)
    assert where(game) == (1, "blue", "orders", "blue")
    b1 = game.state.men["b1"]
    assert (b1.x, b1.y) == pytest.approx(to)
    assert b1.action == "flee"
    for m in ("b3", "b5"):  # each man runs for the same cover, 16" at most
        assert game.state.men[m].moved <= 16.0 + 1e-9
    assert game.check(Pivot("b1", 0.0)) == "b1 already has an action this turn; still to order: b6"


def test_a_fleeing_man_runs_twice_his_move() -> None:
    game = riflemen(terrain=[rect("hedge", 0, 47, 48, 48, name="far hedge")])
    game.state.squads["bs1"].fleeing = True
    to_blue(game)
    b1 = game.state.men["b1"]
    assert (b1.x, b1.y, b1.moved) == pytest.approx((22.0, 46.0, 16.0))
    assert b1.facing == 0


def test_a_fleeing_squad_in_cover_makes_for_its_table_edge_and_leaves_the_table() -> None:
    hedge = rect("hedge", 0, 31, 48, 32, name="hedge")  # the riflemen are in its cover
    game = riflemen(terrain=[hedge])
    game.state.squads["bs1"].fleeing = True
    game.state.men["b1"].y = 33.5  # still in the hedge's cover, 14.5" from the edge
    events = to_blue(game)
    assert "b1 flees off the table" in texts(events)
    assert game.state.men["b1"].status == "fled"
    b2 = game.state.men["b2"]
    assert (b2.x, b2.y, b2.status) == (20.0, 46.0, "ok")  # 16" north; off next turn
    assert 'b2 flees 16.0"' in texts(events)


def test_fleeing_men_leaving_the_table_are_lost_to_their_side() -> None:
    game = riflemen(terrain=[rect("hedge", 0, 41, 48, 42)])
    game.state.squads["bs1"].fleeing = True
    game.state.squads["bs2"].fleeing = True
    for mid in ("b1", "b2", "b3", "b4", "b5", "b6"):
        game.state.men[mid].y = 40.0
    game.state.men["b6"].x = 30.0
    to_blue(game)
    pending = game.pending
    assert getattr(pending, "winner", None) == "red"
    assert getattr(pending, "reason", "") == "blue has no men left in the fight"


def test_surrounded_men_surrender() -> None:
    red = [man(22, 20, weapon="SMG", close="Bayonet/Knife"), man(23, 44, facing=180)]
    game = riflemen(red=red, terrain=[rect("hedge", 0, 31, 48, 32)])
    game.state.squads["bs1"].fleeing = True
    events = to_blue(game)
    assert "b1 is surrounded and surrenders" in texts(events)
    assert game.state.men["b1"].status == "surrendered"
    assert game.state.men["b4"].status == "ok"  # 5" off r2's way: he gets away north


# -- rally ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("total", "rallied"), [(14, True), (15, False)])
def test_a_co_within_12_inches_rallies_a_fleeing_squad_with_an_ldr_roll(
    total: int, rallied: bool
) -> None:
    game = riflemen((30, 46))  # after the flight b1 is 8" from him
    game.state.squads["bs1"].fleeing = True
    to_blue(game)
    assert game.state.men["b1"].y == pytest.approx(46.0)
    script(game, *three(total))
    events = game.apply(Pivot("b6", 90.0))
    assert where(game) == (2, "red", "orders", "red")
    roll = only_roll(events, "rally")
    assert roll.request.label == "rally: b6 rallies rifles [LDR 14]"
    assert game.state.squads["bs1"].fleeing is not rallied
    assert ("rally" in kinds(events)) is rallied


def test_no_rally_by_a_co_beyond_12_inches() -> None:
    game = riflemen((2, 2))
    game.state.squads["bs1"].fleeing = True
    to_blue(game)
    events = game.apply(Pivot("b6", 270.0))
    assert where(game) == (2, "red", "orders", "red")
    assert not rolls(events, "rally")
    assert game.state.squads["bs1"].fleeing


def test_no_rally_by_a_co_whose_own_squad_flees() -> None:
    game = riflemen((30, 24))
    game.state.squads["bs1"].fleeing = True
    game.state.squads["bs2"].fleeing = True
    events = to_blue(game)
    assert where(game) == (2, "red", "orders", "red")
    b6 = game.state.men["b6"]
    assert (b6.status, b6.y) == ("ok", 40.0)  # within 12" of b1, but fleeing himself
    assert not rolls(events, "rally")
