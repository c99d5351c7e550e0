"""Draw a `Scene` with matplotlib to PNG or SVG: terrain by kind, pieces, objectives."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.patches import Polygon as Patch

from warbench.core.grid import column_letters
from warbench.core.scene import Scene

TERRAIN_COLOURS = {
    "plain": "#e8efd0",
    "open": "#e8efd0",
    "woods": "#3f7f3a",
    "forest": "#3f7f3a",
    "river": "#5b9bd5",
    "water": "#5b9bd5",
    "rocky": "#9a8f80",
    "swamp": "#6f8f6a",
    "building": "#7a4a32",
    "town": "#a0785a",
    "bridge": "#c8a165",
    "road": "#c8b89a",
    "bunker": "#555555",
    "difficult": "#6b8e23",
    "ruins": "#8c7b6b",
    "rubble": "#b09a7a",
    "crater field": "#9c8466",
    "barricade": "#6d6d6d",
    "hill": "#c9b77d",
    "pond": "#5b9bd5",
    "minefield": "#d98c5f",
    "wall": "#5a5a5a",
    "hedge": "#4f8a3c",
    "rough": "#b5a77a",
}
SIDE_COLOURS = {"red": "#c0392b", "blue": "#2058b0"}


def render(scene: Scene, out: Path) -> None:
    """Write the picture; the format follows the suffix (.png or .svg)."""
    if out.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"cannot draw to '{out.name}': use a .png or .svg file name")
    scale = 8.0 / max(scene.width, scene.height)
    fig, ax = plt.subplots(figsize=(scene.width * scale + 1, scene.height * scale + 1))
    ax.set_xlim(0, scene.width)
    ax.set_ylim(0, scene.height)
    ax.set_aspect("equal")
    ax.set_facecolor(TERRAIN_COLOURS["plain"])
    ax.set_title(f"{scene.title} ({scene.unit})")
    kinds: dict[str, str] = {}
    for area in scene.terrain:
        colour = TERRAIN_COLOURS.get(area.kind, "#bbbbbb")
        kinds[area.kind] = colour
        ax.add_patch(Patch(list(area.shape.exterior.coords), facecolor=colour, alpha=0.85))
    for area in scene.objectives:
        ax.add_patch(
            Patch(list(area.shape.exterior.coords), fill=False, edgecolor="gold", linewidth=3)
        )
        if area.label:
            c = area.shape.centroid
            ax.annotate(area.label, (c.x, c.y), ha="center", va="top", fontsize=7)
    for area in scene.templates:
        ax.add_patch(Patch(list(area.shape.exterior.coords), facecolor="orange", alpha=0.3))
    for figure in scene.figures:
        colour = SIDE_COLOURS.get(figure.side, "#444444")
        ax.add_patch(Patch(list(figure.base.exterior.coords), facecolor=colour, edgecolor="black"))
        c = figure.base.centroid
        text = figure.label + ("\n" + " ".join(figure.marks) if figure.marks else "")
        ax.annotate(text, (c.x, c.y), ha="center", va="center", fontsize=7, color="white")
        if figure.facing is not None:
            radius = math.sqrt(figure.base.area) / 1.5
            rad = math.radians(figure.facing)
            ax.plot(
                [c.x, c.x + radius * math.sin(rad)],
                [c.y, c.y + radius * math.cos(rad)],
                color="white",
                linewidth=2,
            )
    if scene.grid:
        cols, rows = int(scene.width), int(scene.height)
        ax.set_xticks(range(cols + 1), minor=True)
        ax.set_yticks(range(rows + 1), minor=True)
        ax.grid(which="minor", color="black", linewidth=0.3)
        ax.set_xticks([c + 0.5 for c in range(cols)], [column_letters(c) for c in range(cols)])
        ax.set_yticks([r + 0.5 for r in range(rows)], [str(r + 1) for r in range(rows)])
        ax.tick_params(length=0)
    if kinds and not scene.grid:
        handles = [Patch([(0, 0)], facecolor=c, label=k) for k, c in sorted(kinds.items())]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
