"""MISSION: "Place D3+2 objectives. Players roll-off to go first, and then alternate in placing
one marker each outside of deployment zones, and over 9" away from each other. At the end of
each round, if a unit is within 3" of a marker while enemies aren't, then it's seized. Markers
stay under the player's control even after leaving, but if units from both sides are
contesting a marker, then it becomes neutral again. The game ends after 4 rounds, and the
player that controls most markers wins." With Shaken and Ambush."""

from __future__ import annotations

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import (
    SETUP,
    decision,
    new_game,
    play,
    position,
    profile,
    refusal,
    script,
    state_of,
    unit,
)
from warbench.core.game import Decision, GameOver
from warbench.rulesets.gff.mission import score_markers
from warbench.rulesets.gff.state import Marker, State, Unit


@pytest.mark.parametrize(("face", "markers"), [(1, 3), (2, 4), (3, 5)])
def test_d3_plus_two_objective_markers(face: int, markers: int) -> None:
    game = new_game([profile()], [profile()], [face, 4, 3])
    assert game.state.markers_to_place == markers
    assert script(game).remaining == 0


def test_markers_placed_alternately_by_the_roll_off_winner_first() -> None:
    """3 markers; red won deployment and takes the south edge; blue wins the objective
    roll-off (2 against 5) and places first."""
    game = new_game([profile()], [profile()], [*SETUP, 2, 5])
    play(game, "edge south")
    assert decision(game) == ("blue", "markers")
    play(game, "marker 24,24")
    assert decision(game) == ("red", "markers")
    play(game, "marker 10,24")
    assert decision(game) == ("blue", "markers")
    play(game, "marker 38,24")
    assert [(m.x, m.y) for m in game.state.markers] == [(24, 24), (10, 24), (38, 24)]
    assert decision(game) == ("red", "deploy")


@pytest.mark.parametrize(
    ("at", "why"),
    [
        ("24,6", "deployment zone"),  # red's (south) zone
        ("24,12", "deployment zone"),  # its boundary, 12" from the edge
        ("24,40", "deployment zone"),  # blue's (north) zone
        ("24,33", "over 9"),  # exactly 9" from the first marker
        ("30,30", "over 9"),  # 8.5" away
    ],
)
def test_markers_go_outside_deployment_zones_over_nine_inches_apart(at: str, why: str) -> None:
    game = new_game([profile()], [profile()], [*SETUP, 5, 2])
    play(game, "edge south", "marker 24,24")
    reason = refusal(game, f"marker {at}")
    assert reason is not None and why in reason


def test_marker_just_over_nine_inches_away_is_legal() -> None:
    game = new_game([profile()], [profile()], [*SETUP, 5, 2])
    play(game, "edge south", "marker 24,24")
    assert refusal(game, "marker 24,33.1") is None
    assert refusal(game, "marker 24,12.1") is None


# --- seizing and contesting (end of round) ------------------------------------------------------


def scored(*units: Unit, owner: str | None = None, round: int = 1) -> State:
    """Score one marker at (24, 24) owned by `owner`, with `units` around it."""
    state = state_of(*units)
    state.round = round
    state.markers = [Marker(24.0, 24.0, owner)]
    score_markers(Ref(), state)
    return state


def test_unit_within_three_inches_of_a_marker_seizes_it() -> None:
    state = scored(unit("r1", profile(), (24.0, 26.0)), unit("b1", profile(), (24.0, 40.0)))
    assert state.markers[0].owner == "red"


@pytest.mark.parametrize(("y", "owner"), [(27.4, "red"), (27.6, None)])
def test_three_inches_are_measured_to_the_base_edge(y: float, owner: str | None) -> None:
    """A 1" base centred 3.4" away is within 3" (2.9" to its edge); 3.6" is not."""
    assert scored(unit("r1", profile(), (24.0, y))).markers[0].owner == owner


def test_marker_stays_seized_after_the_unit_leaves() -> None:
    state = scored(
        unit("r1", profile(), (10.0, 10.0)), unit("b1", profile(), (40.0, 40.0)), owner="red"
    )
    assert state.markers[0].owner == "red"


def test_enemy_alone_takes_a_seized_marker() -> None:
    assert scored(unit("b1", profile(), (24.0, 22.0)), owner="red").markers[0].owner == "blue"


def test_contested_marker_becomes_neutral() -> None:
    state = scored(
        unit("r1", profile(), (24.0, 26.0)), unit("b1", profile(), (24.0, 22.0)), owner="red"
    )
    assert state.markers[0].owner is None


def test_shaken_unit_does_not_seize() -> None:
    squad = unit("r1", profile(), (24.0, 26.0))
    squad.shaken = True
    assert scored(squad).markers[0].owner is None


def test_shaken_unit_does_not_contest() -> None:
    blue = unit("b1", profile(), (24.0, 22.0))
    blue.shaken = True
    assert scored(unit("r1", profile(), (24.0, 26.0)), blue, owner="red").markers[0].owner == "red"


@pytest.mark.parametrize(("round", "owner"), [(2, "red"), (3, None)])
def test_unit_arrived_by_ambush_neither_seizes_nor_contests_that_round(
    round: int, owner: str | None
) -> None:
    """b1 arrived by Ambush in round 2: it does not contest red's claim until round 3."""
    ambusher = unit("b1", profile(rules=["Ambush"]), (24.0, 22.0))
    ambusher.arrived = 2
    state = scored(unit("r1", profile(), (24.0, 26.0)), ambusher, round=round)
    assert state.markers[0].owner == owner


def test_ambush_arrival_does_not_seize_that_round() -> None:
    ambusher = unit("b1", profile(rules=["Ambush"]), (24.0, 22.0))
    ambusher.arrived = 2
    assert scored(ambusher, round=2).markers[0].owner is None
    assert scored(ambusher, round=3).markers[0].owner == "blue"


# --- the end of the game -------------------------------------------------------------------------


def last_round(owners: list[str | None], round: int = 4) -> Decision | GameOver:
    """Round `round`: red near the first marker, blue far away; both units stay idle."""
    game = position([profile()], [profile()], {"r1": (10, 25), "b1": (40, 40)}, round=round)
    spots = [(10.0, 24.0), (24.0, 24.0), (38.0, 24.0)]
    game.state.markers = [Marker(x, y, o) for (x, y), o in zip(spots, owners, strict=False)]
    play(game, "idle r1", "idle b1")
    return game.pending


def test_markers_are_seized_at_the_end_of_each_round() -> None:
    game = position([profile()], [profile()], {"r1": (10, 25), "b1": (40, 40)})
    game.state.markers = [Marker(10.0, 24.0)]
    play(game, "idle r1")
    assert game.state.markers[0].owner is None
    play(game, "idle b1")
    assert game.state.markers[0].owner == "red"
    assert game.state.round == 2


def test_the_game_goes_on_after_round_three() -> None:
    pending = last_round([None, "blue"], round=3)
    assert isinstance(pending, Decision)


def test_after_four_rounds_most_markers_wins() -> None:
    """Red seizes the first marker at the end of round 4 and holds two to blue's one."""
    pending = last_round([None, "red", "blue"])
    assert isinstance(pending, GameOver)
    assert pending.winner == "red"
    assert pending.score == {"red": 2.0, "blue": 1.0}


def test_after_four_rounds_equal_markers_is_a_draw() -> None:
    pending = last_round([None, "blue", None])
    assert isinstance(pending, GameOver)
    assert pending.winner is None
    assert pending.score == {"red": 1.0, "blue": 1.0}
