"""SAMPLE OPERATIONS and WINNING THE GAME: each objective, shipped boards, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rulesets.ttt.position import position, scenario_data, sq
from warbench.core import registry
from warbench.core.game import GameOver
from warbench.rulesets.ttt.actions import Attack, End, Move, Pass

BUNKERS = (
    "......BB",
    "......BB",
    "........",
    "........",
    "........",
    "........",
    "BB......",
    "BB......",
)


def test_entering_the_enemy_bunker_wins() -> None:
    game = position(
        {"r1": ("Recon", "F6"), "b1": ("Guard", "A3")},
        BUNKERS,
        objective={"kind": "enter_bunker"},
        homes={"red": "A1", "blue": "H8"},
    )
    game.apply(Move("r1", sq("G7")))
    pending = game.pending
    assert isinstance(pending, GameOver) and pending.winner == "red"
    assert "bunker" in pending.reason


def test_taking_out_the_captain_wins() -> None:
    pieces = {
        "r1": ("Recon", "D2"),
        "r2": ("Captain", "A1"),
        "b1": ("Captain", "D4"),
        "b2": ("Guard", "H8"),
    }
    game = position(pieces, phase="attack", dice=[6], objective={"kind": "take_out_captain"})
    game.apply(Attack("r1", "b1"))
    pending = game.pending
    assert isinstance(pending, GameOver) and pending.winner == "red"
    assert "Captain" in pending.reason


BRIDGE = (
    "........",
    "........",
    "........",
    "~~~==~~~",
    "~~~==~~~",
    "........",
    "........",
    "........",
)


def test_the_bridge_must_be_held_three_consecutive_turns() -> None:
    game = position(
        {"r1": ("Guard", "D4"), "b1": ("Guard", "H8")},
        BRIDGE,
        objective={"kind": "hold_bridge", "turns": 3},
    )
    for _ in range(2):
        game.apply(Pass())  # red ends a turn on the bridge
        game.apply(Pass())  # blue
    assert game.state.bridge["red"] == 2
    game.apply(Pass())
    pending = game.pending
    assert isinstance(pending, GameOver) and pending.winner == "red"


def test_leaving_the_bridge_resets_the_count() -> None:
    game = position(
        {"r1": ("Recon", "D4"), "b1": ("Guard", "H8")},
        BRIDGE,
        objective={"kind": "hold_bridge", "turns": 3},
    )
    game.apply(Pass())
    game.apply(Pass())
    game.apply(Move("r1", sq("D1")))
    assert game.state.bridge["red"] == 0


def test_wiping_out_the_enemy_wins() -> None:
    game = position({"r1": ("Recon", "D2"), "b1": ("Guard", "D4")}, phase="attack", dice=[5])
    game.apply(Attack("r1", "b1"))
    pending = game.pending
    assert isinstance(pending, GameOver) and pending.winner == "red"
    assert pending.line() == "result: red — blue has no pieces left"
    with pytest.raises(ValueError, match="game is over"):
        game.apply(End())


def test_all_five_operations_ship_with_their_boards() -> None:
    ruleset = registry.get("ttt")
    ids = {s.id for s in ruleset.scenarios()}
    assert ids == {
        "besiege-the-bunker",
        "cap-the-capn",
        "capture-the-crossing",
        "sweep-the-settlement",
        "the-art-of-war",
    }
    boards = {sid: [b["board"] for b in ruleset.load_scenario(sid)["boards"]] for sid in ids}
    assert boards["besiege-the-bunker"] == [1]
    assert boards["cap-the-capn"] == [2, 3]
    assert boards["capture-the-crossing"] == [4]
    assert boards["sweep-the-settlement"] == [5, 6]
    assert len(boards["the-art-of-war"]) >= 3


def test_broken_scenario_files_name_what_is_wrong(tmp_path: Path) -> None:
    ruleset = registry.get("ttt")
    path = tmp_path / "bad.yaml"
    path.write_text("id: x\nname: y\n")
    with pytest.raises(ValueError, match="summary: Field required"):
        ruleset.load_scenario(str(path))
    data = scenario_data(forces={"red": {"pieces": ["Wizard"]}, "blue": {"choose": 1}})
    with pytest.raises(ValueError, match="'Wizard' is not on the squad sheet"):
        ruleset.scenario_from_data(data)
    data = scenario_data(boards=[{"board": 1, "at": [0, 0]}, {"board": 2, "at": [4, 0]}])
    with pytest.raises(ValueError, match="overlaps"):
        ruleset.scenario_from_data(data)
    data = scenario_data(objective={"kind": "hold_bridge"})
    with pytest.raises(ValueError, match="needs a board with a bridge"):
        ruleset.scenario_from_data(data)
    with pytest.raises(ValueError, match="no Table Top Troopers operation 'nope'"):
        ruleset.load_scenario("nope")
