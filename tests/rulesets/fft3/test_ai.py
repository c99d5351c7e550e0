"""The fft3 AI against the random agent in every shipped scenario, on each side in turn.

A few seeded games per scenario keep the suite quick; the figures over seeds 0-199, by
scenario and side, are measured with the same helper and written in docs/rules/fft3.md.
"""

from __future__ import annotations

import pytest

from tests.ai_vs_random import ai_wins
from tests.rulesets.fft3.position import At, position
from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.fft3.actions import Fire
from warbench.rulesets.fft3.ai import TowsAI, menace, worth
from warbench.rulesets.fft3.game import FFT3Game

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


def test_ai_fires_first_at_the_enemy_that_threatens_most() -> None:
    """A NATO tank menaces Soviet tanks far more than a NATO IFV does, so two Soviet tanks
    shoot at the tank though the IFV (with its passenger) nearer them is worth more by
    itself and easier to take out (without the menace term they shoot at the IFV)."""
    game = position(
        [
            At("s1t1", 30, 10),
            At("s1t2", 33, 10),
            At("n1t1", 30, 24, 180),
            At("n2v1", 36, 20, 180),
        ],
        carried={"n2i1": "n2v1"},
    )
    tank, ifv = game.state.stands["n1t1"], game.state.stands["n2v1"]
    assert menace(game, tank) > 3 * menace(game, ifv)
    action = TowsAI(0).choose(game, "red")
    assert isinstance(action, Fire)
    assert action.target == "n1t1"


def test_worth_with_the_opponents_stands_given_is_worth_reading_them() -> None:
    """`worth(game, target, mine)`, as `_pick_fire` and `_setting` call it with the stands they
    have read, equals `worth(game, target)`, which reads them itself, for every stand at every
    step of a seeded AI game."""
    rs = registry.get("fft3")
    game = rs.new_game(dict(rs.load_scenario("meeting-engagement")), 1)
    assert isinstance(game, FFT3Game)
    agents = {p: TowsAI(n) for n, p in enumerate(rs.players)}
    checked = 0
    while isinstance(game.pending, Decision):
        s = game.state
        for player in rs.players:
            mine = s.side_stands(player)
            for target in s.side_stands(s.enemy(player)):
                assert worth(game, target, mine) == worth(game, target)
                checked += 1
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    assert checked > 1000
