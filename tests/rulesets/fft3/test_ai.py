"""The fft3 AI against the random agent in every shipped scenario, on each side in turn.

A few seeded games per scenario keep the suite quick; the figures over seeds 0-199, by
scenario and side, are measured with the same helper and written in docs/rules/fft3.md.
"""

from __future__ import annotations

import pytest

from tests.ai_vs_random import ai_wins
from warbench.core import registry
from warbench.rulesets.fft3.ai import TowsAI

GAMES = 8  # seeds 0-7: the AI is red on the even ones and blue on the odd ones


@pytest.mark.parametrize(
    "scenario",
    [
        "meeting-engagement",
        "meeting-engagement-even",
        "deliberate-attack",
        "deliberate-attack-even",
    ],
)
def test_ai_beats_random_on_both_sides(scenario: str) -> None:
    wins = sum(ai_wins("fft3", scenario, seed) for seed in range(GAMES))
    assert wins >= GAMES - 1, f"{scenario}: the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("fft3").agents()["ai"] is TowsAI
