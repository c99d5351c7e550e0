"""What a gff player sees before confirming: the ranges of a unit's shooting weapons
(SHOOTING: a model shoots at a unit within its weapon's range) and how the rules read their
dice in play (`odds.reading` with Bane's 6s kept: a finer reading is always exact)."""

from __future__ import annotations

from warbench.core.dice import ReadingPolicy
from warbench.rulesets.gff import odds
from warbench.rulesets.gff.game import GFFGame


def reading() -> ReadingPolicy:
    """Every pool read by success and unmodified 6s, totals in any order."""
    return odds.reading(bane=True)


def ranges(game: GFFGame, piece: str) -> list[tuple[str, float]]:
    """Each shooting weapon of the unit's models with its range in inches."""
    unit = game.state.units.get(piece)
    if unit is None:
        return []
    found = {(w.name, float(w.range)) for m in unit.models for w in m.weapons if w.range > 0}
    return sorted(found, key=lambda item: (item[1], item[0]))
