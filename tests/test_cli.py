"""The command line: rulesets, play (AI and human), replay --verify, render."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.rulesets.ttt.position import OPERATIONS
from warbench.cli import app

runner = CliRunner()


def test_rulesets_lists_ttt_and_its_operations() -> None:
    result = runner.invoke(app, ["rulesets"])
    assert result.exit_code == 0
    assert "ttt" in result.output
    for operation in OPERATIONS:
        assert operation in result.output


@pytest.mark.parametrize("operation", OPERATIONS)
def test_ai_game_ends_with_the_result_line_and_its_record_verifies(
    operation: str, tmp_path: Path
) -> None:
    record = tmp_path / f"{operation}.json"
    result = runner.invoke(
        app,
        [
            "play",
            "ttt",
            "--scenario",
            operation,
            "--red",
            "ai",
            "--blue",
            "random",
            "--seed",
            "11",
            "--save",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    last = [line for line in result.output.splitlines() if line.startswith("result: ")]
    assert len(last) == 1 and last[0].split()[1] in ("red", "blue", "draw")
    verified = runner.invoke(app, ["replay", str(record), "--verify"])
    assert verified.exit_code == 0, verified.output
    assert "every roll and state hash matches" in verified.output


def _ai_game(tmp_path: Path, operation: str, seed: int) -> Path:
    """Play `operation` AI against AI and return its saved record."""
    record = tmp_path / "game.json"
    args = ["play", "ttt", "--scenario", operation, "--red", "ai", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", str(seed), "--save", str(record)])
    assert result.exit_code == 0, result.output
    return record


def test_replay_verify_fails_on_a_tampered_record(tmp_path: Path) -> None:
    record = _ai_game(tmp_path, "capture-the-crossing", 4)
    data = json.loads(record.read_text())
    step = next(s for s in data["steps"] if s["rolls"])
    step["rolls"][0][0] = 7 - step["rolls"][0][0]
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record), "--verify"])
    assert result.exit_code == 2
    assert "differ" in result.output


def test_replay_shows_every_step_and_roll(tmp_path: Path) -> None:
    record = _ai_game(tmp_path, "besiege-the-bunker", 7)
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0
    assert "1. red: place" in result.output
    assert "to hit:" in result.output and "result: " in result.output


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_render_draws_the_table(suffix: str, tmp_path: Path) -> None:
    record = _ai_game(tmp_path, "cap-the-capn", 2)
    out = tmp_path / f"table.{suffix}"
    result = runner.invoke(app, ["render", str(record), "-o", str(out), "--step", "15"])
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 1000
    bad = runner.invoke(app, ["render", str(record), "-o", str(tmp_path / "table.gif")])
    assert bad.exit_code != 0 and "png or .svg" in bad.output


def test_a_human_is_prompted_corrected_and_can_save(tmp_path: Path) -> None:
    save = tmp_path / "mid.json"
    typed = (
        "\n".join(
            [
                "help",
                "fly r1 Z9",  # not an action: the allowed forms are listed
                "place Recon H8",  # outside the placement area: refused, state unchanged
                "999",  # no such number
                "1",  # the first legal action by number
                "board",
                "log",
                f"save {save}",
                "quit",
            ]
        )
        + "\n"
    )
    result = runner.invoke(
        app,
        [
            "play",
            "ttt",
            "--scenario",
            "besiege-the-bunker",
            "--red",
            "human",
            "--blue",
            "ai",
            "--seed",
            "5",
        ],
        input=typed,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Actions now: place KIND TO" in out and "Every action form: " in out
    assert "unknown action 'fly'; allowed now: place KIND TO (at other decisions: move," in out
    assert "outside your placement area" in out
    assert "no action number 999" in out
    assert "red places" in out and "blue places" in out  # the human's move, then the AI's
    assert "key: . plain" in out  # the board
    saved = json.loads(save.read_text())
    assert [s["player"] for s in saved["steps"]] == ["red", "blue"]


@pytest.mark.parametrize("typed", ["-1", "1.5", "999"])
def test_a_number_that_is_no_action_s_says_which_numbers_there_are(typed: str) -> None:
    """-1 and 1.5 were 'unknown action'; any number names the range of action numbers."""
    args = ["play", "ttt", "--scenario", "besiege-the-bunker", "--red", "human", "--seed", "5"]
    result = runner.invoke(app, args, input=f"{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    assert re.search(rf"no action number {re.escape(typed)}; pick 1 to \d+", result.output)
    assert "unknown action" not in result.output


def _words(text: str) -> str:
    """Error panels wrap and frame their text: compare words only."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_bad_options_are_named() -> None:
    result = runner.invoke(app, ["play", "ttt", "--red", "wizard"])
    assert result.exit_code != 0 and "allowed: human, random, ai" in _words(result.output)
    result = runner.invoke(app, ["play", "nope"])
    assert result.exit_code != 0 and "no ruleset 'nope'" in _words(result.output)
    result = runner.invoke(app, ["play", "ttt", "--scenario", "nope"])
    assert result.exit_code != 0
    assert "no Table Top Troopers operation 'nope'" in _words(result.output)
