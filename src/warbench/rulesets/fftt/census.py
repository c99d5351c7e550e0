"""Each side's figures by profile, fielded and standing (for the simulation lab)."""

from __future__ import annotations

from collections import Counter

from warbench.rulesets.fftt.game import FFTTGame


def by_unit_type(game: FFTTGame) -> dict[str, dict[str, tuple[int, int]]]:
    """Every figure of each force takes the field (flanking forces still in hidden movement
    and hatched insectoids too); standing: not dead."""
    fielded: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    standing: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    for fig in game.state.figs.values():
        fielded[fig.side][fig.prof.name] += 1
        standing[fig.side][fig.prof.name] += fig.where != "dead"
    return {
        side: {name: (n, standing[side][name]) for name, n in sorted(names.items())}
        for side, names in fielded.items()
    }
