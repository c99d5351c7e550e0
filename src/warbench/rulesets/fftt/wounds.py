"""WOUNDS, damage and death: casualties held back in the simultaneous steps and removed
together; explosions of HQs, tanks, MTs and bomb bugs; grenade and missile bursts; corpses
for the queen."""

from __future__ import annotations

import math
from typing import Protocol

from warbench.core.dice import Roll, RollRequest
from warbench.core.words import counted
from warbench.rulesets.fftt import experience
from warbench.rulesets.fftt.profiles import tables
from warbench.rulesets.fftt.state import Corpse, Fig, Melee, State
from warbench.rulesets.fftt.table import Point, dist

TOUCH = 1e-9  # a base the circle's edge just reaches is touched (rounding of the deviation)


class Referee(Protocol):
    """What the rules need of the game: rolls through its dice and events to its log."""

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        """Roll through the game's dice."""
        ...

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Record an event."""
        ...


def wound(
    ref: Referee, s: State, fig: Fig, n: int, cause: str, *, hold: bool, by: str | None = None
) -> None:
    """`fig` takes `n` wounds (dealt by figure `by`, if any: Experience). With `hold`
    (simultaneous firing and hand to hand) they wait in `pending_wounds` until the casualties
    are removed together."""
    if n <= 0 or fig.where != "table":
        return
    if by is not None:
        s.last_hit[fig.id] = by
    if hold:
        s.pending_wounds[fig.id] = s.pending_wounds.get(fig.id, 0) + n
        ref.emit("wound", f"{fig.id} ({fig.prof.name}) takes {counted(n, 'wound')} from {cause}")
        return
    fig.wounds += n
    ref.emit("wound", f"{fig.id} ({fig.prof.name}) takes {counted(n, 'wound')} from {cause}")
    if fig.wounds >= fig.max_wounds:
        kill(ref, s, fig, cause)


def remove_casualties(ref: Referee, s: State) -> None:
    """'finally all the casualties are removed at the same time'."""
    held, s.pending_wounds = s.pending_wounds, {}
    dying: list[Fig] = []
    for fid in sorted(held):
        fig = s.figs[fid]
        if fig.where == "table":
            fig.wounds += held[fid]
            if fig.wounds >= fig.max_wounds:
                dying.append(fig)
    for fig in dying:
        if fig.where == "table":
            kill(ref, s, fig, "its wounds")


def kill(ref: Referee, s: State, fig: Fig, cause: str, *, hold: bool = False) -> None:
    """A figure dies: a corpse for bio-forms; HQs, tanks and MTs explode like a grenade, and a
    bomb bug goes off when killed (its burst's wounds held back with `hold`)."""
    fig.where = "dead"
    fig.wounds = max(fig.wounds, fig.max_wounds)
    ref.emit("death", f"{fig.id} ({fig.prof.name}) is destroyed by {cause}")
    experience.credit(ref, s, fig)
    if not fig.prof.mechanical:
        s.corpses.append(Corpse(fig.x, fig.y))
    for melee in s.melees:
        if fig.id in melee.attackers:
            melee.attackers.remove(fig.id)
    _end_melees(s)
    if fig.prof.explodes or fig.prof.bomb:
        centre = fig.pos
        if fig.prof.hq:
            centre = _perimeter_point(s, fig)
        by = fig.id if fig.prof.bomb else None  # a bomb bug's kills are its own
        burst(ref, s, centre, "grenade", f"the explosion of {fig.id}", hold=hold, by=by)


def _end_melees(s: State) -> None:
    """Drop the melees left without attackers or defender; `melee_at`, the melee being
    fought in the hand to hand step, keeps pointing at it (or at the next one if it ended),
    whatever ended before it (a death mid-step: an answering shot, an explosion)."""

    def fought(m: Melee) -> bool:
        return bool(m.attackers) and s.figs[m.defender].where == "table"

    s.melee_at -= sum(1 for m in s.melees[: s.melee_at] if not fought(m))
    s.melees = [m for m in s.melees if fought(m)]


def _perimeter_point(s: State, fig: Fig) -> Point:
    """HQ: 'the centre of the burst in the outer perimeter of the HQ' — OURS: the point of
    its base edge toward the nearest enemy (straight north if none)."""
    enemies = [f for f in s.figs.values() if f.where == "table" and f.side != fig.side]
    if not enemies:
        return (fig.x, fig.y + fig.radius)
    near = min(enemies, key=lambda e: (dist(e.pos, fig.pos), e.id))
    d = dist(near.pos, fig.pos) or 1.0
    return (fig.x + (near.x - fig.x) * fig.radius / d, fig.y + (near.y - fig.y) * fig.radius / d)


def burst(
    ref: Referee,
    s: State,
    centre: Point,
    kind: str,
    cause: str,
    *,
    hold: bool,
    by: str | None = None,
) -> None:
    """A grenade or missile burst (fired by `by`, if any): each figure whose base the circles
    touch takes the wounds of the innermost circle it touches; cover does not help. Grenades
    clean off acid goo."""
    circles = tables().bursts[kind]
    ref.emit("burst", f"{cause}: a {kind} burst at {centre[0]:.1f},{centre[1]:.1f}")
    outer = circles[-1][0]
    s.goo = [g for g in s.goo if dist((g.x, g.y), centre) > outer + tables().goo.radius]
    for fig in sorted(s.figs.values(), key=lambda f: f.id):
        if fig.where != "table":
            continue
        gap = dist(fig.pos, centre) - fig.radius
        for radius, wounds in circles:
            if gap <= radius + TOUCH:
                wound(ref, s, fig, wounds, cause, hold=hold, by=by)
                break


def deviate(centre: Point, firer: Point, direction: int, distance: float) -> Point:
    """Grenade deviation: 2D6 direction on the template (OURS: 2 straight back toward the
    firer, then clockwise in eleven equal sectors), `distance` cm."""
    back = math.atan2(firer[0] - centre[0], firer[1] - centre[1])
    angle = back + math.radians((direction - 2) * 360 / 11)
    return (centre[0] + distance * math.sin(angle), centre[1] + distance * math.cos(angle))
