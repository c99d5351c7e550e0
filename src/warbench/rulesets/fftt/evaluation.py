"""How a position stands for a search agent, read from END OF THE GAME: a side without
fighting figures loses, and at the turn limit the most force points standing wins. Each
side's share of its force points still fighting (HQs, scanners and figures out of ammo
count as dead; a wounded figure as half), one side's against the other's."""

from __future__ import annotations

import math

from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.state import State, other


def fighting_share(s: State, side: str) -> float:
    """The share of the side's force points still fighting, wounds weighed in."""
    figs = [f for f in s.figs.values() if f.side == side and not f.hatched]
    start = sum(f.fp for f in figs)
    left = sum(
        f.fp
        * (1 - 0.5 * min(f.wounds + s.pending_wounds.get(f.id, 0), f.max_wounds) / f.max_wounds)
        for f in s.figs.values()
        if f.side == side
        and f.where != "dead"
        and not (f.prof.hq or f.prof.scanner or f.out_of_ammo)
    )
    return left / start if start else 0.0


def position_value(game: FFTTGame, player: str) -> float:
    """From -1 (as good as lost) to 1 (as good as won) for `player`; even (0) until the
    screen comes down, when nothing has been fought (the shares would only tell which
    written force has HQs and scanners, R52)."""
    s = game.state
    if not s.revealed:
        return 0.0
    return math.tanh(3.0 * (fighting_share(s, player) - fighting_share(s, other(player))))
