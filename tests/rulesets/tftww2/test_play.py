"""`warbench play tftww2`: every scenario AI against AI to a verified record, and a person
against the AI at the prompt."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app

runner = CliRunner()


@pytest.mark.parametrize("scenario", ["patrol", "building-assault", "combined-arms"])
def test_ai_against_ai_plays_to_the_end_and_verifies(scenario: str, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "tftww2", "--scenario", scenario, "--red", "ai", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "3", "--save", str(record)])
    assert result.exit_code == 0, result.output
    assert [ln for ln in result.output.splitlines() if ln.startswith("result: ")]
    verified = runner.invoke(app, ["replay", str(record), "--verify"])
    assert verified.exit_code == 0, verified.output


def test_a_person_orders_his_men_against_the_ai() -> None:
    typed = (
        "\n".join(
            ["board", "run r1 40 0", "position r1", "walk r2 11,3 0", "done", "done", "log", "quit"]
        )
        + "\n"
    )
    args = ["play", "tftww2", "--scenario", "patrol", "--red", "human", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "1"], input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "US rifle squad" in out  # the board
    assert "runs up to 16" in out  # a refused order names the limit
    assert "r1 is now prone" in out and "r2 walks" in out
