"""The TTT AI beats the random agent in at least 90% of 200 seeded games per operation."""

from __future__ import annotations

import pytest

from tests.rulesets.ttt.position import OPERATIONS
from warbench.core import registry
from warbench.core.game import Decision, GameOver
from warbench.rulesets.ttt.ai import TrooperAI

GAMES = 200


def _ai_wins(operation: str, seed: int) -> bool:
    ruleset = registry.get("ttt")
    game = ruleset.new_game(ruleset.load_scenario(operation), seed)
    game.track_hashes = False
    ai_side = "red" if seed % 2 == 0 else "blue"  # the AI plays each side half the time
    agents = {
        ai_side: ruleset.agents()["ai"](seed),
        "blue" if ai_side == "red" else "red": ruleset.agents()["random"](seed + 7919),
    }
    while isinstance(game.pending, Decision):
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    pending = game.pending
    assert isinstance(pending, GameOver)
    return pending.winner == ai_side


@pytest.mark.parametrize("operation", OPERATIONS)
def test_ai_beats_random_in_nine_games_out_of_ten(operation: str) -> None:
    wins = sum(_ai_wins(operation, seed) for seed in range(GAMES))
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
