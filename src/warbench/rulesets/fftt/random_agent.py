"""The fftt random agent: uniform over the legal actions except `surrender` (R47)."""

from __future__ import annotations

import random

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.ruleset import Agent
from warbench.rulesets.fftt.actions import Surrender


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions but never surrenders: `surrender` is legal
    at every decision, so a uniform draw would give up most battles in their first turn and
    leave nothing to measure; reproducible from its seed, and the same choices as the core
    random agent made before `surrender` was listed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: str) -> Action:
        """A uniformly random legal action other than `surrender`."""
        actions = [a for a in game.legal_actions(player) if not isinstance(a, Surrender)]
        if not actions:
            raise ValueError(f"{player} has no legal action but surrender at {game.pending}")
        return self._rng.choice(actions)
