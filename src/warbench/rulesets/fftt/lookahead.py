"""Where the search agent's look-aheads stop in fftt (`Budget.until`): at the end of the
phase being played, once its general firing and hand to hand are resolved (three phases a
turn; fire in the general firing step is simultaneous, so a position read in the middle of
a phase has not yet felt the answer to a move), or of the turn's first phase for the
initiative's decision of who moves first."""

from __future__ import annotations

from warbench.core.game import Game
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.state import State


def progress(s: State) -> int:
    """How far the battle is, in phases: 4 a turn, the decision of who moves first (the
    phase still counting the last turn's) at 0."""
    return 4 * s.turn + (0 if s.stage == "first" else s.phase)


def phase_over(game: Game, sim: Game) -> bool:
    """Whether the look-ahead `sim` has played out the phase of the decision in `game`."""
    assert isinstance(game, FFTTGame) and isinstance(sim, FFTTGame)
    root = game.state
    start = progress(root)
    return progress(sim.state) > (start + 1 if root.stage == "first" else start)
