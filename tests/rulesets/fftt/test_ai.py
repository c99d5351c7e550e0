"""The fftt AI beats the random agent in every pairing of forces (a few seeded games each;
the 200-game figure is measured in the branch report)."""

from __future__ import annotations

import pytest

from tests.ai_vs_random import ai_wins
from warbench.core import registry
from warbench.rulesets.fftt.ai import TacticsAI

GAMES = 4


@pytest.mark.parametrize(
    "scenario", ["marines-vs-machina", "marines-vs-insectoids", "machina-vs-insectoids"]
)
def test_ai_beats_random_in_nine_games_out_of_ten(scenario: str) -> None:
    wins = sum(ai_wins("fftt", scenario, seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"{scenario}: the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("fftt").agents()["ai"] is TacticsAI
