"""The random agent: any legal action, uniformly, from its own seeded generator."""

from __future__ import annotations

import random

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.ruleset import Agent


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions; reproducible from its seed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: str) -> Action:
        """A uniformly random legal action."""
        actions = game.legal_actions(player)
        if not actions:
            raise ValueError(f"{player} has no legal action at {game.pending}")
        return self._rng.choice(actions)
