"""The tftww2 AI beats the random agent in at least 90% of 200 seeded games (patrol and
building assault; the combined-arms figure is measured in the issue note, not yet met)."""

from __future__ import annotations

import pytest

from tests.ai_vs_random import ai_wins
from warbench.core import registry
from warbench.rulesets.tftww2.ai import SkirmishAI

GAMES = 200


@pytest.mark.parametrize("scenario", ["patrol", "building-assault"])
def test_ai_beats_random_in_nine_games_out_of_ten(scenario: str) -> None:
    wins = sum(ai_wins("tftww2", scenario, seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"{scenario}: the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("tftww2").agents()["ai"] is SkirmishAI
