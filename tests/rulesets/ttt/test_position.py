"""The TTT AI's reading of a position: `Outlook` (one piece changed, the rest worked out once)
equals the whole reading of the changed position to the last bit, the remembered hit chances
equal the exact odds of the attack's own roll, and the AI plays the games it played before
they were sped up."""

from __future__ import annotations

from dataclasses import fields
from fractions import Fraction

import pytest

from benchmarks.fingerprints import fingerprints
from tests.rulesets.ttt.position import OPERATIONS
from warbench.core import registry
from warbench.core.dice import exact_outcomes, resolve
from warbench.core.game import Decision
from warbench.core.grid import Square
from warbench.rulesets.ttt import attacking
from warbench.rulesets.ttt.actions import Aim, Move
from warbench.rulesets.ttt.ai import TrooperAI
from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.position import Outlook, hit_chance, position_value
from warbench.rulesets.ttt.state import Piece, State

# Digests (benchmarks/fingerprints.py, AI on both sides, seeds 0-1) of the games the AI
# played before `Outlook`: the speed-up must not change a single move.
BEFORE = {
    "besiege-the-bunker/0": "0368f3c913982ddc",
    "besiege-the-bunker/1": "bd008d27559627eb",
    "cap-the-capn/0": "18691eb7c4f49a7b",
    "cap-the-capn/1": "6769cdd31713c53e",
    "capture-the-crossing/0": "7a4de2ff12c04f65",
    "capture-the-crossing/1": "b8c0c5fab7cd5036",
    "sweep-the-settlement/0": "9a11aee2c61e48b0",
    "sweep-the-settlement/1": "29e15adf5ed88d1a",
    "the-art-of-war/0": "eeba5c95767d6f6e",
    "the-art-of-war/1": "9a1923f26cc73929",
}


def test_the_ai_plays_the_games_it_played_before() -> None:
    found = fingerprints("ttt", "ai", 2)
    assert {k: v[:16] for k, v in found.items()} == BEFORE


def _exact_reading(game: TTTGame, player: str, action: Move | Aim | None) -> float:
    """position_value of a copy of the state with the action's change made."""
    s = game.state.copy()
    if isinstance(action, Move):
        s.pieces[action.piece].square, s.pieces[action.piece].aim = action.to, None
    elif isinstance(action, Aim):
        s.pieces[action.piece].aim = action.target
    return position_value(game.table, s, player)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_outlook_equals_the_whole_reading_for_every_move_and_aim(operation: str) -> None:
    ruleset = registry.get("ttt")
    compared = 0
    for seed in range(2):
        game = ruleset.new_game(ruleset.load_scenario(operation), seed)
        assert isinstance(game, TTTGame)
        agents = {p: TrooperAI(seed * 2 + n) for n, p in enumerate(ruleset.players)}
        while isinstance(game.pending, Decision):
            player = game.pending.player
            if game.state.phase == "move":
                outlook = Outlook(game.table, game.state, player)
                assert outlook.unchanged() == _exact_reading(game, player, None)
                for action in game.legal_actions(player):
                    if isinstance(action, Move):
                        got = outlook.moved(action.piece, action.to)
                    elif isinstance(action, Aim):
                        got = outlook.aimed(action.piece, action.target)
                    else:
                        continue
                    assert got == _exact_reading(game, player, action), action
                    compared += 1
            game.apply(agents[player].choose(game, player), player)
    assert compared > 100


def _exact_chance(game: TTTGame, attacker: Piece, target: Piece) -> float:
    request = attacking.to_hit(game.table, attacker, target)
    odds = exact_outcomes(lambda dice: resolve(request, dice.faces(request)).success)
    return float(odds.get(True, Fraction(0)))


def test_remembered_hit_chances_are_the_exact_odds_of_the_roll() -> None:
    ruleset = registry.get("ttt")
    game = ruleset.new_game(ruleset.load_scenario("the-art-of-war"), 0)
    assert isinstance(game, TTTGame)
    table = game.table
    kinds = sorted(table.sheet)
    for square in table.battlefield.terrain:  # every square: the terrain is all that counts
        for aim in (None, "b1", "b2"):
            attacker = Piece("r1", "red", kinds[0], square, aim)
            target = Piece("b1", "blue", kinds[-1], square)
            assert hit_chance(table, attacker, target) == _exact_chance(game, attacker, target)
    squares = {kind: square for square, kind in table.battlefield.terrain.items()}
    assert len(squares) >= 4
    for attacker_kind in kinds:
        for target_kind in kinds:
            for square in squares.values():
                target = Piece("b1", "blue", target_kind, square)
                for aim in (None, "b1"):
                    attacker = Piece("r1", "red", attacker_kind, square, aim)
                    want = _exact_chance(game, attacker, target)
                    assert hit_chance(table, attacker, target) == want


def test_a_state_copy_has_every_field_and_shares_nothing_mutable() -> None:
    s = State(
        phase="attack",
        player="blue",
        to_place={"red": ["Guard"], "blue": []},
        choose_left={"red": 1, "blue": 2},
        pieces={"r1": Piece("r1", "red", "Guard", Square(1, 2), "b1")},
        placed={"red": 3, "blue": 4},
        lost=["b2"],
        turn=7,
        moved={"r1"},
        moves_left=2,
        commanded=True,
        attacked={"r1"},
        bridge={"red": 1, "blue": 0},
        winner="red",
        reason="why",
    )
    defaults = State("move", "red", {}, {})
    assert all(getattr(s, f.name) != getattr(defaults, f.name) for f in fields(State))
    copied = s.copy()
    assert copied == s
    for f in fields(State):
        value = getattr(s, f.name)
        if isinstance(value, list | dict | set):
            assert getattr(copied, f.name) is not value, f.name
    assert copied.pieces["r1"] is not s.pieces["r1"]
    assert copied.to_place["red"] is not s.to_place["red"]
