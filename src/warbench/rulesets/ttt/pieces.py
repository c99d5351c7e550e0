"""The squad sheet and MAKING NEW PIECES: "ALL MEN ARE CREATED EQUAL (more or less)".

A piece is worth Move + Range + TH + TBH (one for one) + 3 per special ability, and must come
to 9 points, give or take 2.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from warbench.core.scenario_files import problem_text, read_yaml, yaml_data

BASE_POINTS = 9
TOLERANCE = 2
SPECIAL_POINTS = 3
Special = Literal["command", "berserk"]
SPECIALS: dict[str, str] = {
    "command": "each Captain in play lets you move two other pieces in its place",
    "berserk": "ignores the Move penalties of terrain (buildings still stop it)",
}


class PieceProfile(BaseModel):
    """One line of the squad sheet."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, pattern=r"^[A-Za-z][A-Za-z0-9'-]*$")
    move: int = Field(ge=1, le=12)
    range: int = Field(ge=1, le=12)
    th: int = Field(ge=0, le=6)
    tbh: int = Field(ge=0, le=6)
    specials: tuple[Special, ...] = ()

    @property
    def cost(self) -> int:
        """Points by the rulebook's formula."""
        return self.move + self.range + self.th + self.tbh + SPECIAL_POINTS * len(self.specials)

    def has(self, special: Special) -> bool:
        """Whether this piece has a special ability."""
        return special in self.specials

    @model_validator(mode="after")
    def _created_equal(self) -> PieceProfile:
        if abs(self.cost - BASE_POINTS) > TOLERANCE:
            raise ValueError(
                f"{self.name} costs {self.cost} points (Move {self.move} + Range {self.range} "
                f"+ TH {self.th} + TBH {self.tbh} + 3 x {len(self.specials)} specials); all men "
                f"are created equal: {BASE_POINTS - TOLERANCE} to {BASE_POINTS + TOLERANCE}"
            )
        return self


_SHEET = TypeAdapter(list[PieceProfile])


def load_pieces(text: str, source: str) -> dict[str, PieceProfile]:
    """Read and validate a YAML list of pieces; ValueError names each broken field."""
    return _validated(yaml_data(text, source), source)


def _validated(data: object, source: str) -> dict[str, PieceProfile]:
    """A list of pieces' data, validated, by name; no two may share a name."""
    try:
        pieces = _SHEET.validate_python(data)
    except ValidationError as err:
        problems = "; ".join(
            f"piece {'/'.join(str(p) for p in e['loc'])}: {problem_text(e)}" for e in err.errors()
        )
        raise ValueError(f"{source}: {problems}") from None
    names = [p.name for p in pieces]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"{source}: piece names repeated: {', '.join(duplicates)}")
    return {p.name: p for p in pieces}


def load_pieces_file(path: Path) -> dict[str, PieceProfile]:
    """`warbench ttt cost FILE`: a file of custom pieces."""
    return _validated(read_yaml(path, "pieces"), str(path))


@cache
def squad_sheet() -> dict[str, PieceProfile]:
    """The squad sheet shipped in data/pieces.yaml (ours)."""
    text = resources.files(__package__).joinpath("data/pieces.yaml").read_text()
    return load_pieces(text, "data/pieces.yaml")
