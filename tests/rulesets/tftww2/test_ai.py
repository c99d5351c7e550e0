"""The tftww2 AI beats the random agent in at least 90% of 200 seeded games in every
scenario (the AI on each side in turn, as tests/ai_vs_random.py plays it)."""

from __future__ import annotations

import pytest

from tests.ai_vs_random import ai_wins
from warbench.core import registry
from warbench.rulesets.tftww2.ai import SkirmishAI, p_hit

GAMES = 200


@pytest.mark.parametrize("scenario", ["patrol", "building-assault", "combined-arms"])
def test_ai_beats_random_in_nine_games_out_of_ten(scenario: str) -> None:
    wins = sum(ai_wins("tftww2", scenario, seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"{scenario}: the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("tftww2").agents()["ai"] is SkirmishAI


def test_the_ais_hit_chances_are_3d6_with_4_4s_criticals() -> None:
    assert p_hit(12) == pytest.approx(160 / 216)
    assert p_hit(0) == p_hit(5) == pytest.approx(10 / 216)  # a natural 3-5 always hits
    assert p_hit(18) == p_hit(15) == pytest.approx(206 / 216)  # 16-18 always miss
