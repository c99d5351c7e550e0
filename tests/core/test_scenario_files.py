"""Scenario files that are not a mapping of fields get a message naming the fields, not
pydantic's "valid dictionary or instance of Scenario"."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.core import registry


def _refusal(ruleset: str, text: str, tmp_path: Path) -> tuple[Path, str]:
    """The file written with `text` and the error its loading raises."""
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ValueError) as info:
        registry.get(ruleset).load_scenario(str(path))
    return path, str(info.value)


@pytest.mark.parametrize(("text", "held"), [("", "nothing"), ("- a\n- b\n", "a list")])
@pytest.mark.parametrize("ruleset", ["ttt", "fft3", "gff", "fftt", "tftww2"])
def test_a_file_that_is_not_a_mapping_names_the_fields(
    ruleset: str, text: str, held: str, tmp_path: Path
) -> None:
    path, message = _refusal(ruleset, text, tmp_path)
    assert message.startswith(f"{path}: a scenario is a mapping of fields (id, name, summary")
    assert message.endswith(f"not {held}")
    assert "instance of" not in message


@pytest.mark.parametrize(
    ("ruleset", "text", "message"),
    [
        (
            "gff",
            "id: x\nname: X\nsummary: s\npoints: 200\narmies:\n  red: {faction: ashen-wardens}\n"
            "  blue: {faction: chitin-swarm, list: skirmish}\n",
            "armies.red: a faction army needs the name of one of its lists",
        ),
        (
            "fft3",
            "id: x\nname: X\nsummary: s\nvictory: meeting\nturns: 8\n"
            "table: {width: 72, depth: 48}\nobjectives: [[18, 24]]\nforces: {}\n",
            "scenario: forces must name red and blue, not []",
        ),
        (
            "fftt",
            "id: x\nname: X\nsummary: s\nforce_points: 20\nforces: {}\n",
            "scenario: forces must be given for red and blue, not []",
        ),
    ],
    ids=["gff", "fft3", "fftt"],
)
def test_a_validator_s_refusal_reads_as_our_sentence(
    ruleset: str, text: str, message: str, tmp_path: Path
) -> None:
    """pydantic words a validator's ValueError "Value error, ..."; that prefix is ours to drop."""
    path, refusal = _refusal(ruleset, text, tmp_path)
    assert refusal == f"{path}: {message}"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "id: x\nname: [a, b\nturns: 3\n",
            "line 3, column 6: expected ',' or ']', but got ':', in a flow sequence that starts"
            " at line 2, column 7",
        ),
        (
            "id: x\n  name: y\n",
            "line 2, column 7: mapping values are not allowed here (a value holding ': ' needs"
            " quotes, and a line may not be indented under a plain value)",
        ),
        (
            "id: x\nforces:\n\tred: 1\n",
            "line 3, column 1: found character '\\t' that cannot start any token (YAML indents"
            " with spaces, not tabs)",
        ),
    ],
    ids=["unclosed", "indented", "tab"],
)
@pytest.mark.parametrize("ruleset", ["ttt", "gff"])
def test_broken_yaml_names_the_file_line_column_and_problem(
    ruleset: str, text: str, problem: str, tmp_path: Path
) -> None:
    """PyYAML's own text came through raw: several lines, quoting '<unicode string>'."""
    path, message = _refusal(ruleset, text, tmp_path)
    assert message == f"{path}: not valid YAML: {problem}"


def test_a_file_that_cannot_be_read_says_why_in_words(tmp_path: Path) -> None:
    """It said "[Errno 2] No such file or directory: '...'"; bytes not UTF-8 were not named
    as this file's at all."""
    missing = tmp_path / "missing.yaml"
    with pytest.raises(ValueError) as info:
        registry.get("fft3").load_scenario(str(missing))
    assert str(info.value) == f"{missing}: cannot read scenario: No such file or directory"
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"id: x\n\xff\n")
    with pytest.raises(ValueError) as info:
        registry.get("fft3").load_scenario(str(binary))
    assert str(info.value) == f"{binary}: cannot read scenario: not UTF-8 text (byte 7)"
