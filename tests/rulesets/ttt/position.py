"""Build Table Top Troopers positions for rule tests: a board map, pieces, scripted dice."""

from __future__ import annotations

from typing import Any

from warbench.core import registry
from warbench.core.dice import ScriptedDice
from warbench.core.grid import Square
from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.state import Piece

OPERATIONS = (
    "besiege-the-bunker",
    "cap-the-capn",
    "capture-the-crossing",
    "sweep-the-settlement",
    "the-art-of-war",
)
OPEN = ("........",) * 8
LEGEND = {
    ".": ["plain"],
    "W": ["woods"],
    "R": ["rocky"],
    "S": ["swamp"],
    "~": ["river"],
    "#": ["building"],
    "=": ["bridge"],
    "B": ["bunker"],
    "M": ["woods", "swamp"],
}


def scenario_data(rows: tuple[str, ...] = OPEN, **overrides: Any) -> dict[str, Any]:
    """A one-board scenario on a board of our own drawing (rows from the top)."""
    data: dict[str, Any] = {
        "id": "test",
        "name": "Test position",
        "summary": "a rule test",
        "boards": [{"board": 99}],
        "new_boards": [{"id": 99, "name": "test board", "legend": LEGEND, "rows": list(rows)}],
        "forces": {"red": {"choose": 1}, "blue": {"choose": 1}},
        "placement": {"red": {"rule": "back_row"}, "blue": {"rule": "back_row"}},
        "objective": {"kind": "wipe_out"},
    }
    data.update(overrides)
    return data


def position(
    pieces: dict[str, tuple[str, str]],
    rows: tuple[str, ...] = OPEN,
    *,
    player: str = "red",
    phase: str = "move",
    dice: list[int] | None = None,
    **overrides: Any,
) -> TTTGame:
    """A game in the middle of play: `pieces` maps ids (`r1`, `b2`) to (kind, square)."""
    ruleset = registry.get("ttt")
    data = ruleset.scenario_from_data(scenario_data(rows, **overrides))
    game = ruleset.new_game(data, 1, ScriptedDice(dice or []))
    assert isinstance(game, TTTGame)
    state = game.state
    state.phase, state.player = phase, player
    state.to_place = {"red": [], "blue": []}
    state.choose_left = {"red": 0, "blue": 0}
    for pid, (kind, square) in pieces.items():
        side = "red" if pid.startswith("r") else "blue"
        state.pieces[pid] = Piece(pid, side, kind, Square.parse(square))
    return game


def sq(text: str) -> Square:
    """Square from text."""
    return Square.parse(text)
