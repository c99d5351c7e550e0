"""MAKING NEW PIECES: "ALL MEN ARE CREATED EQUAL" — 9 points, give or take 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from warbench.cli import app
from warbench.rulesets.ttt.pieces import PieceProfile, load_pieces, squad_sheet


def test_squad_sheet_has_the_rulebook_pieces_each_created_equal() -> None:
    sheet = squad_sheet()
    for name in ("Recon", "Shot-Gun", "M-Gunner", "Berserker", "Guard", "Captain"):
        assert name in sheet
    for piece in sheet.values():
        assert 7 <= piece.cost <= 11, piece
    assert sheet["M-Gunner"].cost == 10  # the rulebook's own odd piece


def test_cost_is_the_rulebook_formula() -> None:
    piece = PieceProfile(name="Test", move=2, range=1, th=1, tbh=2, specials=("berserk",))
    assert piece.cost == 2 + 1 + 1 + 2 + 3


def test_a_piece_off_by_more_than_two_is_rejected_with_its_sum() -> None:
    with pytest.raises(ValueError, match=r"costs 12 points.*7 to 11"):
        PieceProfile(name="Rambo", move=4, range=4, th=2, tbh=2)


def test_unknown_special_and_duplicate_names_are_named() -> None:
    with pytest.raises(ValueError, match="specials"):
        load_pieces("- {name: X, move: 1, range: 1, th: 1, tbh: 3, specials: [flight]}", "f")
    text = "- {name: X, move: 3, range: 3, th: 1, tbh: 2}\n" * 2
    with pytest.raises(ValueError, match="repeated: X"):
        load_pieces(text, "f")


def test_cost_command_prices_and_validates(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("- {name: Medic, move: 2, range: 1, th: 0, tbh: 3, specials: [berserk]}\n")
    result = CliRunner().invoke(app, ["ttt", "cost", str(good)])
    assert result.exit_code == 0, result.output
    assert "Medic" in result.output and "9" in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {name: Tank, move: 6, range: 6, th: 3, tbh: 3}\n")
    result = CliRunner().invoke(app, ["ttt", "cost", str(bad)])
    assert result.exit_code == 1
    assert "costs 18 points" in result.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("- {name: Tank, move: 6\n- {name: Jeep}\n")
    result = CliRunner().invoke(app, ["ttt", "cost", str(broken)])
    assert result.exit_code == 1
    assert "aml: not valid YAML: line 2, column 3:" in " ".join(result.output.split())
    result = CliRunner().invoke(app, ["ttt", "cost", str(tmp_path / "none.yaml")])
    assert "cannot read pieces: No such file or directory" in " ".join(result.output.split())
