"""DEPLOYMENT, PLAYING THE GAME, ACTIVATION, MOVEMENT and TERRAIN, with Ambush, Scout,
Immobile, Fast, Slow, Strider, Flying and Caster(X)."""

from __future__ import annotations

import pytest

from tests.rulesets.gff.position import (
    SETUP,
    blade,
    decision,
    gun,
    new_game,
    play,
    position,
    profile,
    refusal,
    rolled,
    script,
    square,
)
from warbench.rulesets.gff.actions import Tokens
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.profiles import Spell

MINEFIELD = square(20, 12, 30, 14, "minefield")  # dangerous
FOREST = square(20, 14, 28, 18, "forest")  # difficult


# --- deployment and the order of play ------------------------------------------------------------


def test_deployment_roll_off_ties_are_rerolled() -> None:
    game = new_game([profile()], [profile()], [1, 3, 3, 2, 5])
    assert game.state.deploy_first == "blue"
    assert decision(game) == ("blue", "edge")
    assert script(game).remaining == 0


def test_deployment_winner_picks_an_edge_and_units_alternate_starting_with_the_winner() -> None:
    """Blue wins the deployment roll-off (2 against 5), takes north; red places the markers
    (objective roll-off 4 against 3); then blue, red, red deploy; round 1 starts with blue."""
    game = new_game([profile(), profile()], [profile()], [1, 2, 5, 4, 3])
    play(game, "edge north")
    assert game.state.edges == {"blue": "north", "red": "south"}
    play(game, "marker 24,24", "marker 10,24", "marker 38,24")
    assert decision(game) == ("blue", "deploy")
    reason = refusal(game, "deploy b1 24,30")
    assert reason is not None and 'within 12" of your table edge (north)' in reason
    play(game, "deploy b1 24,42")
    assert decision(game) == ("red", "deploy")
    play(game, "deploy r1 10,6")
    assert decision(game) == ("red", "deploy")
    play(game, "deploy r2 38,6")
    assert game.state.round == 1
    assert decision(game) == ("blue", "activate")


def test_players_alternate_activating_one_unit_each() -> None:
    game = position(
        [profile(), profile()],
        [profile(), profile()],
        {"r1": (10, 10), "r2": (30, 10), "b1": (10, 40), "b2": (30, 40)},
    )
    play(game, "idle r1")
    assert decision(game) == ("blue", "activate")
    play(game, "idle b1")
    assert decision(game) == ("red", "activate")
    reason = refusal(game, "idle r1")
    assert reason is not None and "cannot activate now" in reason
    play(game, "idle r2", "idle b2")
    assert game.state.round == 2


@pytest.mark.parametrize(("reds", "blues", "first"), [(1, 2, "red"), (2, 1, "blue")])
def test_next_round_starts_with_whoever_finished_activating_first(
    reds: int, blues: int, first: str
) -> None:
    spots = [(10.0, 10.0), (30.0, 10.0)]
    at = {f"r{n + 1}": spots[n] for n in range(reds)}
    at |= {f"b{n + 1}": (spots[n][0], 40.0) for n in range(blues)}
    game = position([profile()] * reds, [profile()] * blues, at)
    play(game, "idle r1", "idle b1")
    play(game, "idle b2" if blues == 2 else "idle r2")
    assert game.state.round == 2
    assert decision(game) == (first, "activate")


# --- moving ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "verb", "distance", "legal"),
    [
        ((), "advance", 6.0, True),
        ((), "advance", 6.5, False),
        ((), "rush", 12.0, True),
        ((), "rush", 12.5, False),
        (("Fast",), "advance", 8.0, True),
        (("Fast",), "advance", 8.5, False),
        (("Fast",), "rush", 16.0, True),
        (("Fast",), "rush", 16.5, False),
        (("Slow",), "advance", 4.0, True),
        (("Slow",), "advance", 4.5, False),
        (("Slow",), "rush", 8.0, True),
        (("Slow",), "rush", 8.5, False),
    ],
)
def test_advance_six_rush_twelve_with_fast_and_slow(
    rules: tuple[str, ...], verb: str, distance: float, legal: bool
) -> None:
    game = position([profile(rules=rules)], [profile()], {"r1": (24, 10), "b1": (24, 44)})
    reason = refusal(game, f"{verb} r1 24,{10 + distance}")
    if legal:
        assert reason is None
    else:
        assert reason is not None and "may move" in reason


def test_advance_moves_the_whole_unit() -> None:
    game = position(
        [profile(size=3, weapons=[gun(range=6)])], [profile()], {"r1": (24, 10), "b1": (24, 44)}
    )
    play(game, "advance r1 25.5,16")
    assert [(m.x, m.y) for m in game.state.units["r1"].models] == [(24, 16), (25.5, 16), (27, 16)]


@pytest.mark.parametrize("other", ["r2", "b1"])
def test_units_must_end_more_than_one_inch_from_other_units(other: str) -> None:
    """A friendly or an enemy unit at (30, 10): r1 may not end 0.5" from it, 1.5" is fine."""
    at = {"r1": (24.0, 10.0), "r2": (40.0, 30.0), "b1": (40.0, 40.0)}
    at[other] = (30.0, 10.0)
    game = position([profile(), profile()], [profile()], at)
    reason = refusal(game, "advance r1 28.5,10")
    assert reason is not None and 'within 1" of another unit' in reason
    assert refusal(game, "advance r1 27.5,10") is None


def test_only_chargers_may_come_within_one_inch() -> None:
    game = position([profile(weapons=[blade()])], [profile()], {"r1": (24, 10), "b1": (30, 10)})
    assert refusal(game, "charge r1 b1") is None


# --- Shaken and Immobile -------------------------------------------------------------------


def test_shaken_unit_must_stay_idle_and_recovers_after_a_full_idle_activation() -> None:
    game = position([profile(weapons=[gun()])], [profile()], {"r1": (24, 10), "b1": (24, 30)})
    game.state.units["r1"].shaken = True
    for action in ("hold r1", "advance r1 24,12", "rush r1 24,12", "charge r1 b1"):
        reason = refusal(game, action)
        assert reason is not None and "Shaken and must stay idle" in reason
    play(game, "idle r1")
    assert not game.state.units["r1"].shaken
    assert game.state.units["r1"].activated


@pytest.mark.parametrize(
    ("action", "legal"),
    [
        ("hold r1", True),
        ("advance r1 24,12", False),
        ("rush r1 24,12", False),
        ("charge r1 b1", False),
    ],
)
def test_immobile_may_only_hold(action: str, legal: bool) -> None:
    game = position(
        [profile(rules=["Immobile"], weapons=[blade()])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 15)},
    )
    reason = refusal(game, action)
    if legal:
        assert reason is None
    else:
        assert reason is not None and "Immobile" in reason


# --- Ambush and Scout ------------------------------------------------------------------------


def test_only_ambush_units_may_be_set_aside_for_ambush() -> None:
    game = new_game([profile(), profile(rules=["Ambush"])], [profile()], [*SETUP, 4, 3])
    play(game, "edge south", "marker 24,24", "marker 10,24", "marker 38,24")
    reason = refusal(game, "reserve r1 ambush")
    assert reason is not None and "does not have Ambush" in reason
    assert refusal(game, "reserve r2 hide") == (  # it said "reserve kind must be ..."
        "a unit is set aside for ambush or scout, not 'hide'"
    )
    play(game, "reserve r2 ambush", "deploy b1 24,42", "deploy r1 24,6")
    assert game.state.round == 1 and decision(game) == ("red", "activate")
    assert not game.state.units["r2"].deployed


def ambush_game(blue_ambushes: bool = False) -> GFFGame:
    """Round 1 with r1 and b1 on the table and an Ambush unit in reserve (r2, or b2)."""
    ambusher = profile("Stalkers", rules=["Ambush"])
    game = position(
        [profile()] if blue_ambushes else [profile(), ambusher],
        [profile(), ambusher] if blue_ambushes else [profile()],
        {"r1": (10, 10), "b1": (24, 40)},
    )
    game.state.units["b2" if blue_ambushes else "r2"].reserve = "ambush"
    return game


def test_ambush_units_arrive_from_round_two_over_nine_inches_from_enemies() -> None:
    game = ambush_game()
    assert decision(game) == ("red", "activate")  # not placed in round 1
    play(game, "idle r1", "idle b1")
    assert game.state.round == 2
    assert decision(game) == ("red", "ambush")
    reason = refusal(game, "deploy r2 24,31")  # 8" from b1 edge to edge
    assert reason is not None and 'over 9"' in reason
    assert refusal(game, "deploy r2 24,29.9") is None  # 9.1"
    play(game, "deploy r2 24,20")
    assert game.state.units["r2"].deployed
    assert game.state.units["r2"].arrived == 2
    assert decision(game) == ("red", "activate")


def test_ambush_exactly_nine_inches_from_an_enemy_is_refused() -> None:
    game = ambush_game()
    play(game, "idle r1", "idle b1")
    assert decision(game) == ("red", "ambush")
    assert refusal(game, "deploy r2 24,30") is not None  # 9.0" from b1 edge to edge


def test_after_ambush_placement_the_round_starts_with_who_finished_first() -> None:
    game = ambush_game(blue_ambushes=True)
    play(game, "idle r1", "idle b1")  # red finished activating first
    assert decision(game) == ("blue", "ambush")
    play(game, "deploy b2 40,20")
    assert decision(game) == ("red", "activate")


def test_scout_units_deploy_after_the_others_within_twelve_inches_of_the_zone() -> None:
    game = new_game([profile(), profile("Scouts", rules=["Scout"])], [profile()], [*SETUP, 4, 3])
    play(game, "edge south", "marker 24,24", "marker 10,24", "marker 38,24")
    reason = refusal(game, "reserve r1 scout")
    assert reason is not None and "does not have Scout" in reason
    play(game, "reserve r2 scout")
    assert decision(game) == ("blue", "deploy")
    play(game, "deploy b1 24,42", "deploy r1 10,6")
    assert decision(game) == ("red", "scout")
    reason = refusal(game, "deploy r2 36,23.6")  # its base would reach 24.1" from the edge
    assert reason is not None and 'within 12" of your deployment zone' in reason
    play(game, "deploy r2 36,23")
    assert game.state.round == 1 and decision(game) == ("red", "activate")


# --- Caster(X) ------------------------------------------------------------------------------

BOLT = Spell(name="Bolt", cost=1, range=18, effect="hits", hits=1)


@pytest.mark.parametrize(("rule", "before", "after"), [("Caster(2)", 1, 3), ("Caster(4)", 4, 6)])
def test_casters_get_x_tokens_each_round_holding_at_most_six(
    rule: str, before: int, after: int
) -> None:
    seer = profile("Seer", rules=[rule], spells=[BOLT])
    game = position([seer], [profile()], {"r1": (24, 10), "b1": (24, 40)})
    game.state.units["r1"].tokens = before
    play(game, "idle r1", "idle b1")
    assert game.state.round == 2
    assert game.state.units["r1"].tokens == after


@pytest.mark.parametrize(("face", "hit"), [(4, True), (3, False)])
def test_spell_is_cast_on_four_plus(face: int, hit: bool) -> None:
    seer = profile("Seer", rules=["Caster(2)"], spells=[BOLT], weapons=[gun()])
    game = position([seer], [profile()], {"r1": (24, 10), "b1": (24, 20)}, dice=[face, 6])
    game.state.units["r1"].tokens = 2
    play(game, "hold r1", "cast r1 bolt b1")
    assert game.state.units["r1"].tokens == 1
    assert len(rolled(game.log, "Defense")) == int(hit)
    assert script(game).remaining == 1 - int(hit)
    reason = refusal(game, "cast r1 bolt b1")
    assert reason is not None and "one try per spell" in reason


def test_a_spell_the_caster_cannot_pay_for_counts_its_tokens_in_words() -> None:
    """It said "Bolt costs 1 token(s)"."""
    seer = profile("Seer", rules=["Caster(2)"], spells=[BOLT], weapons=[gun()])
    game = position([seer], [profile()], {"r1": (24, 10), "b1": (24, 20)})
    play(game, "hold r1")
    game.state.units["r1"].tokens = 0
    assert refusal(game, "cast r1 bolt b1") == "Bolt costs 1 token; r1 Seer has 0"


def test_spells_are_cast_before_attacking() -> None:
    seer = profile("Seer", rules=["Caster(2)"], spells=[BOLT], weapons=[gun(), gun("Pistol")])
    game = position([seer], [profile()], {"r1": (24, 10), "b1": (24, 20)}, dice=[1])
    game.state.units["r1"].tokens = 2
    play(game, "hold r1", "fire r1 rifle b1")
    reason = refusal(game, "cast r1 bolt b1")
    assert reason is not None and "before attacking" in reason


def test_casters_within_eighteen_inches_help_and_enemy_casters_hinder() -> None:
    """r2 (red) spends 1 token (+1), then blue decides: b2 spends 2 (−2). 4 + 1 − 2 = 3 fails."""
    seer = profile("Seer", rules=["Caster(2)"], spells=[BOLT])
    acolyte = profile("Acolyte", rules=["Caster(1)"])
    game = position(
        [seer, acolyte],
        [profile(), acolyte],
        {"r1": (24, 10), "r2": (30, 10), "b1": (24, 20), "b2": (18, 26)},
        dice=[4],
    )
    for uid in ("r1", "r2", "b2"):
        game.state.units[uid].tokens = 2
    play(game, "hold r1", "cast r1 bolt b1")
    assert decision(game) == ("red", "spell-help")
    play(game, "tokens r2 1")
    assert decision(game) == ("red", "spell-help")
    play(game, "done")
    assert decision(game) == ("blue", "spell-help")
    refused = game.check(Tokens("b2", 2), "red")
    assert refused is not None and "blue's decision" in refused
    events = play(game, "tokens b2 2", "done")
    assert "spends 2 tokens (-2 to the casting roll)" in events[0].text  # not "token(s)"
    (cast,) = rolled(events, "cast Bolt")
    assert cast.request.modifier_total == -1
    assert not cast.success
    assert (game.state.units["r2"].tokens, game.state.units["b2"].tokens) == (1, 0)


def test_casters_beyond_eighteen_inches_cannot_help() -> None:
    seer = profile("Seer", rules=["Caster(2)"], spells=[BOLT])
    acolyte = profile("Acolyte", rules=["Caster(1)"])
    game = position(
        [seer, acolyte],
        [profile()],
        {"r1": (24, 10), "r2": (43, 10), "b1": (24, 20)},
        dice=[3],
    )
    game.state.units["r1"].tokens = game.state.units["r2"].tokens = 2
    events = play(game, "hold r1", "cast r1 bolt b1")  # 19" apart: resolved at once
    (cast,) = rolled(events, "cast Bolt")
    assert cast.request.modifiers == ()
    assert game.state.units["r2"].tokens == 2


# --- dangerous terrain -------------------------------------------------------------------------


def test_moving_across_dangerous_terrain_one_die_per_model_each_one_a_wound() -> None:
    game = position(
        [profile(size=3)],
        [profile()],
        {"r1": (22.5, 10), "b1": (24, 44)},
        dice=[1, 1, 4],
        terrain=[MINEFIELD],
    )
    events = play(game, "advance r1 24,16")
    (danger,) = rolled(events, "dangerous terrain")
    assert danger.request.dice == 3
    assert len(game.state.units["r1"].models) == 1
    assert any(
        e.text.endswith("takes 2 wounds from dangerous terrain (one for each 1 rolled)")
        for e in events
    )


def test_dangerous_terrain_without_a_1_says_no_wound_and_why() -> None:
    """A bare "2d6 rolled 4+3" with nothing after it left a referee guessing the rule."""
    game = position(
        [profile(size=3)],
        [profile()],
        {"r1": (22.5, 10), "b1": (24, 44)},
        dice=[4, 3, 2],
        terrain=[MINEFIELD],
    )
    events = play(game, "advance r1 24,16")
    assert any(
        e.text.endswith("takes 0 wounds from dangerous terrain (one for each 1 rolled)")
        for e in events
    )
    assert len(game.state.units["r1"].models) == 3
    assert script(game).remaining == 0


def test_dangerous_terrain_rolls_as_many_dice_as_the_tough_value() -> None:
    game = position(
        [profile(rules=["Tough(3)"])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 44)},
        dice=[1, 2, 1],
        terrain=[MINEFIELD],
    )
    events = play(game, "rush r1 24,16")
    (danger,) = rolled(events, "dangerous terrain")
    assert danger.request.dice == 3
    assert game.state.units["r1"].models[0].wounds == 2  # under Tough(3): no roll yet


@pytest.mark.parametrize("action", ["hold r1", "idle r1"])
def test_activating_in_dangerous_terrain_rolls(action: str) -> None:
    game = position(
        [profile()],
        [profile()],
        {"r1": (24, 13), "b1": (24, 44)},
        dice=[1, 2],
        terrain=[MINEFIELD],
    )
    events = play(game, action)
    assert len(rolled(events, "activates in dangerous terrain")) == 1
    assert game.state.units["r1"].models[0].wounds == 1
    assert script(game).remaining == 0


def test_unit_shaken_at_the_start_of_its_idle_activation_stays_shaken() -> None:
    game = position(
        [profile()],
        [profile()],
        {"r1": (24, 13), "b1": (24, 44)},
        dice=[1, 2],
        terrain=[MINEFIELD],
    )
    play(game, "idle r1")
    assert game.state.units["r1"].shaken  # 2 + 1 marker: Shaken during this activation


def test_moving_clear_of_dangerous_terrain_rolls_nothing() -> None:
    game = position([profile()], [profile()], {"r1": (24, 10), "b1": (24, 44)}, terrain=[MINEFIELD])
    events = play(game, "rush r1 35,10")
    assert rolled(events, "dangerous") == []


def test_flying_ignores_dangerous_terrain_while_moving() -> None:
    game = position(
        [profile(rules=["Flying"])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 44)},
        terrain=[MINEFIELD],
    )
    events = play(game, "rush r1 24,16")
    assert rolled(events, "dangerous") == []


def test_model_activating_in_dangerous_terrain_and_moving_out_rolls_once() -> None:
    game = position(
        [profile()],
        [profile()],
        {"r1": (24, 13), "b1": (24, 44)},
        dice=[4, 4],
        terrain=[MINEFIELD],
    )
    events = play(game, "rush r1 24,20")
    assert sum(r.request.dice for r in rolled(events, "dangerous")) == 1


def test_charging_across_dangerous_terrain_rolls() -> None:
    game = position(
        [profile(weapons=[blade()])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 17)},
        dice=[4, 1, 1, 1],
        terrain=[MINEFIELD],
    )
    events = play(game, "charge r1 b1")
    assert len(rolled(events, "dangerous terrain")) == 1


# --- difficult terrain -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "to", "legal"),
    [
        ((), "24,16", True),  # 6" into the forest
        ((), "24,20", False),  # 10" through it
        (("Strider",), "24,20", True),
        (("Flying",), "24,20", True),
    ],
)
def test_difficult_terrain_caps_a_move_at_six_inches(
    rules: tuple[str, ...], to: str, legal: bool
) -> None:
    game = position(
        [profile(rules=rules)], [profile()], {"r1": (24, 10), "b1": (24, 44)}, terrain=[FOREST]
    )
    reason = refusal(game, f"rush r1 {to}")
    if legal:
        assert reason is None
    else:
        assert reason is not None and "difficult terrain" in reason
    assert refusal(game, "rush r1 34,14") is None  # 10.8" in the open


@pytest.mark.parametrize(("rules", "legal"), [((), False), (("Strider",), True)])
def test_difficult_terrain_caps_a_charge_at_six_inches(rules: tuple[str, ...], legal: bool) -> None:
    game = position(
        [profile(rules=rules, weapons=[blade()])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 20)},
        terrain=[FOREST],
    )
    reason = refusal(game, "charge r1 b1")
    if legal:
        assert reason is None
    else:
        assert reason is not None and "difficult terrain" in reason
