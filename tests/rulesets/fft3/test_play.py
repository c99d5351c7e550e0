"""`warbench play fft3`: both scenarios AI against AI to the end with records that verify, and
a person at the prompt against the AI."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app

runner = CliRunner()


@pytest.mark.parametrize("scenario", ["meeting-engagement", "deliberate-attack"])
def test_ai_against_ai_plays_to_the_end_and_the_record_verifies(
    scenario: str, tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    args = ["play", "fft3", "--scenario", scenario, "--red", "ai", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "4", "--save", str(record)])
    assert result.exit_code == 0, result.output
    assert "turn 1 begins" in result.output
    assert [ln for ln in result.output.splitlines() if ln.startswith("result: ")]
    verified = runner.invoke(app, ["replay", str(record), "--verify"])
    assert verified.exit_code == 0, verified.output


def test_a_person_plays_against_the_ai() -> None:
    typed = "\n".join(["board", "deploy n9 36,44", "deploy n1 36,44", "log", "quit"]) + "\n"
    args = ["play", "fft3", "--scenario", "meeting-engagement-even", "--blue", "human"]
    result = runner.invoke(app, [*args, "--red", "ai", "--seed", "1"], input=typed)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert 'table 72"x48"' in out  # the board
    assert "'n9' is not one of your units still to deploy" in out
    assert "blue deploys unit n1 around 36,44" in out
