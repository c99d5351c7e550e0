"""GAME SET-UP: players take turns placing their men one at a time within the operation's
placement limits; the player who placed first goes first."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

from warbench.core.grid import Square
from warbench.core.words import counted
from warbench.rulesets.ttt.state import State

if TYPE_CHECKING:  # the table checks at build time that every side's pieces fit (`room`)
    from warbench.rulesets.ttt.table import Table


def placeable_kinds(table: Table, state: State, side: str) -> list[str]:
    """Kinds `side` may place next: named pieces first-come, or any chosen piece.

    Pieces chosen freely ("Any N") are any non-Captain kind, at most `max_each` of a kind
    (ruling TTT-R9). With corner placement the Captain goes down first (ruling TTT-R8).
    """
    force = table.scenario.forces[side]
    rule = table.scenario.placement[side]
    named = state.to_place[side]
    if rule.rule == "corner" and not _captain_placed(state, side) and "Captain" in named:
        return ["Captain"]
    kinds = set(named)
    if state.choose_left[side] > 0:
        counts = Counter(p.kind for p in state.side_pieces(side))
        counts.update(named)
        kinds |= {
            kind
            for kind, profile in table.sheet.items()
            if not profile.has("command") and counts[kind] < force.max_each
        }
    return sorted(kinds)


def _captain_placed(state: State, side: str) -> bool:
    return any(p.kind == "Captain" for p in state.side_pieces(side))


def zone(table: Table, state: State, side: str, kind: str) -> list[Square]:
    """Empty, passable squares where `side` may place a `kind` now."""
    captain_first = kind == "Captain" and not _captain_placed(state, side)
    occupied = {p.square for p in state.pieces.values()}
    return [sq for sq in area(table, side, captain_first) if sq not in occupied]


@lru_cache(maxsize=256)
def area(table: Table, side: str, captain_first: bool) -> tuple[Square, ...]:
    """The passable squares of `side`'s placement limits (the Captain's corner first)."""
    field = table.battlefield
    rule = table.scenario.placement[side]
    squares: list[Square]
    if rule.rule == "adjacent_to_home":
        home = table.homes[side]
        squares = sorted({n for sq in home for n in sq.around() if n not in home})
    elif rule.rule == "corner":
        corner = Square.parse(rule.corner)
        if captain_first:
            squares = [corner]
        else:
            squares = [
                sq for sq in field.grid.squares() if sq.distance(corner) <= rule.others_within
            ]
    elif rule.rule == "back_row":
        row = 0 if side == "red" else field.grid.height - 1
        squares = [Square(col, row) for col in range(field.grid.width)]
    else:
        squares = [sq for sq in field.grid.squares() if sq in field.boards[rule.board]]
    return tuple(sq for sq in squares if field.passable(sq))


def room(table: Table) -> None:
    """Refuse an operation whose pieces cannot all be placed (ValueError naming the side):
    more than its placement limits hold, or more free choices than `max_each` of each kind
    allows (ruling TTT-R9); either would leave a player with no legal placement."""
    scenario = table.scenario
    for side, force in scenario.forces.items():
        squares = len(area(table, side, False))
        if len(force.pieces) + force.choose > squares:
            raise ValueError(
                f"{scenario.id}: {side} has {len(force.pieces) + force.choose} pieces to "
                f"place but its placement limits hold {counted(squares, 'square')}"
            )
        kinds = [k for k, profile in table.sheet.items() if not profile.has("command")]
        free = sum(max(0, force.max_each - force.pieces.count(k)) for k in kinds)
        if force.choose > free:
            raise ValueError(
                f"{scenario.id}: {side} chooses {force.choose} pieces freely, but at most "
                f"{force.max_each} of each of {', '.join(kinds)} allows {free}"
            )
