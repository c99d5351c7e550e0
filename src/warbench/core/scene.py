"""A drawable picture of the table: terrain, pieces, objectives and templates as shapes.

Each ruleset turns its state into a `Scene`; `warbench.core.render` draws any scene, so the
picture code knows no rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shapely.geometry import Polygon


@dataclass(frozen=True)
class Area:
    """A shape on the table with the rulebook's word for it (terrain kind, objective name)."""

    kind: str
    shape: Polygon
    label: str = ""


@dataclass(frozen=True)
class Figure:
    """A piece on the table: its base, its side, a label, and its facing if it has one."""

    label: str
    side: str
    base: Polygon
    facing: float | None = None
    marks: tuple[str, ...] = ()


@dataclass
class Scene:
    """Everything to draw, in the ruleset's unit, origin at the bottom left."""

    title: str
    width: float
    height: float
    unit: str
    terrain: list[Area] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    objectives: list[Area] = field(default_factory=list)
    templates: list[Area] = field(default_factory=list)
    grid: bool = False  # draw unit squares labelled like chess squares (A1 bottom left)
