"""3.0 Movement: one movement point is 1"; each 90° of turn costs 1; every man chooses one
action a turn, and each action has its limits.

Rulings: a prone man may change position, pivot, aim, fight or clear a jam, but not move
(TFT-R1); a charge "with no turn" must find its target within 15° of straight ahead
(TFT-R2); Aim's "straight ahead" is within 45° of the facing (TFT-R3); a man may charge an
enemy AFV or gun, ending where his base first touches its footprint, to close assault it
(TFT-R27).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, cast

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Point

from warbench.core.actions import Action
from warbench.core.geometry import bearing, turn_between
from warbench.rulesets.tftww2 import floors, terrain
from warbench.rulesets.tftww2.actions import (
    AimAt,
    ChangePosition,
    ChargeAt,
    Climb,
    CloseCombat,
    Disengage,
    Flee,
    Manipulate,
    Pivot,
    Run,
    Walk,
    maker,
)
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.combat import clear_jam
from warbench.rulesets.tftww2.profiles import weapon_profile
from warbench.rulesets.tftww2.spots import free_spots
from warbench.rulesets.tftww2.state import MAN_BASE, Man, Tank

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame

MOVING = (Run, Walk, ChargeAt, Disengage, Flee)
CHARGE_CONE = 15.0
AIM_CONE = 45.0
EDGE_POINT = {"north": (None, 1.0), "south": (None, 0.0), "east": (1.0, None), "west": (0.0, None)}


def step(man: Man, distance: float, facing: float) -> tuple[float, float]:
    """The point `distance` straight ahead along `facing`."""
    rad = math.radians(facing)
    return man.x + distance * math.sin(rad), man.y + distance * math.cos(rad)


def walk_cost(man: Man, to: tuple[float, float], facing: float) -> float:
    """Walk: turn to face the point, 1 per inch to it, then turn to `facing`; each 90° of
    turn costs 1 movement point, part of 90° a whole point."""
    return _walk_cost(man.x, man.y, man.facing, to, facing)


def _walk_cost(x: float, y: float, start: float, to: tuple[float, float], facing: float) -> float:
    """`walk_cost` from x, y facing `start` (`bearing` and `turn_between` written out: a
    walk's cost is worked out for every walk weighed)."""
    if to[0] != x or to[1] != y:
        heading = math.degrees(math.atan2(to[0] - x, to[1] - y)) % 360.0  # `bearing`
        if heading == 360.0:
            heading = 0.0
    else:
        heading = start
    first = abs(start - heading) % 360.0  # `turn_between(start, heading)`
    last = abs(heading - facing) % 360.0  # `turn_between(heading, facing)`
    return (
        math.ceil(min(first, 360.0 - first) / 90 - 1e-9)
        + math.hypot(to[0] - x, to[1] - y)
        + math.ceil(min(last, 360.0 - last) / 90 - 1e-9)
    )


def blocked(game: TFTGame, man: Man, x: float, y: float) -> str | None:
    """Why a man cannot end at x, y: off the table, out of his building from upstairs (F1),
    or on the base of another man on his floor."""
    if not terrain.on_table(game.table, x, y):
        return terrain.off_table(game.table, x, y, f"{man.id}'s centre")
    leaving = floors.leaving_problem(game, man, (x, y))
    if leaving is not None:
        return leaving
    for other in game.state.men.values():
        dx, dy = other.x - x, other.y - y
        if (
            -MAN_BASE < dx < MAN_BASE  # a quick first test: no base nearer than this overlaps
            and -MAN_BASE < dy < MAN_BASE
            and other is not man
            and other.active
            and other.floor == man.floor
            and math.hypot(dx, dy) < (MAN_BASE - 1e-6)
        ):
            apart = math.floor(math.hypot(dx, dy) * 10) / 10  # shown below 1", never as 1.0
            return (
                f"{terrain.point_text(x, y)} is on {other.id}'s base: their centres would be "
                f'{apart:.1f}" apart; men on one floor keep their centres {MAN_BASE:g}" apart '
                "or more"
            )
    return None


def order_problem(game: TFTGame, man: Man, action: Action) -> str | None:
    """Why `man` may not take `action` now (each action's limits), or None."""
    mov = attributes(man).mov
    if man.stance == "prone" and isinstance(action, MOVING):
        return f"{man.id} is prone: change position first (position {man.id})"
    if isinstance(action, Run | Walk | Pivot) and not 0 <= action.facing < 360:
        return f"a facing is compass degrees from 0 up to 360 (0 = north), not {action.facing:g}"
    if isinstance(action, Run):
        if not 0 < action.dist <= 2 * mov:
            return f'{man.id} runs up to {2 * mov}" (twice his move rate), not {action.dist:g}'
        return blocked(game, man, *step(man, action.dist, man.facing))
    if isinstance(action, Walk):
        cost = walk_cost(man, action.to, action.facing)
        if cost > mov + 1e-9:
            return (
                f"{man.id} has {mov} movement points; that walk costs {cost:.1f} "
                f"(1 per inch and 1 per 90° of turn)"
            )
        return blocked(game, man, *action.to)
    if isinstance(action, ChargeAt):
        return _charge_problem(game, man, action.target, mov)
    if isinstance(action, AimAt):
        return _aim_problem(game, man, action.target)
    if isinstance(action, Disengage):
        if not _contact_enemies(game, man):
            return f"{man.id} is not in close combat: nothing to disengage from"
        return None
    if isinstance(action, Manipulate) and not man.jam:
        return f"{man.id}'s weapon is not jammed"
    if isinstance(action, Climb):
        return floors.climb_problem(game, man, action.floor)
    return None


def _free_spots(game: TFTGame, man: Man) -> Callable[[float, float], bool]:
    """Whether `man` may stand at (x, y) as far as the table's edges, leaving his upper floor
    and the other men's bases on his floor go (`blocked` is None): the edges and the bases
    taken once, for the many spots `legal_orders` and `legal_man_orders` test."""
    upstairs = man.floor != 0
    half = MAN_BASE / 2
    width, depth = game.table.width - half, game.table.depth - half
    bases = [
        (o.x, o.y)
        for o in game.state.men.values()
        if o is not man and o.active and o.floor == man.floor
    ]

    def free(x: float, y: float) -> bool:
        if not (half <= x <= width and half <= y <= depth):
            return False
        if upstairs and floors.leaving_problem(game, man, (x, y)) is not None:
            return False
        for ox, oy in bases:
            dx, dy = ox - x, oy - y
            if (
                -MAN_BASE < dx < MAN_BASE
                and -MAN_BASE < dy < MAN_BASE
                and math.hypot(dx, dy) < (MAN_BASE - 1e-6)
            ):
                return False
        return True

    return free


def legal_orders(game: TFTGame, man: Man, acts: list[Action]) -> list[Action]:
    """The orders of `acts` that `order_problem` allows `man`, in their order: the work they
    share (his move rate, stance, weapon, the table's edges and the bases that could block
    him) done once for all of them rather than once an order. Walk, run, pivot, position,
    close combat, flee and aim are decided here by `order_problem`'s own tests, as is a
    charge at a man he would have to turn to; the rest go to it."""
    mov = attributes(man).mov
    prone = man.stance == "prone"
    free = _free_spots(game, man)
    automatic = weapon_profile(man.weapon).automatic

    def enemy(target_id: str) -> Man | None:  # an enemy man in the fight
        target = game.state.men.get(target_id)
        if target is None or target.side == man.side or not target.active:
            return None
        return target

    def off(target: Man) -> float:  # degrees off his facing, as aim and charge measure
        return turn_between(man.facing, bearing((man.x, man.y), (target.x, target.y)))

    legal: list[Action] = []
    for action in acts:
        kind = type(action)
        if kind in _STANDING:
            ok = True
        elif prone and kind in MOVING:
            ok = False
        elif kind is Walk:
            walk = cast(Walk, action)
            ok = walk_cost(man, walk.to, walk.facing) <= mov + 1e-9 and free(*walk.to)
        elif kind is Run:
            run = cast(Run, action)
            ok = 0 < run.dist <= 2 * mov and free(*step(man, run.dist, man.facing))
        elif kind is Flee:
            ok = True
        elif kind is AimAt:
            target = enemy(cast(AimAt, action).target)
            ok = not automatic and target is not None and off(target) <= AIM_CONE
        elif kind is ChargeAt and cast(ChargeAt, action).target not in game.state.tanks:
            target = enemy(cast(ChargeAt, action).target)
            ok = (
                target is not None
                and target.floor == man.floor
                and off(target) <= CHARGE_CONE
                and order_problem(game, man, action) is None
            )
        else:
            ok = order_problem(game, man, action) is None
        if ok:
            legal.append(action)
    return legal


_STANDING = frozenset({Pivot, ChangePosition, CloseCombat})  # `order_problem` allows
# quick makers of the orders `legal_man_orders` makes at every decision (`actions.maker`)
_MAKE_CHANGEPOSITION, _MAKE_CLOSECOMBAT, _MAKE_FLEE = (
    maker(ChangePosition),
    maker(CloseCombat),
    maker(Flee),
)
_MAKE_MANIPULATE, _MAKE_CLIMB, _MAKE_PIVOT = maker(Manipulate), maker(Climb), maker(Pivot)
_MAKE_WALK, _MAKE_RUN, _MAKE_AIMAT = maker(Walk), maker(Run), maker(AimAt)
_MAKE_CHARGEAT, _MAKE_DISENGAGE = maker(ChargeAt), maker(Disengage)
_COMPASS = tuple(
    (float(angle), math.sin(math.radians(angle)), math.cos(math.radians(angle)))
    for angle in range(0, 360, 45)
)  # the eight facings a man's orders sample, with their sine and cosine


def legal_man_orders(game: TFTGame, man: Man, enemies: list[Man]) -> list[Action]:
    """`legal_orders` of the orders `TFTGame._man_orders` samples for a man of the side to
    play, in their order, made in one pass: an order is made only once his stance, the cost
    of a walk and the bases and edges it could end on, or the bearing of an enemy, allow it
    (a run goes straight ahead, so its eight facings share one end); charges, disengaging
    and climbing are checked by `order_problem`'s own tests."""
    s = game.state
    mov = attributes(man).mov
    prone = man.stance == "prone"
    mid = man.id
    acts: list[Action] = [_MAKE_CHANGEPOSITION(mid), _MAKE_CLOSECOMBAT(mid)]
    if not prone:
        acts.append(_MAKE_FLEE(mid))
    if man.jam:
        acts.append(_MAKE_MANIPULATE(mid))
    levels = floors.floors_at(game, man)
    for level in (man.floor - 1, man.floor + 1):
        if 0 <= level < levels and floors.climb_problem(game, man, level) is None:
            acts.append(_MAKE_CLIMB(mid, level))
    compass = compass_of(mid, man.x, man.y, man.facing, mov)
    if prone:
        for pivot, _, _ in compass.orders:
            acts.append(pivot)
    else:
        bases = [
            xy
            for o in s.men.values()
            if o is not man and o.active and o.floor == man.floor
            for xy in (o.x, o.y)
        ]
        half = MAN_BASE / 2
        free = free_spots(
            compass.ends,
            np.array(bases, dtype=np.float64).reshape(-1, 2),
            game.table.width - half,
            game.table.depth - half,
        ).tolist()
        if man.floor != 0:  # F1: upstairs he stays in his building (`_free_spots`)
            ends = compass.ends.tolist()
            free = [
                ok and floors.leaving_problem(game, man, (x, y)) is None
                for ok, (x, y) in zip(free, ends, strict=True)
            ]
        runs = 2 * mov > 0 and free[-1]
        spot = 0
        for pivot, walks, dash in compass.orders:
            acts.append(pivot)
            for walk in walks:
                if free[spot]:
                    acts.append(walk)
                spot += 1
            if runs:
                acts.append(dash)
    aims = not weapon_profile(man.weapon).automatic
    here = (man.x, man.y)
    for enemy in enemies:
        off = turn_between(man.facing, bearing(here, (enemy.x, enemy.y)))
        if aims and off <= AIM_CONE:
            acts.append(_MAKE_AIMAT(mid, enemy.id))
        if (
            not prone
            and enemy.floor == man.floor
            and off <= CHARGE_CONE
            and _charge_problem(game, man, enemy.id, mov) is None
        ):
            acts.append(_MAKE_CHARGEAT(mid, enemy.id))
    if not prone:
        for tank in s.side_tanks("blue" if man.side == "red" else "red"):
            if _charge_problem(game, man, tank.id, mov) is None:
                acts.append(_MAKE_CHARGEAT(mid, tank.id))
        if _contact_enemies(game, man, enemies):
            acts.append(_MAKE_DISENGAGE(mid))
    return acts


class Compass(NamedTuple):
    """A man's pivot, walks and run toward each of the eight facings (`orders`), and the
    ends of those walks then of the run, as rows of x, y (`ends`)."""

    orders: tuple[tuple[Action, tuple[Walk, ...], Action], ...]
    ends: NDArray[np.float64]


def compass_of(mid: str, x: float, y: float, facing: float, mov: int) -> Compass:
    """A man's pivot, walks and run toward each of the eight facings, in
    `legal_man_orders`' order: the walks within his movement points (the bases and edges
    they could end on are checked there), the run of twice his move rate straight ahead.
    These depend on his place, facing and move rate alone (orders are immutable values),
    so they are made once per place: men often give orders again from where they stood,
    and the games of a sweep go over the same ground."""
    key = (mid, x, y, facing, mov)
    found = _COMPASSES.get(key)
    if found is not None:
        return found
    made = []
    ends: list[tuple[float, float]] = []
    for angle, sin, cos in _COMPASS:
        walks = []
        for reach in (mov / 2, mov):
            if reach == mov >= 1 and turn_between(facing, angle) > 1.0:
                continue  # his whole move rate and a turn (the rounded end bears within
                # 0.41° of the angle, and is at most 0.0071" short): over his points
            to = (round(x + reach * sin, 2), round(y + reach * cos, 2))
            if _walk_cost(x, y, facing, to, angle) <= mov + 1e-9:
                walks.append(_MAKE_WALK(mid, to, angle))
                ends.append(to)
        made.append((_MAKE_PIVOT(mid, angle), tuple(walks), _MAKE_RUN(mid, float(2 * mov), angle)))
    rad = math.radians(facing)  # `step`: every run goes straight ahead
    ends.append((x + 2 * mov * math.sin(rad), y + 2 * mov * math.cos(rad)))
    if len(_COMPASSES) >= 20_000:
        _COMPASSES.clear()
    found = _COMPASSES[key] = Compass(tuple(made), np.array(ends, dtype=np.float64))
    return found


_COMPASSES: dict[tuple[str, float, float, float, int], Compass] = {}


def _charge_problem(game: TFTGame, man: Man, target_id: str, mov: int) -> str | None:
    if target_id in game.state.tanks:
        return _tank_charge_problem(game, man, game.state.tanks[target_id], mov)
    target = game.state.men.get(target_id)
    if target is None or target.side == man.side or not target.active:
        return f"'{target_id}' is not an enemy in the fight"
    if target.floor != man.floor:
        return f"{target.id} is on floor {target.floor}, {man.id} on floor {man.floor} (F3)"
    heading = bearing((man.x, man.y), (target.x, target.y))
    if turn_between(man.facing, heading) > CHARGE_CONE:
        return (
            f"a charge makes no turn: {target.id} is {turn_between(man.facing, heading):.0f}° "
            f"off {man.id}'s facing (within {CHARGE_CONE:g}° allowed); pivot first"
        )
    gap = man.distance(target) - MAN_BASE
    if gap > mov:
        return f'{target.id} is {gap:.1f}" away; {man.id} charges up to {mov}"'
    end = step(man, gap, heading)
    leaving = floors.leaving_problem(game, man, end)
    if leaving is not None:
        return leaving
    for other in game.state.men.values():
        if (
            other not in (man, target)
            and other.active
            and other.floor == man.floor
            and _passes_over(man, end, other)
        ):
            return f"{other.id} stands in the way of {man.id}'s charge"
    return None


def _tank_charge_problem(game: TFTGame, man: Man, tank: Tank, mov: int) -> str | None:
    """TFT-R27: a charge at an AFV or gun, to close assault it (8.2) in the close step."""
    if tank.side == man.side or not tank.active:
        return f"'{tank.id}' is not an enemy AFV in the fight"
    if man.floor:
        return f"{man.id} is on floor {man.floor}: an AFV is on the ground (F3)"
    heading = bearing((man.x, man.y), (tank.x, tank.y))
    if turn_between(man.facing, heading) > CHARGE_CONE:
        return (
            f"a charge makes no turn: {tank.id} is {turn_between(man.facing, heading):.0f}° "
            f"off {man.id}'s facing (within {CHARGE_CONE:g}° allowed); pivot first"
        )
    end = tank_contact(man, tank, heading)
    gap = math.hypot(end[0] - man.x, end[1] - man.y)
    if gap > mov:
        return f'{tank.id} is {gap:.1f}" away; {man.id} charges up to {mov}"'
    for other in game.state.men.values():
        if other is not man and other.active and not other.floor and _passes_over(man, end, other):
            return f"{other.id} stands in the way of {man.id}'s charge"
    return None


def tank_contact(man: Man, tank: Tank, heading: float) -> tuple[float, float]:
    """TFT-R27: where a man going straight along `heading` first touches the AFV's footprint
    (where he stands, if he touches it already)."""
    reach = tank.base().shape().buffer(MAN_BASE / 2)
    start = (man.x, man.y)
    if reach.covers(Point(start)):
        return start
    crossing = reach.exterior.intersection(LineString([start, step(man, 1000.0, heading)]))
    spots = [(p.x, p.y) for p in getattr(crossing, "geoms", [crossing]) if not p.is_empty]
    return min(spots, key=lambda p: math.dist(p, start), default=start)


def _passes_over(man: Man, end: tuple[float, float], other: Man) -> bool:
    """Whether a base moving straight from the man to `end` overlaps `other`'s base."""
    dx, dy = end[0] - man.x, end[1] - man.y
    length2 = dx * dx + dy * dy
    t = 0.0
    if length2 > 0:
        t = max(0.0, min(1.0, ((other.x - man.x) * dx + (other.y - man.y) * dy) / length2))
    return math.hypot(man.x + t * dx - other.x, man.y + t * dy - other.y) < MAN_BASE - 1e-6


def _aim_problem(game: TFTGame, man: Man, target_id: str) -> str | None:
    target = game.state.men.get(target_id)
    if target is None or target.side == man.side or not target.active:
        return f"'{target_id}' is not an enemy in the fight"
    weapon = weapon_profile(man.weapon)
    if weapon.automatic:
        return f"Aim is not for automatic weapons ({man.weapon})"
    heading = bearing((man.x, man.y), (target.x, target.y))
    if turn_between(man.facing, heading) > AIM_CONE:
        return f"{target.id} is not straight ahead of {man.id} (within {AIM_CONE:g}°)"
    return None


def _contact_enemies(game: TFTGame, man: Man, enemies: list[Man] | None = None) -> list[Man]:
    """The enemy men in the fight (`enemies`, if given) in base contact with him."""
    if enemies is None:
        enemies = game.state.side_men("blue" if man.side == "red" else "red")
    return [e for e in enemies if man.distance(e) <= MAN_BASE + 0.05 and e.floor == man.floor]


def carry_out(game: TFTGame, man: Man, action: Action) -> None:
    """Do the action's movement and note it for the combat steps."""
    if isinstance(action, Run):
        man.x, man.y = step(man, action.dist, man.facing)
        man.facing, man.moved, man.action = action.facing, action.dist, "run"
        game.emit("move", f'{man.id} runs {action.dist:g}" and faces {action.facing:g}°')
    elif isinstance(action, Walk):
        distance = math.hypot(action.to[0] - man.x, action.to[1] - man.y)
        man.x, man.y = action.to
        man.facing, man.moved, man.action = action.facing, distance, "walk"
        game.emit("move", f'{man.id} walks {distance:.1f}" and faces {action.facing:g}°')
    elif isinstance(action, ChargeAt) and action.target in game.state.tanks:
        tank = game.state.tanks[action.target]
        start = (man.x, man.y)
        man.x, man.y = tank_contact(man, tank, bearing(start, (tank.x, tank.y)))
        gap = math.hypot(man.x - start[0], man.y - start[1])
        man.moved, man.action = gap, "charge"
        game.emit("move", f'{man.id} charges {tank.id} ({gap:.1f}")')
    elif isinstance(action, ChargeAt):
        target = game.state.men[action.target]
        gap = man.distance(target) - MAN_BASE
        man.x, man.y = step(man, gap, bearing((man.x, man.y), (target.x, target.y)))
        man.moved, man.action, man.aim_target = gap, "charge", target.id
        game.emit("move", f'{man.id} charges {target.id} ({gap:.1f}")')
    elif isinstance(action, ChangePosition):
        man.stance = "standing" if man.stance == "prone" else "prone"
        man.action = "position"
        game.emit("position", f"{man.id} is now {man.stance}")
    elif isinstance(action, Pivot):
        man.facing, man.action = action.facing, "pivot"
        game.emit("pivot", f"{man.id} faces {action.facing:g}°")
    elif isinstance(action, AimAt):
        man.aim_target, man.action = action.target, "aim"
        game.emit("aim", f"{man.id} aims at {action.target}")
    elif isinstance(action, Disengage):
        enemy = min(_contact_enemies(game, man), key=man.distance)
        away = bearing((enemy.x, enemy.y), (man.x, man.y))
        mov = attributes(man).mov
        x, y = step(man, mov, away)
        if blocked(game, man, x, y) is None:
            man.x, man.y = x, y
        man.action, man.moved = "disengage", float(mov)
        game.emit("move", f"{man.id} disengages from {enemy.id}")
    elif isinstance(action, Manipulate):
        man.action = "unjam"
        if clear_jam(
            game, f"clear jam: {man.id} ({man.weapon})", attributes(man).intelligence, man.jam == 2
        ):
            man.jam = 0
            game.emit("unjam", f"{man.id} clears his {man.weapon}")
    elif isinstance(action, CloseCombat):
        man.action = "fight"
        game.emit("fight", f"{man.id} stands to fight")
    elif isinstance(action, Climb):
        up = action.floor > man.floor
        man.floor, man.action = action.floor, "climb"
        game.emit("climb", f"{man.id} {'climbs' if up else 'goes down'} to floor {man.floor}")
    elif isinstance(action, Flee):
        flee(game, man)


def flee(game: TFTGame, man: Man) -> None:
    """5.0: run toward the nearest cover not occupied by the enemy; once in cover, toward the
    friendly table edge, where he leaves the game; surrounded men surrender (TFT-R9)."""
    man.action = "flee"
    if man.stance == "prone":
        man.stance = "standing"
        game.emit("flee", f"{man.id} gets up to flee (a prone man does not move, TFT-R1)")
        return
    if man.floor > 0:
        man.floor -= 1
        game.emit("flee", f"{man.id} comes down to floor {man.floor} to flee (F1)")
        return
    mov = attributes(man).mov * 2
    table = game.table
    enemies = game.state.side_men("blue" if man.side == "red" else "red")
    edge = game.spec.sides[man.side].edge
    in_cover = terrain.cover(table, man, None) != "none"
    goal: tuple[float, float] | None = None
    if not in_cover:
        goal = _cover_to_flee_to(table, man.x, man.y, tuple((e.x, e.y) for e in enemies))
    if goal is None:
        fx, fy = EDGE_POINT[edge]
        goal = (
            man.x if fx is None else fx * table.width,
            man.y if fy is None else fy * table.depth,
        )
        if any(_blocks_retreat(man, goal, e) for e in enemies):
            man.status = "surrendered"
            game.state.squads[man.squad].lost_this_round += 1
            game.emit("surrender", f"{man.id} is surrounded and surrenders")
            return
    heading = bearing((man.x, man.y), goal)
    distance = min(mov, math.hypot(goal[0] - man.x, goal[1] - man.y))
    man.x, man.y = step(man, distance, heading)
    man.facing, man.moved = heading, distance
    if not terrain.on_table(table, man.x, man.y) or (
        goal is not None and in_cover and math.hypot(goal[0] - man.x, goal[1] - man.y) < 0.5
    ):
        man.status = "fled"
        game.emit("fled", f"{man.id} flees off the table")
        return
    game.emit("flee", f'{man.id} flees {distance:.1f}"')


def _cover_to_flee_to(
    table: terrain.Table, x: float, y: float, enemies: tuple[tuple[float, float], ...]
) -> tuple[float, float] | None:
    """The nearest point of the nearest cover no enemy holds (TFT-R9), from x, y, the
    enemy men in the fight standing at `enemies`; None when the enemy holds all of it. It
    depends on those places and the table alone, so it is kept by them (fleeing men of a
    sweep's games run the same ways)."""
    key = (id(table), x, y, enemies)
    if key in _FLEEING_TO:
        return _FLEEING_TO[key]
    if len(_FLEEING_TO) >= 20_000:
        _FLEEING_TO.clear()
    xs, ys = [e[0] for e in enemies], [e[1] for e in enemies]
    free = [  # the cover no enemy holds (`contains` of each enemy's centre, at once)
        p
        for p in table.pieces
        if (
            p.kind in ("woods", "hedge", "wall", "building")
            and not shapely.contains_xy(table.held_area(p), xs, ys).any()
        )
    ]
    goal = None
    if free:
        spot = Point(x, y)
        nearest = min(free, key=lambda p: p.area.distance(spot))
        outline = nearest.area.exterior
        near = outline.interpolate(outline.project(spot))
        goal = (near.x, near.y)
    _FLEEING_TO[key] = goal
    return goal


_FLEEING_TO: dict[
    tuple[int, float, float, tuple[tuple[float, float], ...]], tuple[float, float] | None
] = {}


def _blocks_retreat(man: Man, goal: tuple[float, float], enemy: Man) -> bool:
    """An enemy within 2" of the straight way to the table edge blocks the retreat."""
    gx, gy = goal
    dx, dy = gx - man.x, gy - man.y
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return False
    t = max(0.0, min(1.0, ((enemy.x - man.x) * dx + (enemy.y - man.y) * dy) / length2))
    return math.hypot(man.x + t * dx - enemy.x, man.y + t * dy - enemy.y) <= 2.0
