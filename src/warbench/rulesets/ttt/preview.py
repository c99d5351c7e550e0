"""What a ttt player sees before confirming: each square a piece can move to with its cost
in squares (MOVEMENT, `movement.reachable`), and its Range (ATTACKING: orthogonal squares)."""

from __future__ import annotations

import math

from warbench.core.actions import Action
from warbench.core.preview import PathCost, Reach
from warbench.rulesets.ttt.actions import Move
from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.movement import reachable


def reach(game: TTTGame, player: str, piece: str) -> list[Reach]:
    """The squares `piece` may move to now, each with the fewest steps to it."""
    found = game.state.pieces.get(piece)
    if found is None or found.side != player:
        return []
    moves = {str(a) for a in game.legal_actions(player) if a.verb == "move"}
    costs = reachable(game.table, game.state, found)
    squares = tuple(
        (str(sq), float(cost))
        for sq, cost in sorted(costs.items(), key=lambda item: (item[1], str(item[0])))
        if f"move {piece} {sq}" in moves
    )
    if not squares:
        return []
    centre = (found.square.col + 0.5, found.square.row + 0.5)
    allowance = float(game.table.profile(found.kind).move)
    return [Reach(piece, "move", centre, squares, allowance=allowance)]


def ranges(game: TTTGame, piece: str) -> list[tuple[str, float]]:
    """The piece's Range in squares (counted orthogonally, no diagonals)."""
    found = game.state.pieces.get(piece)
    if found is None:
        return []
    reach = game.table.profile(found.kind).range
    return [(f"Range {reach}", float(reach))]


def path_cost(game: TTTGame, player: str, action: Action) -> PathCost | None:
    """A move's cost: the fewest squares to it (`movement.reachable`), of the Move."""
    if not isinstance(action, Move):
        return None
    found = game.state.pieces.get(action.piece)
    if found is None or found.side != player:
        return None
    cost = reachable(game.table, game.state, found).get(action.to)
    allowance = float(game.table.profile(found.kind).move)
    if cost is None:
        return PathCost(math.inf, allowance, "squares", f"no way to {action.to} this turn")
    return PathCost(
        float(cost),
        allowance,
        "squares",
        "orthogonal steps round pieces and buildings, the terrain capping the Move",
    )
