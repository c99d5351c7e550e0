"""`warbench odds RULESET key=value ... [--json] [--options]`."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from warbench.cli import app

runner = CliRunner()

EXAMPLES = {
    "ttt": ["attacker=Sniper", "target=Guard", "terrain=woods", "aimed=yes"],
    "fft3": ["firer=nato-tank", "target=soviet-tank", "range=25", "difficult=yes", "arc=front"],
    "gff": ["attacker=Warden Brothers", "target=Spitter Gaunts"],
    "tftww2": ["weapon=Rifle", "shot=aimed", "range=10"],
    "fftt": ["attack=charge", "attacker=grunt,grunt,grunt", "target=engineer"],
}


@pytest.mark.parametrize("ruleset", sorted(EXAMPLES))
def test_tables_with_modifiers_fractions_and_percentages(ruleset: str) -> None:
    result = runner.invoke(app, ["odds", ruleset, *EXAMPLES[ruleset]])
    assert result.exit_code == 0, result.output
    assert "modifiers" in result.output
    assert "probability" in result.output and "%" in result.output
    assert "/" in result.output  # exact fractions


@pytest.mark.parametrize("ruleset", sorted(EXAMPLES))
def test_json_for_machines_sums_to_one_per_table(ruleset: str) -> None:
    result = runner.invoke(app, ["odds", ruleset, *EXAMPLES[ruleset], "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ruleset"] == ruleset
    assert data["rolls"]
    for rows in data["outcomes"].values():
        assert sum(Fraction(r["probability"]) for r in rows) == 1
        assert all(abs(r["float"] - float(Fraction(r["probability"]))) < 1e-12 for r in rows)


def test_fft3_example_through_the_cli() -> None:
    result = runner.invoke(app, ["odds", "fft3", *EXAMPLES["fft3"], "--json"])
    fire = {r["outcome"]: r["probability"] for r in json.loads(result.output)["outcomes"]["fire"]}
    assert set(fire) == {"destroyed", "quality check forced", "no effect"}
    assert fire["no effect"] == "27/64"


def test_options_lists_each_key() -> None:
    result = runner.invoke(app, ["odds", "gff", "--options"])
    assert result.exit_code == 0
    for key in ("attacker", "target", "range", "cover", "target-wounds"):
        assert key in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["odds", "ttt", "range"],
            "'range' is not key=value; `warbench odds ttt --options` lists the options",
        ),
        (["odds", "ttt", "attacker="], "attacker= has no value; attacker takes: Recon,"),
        (
            ["odds", "fftt", "attack=charge", "attacker=grunt,,grunt"],
            "attacker=grunt,,grunt has an empty name; name each charger between commas",
        ),
        (["odds", "ttt", "speed=3"], "unknown option"),
        (["odds", "fft3", "range=99"], "beyond long range"),
        (["odds", "chess"], "chess"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    assert message in " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
