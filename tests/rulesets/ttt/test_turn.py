"""TURN SUMMARY: move one piece (or aim), then attack; Captains let you move two others."""

from __future__ import annotations

import pytest

from tests.rulesets.ttt.position import position, sq
from warbench.core.actions import MalformedAction
from warbench.core.game import Decision, IllegalAction
from warbench.rulesets.ttt.actions import Aim, Attack, End, Move, Pass


def test_one_piece_moves_per_turn_then_attacks() -> None:
    game = position({"r1": ("Recon", "A1"), "r2": ("Recon", "C1"), "b1": ("Guard", "A5")})
    game.apply(Move("r1", sq("A3")))
    assert game.state.phase == "attack"
    with pytest.raises(IllegalAction, match="attack step"):
        game.apply(Move("r2", sq("C2")))


def test_a_captain_lets_you_move_two_other_pieces_and_does_not_move() -> None:
    game = position(
        {
            "r1": ("Captain", "A1"),
            "r2": ("Recon", "C1"),
            "r3": ("Recon", "E1"),
            "b1": ("Guard", "H8"),
        }
    )
    events = game.apply(Move("r2", sq("C2")))
    assert [e.text for e in events if e.kind == "command"] == [
        "1 Captain in play: red may move 2 pieces this turn; Captains stay put"
    ]
    assert game.state.phase == "move"
    with pytest.raises(IllegalAction, match="Captain does not move"):
        game.apply(Move("r1", sq("A2")))
    with pytest.raises(IllegalAction, match="already moved"):
        game.apply(Move("r2", sq("C3")))
    game.apply(Move("r3", sq("E2")))
    assert game.state.player == "blue"  # two moves made; nothing in range, turn over


def test_two_captains_let_you_move_four() -> None:
    pieces = {"r1": ("Captain", "A1"), "r2": ("Captain", "B1")}
    pieces |= {f"r{n}": ("Recon", f"{c}1") for n, c in zip(range(3, 8), "CDEFG", strict=True)}
    pieces["b1"] = ("Guard", "H8")
    game = position(pieces)
    for n, c in zip(range(3, 7), "CDEF", strict=True):
        assert game.state.player == "red"
        game.apply(Move(f"r{n}", sq(f"{c}2")))
    assert game.state.player == "blue"


def test_moving_the_captain_itself_is_the_single_move() -> None:
    game = position({"r1": ("Captain", "A1"), "r2": ("Recon", "C1"), "b1": ("Guard", "H8")})
    game.apply(Move("r1", sq("A2")))
    assert game.state.player == "blue"


def test_passing_without_moving_is_allowed_and_end_hands_over() -> None:
    game = position({"r1": ("Recon", "D2"), "b1": ("Guard", "D4")})
    game.apply(Pass())
    game.apply(End())
    assert (game.state.player, game.state.phase) == ("blue", "move")


def test_turn_limit_is_a_draw() -> None:
    game = position({"r1": ("Guard", "A1"), "b1": ("Guard", "H8")}, turn_limit=2)
    game.apply(Pass())
    game.apply(Pass())
    pending = game.pending
    assert pending.__class__.__name__ == "GameOver"
    assert game.state.winner is None and "turn limit" in game.state.reason


def test_the_prompt_counts_turns_as_the_log_does() -> None:
    """The prompt said "red, turn 3" while the log said "red ends turn 5": each counted
    differently. Both count player turns now (the turn limit counts them too)."""
    game = position({"r1": ("Recon", "A1"), "b1": ("Recon", "H8")})
    events = game.apply(Move("r1", sq("A2")))
    assert [e.text for e in events if e.kind == "turn"] == ["red ends turn 1"]
    pending = game.pending
    assert isinstance(pending, Decision)
    assert pending.prompt == "blue, turn 2: move or aim a piece (1 move left), or pass to attack"


def test_a_move_to_the_square_it_stands_on_says_so() -> None:
    game = position({"r1": ("Recon", "A1"), "b1": ("Recon", "H8")})
    reason = game.check(Move("r1", sq("A1")))
    assert reason is not None and reason.startswith("r1 (Recon, Move 4) is already on A1;")


def test_acting_with_or_at_a_bagged_piece_says_it_is_out_of_play() -> None:
    """It said only "'b2' is not one of your pieces in play (b1)"."""
    game = position(
        {
            "r1": ("Guard", "D2"),
            "r2": ("Guard", "A4"),
            "b1": ("Guard", "D4"),
            "b2": ("Guard", "D3"),
        },
        dice=[6],
    )
    game.apply(Pass())
    game.apply(Attack("r1", "b2"))
    assert game.check(Attack("r1", "b2")) == (
        "r1 has already attacked this turn; pieces that may still attack: r2 (or end the turn)"
    )
    assert game.check(Attack("r2", "b2")) == (
        "b2 has been bagged and is out of play; r2 may attack: b1"
    )
    game.apply(End())
    before = game.state_hash()
    with pytest.raises(IllegalAction) as refused:
        game.apply(Move("b2", sq("D2")))
    assert str(refused.value).endswith(
        "move b2 D2': b2 has been bagged and is out of play; your pieces in play: b1"
    )
    assert game.state_hash() == before
    assert game.check(Move("r1", sq("D3"))) == (
        "r1 is red's Guard, not yours; your pieces in play: b1"
    )
    assert game.check(Move("b9", sq("D3"))) == "there is no piece 'b9'; your pieces in play: b1"
    assert game.check(Aim("b1", "b1")) == "b1 is blue's Guard, not an enemy; b1 may aim at: r1, r2"


def test_an_unknown_verb_names_the_actions_of_the_step_first() -> None:
    game = position({"r1": ("Recon", "A1"), "b1": ("Recon", "H8")}, phase="attack")
    with pytest.raises(MalformedAction) as info:
        game.parse("shoot r1 b1")
    assert str(info.value) == (
        "unknown action 'shoot'; allowed now: attack PIECE TARGET; end "
        "(at other decisions: place, move, aim, pass)"
    )
