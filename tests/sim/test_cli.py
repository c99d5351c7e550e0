"""`warbench sim` and `warbench balance` through typer's CliRunner, with few games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app

runner = CliRunner()


def _flat(text: str) -> str:
    """Error text without rich's panel borders and line wrapping."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_sim_reports_outcomes_casualties_and_writes_json_and_csv(tmp_path: Path) -> None:
    out, table = tmp_path / "run.json", tmp_path / "games.csv"
    args = ["sim", "ttt", "--scenario", "cap-the-capn", "--blue", "random", "--games", "6"]
    args += ["--jobs", "1", "--seed", "4", "--json", str(out), "--csv", str(table)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "red wins" in result.output and "95% Wilson" in result.output
    assert "casualties by unit type" in result.output
    document = json.loads(out.read_text())
    assert document["games"] == 6 and document["seed"] == 4
    assert document["agents"] == {"red": "ai", "blue": "random"}
    counts = document["outcomes"]
    assert counts["red"]["count"] + counts["blue"]["count"] + counts["draw"]["count"] == 6
    assert any(u["unit"] == "Captain" for u in document["units"])
    assert len(table.read_text().splitlines()) == 7


def test_sim_swaps_sides_and_reports_each_agents_score_and_thinking(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    args = ["sim", "ttt", "--scenario", "cap-the-capn", "--blue", "random", "--games", "4"]
    args += ["--jobs", "1", "--swap", "--first", "2", "--json", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "agents over both sides" in result.output and "games 2–5" in result.output
    document = json.loads(out.read_text())
    assert document["swap"] is True and document["first"] == 2
    agents = {line["agent"]: line for line in document["by_agent"]}
    assert agents["ai"]["score"]["games"] == agents["random"]["score"]["games"] == 4
    assert agents["ai"]["decisions"] > 0 and agents["ai"]["seconds_per_decision"] >= 0
    # ttt decides in well under a millisecond: milliseconds to three figures, not "0.000" s
    assert "CPU ms/decision" in result.output
    for agent, line in agents.items():
        shown = re.search(rf"│ {agent} .*│ ([\d.]+) +│$", result.output, re.MULTILINE)
        assert shown is not None, result.output
        ms = line["seconds_per_decision"] * 1000
        assert float(shown[1]) == pytest.approx(ms, rel=0.01)


def test_sim_refuses_an_unknown_agent_naming_the_allowed_ones() -> None:
    result = runner.invoke(app, ["sim", "ttt", "--red", "genius", "--games", "1"])
    assert result.exit_code == 2
    assert "allowed: random, ai" in _flat(result.output)


def test_balance_sweeps_writes_the_plot_and_reports_the_crossing(tmp_path: Path) -> None:
    plot, out = tmp_path / "sweep.png", tmp_path / "sweep.json"
    args = ["balance", "ttt", "--scenario", "cap-the-capn", "--vary", "red.choose"]
    args += ["--range", "1:5:2", "--games", "4", "--jobs", "1", "--plot", str(plot)]
    args += ["--json", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "50% crossing" in result.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    document = json.loads(out.read_text())
    assert [p["value"] for p in document["points"]] == [1.0, 3.0, 5.0]
    assert all(p["games"] == 4 for p in document["points"])


def test_balance_lists_parameters_and_refuses_unknown_ones() -> None:
    listed = runner.invoke(app, ["balance", "fft3", "--scenario", "meeting-engagement", "--list"])
    assert listed.exit_code == 0 and "ratio" in listed.output
    bad = runner.invoke(app, ["balance", "fft3", "--vary", "morale", "--range", "1:2:1"])
    assert bad.exit_code == 2 and "allowed: ratio" in _flat(bad.output)
    bad_range = runner.invoke(
        app, ["balance", "fft3", "--vary", "ratio", "--range", "1:2", "--games", "1"]
    )
    assert bad_range.exit_code == 2 and "A:B:STEP" in _flat(bad_range.output)
