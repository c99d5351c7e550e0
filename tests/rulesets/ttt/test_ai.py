"""The TTT AI beats the random agent in at least 90% of 200 seeded games per operation."""

from __future__ import annotations

import pytest

from tests.ai_vs_random import ai_wins
from tests.rulesets.ttt.position import OPERATIONS
from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.ttt.ai import TrooperAI

GAMES = 200


@pytest.mark.parametrize("operation", OPERATIONS)
def test_ai_beats_random_in_nine_games_out_of_ten(operation: str) -> None:
    wins = sum(ai_wins("ttt", operation, seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"{operation}: the AI won {wins} of {GAMES}"


def test_ai_is_registered_and_moves_toward_the_objective() -> None:
    ruleset = registry.get("ttt")
    assert ruleset.agents()["ai"] is TrooperAI
    game = ruleset.new_game(ruleset.load_scenario("besiege-the-bunker"), 3)
    agent = TrooperAI(3)
    while isinstance(game.pending, Decision) and game.pending.kind == "place":
        game.apply(agent.choose(game, game.pending.player))
    action = agent.choose(game, "red")
    assert str(action).startswith("move")  # nothing in range: it advances on the bunker
