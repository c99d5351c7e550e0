"""`warbench play gff`: AI against AI, a human against the AI, and an Army Forge list."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from warbench.cli import app

runner = CliRunner()
DATA = Path(__file__).parent / "data"


def test_ai_against_ai_plays_the_mission_and_the_record_verifies(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "gff", "--scenario", "skirmish", "--red", "ai", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "5", "--save", str(record)])
    assert result.exit_code == 0, result.output
    assert "round 4 begins" in result.output
    assert [ln for ln in result.output.splitlines() if ln.startswith("result: ")]
    verified = runner.invoke(app, ["replay", str(record), "--verify"])
    assert verified.exit_code == 0, verified.output
    picture = tmp_path / "table.png"
    drawn = runner.invoke(app, ["render", str(record), "-o", str(picture)])
    assert drawn.exit_code == 0 and picture.stat().st_size > 1000


def test_an_army_forge_list_plays(tmp_path: Path) -> None:
    shutil.copy(DATA / "army_forge_valid.json", tmp_path / "list.json")
    scenario = tmp_path / "forge.yaml"
    scenario.write_text(
        "id: forge\nname: Forge game\nsummary: an imported list\npoints: 200\n"
        "armies:\n  red: {faction: ashen-wardens, list: skirmish}\n"
        "  blue: {army_forge: list.json}\n"
    )
    args = ["play", "gff", "--scenario", str(scenario), "--red", "ai", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "result: " in result.output


def test_a_broken_army_forge_list_is_refused_naming_each_problem(tmp_path: Path) -> None:
    shutil.copy(DATA / "army_forge_problems.json", tmp_path / "list.json")
    scenario = tmp_path / "forge.yaml"
    scenario.write_text(
        "id: forge\nname: Forge game\nsummary: an imported list\npoints: 200\n"
        "armies:\n  red: {faction: ashen-wardens, list: skirmish}\n"
        "  blue: {army_forge: list.json}\n"
    )
    result = runner.invoke(app, ["play", "gff", "--scenario", str(scenario), "--red", "ai"])
    assert result.exit_code != 0
    assert "Shielded" in " ".join(result.output.split())


def test_a_human_plays_against_the_ai() -> None:
    typed = "\n".join(["board", "edge nowhere", "edge north", "1", "log", "quit"]) + "\n"
    args = ["play", "gff", "--scenario", "skirmish", "--red", "human", "--blue", "ai"]
    result = runner.invoke(app, [*args, "--seed", "3"], input=typed)  # red picks the edge
    assert result.exit_code == 0, result.output
    out = result.output
    assert 'table 48"x48"' in out  # the board
    assert "'nowhere' is not a table edge; pick one of north, south, east, west" in out
    assert "red deploys on the north edge, blue on the south" in out
