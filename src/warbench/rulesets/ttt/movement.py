"""Moving a piece: up to its Move in orthogonal steps, reduced by TERRAIN.

Rulings: steps are orthogonal, no diagonals (TTT-R1); a piece may not pass through other
pieces or buildings (TTT-R2); the terrain of every square it starts on or enters applies,
the most detrimental winning, and every piece may move at least 1 square (TTT-R3).
"""

from __future__ import annotations

from warbench.core.grid import Square
from warbench.rulesets.ttt.state import Piece, State
from warbench.rulesets.ttt.table import Table
from warbench.rulesets.ttt.terrain import terrain_table


def reachable(table: Table, state: State, piece: Piece) -> dict[Square, int]:
    """Each empty square `piece` can move to now, with the fewest steps to reach it.

    A square is reachable along a path when the path's length is at most the smallest
    allowance of the squares on it (start included); the allowances of one piece take few
    values, so each is tried as a cap with a breadth-first search over squares allowing it.
    """
    field = table.battlefield
    effects = terrain_table()
    profile = table.profile(piece.kind)
    allowance = {kind: effects[kind].allowance(profile) for kind in effects}
    occupied = {p.square for p in state.pieces.values()}
    start_cap = allowance[field.terrain[piece.square]]
    found: dict[Square, int] = {}
    for cap in sorted({a for a in allowance.values() if a <= start_cap}, reverse=True):
        frontier, steps = [piece.square], {piece.square: 0}
        while frontier:
            nxt_frontier = []
            for sq in frontier:
                depth = steps[sq] + 1
                if depth > cap:
                    continue
                for nxt in sq.neighbours():
                    if nxt in steps or nxt in occupied or not field.passable(nxt):
                        continue
                    if allowance[field.terrain[nxt]] < cap:
                        continue
                    steps[nxt] = depth
                    nxt_frontier.append(nxt)
            frontier = nxt_frontier
        for sq, depth in steps.items():
            if sq != piece.square and depth < found.get(sq, depth + 1):
                found[sq] = depth
    return found
