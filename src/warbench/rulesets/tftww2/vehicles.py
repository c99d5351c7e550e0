"""8.0 AFVs in play: driving by terrain costs, over-running, the main gun (AP against
vehicles, HE against soft targets), machine guns, hits and penetration, the damage table,
crew morale, and close assault by infantry.

Rulings (docs/rules/tftww2.md): a vehicle drives straight to a point after turning to face
it, paying the terrain of its destination stretch by stretch (TFT-R20); buildings stop
vehicles (TFT-R21); an AFV fires once a turn - its main gun (AP or HE) or one machine gun,
with its fire control as the gunner's DEX (TFT-R22); a jammed gun's crew tries to clear it
at the start of its side's turn, which is that turn's fire (TFT-R26); only enemy men and
static pieces are over-run (TFT-R23, A11); small arms cannot harm an AFV (TFT-R24); all men
of a side in base contact with an AFV assault it together, once a turn, each with his best
close-assault weapon (TFT-R25).
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from shapely.geometry import LineString

from warbench.core.geometry import Path, bearing, edge_distance, turn_between
from warbench.core.terrain import Trait
from warbench.rulesets.tftww2 import terrain
from warbench.rulesets.tftww2.afv import (
    Cover,
    TerrainKind,
    afv_to_hit,
    afv_to_hit_modifiers,
    can_fire,
    clear_jam,
    close_assault,
    close_assault_bonus,
    close_assault_factor,
    crew_morale,
    crew_reaction,
    damage_table,
    explosion_dice,
    explosion_victims,
    hit_location,
    move_cost,
    one_shot,
    overrun_check,
    overrun_victims,
    penetrates,
    relative_bearing,
    turn_cost,
    vehicle,
)
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.combat import ranged_modifiers, roll_damage, to_hit
from warbench.rulesets.tftww2.damage import apply_damage, fall, hit_man
from warbench.rulesets.tftww2.profiles import weapon_profile
from warbench.rulesets.tftww2.state import Man, Tank

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame

FAST = 6.0
CONTACT = 0.05
STATIC_ARC = 30.0  # degrees either side of a static gun's facing it can traverse (ours, A11)
GROUND: dict[str, TerrainKind] = {
    "road": "road",
    "woods": "forest",
    "rough": "rough",
    "hedge": "rough",
    "wall": "rough",
}


def drive_cost(
    game: TFTGame, tank: Tank, to: tuple[float, float], *, reverse: bool = False
) -> float | None:
    """Movement points to drive straight to `to` (turning first, unless reversing), or
    None if a building is in the way."""
    profile = vehicle(tank.key)
    start = (tank.x, tank.y)
    if math.dist(start, to) < 1e-9:
        return 0.0
    heading = bearing(start, to)
    cost = 0.0 if reverse else turn_cost(profile.drive, turn_between(tank.facing, heading))
    path = Path.of([start, to])
    swept = tank.base().moved(to, heading).shape().union(LineString([start, to]))
    if any(p.has(Trait.BUILDING) and p.area.intersects(swept) for p in game.table.pieces):
        return None
    for begin, end, kinds in path.segments_in(game.table.index):
        ground: TerrainKind = "open"
        for kind in kinds:
            ground = GROUND.get(kind, ground)
        cost += (end - begin) * move_cost(profile.drive, ground, reverse=reverse)
    return cost


def drive_problem(game: TFTGame, tank: Tank, to: tuple[float, float], reverse: bool) -> str | None:
    """Why the AFV cannot drive (or reverse) to `to` this turn."""
    profile = vehicle(tank.key)
    if tank.immobilised:
        return f"{tank.id} is immobilised"
    if tank.reversing and not reverse:
        return f"{tank.id}'s crew failed its morale: it must reverse toward its table edge"
    if not terrain.on_table(game.table, *to):
        return terrain.off_table(game.table, *to, f"{tank.id}'s centre")
    if reverse:
        back = (tank.facing + 180) % 360
        if (
            math.dist((tank.x, tank.y), to) > 1e-9
            and turn_between(back, bearing((tank.x, tank.y), to)) > 1
        ):
            return f"{tank.id} reverses straight back (toward {back:.0f}°)"
    cost = drive_cost(game, tank, to, reverse=reverse)
    if cost is None:
        return f"a building stands in {tank.id}'s way"
    if cost > profile.movement_points + 1e-9:
        return (
            f"{tank.id} has {profile.movement_points} movement points; that move costs {cost:.1f}"
        )
    return None


def drive(game: TFTGame, tank: Tank, to: tuple[float, float], reverse: bool) -> None:
    """Move the AFV; men in its way must roll DEX or be over-run."""
    cost = drive_cost(game, tank, to, reverse=reverse) or 0.0
    start = (tank.x, tank.y)
    distance = math.dist(start, to)
    if distance > 1e-9:
        if not reverse:
            tank.facing = bearing(start, to)
        path = Path.of([start, to])
        enemy = "blue" if tank.side == "red" else "red"
        pieces = {t.id: t for t in game.state.side_tanks(enemy) if t.static}
        bases = {m.id: m.base() for m in game.state.side_men(enemy)}
        bases |= {k: piece.base() for k, piece in pieces.items()}
        victims = overrun_victims(tank.base(), path, bases)
        tank.x, tank.y = to
        for victim in victims:
            label = f"over-run: {tank.id} → {victim}"
            if victim in pieces:  # a static piece is destroyed without a roll (A9, A11)
                overrun_check(game, label, None)
                knock_out(game, pieces[victim], "over-run")
                continue
            man = game.state.men[victim]
            if not overrun_check(game, label, attributes(man).dexterity):
                fall(game, man, "dead", f"{man.id} is over-run by {tank.id}")
    tank.spent, tank.moved, tank.action = cost, distance, "reverse" if reverse else "drive"
    game.emit(
        "move",
        f'{tank.id} {"reverses" if reverse else "drives"} {distance:.1f}" '
        f"({cost:.1f} movement points)",
    )
    if reverse and not terrain.on_table(game.table, tank.x, tank.y):
        tank.status = "abandoned"


def fire_problem(game: TFTGame, tank: Tank, target_id: str, gun: bool) -> str | None:
    """Why the AFV may not fire its main gun (or an MG) at the target now."""
    profile = vehicle(tank.key)
    if tank.fired:
        return f"{tank.id} has fired this turn"
    if not can_fire(tank.spent, profile.movement_points):
        return f"{tank.id} spent more than half its movement points and cannot fire"
    if gun and (profile.main_gun is None or tank.gun_out):
        return f"{tank.id} has no main gun to fire"
    if gun and tank.jam:
        return f"{tank.id}'s main gun is jammed"
    if not gun and (not profile.mgs or tank.mgs_out):
        return f"{tank.id} has no machine gun left"
    target = _target(game, target_id)
    if target is None or target.side == tank.side:
        return f"'{target_id}' is not an enemy man or vehicle in the fight"
    if not gun and isinstance(target, Tank):
        return "machine guns cannot harm an AFV"
    if (
        gun
        and isinstance(target, Man)
        and (profile.main_gun is None or profile.main_gun.he is None)
    ):
        return f"{tank.id}'s main gun has no HE for soft targets"
    if not terrain.clear_between(game.table, (tank.x, tank.y), (target.x, target.y)):
        return f"{tank.id} cannot see {target_id}"
    if tank.static:
        off = turn_between(tank.facing, bearing((tank.x, tank.y), (target.x, target.y)))
        if off > STATIC_ARC:
            return (
                f"{target_id} is {off:.0f}° off {tank.id}'s facing; a static gun fires within "
                f"{STATIC_ARC:g}° of it (ruling A11)"
            )
    return None


def _target(game: TFTGame, target_id: str) -> Man | Tank | None:
    man = game.state.men.get(target_id)
    if man is not None:
        return man if man.active else None
    tank = game.state.tanks.get(target_id)
    return tank if tank is not None and tank.active else None


def fire_gun(game: TFTGame, tank: Tank, target_id: str) -> None:
    """The main gun's AP round at an AFV (HE at men is `area.he_shot`)."""
    profile = vehicle(tank.key)
    gun = profile.main_gun
    assert gun is not None
    tank.fired = True
    target = _target(game, target_id)
    assert target is not None
    moving = tank.moved > 0
    buttoned = tank.under_fire_last_round
    assert isinstance(target, Tank)
    target.under_fire = True
    tprofile = vehicle(target.key)
    mods = afv_to_hit_modifiers(
        tprofile.target_size, buttoned, target.moved > FAST, _cover(game, target), moving
    )
    shot = afv_to_hit(game, f"{tank.id} {gun.name} → {target.id}", profile.fire_control, mods)
    after_jam(tank, shot.jammed, shot.outcome)
    if shot.knocked_out:
        knock_out(game, target, "knocked out")
        return
    if not shot.hit:
        return
    location = hit_location(
        game, f"{tank.id} → {target.id}", relative_bearing(target.base(), (tank.x, tank.y))
    )
    armour = tprofile.armour_at(location)
    if shot.auto_penetrates or penetrates(gun.penetration, armour):
        game.emit(
            "penetrates",
            f"{gun.name} penetrates {target.id}'s {location.facing} "
            f"{location.part} (penetration {gun.penetration} against {armour})",
        )
        result = damage_table(
            game, f"{target.id} hit", gun.he_modifier, has_main_gun=tprofile.main_gun is not None
        )
        apply_vehicle_damage(game, target, result)
    else:
        game.emit(
            "bounces",
            f"{gun.name} fails to penetrate {target.id} ({gun.penetration} against {armour})",
        )
        crew_test(game, target)


def after_jam(tank: Tank, jammed: bool, outcome: str) -> None:
    if jammed:
        tank.jam = 2 if outcome == "jammed badly" else 1


def crew_clears_jam(game: TFTGame, tank: Tank) -> None:
    """8.2 (ruling A8, TFT-R26): at the start of its side's turn the crew of a jammed gun
    tries to clear it (INT as an NCO; INT -4 after an 18); the attempt is the crew's action,
    so the AFV fires nothing that turn, but it may drive."""
    tank.fired = True
    if clear_jam(game, f"{tank.id} crew", tank.jam == 2):
        tank.jam = 0
        game.emit("unjam", f"{tank.id}'s crew clears the main gun")
    else:
        game.emit("jam", f"{tank.id}'s main gun is still jammed")


def _cover(game: TFTGame, tank: Tank) -> Cover:
    covered = set()
    for piece in game.table.index.near(tank.base().shape()):
        if piece.area.intersects(tank.base().shape()):
            if piece.has(Trait.HARD_COVER):
                covered.add("hard")
            elif piece.has(Trait.SOFT_COVER):
                covered.add("soft")
    return "hard" if "hard" in covered else "soft" if "soft" in covered else "none"


def fire_mg(game: TFTGame, tank: Tank, target_id: str) -> None:
    """One machine gun's shots at a man, fire control standing for the gunner's DEX."""
    profile = vehicle(tank.key)
    mg = next(m for m in profile.mgs)
    weapon = weapon_profile(mg.kind)
    target = game.state.men[target_id]
    tank.fired = True
    target.under_fire = True
    for shot in range(weapon.shots):
        if not target.active:
            break
        mods = ranged_modifiers(
            weapon=weapon,
            distance=math.dist((tank.x, tank.y), (target.x, target.y)),
            target_prone=target.stance == "prone",
            target_moved_fast=target.moved > FAST,
            cover=terrain.cover(game.table, target, None),
        )
        result = to_hit(
            game, f"{tank.id} {mg.name} shot {shot + 1} → {target.id}", profile.fire_control, mods
        )
        if result.hit:
            hit_man(game, target, weapon.damage_dice, critical=result.critical, by=tank.id)


def apply_vehicle_damage(game: TFTGame, tank: Tank, result: str) -> None:
    """The damage table's result, then the crew's morale test (unless it exploded)."""
    if result == "explodes":
        knock_out(game, tank, "exploded")
        near = {m.id: m.base() for m in game.state.men.values() if m.active}
        for man_id in explosion_victims(tank.base(), near):
            damage = roll_damage(game, f"{tank.id} explodes → {man_id}", explosion_dice())
            apply_damage(game, game.state.men[man_id], damage)
        return
    if result == "damaged: mgs":
        tank.mgs_out = True
    elif result == "damaged: immobilised":
        tank.immobilised = True
    elif result == "damaged: main gun":
        tank.gun_out = True
    crew_test(game, tank)


def crew_test(game: TFTGame, tank: Tank) -> None:
    """The crew test as an NCO: failure → reverse off at half speed; immobilised → abandon."""
    passed = crew_morale(game, f"{tank.id} crew", ())
    reaction = crew_reaction(passed, tank.immobilised)
    if reaction == "abandon":
        knock_out(game, tank, "abandoned")
    elif reaction == "reverse":
        tank.reversing = True
        game.emit("crew", f"{tank.id}'s crew pulls back")


def knock_out(game: TFTGame, tank: Tank, status: str) -> None:
    """An AFV out of the fight."""
    tank.status = status
    game.emit(status, f"{tank.id} is {status}")


def assault_problem(game: TFTGame, man: Man, tank_id: str) -> str | None:
    """Why `man`'s side may not close assault that AFV now."""
    tank = game.state.tanks.get(tank_id)
    if tank is None or tank.side == man.side or not tank.active:
        return f"'{tank_id}' is not an enemy AFV in the fight"
    if man.action not in ("charge", "fight", "pivot") or man.shots:
        return f"{man.id}'s action allows no close assault now"
    if man.floor or edge_distance(man.base(), tank.base()) > CONTACT:
        return f"{man.id} is not in base contact with {tank.id}"
    if tank.id in game.state.step.get("assaulted", []):
        return f"{tank.id} was already assaulted this turn"
    return None


def assault(game: TFTGame, man: Man, tank_id: str) -> None:
    """Every man of the side in contact joins; factor 5 plus each one's weapon bonus."""
    tank = game.state.tanks[tank_id]
    party = [
        m
        for m in game.state.side_men(man.side)
        if m.action in ("charge", "fight", "pivot")
        and not m.shots
        and not m.floor
        and edge_distance(m.base(), tank.base()) <= CONTACT
    ]
    used = {m.id: assault_weapon(m) for m in party}
    for member in party:
        member.shots += 1
    game.state.step.setdefault("assaulted", []).append(tank.id)
    factor = close_assault_factor(used.values())
    result = close_assault(game, f"{len(party)} men → {tank.id}", factor)
    for member in party:
        spend(game, member, used[member.id])
    if result == "knocked out":
        knock_out(game, tank, "knocked out")
    elif result == "immobilised":
        tank.immobilised = True
        game.emit("immobilised", f"{tank.id} is immobilised")
        crew_test(game, tank)


def spend(game: TFTGame, man: Man, weapon: str) -> None:
    """A one-shot weapon used in a close assault is gone (ruling A12): a grenade from his
    grenades, any other from his hands."""
    if not one_shot(weapon):
        return
    if weapon == "grenade":
        man.grenades -= 1
    else:
        man.anti_tank = None
    game.emit("spent", f"{man.id}'s {weapon} is spent")


def assault_weapon(man: Man) -> str:
    """The best close-assault weapon a man has (8.2's bonuses, ruling A10): his anti-tank
    weapon, else a grenade, else his close combat weapon (TFT-R25)."""
    return best_assault_weapon(man.anti_tank, bool(man.grenades), man.close_weapon)


@cache
def best_assault_weapon(anti_tank: str | None, grenades: bool, close_weapon: str) -> str:
    """`assault_weapon` of a man with these weapons (a grenade if `grenades`)."""
    held = [w for w in (anti_tank, "grenade" if grenades else None) if w is not None]
    return max([*held, close_weapon], key=close_assault_bonus)


def area_attack(
    game: TFTGame, centre: tuple[float, float], shape: object, ap: int | None, label: str
) -> None:
    """An area weapon's AP factor against the top armour of AFVs it touches (ruling I7)."""
    if not ap:
        return
    for tank in list(game.state.tanks.values()):
        if not tank.active or not tank.base().shape().intersects(shape):
            continue
        armour = vehicle(tank.key).armour_at(
            hit_location(game, f"{label} → {tank.id}", 0.0, from_above=True)
        )
        if penetrates(ap, armour):
            result = damage_table(
                game,
                f"{tank.id} hit from above",
                ap,
                has_main_gun=vehicle(tank.key).main_gun is not None,
            )
            apply_vehicle_damage(game, tank, result)
        else:
            crew_test(game, tank)


def afv_within(game: TFTGame, side: str, men: list[Man], reach: float = 12.0) -> bool:
    """5.0: a friendly AFV within 12" of the unit (a static gun is no AFV here, A11)."""
    return any(
        edge_distance(t.base(), m.base()) <= reach
        for t in game.state.side_tanks(side)
        if not t.static
        for m in men
    )
