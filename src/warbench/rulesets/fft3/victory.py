"""Victory conditions (ours; the introductory rules have none — ruling R10).

- An objective is held by a player with a stand on the table within 3" of it and no enemy
  stand within 3".
- Broken: a player who has lost 2/3 of their stands (round up) at the end of a turn loses;
  both broken together is a draw. A player with no stands left loses at once.
- Meeting engagement: after the last turn, more objectives held wins; equal → the larger
  share of the enemy's stands eliminated wins; equal again → a draw.
- Deliberate attack: after the last turn the attacker wins by holding more objectives than
  the defender; otherwise the defender wins.
"""

from __future__ import annotations

import math

from warbench.rulesets.fft3.state import Point, State

HOLD_RANGE = 3.0


def holder(state: State, objective: Point) -> str | None:
    """Who holds the objective now (None: nobody or contested)."""
    near = {
        s.player
        for s in state.stands.values()
        if s.on_table and math.dist(s.at, objective) - s.radius <= HOLD_RANGE + 1e-9
    }
    return next(iter(near)) if len(near) == 1 else None


def starting(state: State, player: str) -> int:
    """How many stands `player` began with."""
    return sum(len(u.stands) for u in state.units.values() if u.player == player)


def lost(state: State, player: str) -> int:
    """How many of `player`'s stands are gone."""
    return sum(1 for s in state.stands.values() if s.player == player and not s.alive)


def broken(state: State, player: str) -> bool:
    """Lost 2/3 of its stands, rounded up."""
    return lost(state, player) >= math.ceil(2 * starting(state, player) / 3)


def share_destroyed(state: State, player: str) -> float:
    """The share of `player`'s enemy's stands `player` has eliminated."""
    enemy = state.enemy(player)
    return lost(state, enemy) / starting(state, enemy)
