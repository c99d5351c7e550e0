"""GAME SET-UP: alternate placement within the operation's limits; first placer goes first."""

from __future__ import annotations

import pytest

from tests.rulesets.ttt.position import sq
from warbench.core import registry
from warbench.core.game import Decision, IllegalAction
from warbench.rulesets.ttt.actions import Place
from warbench.rulesets.ttt.game import TTTGame


def _new(scenario: str) -> TTTGame:
    ruleset = registry.get("ttt")
    game = ruleset.new_game(ruleset.load_scenario(scenario), 5)
    assert isinstance(game, TTTGame)
    return game


def test_players_alternate_and_the_first_placer_moves_first() -> None:
    game = _new("besiege-the-bunker")
    order = []
    while game.state.phase == "placement":
        pending = game.pending
        assert isinstance(pending, Decision)
        order.append(pending.player)
        game.apply(game.legal_actions(pending.player)[0])
    assert order == ["red", "blue"] * 5
    assert game.state.player == "red" and game.state.phase == "move"


def test_bunker_placement_is_adjacent_to_the_home_bunker() -> None:
    game = _new("besiege-the-bunker")
    squares = {str(a.to) for a in game.legal_actions("red") if isinstance(a, Place)}
    assert squares == {"C1", "C2", "A3", "B3", "C3"}
    with pytest.raises(IllegalAction, match="outside your placement area"):
        game.apply(Place("Recon", sq("D4")))


def test_a_refused_placement_says_which_of_its_reasons_holds() -> None:
    """It said "outside your placement area or taken" whichever it was, and "you cannot
    place a guard" to a player who typed the kind in small letters."""
    game = _new("besiege-the-bunker")
    game.apply(Place("Berserker", sq("A3")))
    game.apply(game.legal_actions("blue")[0])
    taken = game.check(Place("Guard", sq("A3")))
    assert taken is not None and taken.startswith("A3 is taken by r1 (red Berserker); allowed: ")
    off = game.check(Place("Guard", sq("Z9")))
    assert off is not None and off.startswith("Z9 is not on the board (A1 to H8); allowed: ")
    assert game.check(Place("guard", sq("B3"))) == (
        "you cannot place a guard now (kinds are written as on the squad sheet: Guard);"
        " you may place: Berserker, Guard, Recon"
    )


def test_captain_goes_on_its_corner_first_then_others_within_three() -> None:
    game = _new("cap-the-capn")
    assert {str(a) for a in game.legal_actions("red")} == {"place Captain A1"}
    game.apply(Place("Captain", sq("A1")))
    game.apply(Place("Captain", sq("P8")))
    squares = {a.to for a in game.legal_actions("red") if isinstance(a, Place)}
    assert squares and all(s.distance(sq("A1")) <= 3 for s in squares)
    kinds = {a.kind for a in game.legal_actions("red") if isinstance(a, Place)}
    assert "Captain" not in kinds  # "Any 5, plus Captain": the five are not Captains


def test_any_n_pieces_at_most_two_of_a_kind() -> None:
    game = _new("capture-the-crossing")
    for column in ("A", "B"):
        game.apply(Place("Guard", sq(f"{column}1")))
        game.apply(Place("Recon", sq(f"{column}8")))
    with pytest.raises(IllegalAction, match="cannot place a Guard"):
        game.apply(Place("Guard", sq("C1")))


def test_back_row_and_board_placement() -> None:
    crossing = _new("capture-the-crossing")
    assert {a.to.row for a in crossing.legal_actions("red") if isinstance(a, Place)} == {0}
    sweep = _new("sweep-the-settlement")
    red = {a.to.col for a in sweep.legal_actions("red") if isinstance(a, Place)}
    assert max(red) < 8  # board #5 is the left half
    sweep.apply(next(a for a in sweep.legal_actions("red") if isinstance(a, Place)))
    blue = {a.to.col for a in sweep.legal_actions("blue") if isinstance(a, Place)}
    assert min(blue) >= 8  # board #6 is the right half
