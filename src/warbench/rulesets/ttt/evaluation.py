"""How a position stands for a search agent: the TTT AI's own one-turn reading of it (hits
each side can make, hits it risks, progress toward the operation's objective), for the
player against the enemy."""

from __future__ import annotations

import math

from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.position import position_value as side_value
from warbench.rulesets.ttt.winning import other


def position_value(game: TTTGame, player: str) -> float:
    """From -1 (as good as lost) to 1 (as good as won) for `player`."""
    mine = side_value(game.table, game.state, player)
    theirs = side_value(game.table, game.state, other(player))
    return math.tanh((mine - theirs) / 8.0)
