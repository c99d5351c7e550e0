"""The gff AI plays the mission and beats the random agent in 90% of 200 seeded games."""

from __future__ import annotations

from tests.ai_vs_random import ai_wins
from warbench.core import registry
from warbench.rulesets.gff.ai import FirefightAI

GAMES = 200


def test_ai_beats_random_in_nine_games_out_of_ten() -> None:
    wins = sum(ai_wins("gff", "skirmish", seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("gff").agents()["ai"] is FirefightAI
