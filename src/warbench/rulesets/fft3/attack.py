"""The steps shared by anti-vehicle, missile and anti-infantry attacks: roll to hit (ROF
dice, each 4+ after modifiers a hit) and make terrain saves (1d6 per hit, 5+ avoids it)."""

from __future__ import annotations

from warbench.core.dice import Modifier, Read, RollRequest
from warbench.rulesets.fft3.profiles import Band, tables
from warbench.rulesets.fft3.referee import Referee


def to_hit_modifiers(
    band: Band | None,
    quality_bonus: int,
    *,
    suppressed: bool = False,
    infantry: bool = False,
    overwatch: bool = False,
    ai_rating: int | None = None,
) -> tuple[Modifier, ...]:
    """Third, roll to hit: +1 close, −1 long, +quality, −1 (vehicle) or −2 (infantry) when
    suppressed, −1 overwatch; anti-infantry fire adds the firer's AI rating."""
    table = tables().to_hit_modifiers
    mods: list[Modifier] = []
    if band == "close":
        mods.append(("close range", table["close"]))
    elif band == "long":
        mods.append(("long range", table["long"]))
    if quality_bonus:
        mods.append(("quality", quality_bonus))
    if ai_rating:
        mods.append(("AI rating", ai_rating))
    if suppressed:
        key = "suppressed_infantry" if infantry else "suppressed_vehicle"
        mods.append(("suppressed", table[key]))
    if overwatch:
        mods.append(("overwatch", table["overwatch"]))
    return tuple(mods)


def roll_to_hit(ref: Referee, label: str, rof: int, modifiers: tuple[Modifier, ...]) -> int:
    """ROF dice; each die that is 4+ taking modifiers into account is a hit."""
    roll = ref.roll(
        RollRequest(
            label=f"to hit: {label}",
            dice=rof,
            read=Read.COUNT_AT_LEAST,
            target=tables().to_hit,
            modifiers=modifiers,
        )
    )
    return roll.successes or 0


def terrain_saves(ref: Referee, label: str, hits: int) -> int:
    """Fourth, terrain saves in difficult terrain: 1d6 per hit, 5+ avoids it. The hits left."""
    if hits <= 0:
        return 0
    roll = ref.roll(
        RollRequest(
            label=f"terrain save: {label}",
            dice=hits,
            read=Read.COUNT_AT_LEAST,
            target=tables().terrain_save,
        )
    )
    return hits - (roll.successes or 0)
