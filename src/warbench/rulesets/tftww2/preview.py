"""What a TFT WW2 player sees before confirming: a man's range bands (4.1: short range
within the table's distance, the weapon's effective range, extreme beyond it) and how the
rules read their dice in play (3d6 roll-unders by their natural total, as `odds.reading`)."""

from __future__ import annotations

from warbench.core.dice import Read, Reading, RollRequest
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.profiles import combat_tables, weapons


def reading(request: RollRequest) -> Reading | None:
    """Roll-unders (to hit, LDR) are read by their natural total (criticals come from it),
    totals (damage) in any order; any other roll face by face."""
    if request.read is Read.AT_MOST:
        return Reading.natural_total(request.sides)
    return Reading.unordered(request.sides) if request.read is Read.TOTAL else None


def ranges(game: TFTGame, piece: str) -> list[tuple[str, float]]:
    """Short range and the effective range of the man's firearm, in inches."""
    man = game.state.men.get(piece)
    if man is None:
        return []
    weapon = weapons().get(man.weapon)
    if weapon is None or weapon.effective_range is None:
        return []
    short = combat_tables().ranged_modifiers.short_range_within
    return [("short", short), (f"{weapon.name} effective", float(weapon.effective_range))]
