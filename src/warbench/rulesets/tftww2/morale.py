"""5.0 Morale: when a unit's commander checks LDR, the LDR modifiers, and the check itself.

Fleeing (towards cover, then the table edge; surrender when surrounded) is the engine's.

Rulings:

- M1 "More than one member of squad is incapacitated or killed in one round" triggers at 2
  or more in the same round; wounded men are not casualties, here or in the −2 per casualty.
- M2 Air, artillery or flame attack triggers the check; only air, flame or rocket attack
  gives −4 (the rulebook lists them differently, so artillery alone gives no −4).
- M3 "For each casualty unit has suffered −2" counts every casualty of the game so far.
- M4 The check is 3d6 at most the modified LDR; natural 3–5 always pass and 16–18 always
  fail, as every 3d6 attribute roll of the ruleset (combat.py C3).
- M5 Troops neither green nor elite are regular: no modifier. Zero modifiers are not listed.
"""

from __future__ import annotations

from collections.abc import Sequence

from warbench.core.dice import Modifier
from warbench.rulesets.tftww2.combat import Referee, attribute_test
from warbench.rulesets.tftww2.profiles import Quality, character_tables, quality_modifier

SQUAD_CASUALTIES_TRIGGER = 2  # "more than one" (M1)


def morale_triggers(
    *,
    nearest_co_down: bool,
    squad_casualties_this_round: int,
    under_air_artillery_flame: bool,
) -> list[str]:
    """5.0 why the commander must check LDR this round (empty: no check) (M1, M2)."""
    if squad_casualties_this_round < 0:
        raise ValueError("squad_casualties_this_round must not be negative")
    reasons: list[str] = []
    if nearest_co_down:
        reasons.append("nearest CO incapacitated or killed")
    if squad_casualties_this_round >= SQUAD_CASUALTIES_TRIGGER:
        reasons.append(
            f"{squad_casualties_this_round} squad members incapacitated or killed this round"
        )
    if under_air_artillery_flame:
        reasons.append("under air, artillery or flame thrower attack this round")
    return reasons


def ldr_modifiers(
    *,
    co_within_6: bool,
    casualties: int,
    in_cover: bool,
    under_air_flame_rocket: bool,
    afv_within_12: bool,
    quality: Quality,
) -> list[Modifier]:
    """5.0 Modifiers to LDR (M2, M3, M5)."""
    if casualties < 0:
        raise ValueError("casualties must not be negative")
    table = character_tables().ldr_modifiers
    mods: list[Modifier] = []
    if co_within_6:
        mods.append((f'CO or political officer within {table.co_range:g}"', table.co_within))
    if casualties:
        mods.append((f"{casualties} casualties suffered", table.per_casualty * casualties))
    if in_cover:
        mods.append(("unit in cover", table.in_cover))
    if under_air_flame_rocket:
        mods.append(("under air, flame or rocket attack", table.air_flame_rocket))
    if afv_within_12:
        mods.append((f'supported by AFV within {table.afv_range:g}"', table.afv_support))
    value = quality_modifier(quality)
    if value:
        mods.append((f"{quality} troops", value))
    return mods


def ldr_check(ref: Referee, label: str, ldr: int, modifiers: Sequence[Modifier] = ()) -> bool:
    """5.0 LDR check: passes on 3d6 at most the modified LDR; failing, the unit flees (M4)."""
    return attribute_test(ref, label, "LDR", ldr, modifiers)
