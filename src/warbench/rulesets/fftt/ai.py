"""An FFTT AI (placeholder: random until the tactics are written)."""

from __future__ import annotations

import random

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.ruleset import Agent


class TacticsAI(Agent):
    """Chooses among the legal actions."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: str) -> Action:
        return self._rng.choice(game.legal_actions(player))
