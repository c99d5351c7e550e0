"""Each side's models by unit profile, fielded and standing (for the simulation lab)."""

from __future__ import annotations

from collections import Counter

from warbench.rulesets.gff.game import GFFGame


def by_unit_type(game: GFFGame) -> dict[str, dict[str, tuple[int, int]]]:
    """Every model of every unit takes the field (reserves too); standing: not yet removed."""
    fielded: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    standing: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    for unit in game.state.units.values():
        fielded[unit.side][unit.profile.name] += unit.profile.size
        standing[unit.side][unit.profile.name] += len(unit.models)
    return {
        side: {name: (n, standing[side][name]) for name, n in sorted(names.items())}
        for side, names in fielded.items()
    }
