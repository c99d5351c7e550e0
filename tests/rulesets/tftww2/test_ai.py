"""The tftww2 AI beats the random agent in at least 90% of 200 seeded games (patrol and
building assault; the combined-arms figure is measured in the issue note, not yet met)."""

from __future__ import annotations

import pytest

from warbench.core import registry
from warbench.core.game import Decision, GameOver
from warbench.rulesets.tftww2.ai import SkirmishAI

GAMES = 200


def _ai_wins(scenario: str, seed: int) -> bool:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario(scenario), seed)
    game.track_hashes = False
    ai_side = "red" if seed % 2 == 0 else "blue"
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


@pytest.mark.parametrize("scenario", ["patrol", "building-assault"])
def test_ai_beats_random_in_nine_games_out_of_ten(scenario: str) -> None:
    wins = sum(_ai_wins(scenario, seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"{scenario}: the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("tftww2").agents()["ai"] is SkirmishAI
