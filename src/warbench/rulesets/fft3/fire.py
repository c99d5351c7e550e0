"""Combat: which attack a stand may make with a weapon at a target, and the resolution of
all the fire declared at one target.

"A vehicle can make only one type of attack per turn. An infantry stand can make an
anti-infantry attack, an anti-vehicle attack with its LAW and a missile attack." Guns fire
anti-vehicle at vehicles and anti-infantry at infantry; missiles and LAWs at vehicles only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from warbench.core.dice import Modifier
from warbench.core.words import counted
from warbench.rulesets.fft3 import anti_infantry, anti_vehicle
from warbench.rulesets.fft3.attack import roll_to_hit, terrain_saves, to_hit_modifiers
from warbench.rulesets.fft3.battlefield import Battlefield
from warbench.rulesets.fft3.facing import arc_of_fire
from warbench.rulesets.fft3.profiles import Band, StandProfile, forces, range_band, tables
from warbench.rulesets.fft3.referee import Referee
from warbench.rulesets.fft3.state import Point, Stand

Kind = Literal["anti-vehicle", "missile", "anti-infantry"]


@dataclass(frozen=True)
class Plan:
    """One attack worked out: its kind, dice, range band, to-hit modifiers and Pen."""

    kind: Kind
    rof: int
    distance: float
    band: Band | None
    modifiers: tuple[Modifier, ...]
    pen: int = 0


_WEAPONS: dict[str, tuple[str, ...]] = {}
_REACH: dict[tuple[str, str], float] = {}
"""`weapons_of` and `max_range` by profile name (the profiles never change)."""


def weapons_of(stand: Stand) -> tuple[str, ...]:
    """The weapons a stand carries, in the order the data line lists them."""
    p = stand.profile
    found = _WEAPONS.get(p.name)
    if found is None:
        have = (("gun", p.gun), ("ai", p.anti_infantry), ("law", p.law), ("missile", p.missile))
        found = _WEAPONS[p.name] = tuple(name for name, weapon in have if weapon is not None)
    return found


def max_range(firer: Stand, weapon: str) -> float:
    """How far (edge to edge) `weapon` of `firer` reaches at most: long range for guns and
    anti-infantry fire, the single range of missiles and LAWs (0 for a weapon it lacks)."""
    p = firer.profile
    key = (p.name, weapon)
    found = _REACH.get(key)
    if found is None:
        reach = {
            "gun": p.gun.range * tables().range_bands["long"] if p.gun else 0.0,
            "ai": p.anti_infantry.range * tables().range_bands["long"] if p.anti_infantry else 0.0,
            "missile": p.missile.range if p.missile else 0.0,
            "law": p.law.range if p.law else 0.0,
        }
        found = _REACH[key] = reach.get(weapon, 0.0)
    return found


def band_of(firer: StandProfile, weapon: str, distance: float) -> Band | Literal["single"] | None:
    """The range band `distance` (edge to edge) falls in for `weapon` of a stand of profile
    `firer`: close, effective or long for guns and anti-infantry fire, "single" within the
    single range of missiles and LAWs; None beyond reach or for a weapon it lacks."""
    if weapon in ("missile", "law"):
        launcher = firer.missile if weapon == "missile" else firer.law
        return "single" if launcher is not None and distance <= launcher.range + 1e-9 else None
    arm = firer.gun if weapon == "gun" else firer.anti_infantry
    return range_band(distance, arm.range) if arm is not None else None


def plan(
    bf: Battlefield,
    firer: Stand,
    weapon: str,
    target: Stand,
    *,
    firer_at: Point | None = None,
    target_at: Point | None = None,
    overwatch: bool = False,
) -> Plan | str:
    """The attack `firer` would make with `weapon` at `target`, or why it cannot."""
    p, t = firer.profile, target.profile
    if weapon not in weapons_of(firer):
        return f"{firer.name} has no {weapon}; it has {', '.join(weapons_of(firer))}"
    if weapon in ("missile", "law") and not t.vehicle:
        return f"a {weapon} attacks tanks and IFVs, and {target.name} is infantry"
    if weapon == "ai" and t.vehicle:
        return f"anti-infantry fire attacks infantry, and {target.name} is a vehicle"
    if overwatch and weapon == "missile":
        return "missiles cannot fire overwatch in the introductory rules (footnote 11)"
    a, b = firer_at or firer.at, target_at or target.at
    distance = max(0.0, math.dist(a, b) - firer.radius - target.radius)
    if not bf.can_see(a, firer.radius, b, target.radius):
        return f"{firer.name} has no line of sight to {target.name}"
    quality = forces().sides[p.side].to_hit
    infantry = p.kind == "infantry"
    if weapon in ("missile", "law"):
        launcher = p.missile if weapon == "missile" else p.law
        assert launcher is not None
        if band_of(p, weapon, distance) is None:
            return (
                f'{target.name} is {distance:.1f}" away, beyond the {weapon}\'s {launcher.range:g}"'
            )
        mods = to_hit_modifiers(
            None, quality, suppressed=firer.suppressed, infantry=infantry, overwatch=overwatch
        )
        return Plan(
            "missile" if weapon == "missile" else "anti-vehicle",
            launcher.rof,
            distance,
            None,
            mods,
            launcher.pen,
        )
    if weapon == "gun":
        assert p.gun is not None
        effective, rof, ai = p.gun.range, p.gun.rof, p.gun.ai
    else:
        assert p.anti_infantry is not None
        effective, rof, ai = p.anti_infantry.range, p.anti_infantry.rof, p.anti_infantry.ai
    band = range_band(distance, effective)
    if band is None:
        return (
            f'{target.name} is {distance:.1f}" away, beyond long range '
            f'({effective * tables().range_bands["long"]:g}")'
        )
    if t.vehicle:
        mods = to_hit_modifiers(
            band, quality, suppressed=firer.suppressed, infantry=infantry, overwatch=overwatch
        )
        assert p.gun is not None
        return Plan(
            "anti-vehicle", rof, distance, band, mods, anti_vehicle.gun_penetration(p.gun.pen, band)
        )
    mods = to_hit_modifiers(
        band,
        quality,
        suppressed=firer.suppressed,
        infantry=infantry,
        overwatch=overwatch,
        ai_rating=ai,
    )
    return Plan("anti-infantry", rof, distance, band, mods)


def suits(firer: Stand, weapon: str, target: Stand, *, overwatch: bool = False) -> bool:
    """Whether `plan` gets past its tests of the weapon alone: `firer` has it, it attacks
    `target`'s kind, and it is not a missile fired on overwatch."""
    if weapon not in weapons_of(firer):
        return False
    vehicle = target.profile.vehicle
    if (weapon in ("missile", "law") and not vehicle) or (weapon == "ai" and vehicle):
        return False
    return not (overwatch and weapon == "missile")


def armour_against(
    target: Stand, firer_at: Point, firer_radius: float, target_at: Point | None = None
) -> tuple[int, str]:
    """The armour the fire strikes and which arc: front if the firer is wholly or partly in
    the 120° front arc, flank if wholly outside it."""
    arm = target.profile.armour
    assert arm is not None
    side = arc_of_fire(target_at or target.at, target.facing, firer_at, firer_radius)
    return (arm.front if side == "front" else arm.flank), side


@dataclass(frozen=True)
class Volley:
    """One declared attack ready to resolve: who fires, from where, and its plan."""

    firer: Stand
    weapon: str
    at: Point
    plan: Plan


def resolve_volleys(
    ref: Referee,
    target: Stand,
    volleys: list[Volley],
    *,
    in_difficult: bool,
    target_at: Point | None = None,
    check: Callable[[Stand, str, tuple[Modifier, ...]], bool],
    destroy: Callable[[Stand, str], None],
) -> None:
    """Resolve all the fire declared at `target`, in the order declared.

    Anti-vehicle and missile: to hit, terrain saves, penetration per attack; any 6
    destroys, and a 4-5 anywhere forces one quality check after all the fire (at most one
    per firing phase). Anti-infantry: the hits left after saves are added over all the
    fire and force one quality check at −1 per hit after the first. `check` makes a
    quality check from enemy fire (False when the stand fails), `destroy` removes a stand.
    Fire declared at a target destroyed earlier in the resolution is lost (ruling R9).
    """
    checks = False
    ai_hits = 0
    for v in volleys:
        label = f"{v.firer.name} {v.weapon} at {target.name}"
        if not target.alive:
            ref.emit("fire", f"{label}: the target is already gone; the fire is lost")
            continue
        hits = roll_to_hit(ref, label, v.plan.rof, v.plan.modifiers)
        if hits and in_difficult:
            hits = terrain_saves(ref, label, hits)
        if v.plan.kind == "anti-infantry":
            ai_hits += hits
            continue
        if not hits:
            continue
        armour, side = armour_against(target, v.at, v.firer.radius, target_at)
        outcome = anti_vehicle.resolve_hits(
            ref, f"{label}, {side} armour", hits, v.plan.pen, armour
        )
        ref.emit("fire", f"{label}: {outcome}")
        if outcome == "destroyed":
            destroy(target, f"destroyed by {v.firer.name}")
        elif outcome == "check":
            checks = True
    if not target.alive:
        return
    if ai_hits:
        check(target, counted(ai_hits, "anti-infantry hit"), anti_infantry.check_modifiers(ai_hits))
    elif checks:
        check(target, "penetration 4-5", ())
