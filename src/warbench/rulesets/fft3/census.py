"""Each side's stands by profile, fielded and standing (for the simulation lab)."""

from __future__ import annotations

from collections import Counter

from warbench.rulesets.fft3.game import FFT3Game


def by_unit_type(game: FFT3Game) -> dict[str, dict[str, tuple[int, int]]]:
    """Every stand of the scenario takes the field; the standing ones are not eliminated."""
    fielded: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    standing: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    for stand in game.state.stands.values():
        fielded[stand.player][stand.profile.name] += 1
        standing[stand.player][stand.profile.name] += stand.alive
    return {
        side: {name: (n, standing[side][name]) for name, n in sorted(names.items())}
        for side, names in fielded.items()
    }
