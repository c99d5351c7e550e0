"""`warbench play fftt`: every pairing AI against AI to a verified record, and a person at
the prompt who sees none of the enemy's deployment behind the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    "scenario",
    [
        "marines-vs-machina",
        "marines-vs-insectoids",
        "machina-vs-insectoids",
        "behind-the-screen",
        "marines-vs-machina-relay",
        "marines-vs-insectoids-generals",
    ],
)
def test_ai_against_ai_plays_to_the_end_and_verifies(scenario: str, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "fftt", "--scenario", scenario, "--red", "ai", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "3", "--save", str(record)])
    assert result.exit_code == 0, result.output
    assert [ln for ln in result.output.splitlines() if ln.startswith("result: ")]
    assert "deployed at" not in result.output  # the screen hides both sides from spectators
    verified = runner.invoke(app, ["replay", str(record), "--verify"])
    assert verified.exit_code == 0, verified.output


def test_a_person_deploys_behind_the_screen_against_the_ai() -> None:
    typed = "\n".join(
        ["board", "table 90 100", "scenery", "deploy r1 50,40", "deploy r1 50,75", "log", "quit"]
    )
    args = ["play", "fftt", "--scenario", "marines-vs-machina", "--red", "human", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "2"], input=typed + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "blue is the attacker" in out
    assert "now is the scenery step; allowed: scenery" in out
    assert "deploy in your north zone, 10 cm deep" in out
    assert "r1 (HQ) deployed at 50,75" in out
    assert "(HQ) deployed at" in out and "b1 (HQ) deployed" not in out  # blue's stay hidden


def test_a_person_writes_a_force_of_their_lists_at_the_prompt() -> None:
    """R52: after the side, the person's lists are offered with their races (`board` shows
    their figures); the AI's list stays hidden until the screen comes down."""
    typed = ["scenery", "board", "force 4 marines", "force 2 machina", "log", "quit"]
    args = ["play", "fftt", "--scenario", "behind-the-screen", "--red", "human", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "2"], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "force 1 marines" in out and "force 3 insectoids" in out  # the numbered list
    assert "your list force 2, machina (20 FP): HQ, Tank, MT, Scanner" in out
    assert "'force 4 marines' is not one of your lists; write one of: force 1 marines" in out
    assert "you write down force 2, machina" in out
    assert "blue writes down a force secretly" in out
    assert "(east)" not in out  # blue's flanking forces: every list of blue's sends it east
