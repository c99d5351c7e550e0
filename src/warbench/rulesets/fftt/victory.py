"""END OF THE GAME's optional victory conditions of time and of key positions (R49): battle
time at ten seconds a turn, and points a side loses to the enemy standing on them."""

from __future__ import annotations

from warbench.rulesets.fftt.scenario import TURN_SECONDS, KeyPosition, Victory
from warbench.rulesets.fftt.state import Fig, State, other
from warbench.rulesets.fftt.table import Point, dist, rounded


def elapsed(s: State) -> float:
    """Battle seconds at the end of the current phase: a turn of three phases is ten."""
    return ((s.turn - 1) * 3 + s.phase) * TURN_SECONDS / 3


def time_up(v: Victory, s: State) -> bool:
    """Whether the scenario's time limit is reached at the end of this phase."""
    return v.seconds is not None and elapsed(s) >= v.seconds


def fighting(f: Fig) -> bool:
    """A figure that counts as alive at the end of the game (HQs, scanners and figures out
    of ammo count as dead)."""
    return f.where == "table" and not (f.prof.hq or f.prof.scanner or f.out_of_ammo)


def holder(s: State, k: KeyPosition) -> str:
    """The side holding the key position: the attacker or the defender."""
    return s.attacker if k.holder == "attacker" else other(s.attacker)


def point(s: State, k: KeyPosition) -> Point:
    """Where the key position lies on this table, measured from its holder's edge."""
    across, deep = k.at
    y = deep * s.table.depth
    if s.edge(holder(s, k)) == "north":
        y = s.table.depth - y
    return (rounded(across * s.table.width, 1), rounded(y, 1))


def taken(s: State, k: KeyPosition) -> bool:
    """Lost by its holder: an enemy fighting figure within the radius and none of its own."""
    at, side = point(s, k), holder(s, k)
    near = [f for f in s.figs.values() if fighting(f) and dist(f.pos, at) <= k.radius]
    return any(f.side != side for f in near) and not any(f.side == side for f in near)


def lost_keys(v: Victory, s: State) -> dict[str, list[str]]:
    """Each side that lost key positions at this end of turn, with their names."""
    lost: dict[str, list[str]] = {}
    for k in v.key_positions:
        if taken(s, k):
            lost.setdefault(holder(s, k), []).append(k.name)
    return lost
