"""6.0 Thrown and indirect fire: grenades (DEX of the thrower), mortars and off-table
artillery (INT of the firer or the spotting CO); the template placed before the roll, scatter
on a miss, every base it touches attacked, cover reductions, buildings hit (6.1–6.4, 7.0)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from warbench.core.geometry import Base, bearing
from warbench.core.terrain import TerrainPiece, Trait
from warbench.rulesets.tftww2 import floors, terrain
from warbench.rulesets.tftww2.actions import Bombard, maker
from warbench.rulesets.tftww2.afv import afv_to_hit, he_modifiers, vehicle
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.buildings import Building, Size, damage_building
from warbench.rulesets.tftww2.combat import roll_damage
from warbench.rulesets.tftww2.damage import apply_damage, fall
from warbench.rulesets.tftww2.indirect import (
    AttackKind,
    area_damage,
    hard_cover_toward_centre,
    indirect_modifiers,
    indirect_weapon,
    resolve_indirect,
    scatter,
    template,
    touched,
)
from warbench.rulesets.tftww2.state import MAN_BASE, Man, Tank
from warbench.rulesets.tftww2.vehicles import after_jam, area_attack

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame

TESTS_MORALE: frozenset[AttackKind] = frozenset({"artillery", "air", "rocket", "flame"})
"""5.0: "under air, artillery or flame thrower attack" (rockets are artillery) makes a unit
test; an AFV's HE and grenades do not."""
MINUS_FOUR: frozenset[AttackKind] = frozenset({"air", "rocket", "flame"})
"""5.0: "under air, flame or rocket attack" -4 (ruling M2)."""


def throw_grenade(game: TFTGame, man: Man, at: tuple[float, float]) -> None:
    """Throw one grenade at a point; on a miss it scatters and does half damage; a
    critical 18 explodes in the thrower's hand."""
    weapon = indirect_weapon("grenade")
    man.grenades -= 1
    man.shots += 1
    man.fired_this_round = True
    label = f"grenade: {man.id} → {at[0]:g},{at[1]:g}"
    mods = indirect_modifiers(
        firer_under_fire=man.under_fire_last_round,
        spotter_under_fire=False,
        through_window=floors.through_wall(game, man, at),  # F4
    )
    result = resolve_indirect(
        game, label, attributes(man).dexterity, mods, off_table=False, thrown=True
    )
    centre, floor = at, floors.burst_floor(game, man, at)
    scattered = False
    if result.outcome == "explodes in hand":
        centre, floor = (man.x, man.y), man.floor
    elif result.outcome not in ("hit", "auto hit"):
        dx, dy = scatter(game, label, "thrown", bearing((man.x, man.y), at))
        centre, scattered = (at[0] + dx, at[1] + dy), True
    explode(
        game,
        centre,
        weapon.damage_dice or 0,
        weapon.area,
        scattered,
        label,
        ap=weapon.ap_factor,
        aimed_at=at,
        floor=floor,
    )


def bombard_problem(game: TFTGame, man: Man, at: tuple[float, float]) -> str | None:
    """Why `man` may not bring indirect fire on `at` now: only a man serving a mortar or a
    flame thrower with fuel left (I13), or a CO with radio while his side has fire missions
    (or bomb runs) left, in the ranged combat step of a Pivot or Aim, at a point he sees (he
    spots for himself, ruling TFT-R18); a flame thrower reaches 6" (ruling I12)."""
    if man.action not in ("pivot", "aim") or man.shots:
        return f"{man.id} may bring indirect fire only after Pivot or Aim, once a turn"
    if man.support is None:
        if not man.radio or man.rank != "CO":
            return f"{man.id} serves no mortar and has no radio"
        if game.spec.sides[man.side].artillery is None or game.state.missions.get(man.side, 0) <= 0:
            return f"{man.side} has no off-table fire missions left"
    elif man.jam:
        return f"{man.id}'s {indirect_weapon(man.support).name} is jammed (unjam {man.id})"
    elif man.support_shots is not None and man.support_shots <= 0:
        return f"{man.id}'s {indirect_weapon(man.support).name} is empty (ruling I13)"
    else:
        reach = indirect_weapon(man.support).reach
        distance = ((at[0] - man.x) ** 2 + (at[1] - man.y) ** 2) ** 0.5
        if reach is not None and distance > reach:
            return (
                f"{man.id}'s {indirect_weapon(man.support).name} reaches {reach:g}\"; that "
                f'point is {distance:.1f}" away'
            )
    if not terrain.on_table(game.table, *at):
        return terrain.off_table(game.table, *at, "a point fired at")
    if not terrain.sees_point(game.table, man, at):
        return f"{man.id} cannot see {at[0]:g},{at[1]:g} to spot the fall of shot"
    if man.support is not None and indirect_weapon(man.support).thrown:
        return floors.window_problem(game, man, at)
    return None


def legal_bombards(game: TFTGame, man: Man, enemies: list[Man]) -> list[Bombard]:
    """The indirect fire on `enemies` (on each one's centre, to the hundredth of an inch)
    that `bombard_problem` allows `man`, in their order: his action, his mortar or radio
    and his side's missions checked once, then each point's reach, table, sight and window."""
    if man.action not in ("pivot", "aim") or man.shots:
        return []
    reach, thrown = None, False
    if man.support is None:
        if not man.radio or man.rank != "CO":
            return []
        if game.spec.sides[man.side].artillery is None or game.state.missions.get(man.side, 0) <= 0:
            return []
    elif man.jam or (man.support_shots is not None and man.support_shots <= 0):
        return []
    else:
        weapon = indirect_weapon(man.support)
        reach, thrown = weapon.reach, weapon.thrown
    table, legal = game.table, []
    for enemy in enemies:
        at = (round(enemy.x, 2), round(enemy.y, 2))
        distance = ((at[0] - man.x) ** 2 + (at[1] - man.y) ** 2) ** 0.5
        if (
            (reach is None or distance <= reach)
            and terrain.on_table(table, *at)
            and terrain.sees_point(table, man, at)
            and not (thrown and floors.window_problem(game, man, at) is not None)
        ):
            legal.append(_MAKE_BOMBARD(man.id, at))
    return legal


_MAKE_BOMBARD = maker(Bombard)  # a quick maker (`actions.maker`)


def bombard(game: TFTGame, man: Man, at: tuple[float, float]) -> None:
    """6.0: the template is placed, then the roll on the spotter's or firer's INT (a flame
    thrower's carrier's DEX: it is thrown, ruling I12)."""
    off = man.support is None
    key = game.spec.sides[man.side].artillery if off else man.support
    assert key is not None
    weapon = indirect_weapon(key)
    man.shots += 1
    man.fired_this_round = True
    if off:
        game.state.missions[man.side] -= 1
    elif man.support_shots is not None:
        man.support_shots -= 1  # a flame thrower's fuel (ruling I13)
    label = f"{weapon.name}: {man.id} → {at[0]:g},{at[1]:g}"
    mods = indirect_modifiers(
        firer_under_fire=not off and man.under_fire_last_round,
        spotter_under_fire=off and man.under_fire_last_round,
        through_window=weapon.thrown and floors.through_wall(game, man, at),  # F4
    )
    skill = attributes(man).dexterity if weapon.thrown else attributes(man).intelligence
    result = resolve_indirect(game, label, skill, mods, off_table=off, thrown=weapon.thrown)
    if result.outcome in ("no shot", "misfire"):
        game.emit("indirect", f"{label}: no shot")
        return
    if result.outcome in ("jammed", "jammed badly"):
        man.jam = 1 if result.outcome == "jammed" else 2
        game.emit("jam", f"{man.id}'s {weapon.name} jams")
        return
    centre, scattered = at, False
    floor = floors.burst_floor(game, man, at) if weapon.thrown else None  # F5
    if result.outcome == "explodes in hand":
        centre, floor = (man.x, man.y), man.floor
    elif result.scatters:
        dx, dy = scatter(game, label, weapon.scatter, bearing(_firing_from(game, man, off, at), at))
        centre, scattered = (at[0] + dx, at[1] + dy), True
    explode(
        game,
        centre,
        weapon.damage_dice or 0,
        weapon.area,
        scattered,
        label,
        attack=weapon.attack,
        critical_three=result.collapses_building,
        ap=weapon.ap_factor,
        aimed_at=at,
        floor=floor,
    )


def _firing_from(
    game: TFTGame, man: Man, off: bool, at: tuple[float, float]
) -> tuple[float, float]:
    """Where the shot comes from for scatter: the firer on the table, else the point of the
    friendly table edge straight behind the target (6.3, ruling I8)."""
    if not off:
        return man.x, man.y
    edge = game.spec.sides[man.side].edge
    width, depth = game.table.width, game.table.depth
    return {
        "south": (at[0], 0.0),
        "north": (at[0], depth),
        "west": (0.0, at[1]),
        "east": (width, at[1]),
    }[edge]


def explode(
    game: TFTGame,
    centre: tuple[float, float],
    dice: int,
    area: float,
    scattered: bool,
    label: str,
    *,
    attack: AttackKind | None = None,
    critical_three: bool = False,
    ap: int | None = None,
    aimed_at: tuple[float, float] | None = None,
    floor: int | None = None,
) -> None:
    """Every base the template touches takes the weapon's damage, less cover (6.4); the
    building aimed at takes it too while the template still touches it (7.0, ruling B5);
    an artillery, air, rocket or flame attack makes the squads it touches test morale, and
    air, rocket and flame give them -4 (5.0, rulings M2 and I12). A thrown weapon bursts on
    one `floor` and touches only the men there; from above (`floor` None) it touches all (F5)."""
    shape = template(centre, area)
    men = near_template(game, centre, area)
    hard = [p.area for p in game.table.pieces if p.has(Trait.HARD_COVER)]
    game.emit("blast", f"{label}: explodes at {centre[0]:.1f},{centre[1]:.1f}")
    area_attack(game, centre, shape, ap, label)
    struck = _building_at(game, aimed_at or centre)
    if struck is not None and struck.area.intersects(shape):
        _damage_building(game, struck, dice, scattered, critical_three, label)
    for man_id in touched(shape, men):
        target = game.state.men[man_id]
        if not target.active or (floor is not None and target.floor != floor):
            continue
        target.under_fire = True
        squad = game.state.squads[target.squad]
        squad.area_attack = squad.area_attack or attack in TESTS_MORALE
        squad.air_flame_rocket = squad.air_flame_rocket or attack in MINUS_FOUR
        damage = area_damage(
            game,
            f"{label} → {man_id}",
            dice,
            scattered=scattered,
            hard_cover_toward_centre=_hard_cover_toward(game, men[man_id], centre, hard),
            in_intact_building=_intact_building_of(game, target) is not None,
        )
        apply_damage(game, target, damage)


def near_template(game: TFTGame, centre: tuple[float, float], area: float) -> dict[str, Base]:
    """The bases of the men in the fight whose centres lie within the template's radius and
    half a base of its centre (and a millionth of an inch more), in the men's order: all
    those it can touch (6.0, `touched`: within half a base of the template, a polygon
    inside its circle), the rest left out before its shapes are measured."""
    cx, cy = centre
    reach = area + MAN_BASE / 2 + 1e-6
    return {
        m.id: Base((m.x, m.y), MAN_BASE)
        for m in game.state.men.values()
        if m.active and math.hypot(m.x - cx, m.y - cy) <= reach
    }


def _hard_cover_toward(
    game: TFTGame, target: Base, centre: tuple[float, float], hard: list[BaseGeometry]
) -> bool:
    """`hard_cover_toward_centre` (6.4) of the table's hard cover `hard`, kept per table,
    centre and base (the terrain never changes; templates fall again where men stood)."""
    key = (id(game.table), centre, target.centre, target.width)
    found = _TOWARD.get(key)
    if found is None:
        if len(_TOWARD) >= 20_000:
            _TOWARD.clear()
        found = _TOWARD[key] = hard_cover_toward_centre(target, centre, hard)
    return found


_TOWARD: dict[tuple[int, tuple[float, float], tuple[float, float], float], bool] = {}


def _intact_building_of(game: TFTGame, man: Man) -> str | None:
    name = terrain.inside_building(game.table, man)
    return name if name is not None and name not in game.state.collapsed else None


def _building_at(game: TFTGame, point: tuple[float, float]) -> TerrainPiece | None:
    """The first building of the table whose footprint holds the point, kept per table
    and point (the terrain never changes; templates fall again where men stood)."""
    key = (id(game.table), point)
    if key in _STRUCK:
        return _STRUCK[key]
    spot = ShapelyPoint(*point)
    found = next(
        (p for p in game.table.pieces if p.kind == "building" and p.area.covers(spot)), None
    )
    if len(_STRUCK) >= 20_000:
        _STRUCK.clear()
    _STRUCK[key] = found
    return found


_STRUCK: dict[tuple[int, tuple[float, float]], TerrainPiece | None] = {}


def _damage_building(
    game: TFTGame, piece: TerrainPiece, dice: int, scattered: bool, critical_three: bool, label: str
) -> None:
    """The building takes the full damage roll (halved when scattered); a collapse
    incapacitates everyone inside (7.0, ruling B5)."""
    s = game.state
    if piece.name in s.collapsed:
        return
    spec = game.table.specs[piece.name]
    building = Building(
        piece.name,
        spec.material,
        size_of(piece),
        spec.floors,
        piece.area,
        s.building_hits.get(piece.name, 0),
    )
    hits = roll_damage(game, f"{label} → {piece.name}", dice, halve=scattered)
    collapsed = damage_building(building, hits, critical_three=critical_three)
    s.building_hits[piece.name] = building.hits_taken
    game.emit(
        "building",
        f"{piece.name} takes {hits} hits ({building.hits_taken} of {building.hit_points})",
    )
    if collapsed:
        s.collapsed.append(piece.name)
        game.emit("collapse", f"{piece.name} collapses")
        for man in list(s.men.values()):
            if man.active and terrain.inside_building(game.table, man) == piece.name:
                fall(game, man, "incapacitated", f"{man.id} is buried: incapacitated")


def size_of(piece: TerrainPiece) -> Size:
    """Small 4x4, medium 8x8, large 12x12: by the footprint's area (ruling TFT-R19)."""
    area = float(piece.area.area)
    return "small" if area <= 32 else "medium" if area <= 100 else "large"


def he_shot(game: TFTGame, tank: Tank, target: Man) -> None:
    """HE against a soft target: the template on him, HE modifiers, scatter on a miss."""
    profile = vehicle(tank.key)
    assert profile.main_gun is not None and profile.main_gun.he is not None
    he = profile.main_gun.he
    tank.fired = True
    target.under_fire = True
    shot = afv_to_hit(
        game,
        f"{tank.id} {profile.main_gun.name} HE → {target.id}",
        profile.fire_control,
        he_modifiers(tank.under_fire_last_round, tank.moved > 0),
        he=True,
    )
    after_jam(tank, shot.jammed, shot.outcome)
    if shot.outcome in ("misfire", "jammed", "jammed badly"):
        return
    centre, scattered = (target.x, target.y), False
    if not shot.hit:
        dx, dy = scatter(game, f"{tank.id} HE", "afv_he", bearing((tank.x, tank.y), centre))
        centre, scattered = (centre[0] + dx, centre[1] + dy), True
    explode(
        game, centre, he.dice, he.area, scattered, f"{tank.id} HE", aimed_at=(target.x, target.y)
    )
