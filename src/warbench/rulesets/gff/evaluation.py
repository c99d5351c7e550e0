"""How a position stands for a search agent, read from the mission (most objective markers
after four rounds wins) and from what is left of each army, in points."""

from __future__ import annotations

import math

from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.state import State


def _strength(state: State, side: str) -> float:
    """The share of a side's points still on its models (a model is cost / size)."""
    units = [u for u in state.units.values() if u.side == side]
    start = sum(u.profile.cost for u in units)
    left = sum(u.profile.cost * len(u.models) / max(1, u.profile.size) for u in units)
    return left / start if start else 0.0


def position_value(game: GFFGame, player: str) -> float:
    """From -1 (as good as lost) to 1 (as good as won) for `player`."""
    s = game.state
    enemy = "blue" if player == "red" else "red"
    owners = [m.owner for m in s.markers]
    lead = (owners.count(player) - owners.count(enemy)) / max(1, len(owners))
    strength = _strength(s, player) - _strength(s, enemy)
    return math.tanh(1.5 * lead + 1.5 * strength)
