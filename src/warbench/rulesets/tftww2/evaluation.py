"""How a position stands for a search agent, read from our victory conditions (the scenario's
`victory`): casualties inflicted, an AFV counting as five, or who is inside the building."""

from __future__ import annotations

import math

from warbench.rulesets.tftww2 import terrain
from warbench.rulesets.tftww2.game import AFV_WORTH, TFTGame


def _lost(game: TFTGame, side: str) -> int:
    s = game.state
    men = sum(1 for m in s.men.values() if m.side == side and not m.active)
    return men + AFV_WORTH * sum(1 for t in s.tanks.values() if t.side == side and not t.active)


def position_value(game: TFTGame, player: str) -> float:
    """From -1 (as good as lost) to 1 (as good as won) for `player`."""
    enemy = "blue" if player == "red" else "red"
    margin = (_lost(game, enemy) - _lost(game, player)) / 4.0
    victory = game.spec.victory
    if victory.kind == "hold_building":
        inside = terrain.men_inside(game, victory.building)
        mine = sum(1 for m in inside if m.side == player)
        theirs = len(inside) - mine
        margin += 0.5 * (mine - theirs)
    return math.tanh(margin)
