"""ATTACKING: range without diagonals, sight, AIM, and the to-hit roll.

Roll a d6, add the to-hit bonus (TH, and +1 for AIM at this target), subtract the terrain
modifier of the target's square; the piece is hit when the result is HIGHER than its TBH.
A 1 always misses and a 6 always hits. A piece in a river may not attack.
"""

from __future__ import annotations

from warbench.core.dice import Read, RollRequest
from warbench.rulesets.ttt.state import Piece, State
from warbench.rulesets.ttt.table import Table
from warbench.rulesets.ttt.terrain import terrain_table

NATURAL_MISS = frozenset({1})
NATURAL_HIT = frozenset({6})


def can_attack_from(table: Table, piece: Piece) -> bool:
    """River: No Attack (and buildings cannot be stood in)."""
    return piece.square in table.firing_squares


def in_range(table: Table, attacker: Piece, target: Piece) -> bool:
    """Within the attacker's Range counted orthogonally, with line of sight."""
    return target.square in table.field_of_fire(attacker.square, table.profile(attacker.kind).range)


def targets(table: Table, state: State, attacker: Piece) -> list[Piece]:
    """Enemies `attacker` could attack now (in range and sight, not from a river)."""
    if not can_attack_from(table, attacker):
        return []
    zone = table.field_of_fire(attacker.square, table.profile(attacker.kind).range)
    return [p for p in state.pieces.values() if p.side != attacker.side and p.square in zone]


def to_hit(table: Table, attacker: Piece, target: Piece) -> RollRequest:
    """The labelled roll with every modifier as (reason, value)."""
    profile = table.profile(attacker.kind)
    kind = table.battlefield.terrain[target.square]
    modifiers: list[tuple[str, int]] = []
    if profile.th:
        modifiers.append((f"{attacker.kind} to-hit bonus", profile.th))
    if attacker.aim == target.id:
        modifiers.append(("aimed", 1))
    cover = terrain_table()[kind].tbh
    if cover:
        modifiers.append((f"target in {kind}", -cover))
    return RollRequest(
        label=f"to hit: {attacker.side} {attacker.kind} {attacker.id} → "
        f"{target.side} {target.kind} {target.id} (TBH {table.profile(target.kind).tbh})",
        read=Read.OVER,
        target=table.profile(target.kind).tbh,
        modifiers=tuple(modifiers),
        always_succeed=NATURAL_HIT,
        always_fail=NATURAL_MISS,
    )
