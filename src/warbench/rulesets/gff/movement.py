"""MOVEMENT: Advance 6", Rush 12", Charge 12" (Fast +2"/+4", Slow −2"/−4"); units keep
coherency and stay over 1" from other units unless charging; terrain along the way.

A unit moves as a block: every model moves by the same vector, so the formation it was
placed in (always coherent) is kept (ruling GFF-R2). In melee, models then close in one
by one (`close_in`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from warbench.core.geometry import Base, Path, Point, edge_distance
from warbench.core.terrain import Trait
from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff import jumping as jumps
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.kernels import (
    ASK,
    block_moves,
    contact_steps,
    nearest_pair,
    unit_gaps,
)
from warbench.rulesets.gff.spell_grants import move_bonus
from warbench.rulesets.gff.spell_limits import move_cap
from warbench.rulesets.gff.state import State, Unit

BASE_MOVE = {"advance": 6.0, "rush": 12.0, "charge": 12.0}
UNIT_GAP = 1.0  # "Units may only be within 1" of other units when charging"
EPS = 1e-6
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
_NOISE = 1e-9  # numpy and math may round a distance differently by far less than this


def allowance(unit: Unit, kind: str) -> float:
    """The move of an action with Fast and Slow, and move spells (GFF-R31; never below 0);
    a difficult-terrain spell caps it at 6" (GFF-R35)."""
    move = BASE_MOVE[kind]
    step = 2.0 if kind == "advance" else 4.0
    if unit.all_have("Fast"):
        move += step
    if unit.all_have("Slow"):
        move -= step
    if unit.effects:  # move spells, then a difficult-terrain spell's cap (GFF-R35)
        move = move_cap(unit, max(0.0, move + move_bonus(unit, kind)))
    return move


def others(state: State, unit: Unit, ignore: Iterable[str] = ()) -> list[Base]:
    """Bases of every model of every other unit on the table."""
    skip = {unit.id, *ignore}
    return [
        b
        for u in state.units.values()
        if u.alive and u.deployed and u.id not in skip
        for b in u.bases()
    ]


def too_close(bases: Sequence[Base], obstacles: Sequence[Base], gap: float = UNIT_GAP) -> bool:
    """Whether any base is within `gap` of an obstacle base."""
    limit = gap - EPS
    if not bases or not obstacles or limit <= 0:
        return False
    if any(b.depth is not None for b in (*bases, *obstacles)):
        return any(edge_distance(b, o) < limit for b in bases for o in obstacles)
    # round bases: settle it in numpy unless a pair is within float noise of the limit
    ours = np.array([(*b.centre, b.width) for b in bases], dtype=np.float64)
    theirs = np.array([(*o.centre, o.width) for o in obstacles], dtype=np.float64)
    apart = np.hypot(ours[:, None, 0] - theirs[None, :, 0], ours[:, None, 1] - theirs[None, :, 1])
    gaps = apart - (ours[:, None, 2] + theirs[None, :, 2]) / 2
    if (gaps < limit - _NOISE).any():
        return True
    if (gaps > limit + _NOISE).all():
        return False
    return any(edge_distance(b, o) < limit for b in bases for o in obstacles)


def block_move_problem(
    state: State,
    field: Battlefield,
    unit: Unit,
    to: tuple[float, float],
    reach: float,
    ignore: Iterable[str] = (),
    obstacles: Sequence[Base] | None = None,
    *,
    jumping: bool = False,
) -> str | None:
    """Why the unit cannot move its centre to `to` (every model by the same vector);
    `obstacles` are `others(state, unit, ignore)` when the caller has them already;
    `jumping`: the optional jumping rules count heights (`models_move_problem`)."""
    cx, cy = unit.centre()
    dx, dy = to[0] - cx, to[1] - cy
    distance = math.hypot(dx, dy)
    if distance > reach + EPS:
        return f'{unit.name} may move {reach:g}"; {to[0]:g},{to[1]:g} is {distance:.1f}" away'
    bases = unit.bases()
    if distance > EPS:
        reason = models_move_problem(unit, bases, (dx, dy), reach, field, jumping=jumping)
        if reason:
            return f"{unit.name}: {reason}"
    moved = [b.moved((b.centre[0] + dx, b.centre[1] + dy)) for b in bases]
    if too_close(moved, others(state, unit, ignore) if obstacles is None else obstacles):
        return f'{unit.name} would end within 1" of another unit (only chargers may)'
    return None


def models_move_problem(
    unit: Unit,
    bases: Sequence[Base],
    vector: tuple[float, float],
    reach: float,
    field: Battlefield,
    *,
    jumping: bool = False,
) -> str | None:
    """Why one of the unit's models cannot move straight by `vector` (`bfm.move_problem`
    for each, the first model's reason first), or None. Round bases are screened all at once
    (on the table, impassable, difficult), the models one by one only when one fails. With
    `jumping`, heights climbed and dropped count toward the move, and a drop over 6" is not
    allowed (`jumping.plan`)."""
    dx, dy = vector
    flying = unit.all_have("Flying")
    strider = unit.all_have("Strider")
    vectors = np.array([vector], dtype=np.float64)
    if (
        not jumping
        and _screen_moves(bases, vectors, reach, field, strider=strider, flying=flying)[0][0]
    ):
        return None
    for base in bases:
        end = (base.centre[0] + dx, base.centre[1] + dy)
        path = Path.of([base.centre, end])
        reason = bfm.move_problem(base, path, reach, field, strider=strider, flying=flying)
        if reason:
            return reason
        if jumping:
            climb = jumps.plan(base.centre, end, field, flying=flying)
            if climb.problem:
                return climb.problem
            if path.length + climb.extra > reach + EPS:
                return (
                    f'the move is {path.length:.2f}" with {climb.extra:.2f}" of climbing and '
                    f'dropping, {path.length + climb.extra:.2f}" in all; this move allows at '
                    f'most {reach:g}"'
                )
    return None


def _per_move(reach: float | Sequence[float] | Floats, k: int) -> Floats:
    """`reach` as a new array of one float for each of `k` moves (one reach for all, or a
    reach each): `np.full` or `np.array`, some times cheaper than numpy's `broadcast_to`."""
    if isinstance(reach, float | int):
        return np.full(k, reach, dtype=np.float64)
    return np.array(reach, dtype=np.float64).reshape(k)


def _screen_moves(
    bases: Sequence[Base],
    vectors: Floats,
    reach: float | Floats,
    field: Battlefield,
    *,
    strider: bool,
    flying: bool,
) -> tuple[Bools, Bools]:
    """For each of K block moves (`vectors`, K × 2): whether `bfm.move_problem` surely finds
    nothing wrong with any model's move, and whether it surely finds something wrong with
    one (neither: "look at it model by model"; so for bases that are not round and of one
    size, and for lengths within float noise of a limit; compiled: `kernels.block_moves`,
    unsure also within a hair of a piece, where it leaves shapely out)."""
    k = len(vectors)
    size = bases[0].width if bases else 0.0
    if not bases or any(b.depth is not None or b.width != size for b in bases):
        return np.zeros(k, dtype=np.bool_), np.zeros(k, dtype=np.bool_)
    table = np.array(
        [field.width, field.depth, bfm.TINY, _NOISE, bfm.DIFFICULT_MOVE, bfm.enter_limit(size / 2)]
    )
    ok, bad = block_moves(
        np.array([b.centre for b in bases], dtype=np.float64),
        size / 2,
        np.ascontiguousarray(vectors, dtype=np.float64),
        _per_move(reach, k),
        table,
        field.terrain_arrays(Trait.IMPASSABLE),
        field.terrain_arrays(Trait.DIFFICULT),
        strider,
        flying,
    )
    return ok, bad


def screen_block_moves(
    field: Battlefield,
    unit: Unit,
    targets: Sequence[tuple[float, float]],
    reach: float | Sequence[float],
    obstacles: Sequence[Base],
    *,
    jumping: bool = False,
    terrain: dict[tuple[object, ...], tuple[Bools, Bools]] | None = None,
) -> list[bool | None]:
    """For each point (and its reach, when `reach` lists one per point), what
    `block_move_problem` (with these obstacles) would say of moving the unit's centre there,
    all screened at once in numpy: True surely no problem, False surely a problem, None "ask
    it" (near a limit within float noise, bases not round, or heights to count with
    `jumping`). `terrain` keeps the verdicts of the table (which the unit's bases and the
    moves fix) across calls on the same table, whatever the obstacles."""
    if not targets:
        return []
    reaches = _per_move(reach, len(targets))
    cx, cy = unit.centre()
    vectors = np.array(targets, dtype=np.float64).reshape(-1, 2) - np.array((cx, cy))
    distance = np.hypot(vectors[:, 0], vectors[:, 1])
    bad = distance > reaches + EPS + _NOISE
    ok = distance <= reaches + EPS - _NOISE
    ok &= (distance > EPS + _NOISE) | (distance < EPS - _NOISE)
    bases = unit.bases()
    moving = ~bad & (distance > EPS + _NOISE)
    if moving.any():
        rows = np.flatnonzero(moving)
        strider, flying = unit.all_have("Strider"), unit.all_have("Flying")
        key = (
            tuple((b.centre, b.width, b.depth, b.facing) for b in bases),
            vectors[rows].tobytes(),
            reaches[rows].tobytes(),
            strider,
            flying,
        )
        found = None if terrain is None else terrain.get(key)
        if found is None:
            found = _screen_moves(
                bases, vectors[rows], reaches[rows], field, strider=strider, flying=flying
            )
            if terrain is not None:
                terrain[key] = found
        sure_ok, sure_bad = found
        ok[rows[~sure_ok]] = False
        bad[rows[sure_bad]] = True
    rounds = not any(b.depth is not None for b in (*bases, *obstacles))
    if obstacles and not rounds:
        ok[:] = False
    elif obstacles:
        ours = np.array([(*b.centre, b.width) for b in bases], dtype=np.float64)
        theirs = np.array([(*o.centre, o.width) for o in obstacles], dtype=np.float64)
        clear, near = unit_gaps(
            ours, theirs, vectors, UNIT_GAP - EPS - _NOISE, UNIT_GAP - EPS + _NOISE
        )
        ok &= clear
        bad |= near
    if jumping:  # heights may add to a move: never surely fine
        ok[:] = False
    return [
        True if o else False if b else None for o, b in zip(ok.tolist(), bad.tolist(), strict=True)
    ]


def translate(unit: Unit, dx: float, dy: float) -> None:
    """Move every model by (dx, dy)."""
    for model in unit.models:
        model.x += dx
        model.y += dy


_APART = 1e-6  # far above float noise: a pair this much further apart never touches


def _closest_on_way(
    start: tuple[float, float], other: tuple[float, float], ux: float, uy: float, far: float
) -> float:
    """How near `start` comes to `other` moving from it by 0 to `far` along (ux, uy)."""
    dx, dy = other[0] - start[0], other[1] - start[1]
    t = min(far, max(0.0, dx * ux + dy * uy))
    return math.hypot(dx - ux * t, dy - uy * t)


def contact_vector(unit: Unit, target: Unit, reach: float) -> tuple[float, float] | None:
    """The block move that brings the unit into base contact with the target, within
    `reach`, or None if even its nearest model cannot reach (CHARGE, GFF-R2: a block move).
    Round bases are approached by the compiled `kernels.nearest_pair` and
    `kernels.contact_steps`, step for step as `exact_contact_vector` goes; pairs near a tie
    are ordered, and a step within a hair of contact judged, by Python's distances."""
    mine, theirs = unit.bases(), target.bases()
    if not all(x.depth is None for x in (*mine, *theirs)):
        return exact_contact_vector(unit, target, reach)
    ours = np.array([a.centre for a in mine], dtype=np.float64)
    yours = np.array([b.centre for b in theirs], dtype=np.float64)
    halves = np.array([[(a.width + b.width) / 2 for b in theirs] for a in mine])
    pair = nearest_pair(ours, yours, halves)
    if pair == ASK:  # pairs near a tie (a formation facing another): Python orders them
        a, b = min(((a, b) for a in mine for b in theirs), key=lambda p: edge_distance(*p))
    else:
        a, b = mine[pair // len(theirs)], theirs[pair % len(theirs)]
    gap = edge_distance(a, b)
    if gap > reach + EPS:
        return None
    (ax, ay), (bx, by) = a.centre, b.centre
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    lo = contact_steps(ours, yours, halves, ux, uy, min(reach, gap + 2 * unit.profile.base + 12.0))
    if math.isnan(lo):
        return exact_contact_vector(unit, target, reach)
    if lo < 0.0 or lo > reach + EPS:
        return None
    return ux * lo, uy * lo


def exact_contact_vector(unit: Unit, target: Unit, reach: float) -> tuple[float, float] | None:
    """`contact_vector` in Python, for any bases: along the line from the nearest charging
    model to the nearest target model, in 0.25" steps, then halving to contact."""
    mine, theirs = unit.bases(), target.bases()
    gap = min(edge_distance(a, b) for a in mine for b in theirs)
    if gap > reach + EPS:
        return None
    # along the line from the nearest charging model to the nearest target model
    a, b = min(((a, b) for a in mine for b in theirs), key=lambda p: edge_distance(*p))
    (ax, ay), (bx, by) = a.centre, b.centre
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length

    rounds = all(x.depth is None for x in (*mine, *theirs))
    lo, hi = 0.0, min(reach, gap + 2 * unit.profile.base + 12.0)
    pairs = [(a.centre, b.centre, (a.width + b.width) / 2) for a in mine for b in theirs]
    if rounds:  # a pair that stays well apart all the way cannot end the approach
        pairs = [p for p in pairs if _closest_on_way(p[0], p[1], ux, uy, hi) <= p[2] + _APART]

    def gap_after(t: float) -> float:
        if rounds:  # `edge_distance` of round bases, without building the moved bases
            return min(
                (
                    max(0.0, math.dist((ac[0] + ux * t, ac[1] + uy * t), bc) - half)
                    for ac, bc, half in pairs
                ),
                default=math.inf,
            )
        return min(
            edge_distance(a.moved((a.centre[0] + ux * t, a.centre[1] + uy * t)), b)
            for a in mine
            for b in theirs
        )

    step = 0.25
    t = 0.0
    while t <= hi and gap_after(t) > 0.0:
        lo, t = t, t + step
    if t > hi:
        return None
    hi = t
    for _ in range(30):
        mid = (lo + hi) / 2
        if gap_after(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    if lo > reach + EPS:
        return None
    return ux * lo, uy * lo


def close_in(
    state: State, movers: Unit, enemies: Unit, budget: float, field: Battlefield | None = None
) -> None:
    """Models not in base contact move, one at a time, up to `budget` straight toward the
    nearest enemy model, stopping at contact and never overlapping another base
    ("or as close as possible"). With `field` (the jumping rules) heights are read as for any
    move (GFF-R23): climbing and drops count toward `budget`, and a step that would drop more
    than 6" is shortened; the jumps on the way are rolled by the game afterwards."""
    radius = movers.profile.base / 2
    flying = movers.all_have("Flying")
    for model in movers.models:
        base = model.base(movers.profile.base)
        foes = enemies.bases()
        nearest = min(foes, key=lambda f: edge_distance(base, f))
        gap = edge_distance(base, nearest)
        if gap <= EPS:
            continue
        (mx, my), (fx, fy) = base.centre, nearest.centre
        length = math.hypot(fx - mx, fy - my)
        ux, uy = (fx - mx) / length, (fy - my) / length
        blockers = [
            b
            for u in state.units.values()
            if u.alive and u.deployed
            for b in u.bases()
            if b.centre != base.centre
        ]
        step = min(budget, gap)
        while step > EPS:
            moved = base.moved((mx + ux * step, my + uy * step))
            if (
                all(edge_distance(moved, b) >= -EPS for b in blockers)
                and radius > 0
                and (
                    field is None
                    or _climb_fits(base.centre, moved.centre, step, budget, field, flying)
                )
            ):
                model.x, model.y = moved.centre
                break
            step -= 0.1


def _climb_fits(
    start: Point, end: Point, step: float, budget: float, field: Battlefield, flying: bool
) -> bool:
    """Whether a close-in step of `step` inches, with its heights, fits within `budget`."""
    climb = jumps.plan(start, end, field, flying=flying)
    return climb.problem is None and step + climb.extra <= budget + EPS


def separate(unit: Unit, other: Unit, gap: float = UNIT_GAP) -> None:
    """Chargers move back so both units are `gap` apart (if possible)."""
    (ax, ay), (bx, by) = unit.centre(), other.centre()
    length = math.hypot(ax - bx, ay - by) or 1.0
    ux, uy = (ax - bx) / length, (ay - by) / length
    moved = 0.0
    while moved < 12.0:
        if min(edge_distance(a, b) for a in unit.bases() for b in other.bases()) >= gap:
            return
        translate(unit, ux * 0.1, uy * 0.1)
        moved += 0.1
