"""Terrain pieces and their traits, shared by every ruleset.

A trait says what a piece of terrain *is* (cover, difficult, blocks sight, ...); each ruleset
decides what that means under its own rules (ARCHITECTURE.md, "Geometry").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry


class Trait(StrEnum):
    """What a terrain piece is; rulesets interpret each trait."""

    SOFT_COVER = "soft_cover"
    HARD_COVER = "hard_cover"
    DIFFICULT = "difficult"
    DANGEROUS = "dangerous"
    BLOCKS_SIGHT = "blocks_sight"
    IMPASSABLE = "impassable"
    ROAD = "road"
    RIVER = "river"
    BUILDING = "building"
    WATER = "water"


@dataclass(frozen=True)
class TerrainPiece:
    """One piece of terrain on a continuous table: a named area with traits and a height.

    `kind` is the rulebook's own word for it ("woods", "town", "ruins"); `traits` are the
    ruleset-independent facts the rules read; `height` is in the ruleset's unit (0 = flat).
    """

    kind: str
    area: Polygon
    traits: frozenset[Trait] = field(default_factory=frozenset)
    height: float = 0.0
    name: str = ""

    def has(self, trait: Trait) -> bool:
        """Whether this piece carries `trait`."""
        return trait in self.traits

    def covers(self, shape: BaseGeometry) -> bool:
        """Whether `shape` lies wholly inside this piece."""
        return bool(self.area.covers(shape))

    def touches(self, shape: BaseGeometry) -> bool:
        """Whether `shape` overlaps this piece at all (edges included)."""
        return bool(self.area.intersects(shape))
