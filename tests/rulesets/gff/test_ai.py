"""The gff AI plays the mission and beats the random agent in 90% of 200 seeded games."""

from __future__ import annotations

from tests.ai_vs_random import ai_wins
from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.gff.ai import FirefightAI
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight

GAMES = 200


def test_ai_beats_random_in_nine_games_out_of_ten() -> None:
    wins = sum(ai_wins("gff", "skirmish", seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("gff").agents()["ai"] is FirefightAI


def test_the_ai_picks_the_best_scored_legal_action() -> None:
    """Scoring every candidate and checking only the best ones picks what the full list of
    legal actions would: the legal candidate of the highest score."""
    ruleset = GrimdarkFutureFirefight()
    game = ruleset.new_game(ruleset.load_scenario("skirmish"), 3)
    assert isinstance(game, GFFGame)
    agent = FirefightAI(3)
    for _ in range(30):
        assert isinstance(game.pending, Decision)
        player = game.pending.player
        chosen = agent.choose(game, player)
        legal = game.legal_actions(player)
        assert chosen in legal
        with game.listing():
            scores = agent._scores(game, player, legal)
        assert scores[legal.index(chosen)] == max(scores)
        game.apply(chosen, player)
