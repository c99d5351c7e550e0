"""MOVEMENT: 10 cm per action (unit exceptions), halved through forests, rivers, pools and
lakes, ruins, rubble and buildings; sentinels unaffected by terrain; low walls crossed only by
sentinels and drones; building walls passed only through doors (1 action to open one, which
then stays open; tanks and MTs only through double doors, drones also through windows);
stairs to an upper floor (1 action); getting in or out of a vehicle wreck (1 action); acid
goo holds figures fast; deployment behind the screen and the entry of flanking forces."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

import numpy as np

from warbench.rulesets.fftt.profiles import forces, tables
from warbench.rulesets.fftt.routes import scenery_answers
from warbench.rulesets.fftt.shooting import engaged
from warbench.rulesets.fftt.state import Fig, State, other
from warbench.rulesets.fftt.table import Point, Points, dist, rounded

CONTACT = 0.5  # OURS: bases within 0.5 cm count as in base contact
STEP = 2.0  # OURS: opportunity fire may fall at every 2 cm of a move
PLACES_KEPT = 5_000  # places (figure, actions, floor, position) whose moves a table remembers
_LARGEST = max(p.base for race in forces().values() for p in race.values()) / 2  # a radius


def in_contact(s: State, a: Fig, b: Fig) -> bool:
    """Base to base contact, on the same floor and not through a building's wall except at a
    door ('so combat from a window will be impossible')."""
    if a.level != b.level or dist(a.pos, b.pos) > a.radius + b.radius + CONTACT:
        return False
    return _touches(s, a.pos, b)


def passage(
    s: State, fig: Fig, to: Point, opens: list[tuple[int, str]] | None = None
) -> tuple[int, str | None]:
    """The extra actions a move from where `fig` stands to `to` costs through walls
    ('Opening doors ... and getting in and out of a vehicle cost 1 action'), or why it cannot
    pass: a building's wall only through a door (tanks and MTs only double doors; drones also
    windows); a figure upstairs stays in its building. An open door costs nothing (R40); the
    closed ones the move opens are added to `opens` (piece number, wall) when given."""
    at = (fig.x, fig.y)
    if fig.level:
        home = s.table.building_at(at)
        if home is None or not home.contains(to):
            return 0, f"{fig.id} is upstairs: climb down before leaving the building"
    extra = 0
    widths = tables().openings
    for piece, p in s.table.crossings(at, to):
        if piece.kind == "vehicle":
            if fig.prof.vehicle:
                return 0, f"{fig.id} is a {fig.prof.name}: it cannot get into a vehicle wreck"
            extra += 1  # getting in or out of a vehicle
            continue
        opening = piece.opening_at(p, widths)
        if opening == "double" or (opening == "door" and not fig.prof.vehicle):
            door = (s.table.number(piece), piece.wall_at(p))
            if door not in s.open_doors:
                extra += 1  # opening doors
                if opens is not None:
                    opens.append(door)
        elif opening == "window" and fig.prof.windows:
            continue  # drones fly through windows
        elif fig.prof.vehicle:
            return 0, (
                f"{fig.id} is a {fig.prof.name}: tanks and MTs pass only through double doors "
                f"(the move meets the {piece.wall_at(p)} wall at {p[0]:.1f},{p[1]:.1f})"
            )
        else:
            how = "doors or windows" if fig.prof.windows else "doors"
            return 0, (
                f"the move meets the {piece.wall_at(p)} wall of a building at "
                f"{p[0]:.1f},{p[1]:.1f}: {fig.id} passes walls only through {how}"
            )
    return extra, None


def stuck(s: State, fig: Fig) -> bool:
    """Acid Spitter: a figure in the goo 'cannot move, only shoot' (not razor dogs, drones and
    sentinels)."""
    if not s.goo or fig.prof.goo_immune or fig.key == "sentinel":
        return False
    radius = tables().goo.radius
    return any(dist(fig.pos, (g.x, g.y)) <= radius + fig.radius for g in s.goo)


def _space_problem(
    s: State,
    fig: Fig,
    to: Point,
    ignore: tuple[str, ...] = (),
    *,
    moving: bool = False,
    others: list[Fig] | None = None,
) -> str | None:
    """Why `fig` cannot stand at `to` (off the table, on another base on its floor; for a
    move, in base contact with an enemy, which is a charge), or None."""
    if not s.table.on_table(to, fig.radius):
        return (
            f"{to[0]:g},{to[1]:g} puts {fig.id} off the {s.table.width:g}x{s.table.depth:g} table"
        )
    return _base_problem(s, fig, to, ignore, moving=moving, others=others)


def _base_problem(
    s: State,
    fig: Fig,
    to: Point,
    ignore: tuple[str, ...] = (),
    *,
    moving: bool = False,
    others: list[Fig] | None = None,
) -> str | None:
    """The figures' part of `_space_problem`."""
    mine = fig.radius
    x, y = to
    far = mine + _LARGEST + CONTACT  # no base farther off along an axis can matter
    for o in s.figs.values() if others is None else others:
        if abs(o.x - x) > far or abs(o.y - y) > far:
            continue
        if o.where != "table" or o.id == fig.id or o.id in ignore or o.level != fig.level:
            continue
        enemy = o.side != fig.side
        if enemy and not s.revealed:
            continue  # behind the screen nobody knows where the enemy stands
        r = mine + o.radius
        reach = r + CONTACT
        if abs(o.x - x) > reach or abs(o.y - y) > reach:
            continue
        d = dist(o.pos, to)
        if d < r - 1e-6:
            return f"{fig.id} would stand on {o.id}'s base"
        if moving and enemy and d <= reach and _touches(s, to, o):
            return f"moving into base contact with {o.id} is a charge: charge {fig.id} {o.id}"
    return None


def _touches(s: State, at: Point, o: Fig) -> bool:
    """Whether a base at `at` would touch `o` through no building wall but at a door."""
    widths = tables().openings
    return all(
        piece.kind != "building" or piece.opening_at(p, widths) in ("door", "double")
        for piece, p in s.table.crossings(at, o.pos)
    )


def _placement_problem(
    s: State, fig: Fig, to: Point, others: list[Fig] | None = None
) -> str | None:
    """Deploying or entering: tanks and MTs are not set down inside a building or a wreck
    (they drive in through double doors), then the space itself (`others`: as for
    `_base_problem`)."""
    if fig.prof.vehicle and any(p.contains(to) for p in s.table.walled):
        return (
            f"{fig.id} is a {fig.prof.name}: it is not set down inside a building or wreck "
            "(it drives into buildings through double doors)"
        )
    return _space_problem(s, fig, to, others=others)


def deploy_problem(s: State, fig: Fig, to: Point, others: list[Fig] | None = None) -> str | None:
    """Deployment: in the side's zone, 10 cm deep on an 80 cm table, else 20 cm. `others`,
    when given, hold every figure on the table a base can meet (behind the screen, where the
    enemy's are passed over, the side's own will do)."""
    edge = s.edge(fig.side)
    if not s.table.in_zone(to, edge):
        return f"deploy in your {edge} zone, {s.table.zone_depth:g} cm deep"
    return _placement_problem(s, fig, to, others)


def enter_problem(s: State, fig: Fig, to: Point, flank: str) -> str | None:
    """Units in hidden movement: up to 10 cm in on the chosen flank, not in the enemy's
    deployment zone, 30 cm from every enemy scanner; 'a flanking force can always appear in
    his army's original deployment zone'."""
    depth = tables().flank_depth
    x = to[0]
    home = s.table.in_zone(to, s.edge(fig.side))
    if not home and (
        (flank == "west" and x > depth) or (flank == "east" and x < s.table.width - depth)
    ):
        return (
            f"{fig.id} enters up to {depth:g} cm in from the {flank} edge, or in its army's "
            "own deployment zone"
        )
    enemy = other(fig.side)
    if s.table.in_zone(to, s.edge(enemy)):
        return f"{fig.id} may not enter in the enemy's deployment zone"
    if not home:
        reach = tables().scanner_range
        for o in s.side_figs(enemy):
            if o.prof.scanner and dist(o.pos, to) < reach:
                return f"{fig.id} may not appear within {reach:g} cm of enemy scanner {o.id}"
    return _placement_problem(s, fig, to)


def move_problem(s: State, fig: Fig, to: Point, target: Fig | None = None) -> str | None:
    """Why `fig` may not spend an action moving to `to` (into contact with `target` for a
    charge), or None."""
    return mover_problem(s, fig) or route_problem(s, fig, to, target)


def mover_problem(s: State, fig: Fig) -> str | None:
    """Why `fig` may not move at all now, or None."""
    if fig.ap < 1:
        return f"{fig.id} has no action points left this phase"
    if stuck(s, fig):
        return f"{fig.id} is held fast in acid goo: it cannot move, only shoot"
    if s.melees and any(
        fig.id == m.defender or fig.id in m.attackers for m in s.melees if m.rounds == 0
    ):
        return f"{fig.id} must fight the first round of its hand to hand combat"
    return None


def route_problem(
    s: State, fig: Fig, to: Point, target: Fig | None = None, others: list[Fig] | None = None
) -> str | None:
    """Why `fig`, free to move, may not move to `to`, or None. `others`, when given, are the
    only figures near enough to matter (see `neighbours`)."""
    if target is not None and engaged(s, fig):
        return f"{fig.id} is already fighting hand to hand"
    prof = fig.prof
    extra, problem = passage(s, fig, to)
    if problem is not None:
        return problem
    cost = s.table.move_cost(fig.pos, to, prof.ignores_terrain)
    allowed = 1 if target is not None else fig.ap - extra
    if cost > fig.pace * allowed + 1e-6:
        doors = f" after {extra} for doors or getting in or out" if extra else ""
        return (
            f"that move costs {cost:.1f} cm; {fig.id} moves {fig.pace:g} cm an action and "
            f"may spend {allowed} here{doors} (forests, rivers, pools, lakes, ruins, rubble and "
            "buildings count double)"
        )
    if target is not None and 1 + extra > fig.ap:
        return f"the charge costs {1 + extra} actions with the doors; {fig.id} has {fig.ap}"
    if not prof.over_walls and s.table.crosses_wall(fig.pos, to):
        return f"{fig.id} cannot cross a low wall (only sentinels and drones fly over)"
    if target is not None:
        return _space_problem(s, fig, to, (target.id,))
    return _space_problem(s, fig, to, moving=True, others=others)


def route_tester(
    s: State,
    fig: Fig,
    spots: Callable[[], tuple[Sequence[Point], Points]] | None = None,
    *,
    few: bool = False,
) -> Callable[[Point], bool]:
    """A test of destinations `to`: whether `route_problem(s, fig, to)` is None for `fig`,
    free to move (a move, not a charge). The same tests: the scenery's part remembered by
    the table per place (figure, actions, floor, position, open doors) and destination —
    legal moves are listed again at every decision while most figures stand still —, the
    figures looked at only where they stand near enough to `to` to matter. `spots` gives
    the destinations the figure will likely be tested for, and the same as rows: at a new
    place on the ground their scenery's part is worked out at once, compiled
    (`routes.scenery_answers`; Python where it is unsure). For `few` tests (whether any
    destination is open, which the first often is) the bases are looked for among all the
    figures at each test, not first sorted by where they stand."""
    place = (fig.race, fig.key, fig.pace, fig.ap, fig.level, fig.x, fig.y, s.open_doors)
    routes = s.table.routes
    known = routes.get(place)
    if known is None:
        if len(routes) >= PLACES_KEPT:
            routes.clear()
        known = routes[place] = {}
        if spots is not None and not fig.level:
            size, walled, slow, walls = s.table.route_rows
            prof = fig.prof
            row = (fig.x, fig.y, fig.pace * fig.ap + 1e-6)
            mover = np.array([*row, prof.ignores_terrain, prof.over_walls, fig.radius])
            tos, points = spots()
            answers = scenery_answers(points, mover, size, walled, slow, walls)
            for to, answer in zip(tos, answers.tolist(), strict=True):
                if answer >= 0:
                    known[to] = answer == 1
    if few:

        def open_to(to: Point) -> bool:
            scenery = known.get(to)
            if scenery is None:
                scenery = known[to] = _scenery_open(s, fig, to)
            return scenery and _base_problem(s, fig, to, moving=True) is None

        return open_to
    others = sorted(neighbours(s, fig), key=lambda o: o.x)
    xs = [o.x for o in others]
    span = fig.radius + max((o.radius for o in others), default=0.0) + CONTACT + 1.0

    def clear(to: Point) -> bool:
        scenery = known.get(to)
        if scenery is None:
            scenery = known[to] = _scenery_open(s, fig, to)
        if not scenery:
            return False
        near = others[bisect_left(xs, to[0] - span) : bisect_right(xs, to[0] + span)]
        return not near or _base_problem(s, fig, to, moving=True, others=near) is None

    return clear


def _scenery_open(s: State, fig: Fig, to: Point) -> bool:
    """`route_problem`'s tests of a move that do not look at other figures: walls and doors,
    the cost against the actions left, low walls, the table's edge."""
    extra, problem = passage(s, fig, to)
    if problem is not None:
        return False
    cost = s.table.move_cost(fig.pos, to, fig.prof.ignores_terrain)
    if cost > fig.pace * (fig.ap - extra) + 1e-6:
        return False
    if not fig.prof.over_walls and s.table.crosses_wall(fig.pos, to):
        return False
    return s.table.on_table(to, fig.radius)


def neighbours(s: State, fig: Fig) -> list[Fig]:
    """The figures on the table, on its floor, that `fig` could reach or touch with its
    actions left."""
    reach = fig.pace * max(1, fig.ap) + fig.radius + 3.0 + CONTACT
    return [
        o
        for o in s.figs.values()
        if o.where == "table"
        and o is not fig
        and o.level == fig.level
        and abs(o.x - fig.x) <= reach
        and abs(o.y - fig.y) <= reach
    ]


def actions_for(s: State, fig: Fig, to: Point, extra: int | None = None) -> int:
    """The actions a move costs: one per move allowance (10 cm unless stated) or part, and
    one for each closed door opened or each getting in or out of a vehicle (`extra`, the
    move's `passage`, when the caller has it)."""
    cost = s.table.move_cost(fig.pos, to, fig.prof.ignores_terrain)
    if extra is None:
        extra = passage(s, fig, to)[0]
    return max(1, math.ceil(cost / fig.pace - 1e-6)) + extra


def climb_problem(s: State, fig: Fig) -> str | None:
    """Why `fig` may not climb the stairs (up or down, 1 action) now, or None. OURS: the
    stairs may be taken anywhere inside a building with an upper floor; tanks and MTs stay
    on the ground."""
    problem = mover_problem(s, fig)
    if problem is not None:
        return problem
    if fig.prof.vehicle:
        return f"{fig.id} is a {fig.prof.name}: tanks and MTs do not climb stairs"
    building = s.table.building_at(fig.pos)
    if building is None or building.floors < 2:
        return f"{fig.id} is not inside a building with an upper floor"
    level = 1 - fig.level
    for o in s.figs.values():
        if (
            o.where == "table"
            and o is not fig
            and o.level == level
            and dist(o.pos, fig.pos) < o.radius + fig.radius - 1e-6
        ):
            return f"{o.id} stands there on the other floor"
    return None


def charge_point(fig: Fig, target: Fig) -> Point:
    """Where a charger stops: base to base with the target, on the line between them."""
    d = dist(fig.pos, target.pos) or 1.0
    gap = fig.radius + target.radius
    return (
        rounded(target.x + (fig.x - target.x) * gap / d, 2),
        rounded(target.y + (fig.y - target.y) * gap / d, 2),
    )


def charge_problem(s: State, fig: Fig, target: Fig | None) -> str | None:
    """Why `fig` may not charge `target`, or None. Insectoids cannot charge a figure they
    could not see at the beginning of the movement phase."""
    if target is None or target.where != "table" or target.side == fig.side:
        return "the target is not an enemy figure on the table"
    if target.level != fig.level:
        return f"{target.id} is on another floor: climb the stairs first"
    if fig.race == "insectoids" and target.id not in fig.sees:
        return f"{fig.id} could not see {target.id} at the start of the movement phase"
    if in_contact(s, fig, target):
        return f"{fig.id} is already in base contact with {target.id}"
    point = charge_point(fig, target)
    if not _touches(s, point, target):
        return (
            f"{fig.id} would meet {target.id} across a building's wall: hand to hand only "
            "through a door ('combat from a window will be impossible')"
        )
    return move_problem(s, fig, point, target)


def charge_open(s: State, fig: Fig, target: Fig, others: list[Fig]) -> bool:
    """Whether `charge_problem(s, fig, target)` is None for `fig`, free to move
    (`mover_problem`) and not fighting hand to hand, charging an enemy figure on the table:
    its tests and `route_problem`'s in their order, without the refusals' text, the bases
    looked for among `others` (every figure on the table)."""
    if target.level != fig.level or (fig.race == "insectoids" and target.id not in fig.sees):
        return False
    if in_contact(s, fig, target):
        return False
    point = charge_point(fig, target)
    if not _touches(s, point, target):
        return False
    extra, problem = passage(s, fig, point)
    if problem is not None or 1 + extra > fig.ap:
        return False
    if s.table.move_cost(fig.pos, point, fig.prof.ignores_terrain) > fig.pace + 1e-6:
        return False
    if not fig.prof.over_walls and s.table.crosses_wall(fig.pos, point):
        return False
    return s.table.on_table(point, fig.radius) and (
        _base_problem(s, fig, point, (target.id,), others=others) is None
    )


def path(a: Point, b: Point) -> list[Point]:
    """The points of a straight move where opportunity fire may fall: every 2 cm and the end
    (index 0 is the first point after the start)."""
    length = dist(a, b)
    n = max(1, math.ceil(length / STEP))
    return [
        (rounded(a[0] + (b[0] - a[0]) * i / n, 2), rounded(a[1] + (b[1] - a[1]) * i / n, 2))
        for i in range(1, n + 1)
    ]
