"""WINNING THE GAME: the first player to fulfil the operation's objective wins.

Whatever the operation, a side with no pieces left has lost (ruling TTT-R11). An operation
still undecided after its turn limit is a draw (ruling TTT-R12).
"""

from __future__ import annotations

from warbench.rulesets.ttt.state import State
from warbench.rulesets.ttt.table import Table


def other(side: str) -> str:
    """The opposing side."""
    return "blue" if side == "red" else "red"


def decided(table: Table, state: State) -> tuple[str, str] | None:
    """(winner, reason) as soon as an objective is met, checked after every action."""
    objective = table.scenario.objective.kind
    in_play = {p.side for p in state.pieces.values()}
    for side in ("red", "blue"):
        if side not in in_play:
            return other(side), f"{side} has no pieces left"
    if objective == "enter_bunker":
        for piece in state.pieces.values():
            if piece.square in table.homes[other(piece.side)]:
                return piece.side, (
                    f"{piece.side} {piece.kind} {piece.id} entered {other(piece.side)}'s bunker"
                )
    if objective == "take_out_captain":
        for side in ("red", "blue"):
            if not any(p.kind == "Captain" for p in state.side_pieces(side)):
                return other(side), f"{side}'s Captain was taken out"
    return None


def hold_bridge(table: Table, state: State, side: str) -> tuple[str, str] | None:
    """Capture the Crossing, counted at the end of each of `side`'s turns (ruling TTT-R10)."""
    if table.scenario.objective.kind != "hold_bridge":
        return None
    held = any(p.square in table.bridge for p in state.side_pieces(side))
    state.bridge[side] = state.bridge[side] + 1 if held else 0
    needed = table.scenario.objective.turns
    if state.bridge[side] >= needed:
        return side, f"{side} held the bridge for {needed} consecutive turns"
    return None
