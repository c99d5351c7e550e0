"""How a position stands for a search agent, read from our victory conditions (victory.py,
ruling R10): the shares of the two forces destroyed (a broken force loses) and the
objectives each holds now."""

from __future__ import annotations

import math

from warbench.rulesets.fft3 import victory
from warbench.rulesets.fft3.game import FFT3Game


def position_value(game: FFT3Game, player: str) -> float:
    """From -1 (as good as lost) to 1 (as good as won) for `player`."""
    s = game.state
    enemy = s.enemy(player)
    strength = victory.share_destroyed(s, player) - victory.share_destroyed(s, enemy)
    objectives = game.spec.objectives
    held = [victory.holder(s, o) for o in objectives]
    lead = (held.count(player) - held.count(enemy)) / max(1, len(objectives))
    return math.tanh(2.0 * strength + 0.6 * lead)
