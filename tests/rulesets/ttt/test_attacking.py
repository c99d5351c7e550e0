"""ATTACKING: range without diagonals, sight, the d6 against TBH, naturals, AIM, rivers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.rulesets.ttt.position import position
from warbench.core.dice import exact_outcomes, resolve
from warbench.core.game import IllegalAction
from warbench.rulesets.ttt import attacking
from warbench.rulesets.ttt.actions import Aim, Attack, End, Pass


def test_diagram_1_range_and_line_of_sight() -> None:
    """Diagram #1: Recon may attack, Shot-Gun is out of range, M-Gunner has no sight."""
    rows = (
        "........",
        "........",
        "........",
        "........",
        "..#.....",
        "........",
        "........",
        "........",
    )
    game = position(
        {
            "b1": ("Guard", "C6"),
            "r1": ("Recon", "C8"),  # Range 2, two squares straight up: may attack
            "r2": ("Shot-Gun", "D7"),  # Range 1, diagonal neighbour = 2 squares: out of range
            "r3": ("M-Gunner", "C2"),  # Range 5, 4 squares, but the building at C4 blocks
        },
        rows,
        phase="attack",
    )
    table, state = game.table, game.state
    target = state.pieces["b1"]
    assert attacking.in_range(table, state.pieces["r1"], target)
    assert not attacking.in_range(table, state.pieces["r2"], target)
    assert state.pieces["r3"].square.distance(target.square) <= 5
    assert not attacking.in_range(table, state.pieces["r3"], target)
    assert [a for a in game.legal_actions("red") if isinstance(a, Attack)] == [Attack("r1", "b1")]


def _attack(
    target_square: str,
    rows: tuple[str, ...],
    die: int,
    *,
    aim: bool = False,
    kind: str = "Recon",
    target: str = "Guard",
) -> bool:
    game = position(
        {"r1": (kind, "D2"), "b1": (target, target_square), "b2": ("Guard", "H8")},
        rows,
        phase="attack",
        dice=[die],
    )
    if aim:
        game.state.pieces["r1"].aim = "b1"
    events = game.apply(Attack("r1", "b1"))
    roll = next(e.roll for e in events if e.roll is not None)
    assert roll.faces == (die,)
    return "b1" not in game.state.pieces


OPEN = ("........",) * 8


def test_modified_roll_must_be_higher_than_tbh() -> None:
    # Recon TH 0 against Guard TBH 4 in the open: 4 misses, 5 hits.
    assert not _attack("D4", OPEN, 4)
    assert _attack("D4", OPEN, 5)


def test_terrain_modifier_is_subtracted() -> None:
    rows = ("........",) * 4 + ("...W....",) + ("........",) * 3  # woods at D4: +2 TBH
    assert not _attack("D4", rows, 5)  # 5 - 2 = 3, not higher than 4
    rocky = ("........",) * 4 + ("...R....",) + ("........",) * 3
    assert _attack("D4", rocky, 6)
    game = position({"r1": ("Recon", "D2"), "b1": ("Guard", "D4")}, rows, phase="attack")
    request = attacking.to_hit(game.table, game.state.pieces["r1"], game.state.pieces["b1"])
    assert ("target in woods", -2) in request.modifiers and request.target == 4


def test_to_hit_bonus_is_added() -> None:
    # Shot-Gun TH 2, range 1, against Recon TBH 3: a 2 makes 4, a hit.
    game = position(
        {"r1": ("Shot-Gun", "D3"), "b1": ("Recon", "D4")}, OPEN, phase="attack", dice=[2]
    )
    game.apply(Attack("r1", "b1"))
    assert "b1" not in game.state.pieces


def test_a_one_always_misses_and_a_six_always_hits() -> None:
    # A custom piece with TH 6 (costs 9) would hit a Recon on any roll but for the natural 1.
    extra = {"name": "Ace", "move": 1, "range": 1, "th": 6, "tbh": 1}
    game = position(
        {"r1": ("Ace", "D3"), "b1": ("Recon", "D4")},
        OPEN,
        phase="attack",
        dice=[1],
        extra_pieces=[extra],
    )
    events = game.apply(Attack("r1", "b1"))
    assert "b1" in game.state.pieces  # 1 + 6 = 7 > 3, but a 1 always misses
    assert any("natural 1 always fails" in e.text for e in events)
    woods = ("WWWWWWWW",) * 8  # Guard TBH 4 + 2 woods: only a 6 can hit
    assert _attack("D4", woods, 6)
    assert not _attack("D4", woods, 5)


def test_exact_odds_of_an_attack_come_from_the_play_code() -> None:
    game = position({"r1": ("Recon", "D2"), "b1": ("Guard", "D4")}, OPEN, phase="attack")
    request = attacking.to_hit(game.table, game.state.pieces["r1"], game.state.pieces["b1"])
    odds = exact_outcomes(lambda dice: resolve(request, dice.faces(request)).success)
    assert odds[True] == Fraction(2, 6)  # needs 5 or 6


def test_aim_gives_plus_one_only_against_its_target() -> None:
    assert not _attack("D4", OPEN, 4)
    assert _attack("D4", OPEN, 4, aim=True)
    game = position(
        {"r1": ("Recon", "D2"), "b1": ("Guard", "D4"), "b2": ("Guard", "E3")},
        OPEN,
        phase="attack",
        dice=[4],
    )
    game.state.pieces["r1"].aim = "b1"
    game.apply(Attack("r1", "b2"))
    assert "b2" in game.state.pieces  # aimed at b1, so no bonus against b2


def test_aim_counts_as_the_move_and_needs_a_target_in_range() -> None:
    game = position({"r1": ("Recon", "D2"), "b1": ("Guard", "D4"), "b2": ("Guard", "H8")})
    with pytest.raises(IllegalAction, match="not in range"):
        game.apply(Aim("r1", "b2"))
    game.apply(Aim("r1", "b1"))
    assert game.state.phase == "attack"  # the one move of the turn is spent
    assert game.state.pieces["r1"].aim == "b1"


def test_aim_lasts_until_the_end_of_the_turn() -> None:
    game = position({"r1": ("Recon", "D2"), "b1": ("Guard", "D4"), "b2": ("Guard", "H8")}, dice=[4])
    game.apply(Aim("r1", "b1"))
    game.apply(End())
    assert game.state.pieces["r1"].aim is None and game.state.player == "blue"


def test_no_attack_from_a_river() -> None:
    rows = ("........",) * 6 + ("~~~~~~~~", "........")
    game = position(
        {"r1": ("Recon", "D2"), "b1": ("Guard", "D3"), "b2": ("Guard", "H8")}, rows, phase="attack"
    )
    assert not attacking.targets(game.table, game.state, game.state.pieces["r1"])
    with pytest.raises(IllegalAction, match="river"):
        game.apply(Attack("r1", "b1"))


def test_each_piece_attacks_once_and_any_piece_may_attack() -> None:
    game = position(
        {
            "r1": ("Recon", "D2"),
            "r2": ("Guard", "E4"),
            "b1": ("Guard", "D4"),
            "b2": ("Guard", "H8"),
        },
        phase="attack",
        dice=[2, 2],
    )
    game.apply(Attack("r1", "b1"))
    with pytest.raises(IllegalAction, match="already attacked"):
        game.apply(Attack("r1", "b1"))
    game.apply(Attack("r2", "b1"))  # a piece that did not move attacks too
    assert game.state.player == "blue"  # no attacks left: the turn ends by itself


def test_pass_goes_to_attacks() -> None:
    game = position({"r1": ("Recon", "D2"), "b1": ("Guard", "D4")})
    game.apply(Pass())
    assert game.state.phase == "attack"
