"""The gff AI plays the mission and beats the random agent in 90% of 200 seeded games."""

from __future__ import annotations

from warbench.core import registry
from warbench.core.game import Decision, GameOver
from warbench.rulesets.gff.ai import FirefightAI

GAMES = 200


def _ai_wins(seed: int) -> bool:
    ruleset = registry.get("gff")
    game = ruleset.new_game(ruleset.load_scenario("skirmish"), seed)
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


def test_ai_beats_random_in_nine_games_out_of_ten() -> None:
    wins = sum(_ai_wins(seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("gff").agents()["ai"] is FirefightAI
