"""TERRAIN and moving: orthogonal steps, terrain modifiers, at least 1 square, buildings."""

from __future__ import annotations

import pytest

from tests.rulesets.ttt.position import position, sq
from warbench.core.game import IllegalAction
from warbench.rulesets.ttt.actions import Move
from warbench.rulesets.ttt.movement import reachable
from warbench.rulesets.ttt.pieces import PieceProfile, squad_sheet
from warbench.rulesets.ttt.terrain import most_detrimental, terrain_table


def _reach(rows: tuple[str, ...], kind: str, at: str) -> set[str]:
    game = position({"r1": (kind, at), "b1": ("Guard", "H8")}, rows)
    return {str(s) for s in reachable(game.table, game.state, game.state.pieces["r1"])}


def test_open_ground_moves_up_to_move_without_diagonals() -> None:
    found = _reach(("........",) * 8, "Recon", "D4")  # Move 4
    assert "D8" in found and "H4" in found and "B2" in found  # 2 + 2 = 4 orthogonal steps
    assert "A1" not in found  # 3 + 3 = 6 steps: diagonals do not count as one


def test_woods_rocky_swamp_river_table() -> None:
    table = terrain_table()
    recon = _piece("Recon")
    assert (table["woods"].tbh, table["woods"].allowance(recon)) == (2, 3)
    assert (table["rocky"].tbh, table["rocky"].allowance(recon)) == (1, 3)
    assert (table["swamp"].tbh, table["swamp"].allowance(recon)) == (0, 2)
    assert table["river"].allowance(recon) == 2 and not table["river"].attack
    assert table["woods"].cover and table["rocky"].cover and not table["swamp"].cover


def _piece(kind: str) -> PieceProfile:
    return squad_sheet()[kind]


def test_every_piece_may_move_at_least_one_square() -> None:
    rows = ("SSSSSSSS",) * 8
    assert _reach(rows, "Guard", "D4") == {"D5", "E4", "D3", "C4"}  # Move 1 - 2 → 1


def test_terrain_entered_reduces_the_move() -> None:
    # Recon (Move 4) starting in the open; the woods at D6 cap any path through it at 3.
    rows = (
        "........",
        "........",
        "...W....",
        "........",
        "........",
        "........",
        "........",
        "........",
    )
    found = _reach(rows, "Recon", "D2")
    assert "D6" not in found  # 4 steps, but entering woods allows only 3
    assert "D5" in found and "C5" in found


def test_woods_and_swamp_on_one_square_apply_the_swamp() -> None:
    """Rulebook: a piece on woods and swamp suffers -2 move and gets no TBH bonus."""
    assert most_detrimental(frozenset({"woods", "swamp"})) == "swamp"
    game = position({"r1": ("Recon", "D4"), "b1": ("Guard", "H8")}, ("MMMMMMMM",) * 8)
    assert game.table.battlefield.terrain[sq("D4")] == "swamp"
    assert max(reachable(game.table, game.state, game.state.pieces["r1"]).values()) == 2


def test_buildings_and_pieces_cannot_be_moved_through() -> None:
    rows = ("........",) * 4 + ("...#....", "..#.#...", "...#....", "........")
    found = _reach(rows, "Recon", "D3")  # walled in on all four sides
    assert found == set()
    game = position(
        {"r1": ("Recon", "A1"), "r2": ("Guard", "A2"), "r3": ("Guard", "B1"), "b1": ("Guard", "H8")}
    )
    assert reachable(game.table, game.state, game.state.pieces["r1"]) == {}


def test_berserker_ignores_terrain_move_penalties() -> None:
    game = position({"r1": ("Berserker", "D4"), "b1": ("Guard", "H8")}, ("SSSSSSSS",) * 8)
    steps = reachable(game.table, game.state, game.state.pieces["r1"])
    assert max(steps.values()) == 3  # full Move 3 in swamp


def test_an_unreachable_move_is_refused_listing_where_it_can_go() -> None:
    game = position({"r1": ("Guard", "A1"), "b1": ("Guard", "H8")})
    before = game.state_hash()
    with pytest.raises(IllegalAction, match=r"cannot reach C1.*can reach: A2 B1"):
        game.apply(Move("r1", sq("C1")))
    assert game.state_hash() == before
