"""The command line as a new user meets it: help texts, paths that cannot be written, replay
of a record whose set-up rolled dice, and records whose result or steps do not add up."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app
from warbench.cli import console as cli_console
from warbench.core import registry
from warbench.core.game import Decision

runner = CliRunner()


def _words(text: str) -> str:
    """Error panels wrap and frame their text: compare words only."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def _gff_record(tmp_path: Path, steps: int = 6) -> tuple[Path, list[list[str]]]:
    """A seeded gff game (its set-up rolls terrain and roll-offs) cut after `steps` steps,
    saved, with the texts of the events each step made."""
    rs = registry.get("gff")
    game = rs.new_game(rs.load_scenario("skirmish"), 3)
    made = []
    for _ in range(steps):
        decision = game.pending
        assert isinstance(decision, Decision)
        action = game.legal_actions(decision.player)[0]
        made.append([e.text for e in game.apply(action, decision.player)])
    path = tmp_path / "gff.json"
    game.save(path)
    return path, made


def test_replay_shows_the_set_up_apart_and_each_step_with_its_own_events(
    tmp_path: Path,
) -> None:
    """The set-up's events were printed under step 1 and every step's under a later one."""
    path, made = _gff_record(tmp_path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    blocks: list[list[str]] = []
    for line in result.output.splitlines():
        if re.match(r"^ {0,3}\d+\. ", line):
            blocks.append([])
        elif line.startswith("      ") and blocks:
            blocks[-1].append(line.strip())
    assert result.output.startswith("   0. set-up")
    assert any("deployment roll-off" in text for text in blocks[0])
    assert blocks[1:] == made


def test_verify_refuses_a_record_whose_result_was_changed(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "ttt", "--scenario", "cap-the-capn", "--red", "ai", "--blue", "ai"]
    played = runner.invoke(app, [*args, "--seed", "3", "--save", str(record)])
    assert played.exit_code == 0, played.output
    data = json.loads(record.read_text())
    winner = data["result"]["winner"]
    data["result"]["winner"] = "blue" if winner == "red" else "red"
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record), "--verify"])
    assert result.exit_code == 2
    assert "the recorded result" in result.output and "is not the game's" in result.output


def test_render_refuses_a_step_outside_the_record(tmp_path: Path) -> None:
    path, _ = _gff_record(tmp_path, steps=2)
    for step in ("3", "-1"):
        out = tmp_path / "t.png"
        result = runner.invoke(app, ["render", str(path), "-o", str(out), "--step", step])
        assert result.exit_code == 2
        assert f"step {step} is not in the record; it has steps 0 to 2" in _words(result.output)
        assert not out.exists()


def test_paths_that_cannot_be_written_are_refused_before_any_work(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "x.json"
    play = ["play", "ttt", "--red", "ai", "--blue", "ai", "--seed", "1", "--save", str(missing)]
    cases = [
        (play, "--save"),
        (["render", "whatever.json", "-o", str(tmp_path / "nope" / "t.png")], "-o"),
        (["sim", "ttt", "--games", "1", "--jobs", "1", "--json", str(missing)], "--json"),
        (["sim", "ttt", "--games", "1", "--jobs", "1", "--csv", str(missing)], "--csv"),
    ]
    for args, option in cases:
        result = runner.invoke(app, args)
        words = _words(result.output)
        assert result.exit_code == 2, result.output
        assert f"Invalid value for {option}" in words and "there is no folder" in words
        assert "result:" not in words and "outcome" not in words  # nothing was played
    folder = runner.invoke(app, [*play[:-1], str(tmp_path)])
    assert folder.exit_code == 2 and "is a folder; give a file name" in _words(folder.output)


def test_balance_checks_side_and_output_paths_before_playing(tmp_path: Path) -> None:
    base = ["balance", "ttt", "--scenario", "cap-the-capn", "--games", "1", "--jobs", "1"]
    base += ["--vary", "red.choose", "--range", "3:4:1"]
    side = runner.invoke(app, [*base, "--side", "green"])
    assert side.exit_code == 2
    assert "Invalid value for --side: no player 'green'; allowed: red, blue" in _words(side.output)
    plot = runner.invoke(app, [*base, "--plot", str(tmp_path / "nope" / "b.png")])
    assert plot.exit_code == 2 and "Invalid value for --plot" in _words(plot.output)
    infinite = runner.invoke(app, [*base[:-1], "nan:1:1"])
    assert infinite.exit_code == 2 and "must be finite numbers" in _words(infinite.output)


def test_a_failed_save_at_the_prompt_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    """`save /missing/x.json` at the prompt used to end the game with a traceback."""
    missing = tmp_path / "no-such-folder" / "x.json"
    typed = f"save {missing}\n1\nquit\n"
    args = ["play", "ttt", "--scenario", "cap-the-capn", "--seed", "1"]
    result = runner.invoke(app, args, input=typed)
    assert result.exit_code == 0, result.output
    assert "there is no folder" in result.output and "the game is not saved" in result.output
    assert "red places Captain r1" in result.output  # the next input was still played


def test_help_texts_name_every_player_kind_and_a_readable_range() -> None:
    play = _words(runner.invoke(app, ["play", "--help"]).output)
    assert play.count("human, random, ai or search") == 2
    balance = runner.invoke(app, ["balance", "--help"]).output
    assert "START:STOP:STEP" in _words(balance) and "\U0001f171" not in balance


def test_prompt_help_gives_an_example_the_ruleset_takes() -> None:
    """The prompt's help showed ttt's `move r1 C4` in every ruleset."""
    args = ["play", "fft3", "--scenario", "meeting-engagement", "--seed", "1"]
    result = runner.invoke(app, args, input="help\nquit\n")
    assert result.exit_code == 0, result.output
    assert "(e.g. `deploy " in result.output and "move r1 C4" not in result.output


def test_an_unknown_ruleset_is_named_as_the_ruleset_argument() -> None:
    for command in ("play", "odds"):
        result = runner.invoke(app, [command, "foo"])
        assert result.exit_code == 2
        assert "Invalid value for RULESET: no ruleset 'foo'" in _words(result.output)


def test_save_at_the_prompt_without_one_file_name_says_how_to_write_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bare `save` wrote warbench-save.json into whatever folder the game ran in, and
    `save a b` saved to 'a' without a word about 'b'."""
    monkeypatch.chdir(tmp_path)
    args = ["play", "ttt", "--scenario", "cap-the-capn", "--seed", "1"]
    result = runner.invoke(app, args, input="save\nsave a b\nquit\n")
    assert result.exit_code == 0, result.output
    said = _words(result.output)
    assert said.count("write save FILE, e.g. save game.json") == 2
    assert "'a b' is not one file name" in said and "saved to" not in said
    assert not Path("warbench-save.json").exists() and not Path("a").exists()
    kept = tmp_path / "kept.json"
    result = runner.invoke(app, [*args, "--save", str(kept)], input="1\nsave\nquit\n")
    assert f"saved to {kept}" in _words(result.output)
    assert json.loads(kept.read_text())["steps"]


@pytest.mark.parametrize(
    "text",
    [
        "  n1v2 NATO IFV (blue) at 27.0,37.0 facing 180 [in difficult]",  # fft3's board
        "  r2 Warden Brothers (red) 3/3 models at 34.0,6.0 Q3+ D3+ [activated]",  # gff's
        "group: nato-tank:gun:20,nato-ifv:missile:15:flank",  # not an emoji
        "unknown action '[/x]'",  # not a closing tag
    ],
)
def test_game_text_is_printed_as_it_is(text: str) -> None:
    """Boards, events and errors are printed verbatim: rich markup once swallowed the board's
    `[in difficult]` flags, turned `:gun:` into an emoji and raised on a typed `[/x]`."""
    with cli_console.capture() as captured:
        cli_console.print(text)
    assert captured.get() == text + "\n"


def test_input_that_looks_like_markup_is_refused_not_a_crash() -> None:
    """A player typing `[/x]` or `[bold]` at the prompt gets the usual error, and play goes on."""
    result = runner.invoke(app, ["play", "ttt", "--seed", "3"], input="[/x]\n[bold]b\nquit\n")
    assert result.exit_code == 0, result.output
    assert "unknown action '[/x]'" in result.output
    assert "unknown action '[bold]b'" in result.output
    assert result.output.count("red: place a piece") == 3
