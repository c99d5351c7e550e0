"""Operations as data: boards, starting pieces, piece placement and objective (YAML)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from warbench.core.grid import Square
from warbench.core.scenario_files import ScenarioFiles
from warbench.rulesets.ttt.boards import Board
from warbench.rulesets.ttt.pieces import PieceProfile

SIDES = ("red", "blue")


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BoardAt(_Strict):
    board: int = Field(ge=1)
    at: tuple[int, int] = (0, 0)


class Force(_Strict):
    """Starting pieces: the named ones plus `choose` more of the player's choice."""

    pieces: tuple[str, ...] = ()
    choose: int = Field(default=0, ge=0)
    max_each: int = Field(default=2, ge=1)


class NearHome(_Strict):
    rule: Literal["adjacent_to_home"]


class Corner(_Strict):
    rule: Literal["corner"]
    corner: str
    others_within: int = Field(ge=1)

    @field_validator("corner")
    @classmethod
    def _square(cls, v: str) -> str:
        Square.parse(v)
        return v


class BackRow(_Strict):
    rule: Literal["back_row"]


class OnBoard(_Strict):
    rule: Literal["board"]
    board: int = Field(ge=0)


Placement = Annotated[NearHome | Corner | BackRow | OnBoard, Field(discriminator="rule")]


class Objective(_Strict):
    kind: Literal["enter_bunker", "take_out_captain", "hold_bridge", "wipe_out"]
    turns: int = Field(default=3, ge=1)


class Scenario(_Strict):
    """One operation. Player 1 is red; red places first (and so moves first)."""

    id: str
    name: str
    summary: str
    boards: tuple[BoardAt, ...] = Field(min_length=1)
    forces: dict[str, Force]
    placement: dict[str, Placement]
    objective: Objective
    homes: dict[str, str] = Field(default_factory=dict)
    first: Literal["red", "blue"] = "red"
    turn_limit: int = Field(default=200, ge=2)
    extra_pieces: tuple[PieceProfile, ...] = ()
    new_boards: tuple[Board, ...] = ()

    @model_validator(mode="after")
    def _both_sides(self) -> Scenario:
        for name in ("forces", "placement", "homes"):
            keys = set(getattr(self, name))
            if keys and keys != set(SIDES):
                raise ValueError(f"{name} must name exactly red and blue, not {sorted(keys)}")
        if not self.forces or not self.placement:
            raise ValueError("forces and placement must name red and blue")
        return self


FILES = ScenarioFiles(Scenario, __package__ or "")
validate, read_file, shipped = FILES.validate, FILES.read_file, FILES.shipped
