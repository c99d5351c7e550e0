"""TERRAIN: what each terrain type does to a piece on its square (data/terrain.yaml)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict

from warbench.rulesets.ttt.pieces import PieceProfile


class TerrainEffect(BaseModel):
    """One row of the terrain table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tbh: int
    move: int | Literal["half"]
    cover: bool
    attack: bool
    passable: bool

    def allowance(self, piece: PieceProfile) -> int:
        """The squares `piece` may move when this terrain applies; never under 1 (NOTE)."""
        if piece.has("berserk"):
            return piece.move
        moved = piece.move // 2 if self.move == "half" else piece.move - self.move
        return max(1, moved)


@cache
def terrain_table() -> dict[str, TerrainEffect]:
    """Terrain types from most to least detrimental."""
    text = resources.files(__package__).joinpath("data/terrain.yaml").read_text()
    return {k: TerrainEffect.model_validate(v) for k, v in yaml.safe_load(text).items()}


def most_detrimental(kinds: frozenset[str]) -> str:
    """Where types meet, the one that is most detrimental applies (the table's order)."""
    for kind in terrain_table():
        if kind in kinds:
            return kind
    raise ValueError(f"unknown terrain {sorted(kinds)}; known: {', '.join(terrain_table())}")
