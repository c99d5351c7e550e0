"""MELEE: chargers move into base contact (or as close as possible), defenders close in by
up to 3"; models strike enemies within 2" horizontally and 4" vertically; Counter strikes
first, Impact after charging; the defender may strike back; fatigue; then consolidation or
separation."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import repeat

from warbench.core.dice import Read, RollRequest
from warbench.core.geometry import round_gap
from warbench.rulesets.gff.attacks import Context, Hit, roll_hits
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.movement import allowance, close_in, contact_vector, translate
from warbench.rulesets.gff.profiles import Weapon
from warbench.rulesets.gff.quality import Referee
from warbench.rulesets.gff.shooting import resolve_hits
from warbench.rulesets.gff.spell_grants import armed
from warbench.rulesets.gff.state import State, Unit

STRIKE_REACH = 2.0
STRIKE_HEIGHT = 4.0  # "within 2" horizontally and 4" vertically"
DEFENDER_MOVE = 3.0
CONSOLIDATE = 3.0


def charge_move(
    state: State, charger: Unit, target: Unit, field: Battlefield | None = None
) -> float | None:
    """Move the chargers into contact, then close in; the defenders close in by up to 3"
    (reading heights with `field`, under the jumping rules: GFF-R23). Returns the distance
    the block moved, or None when the target is out of reach (the charge was legal when
    declared, but dangerous terrain took the models that could reach: the charge fails,
    ruling GFF-R16)."""
    reach = allowance(charger, "charge")
    vector = contact_vector(charger, target, reach)
    if vector is None:
        return None
    translate(charger, *vector)
    moved = math.hypot(*vector)
    close_in(state, charger, target, reach - moved, field)
    close_in(state, target, charger, DEFENDER_MOVE, field)
    return moved


def strikers(unit: Unit, enemy: Unit) -> list[int]:
    """Indices of the unit's models within 2" horizontally and 4" vertically of an enemy
    model (heights are kept under the optional jumping rules; otherwise all are 0); the
    round bases' `edge_distance` from their centres (`round_gap`), without making them."""
    half = (unit.profile.base + enemy.profile.base) / 2
    reach, high = STRIKE_REACH + 1e-9, STRIKE_HEIGHT + 1e-9
    theirs = [((t.x, t.y), t.z) for t in enemy.models]
    return [
        i
        for i, m in enumerate(unit.models)
        if any(
            round_gap((m.x, m.y), at, half) <= reach and abs(m.z - z) <= high for at, z in theirs
        )
    ]


def melee_weapons(unit: Unit, enemy: Unit, keep: Callable[[Weapon], bool]) -> dict[Weapon, int]:
    """Attacks per melee weapon of the striking models."""
    attacks: dict[Weapon, int] = {}
    for index in strikers(unit, enemy):
        for weapon in map(armed, repeat(unit), unit.models[index].weapons):
            if weapon.melee and keep(weapon):
                attacks[weapon] = attacks.get(weapon, 0) + weapon.attacks
    return attacks


def strike(
    ref: Referee,
    attacker: Unit,
    defender: Unit,
    *,
    charging: bool,
    fatigued: bool,
    keep: Callable[[Weapon], bool],
    pushing: bool = False,
) -> None:
    """All striking models attack with their (kept) melee weapons, one weapon at a time."""
    fear = attacker.rating("Fear") or 0
    for weapon, attacks in melee_weapons(attacker, defender, keep).items():
        if not defender.alive:
            return
        ctx = Context(melee=True, charging=charging, fatigued=fatigued)
        hits = roll_hits(ref, attacker, weapon, attacks, defender, ctx)
        resolve_hits(ref, attacker, weapon, hits, defender, ctx, fear=fear, pushing=pushing)


def impact(ref: Referee, charger: Unit, defender: Unit) -> None:
    """Impact(X): X dice per model after charging, unless fatigued, −1 per defending model
    with a Counter weapon; each 2+ is a hit."""
    rating = charger.rating("Impact")
    if not rating or charger.fatigued:
        return
    counters = sum(
        1 for m in defender.models if any(is_counter(armed(defender, w)) for w in m.weapons)
    )
    dice = rating * len(charger.models) - counters
    if dice <= 0:
        return
    roll = ref.roll(
        RollRequest(
            label=f"Impact({rating}): {charger.name} → {defender.name}"
            + (f" ({counters} fewer for Counter)" if counters else ""),
            dice=dice,
            read=Read.COUNT_AT_LEAST,
            target=2,
        )
    )
    hits = [Hit(0, False, 0, False)] * (roll.successes or 0)
    impact_weapon = Weapon(name="Impact", range=0, attacks=1)
    resolve_hits(ref, charger, impact_weapon, hits, defender, Context(melee=True, charging=True))


def is_counter(weapon: Weapon) -> bool:
    """Counter: strikes first with this weapon when charged."""
    return weapon.rating("Counter") is not None


def chargers_attack(ref: Referee, charger: Unit, defender: Unit, pushing: bool = False) -> None:
    """Counter weapons strike first, then Impact and the chargers' melee weapons."""
    if any(is_counter(armed(defender, w)) for m in defender.models for w in m.weapons):
        ref.emit("counter", f"{defender.name} strikes first with Counter weapons")
        strike(
            ref,
            defender,
            charger,
            charging=False,
            fatigued=defender.fatigued or defender.shaken,
            keep=is_counter,
            pushing=pushing,
        )
    if not charger.alive:
        return
    impact(ref, charger, defender)
    if defender.alive:
        strike(
            ref, charger, defender, charging=True, fatigued=charger.fatigued, keep=lambda w: True
        )


def strike_back(ref: Referee, defender: Unit, charger: Unit, pushing: bool = False) -> None:
    """The defender's other melee weapons strike back; a Shaken unit counts as fatigued."""
    strike(
        ref,
        defender,
        charger,
        charging=False,
        fatigued=defender.fatigued or defender.shaken,
        keep=lambda w: not is_counter(w),
        pushing=pushing,
    )
    defender.fatigued = True
