"""Moving a piece: up to its Move in orthogonal steps, reduced by TERRAIN.

Rulings: steps are orthogonal, no diagonals (TTT-R1); a piece may not pass through other
pieces or buildings (TTT-R2); the terrain of every square it starts on or enters applies,
the most detrimental winning, and every piece may move at least 1 square (TTT-R3).
"""

from __future__ import annotations

from warbench.core.grid import Square
from warbench.rulesets.ttt.state import Piece, State
from warbench.rulesets.ttt.table import Table


def reachable(table: Table, state: State, piece: Piece) -> dict[Square, int]:
    """Each empty square `piece` can move to now, with the fewest steps to reach it.

    A square is reachable along a path when the path's length is at most the smallest
    allowance of the squares on it (start included); the allowances of one piece take few
    values, so each is tried as a cap with a breadth-first search over squares allowing it.
    """
    allowance, caps = table.allowances(piece.kind)
    occupied = {p.square for p in state.pieces.values()}
    start = piece.square
    if caps == (1,):  # one square whatever the ground: the free neighbours
        return {sq: 1 for sq in table.battlefield.links[start] if sq not in occupied}
    found: dict[Square, int] = {}
    for cap in caps:
        if cap > allowance[start]:
            continue
        links = table.steps(piece.kind, cap)
        frontier, steps = [start], {start: 0}
        for depth in range(1, cap + 1):
            reached = []
            for sq in frontier:
                for nxt in links[sq]:
                    if nxt not in steps and nxt not in occupied:
                        steps[nxt] = depth
                        reached.append(nxt)
            frontier = reached
        for sq, depth in steps.items():
            if depth < found.get(sq, cap + 1) and sq != start:
                found[sq] = depth
    return found
