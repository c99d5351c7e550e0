"""The fftt AI beats the random agent in every pairing of forces (a few seeded games each;
the 200-game figure is measured in the branch report), and climbs for height when it pays."""

from __future__ import annotations

import dataclasses

import pytest

from tests.ai_vs_random import ai_wins
from tests.rulesets.fftt.position import fig, game, state
from warbench.core import registry
from warbench.rulesets.fftt.actions import Climb, Move
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.move_choice import HEIGHT
from warbench.rulesets.fftt.scenario import KeyPosition
from warbench.rulesets.fftt.sight import can_see
from warbench.rulesets.fftt.state import Fig
from warbench.rulesets.fftt.table import Piece, dist

GAMES = 4


@pytest.mark.parametrize(
    "scenario", ["marines-vs-machina", "marines-vs-insectoids", "machina-vs-insectoids"]
)
def test_ai_beats_random_in_nine_games_out_of_ten(scenario: str) -> None:
    wins = sum(ai_wins("fftt", scenario, seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"{scenario}: the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("fftt").agents()["ai"] is TacticsAI


# a 20 x 10 cm house with an upper floor: a door south, windows west and east
HOUSE = Piece(
    "building", 40, 40, 60, 50, (("south", "door"), ("west", "window"), ("east", "window")), 2
)
TREES = Piece("forest", 46, 34, 54, 37)


def test_the_ai_climbs_for_height_when_it_pays_and_comes_down_when_not() -> None:
    """R50: a grunt at the south border of the house sees nothing past the trees in front
    of it from the ground; from the upper floor the higher-shooter rule lets it see over
    them (nearer to it than to the terminator), so it climbs, keeping an action to fire."""
    grunt = fig("r1", "grunt", 50, 41)
    target = fig("b1", "terminator", 50, 15)
    s = state(grunt, target, pieces=[HOUSE, TREES], stage="move")
    assert not can_see(s, grunt, target)
    assert TacticsAI(0).choose(game(s), "red") == Climb("r1")
    grunt.level = 1
    assert can_see(s, grunt, target)
    assert TacticsAI(0).choose(game(s), "red") != Climb("r1")  # up there it has a target
    grunt.ap = 1
    grunt.level = 0
    assert TacticsAI(0).choose(game(s), "red") != Climb("r1")  # no action left to fire
    grunt.ap = 2
    grunt.level = 1
    target.x, target.y = 95, 95  # out of sight from the border: it comes down to move on
    assert TacticsAI(0).choose(game(s), "red") == Climb("r1")


def test_the_ai_seeks_the_border_of_a_house_with_an_upper_floor() -> None:
    """R50: with the enemy in range, a shooter's move to the border of a house is worth
    more when the house has an upper floor to climb; it goes there."""
    score: dict[int, float | None] = {}
    for floors in (1, 2):
        house = dataclasses.replace(HOUSE, floors=floors)
        grunt = fig("r1", "grunt", 50, 30)
        enemy = fig("b1", "terminator", 50, 62)
        s = state(grunt, enemy, pieces=[house], stage="move")
        door = Move("r1", (50.0, 40.0))
        score[floors] = TacticsAI(0)._move_score(s, grunt, door.to, [enemy.pos], 32.0)
        if floors == 2:
            chosen = TacticsAI(0).choose(game(s), "red")
            assert isinstance(chosen, Move) and house.near_edge(chosen.to)
    high, low = score[2], score[1]
    assert high is not None and low is not None
    assert high - low == pytest.approx(HEIGHT)


def _relay_game(*figs: Fig) -> FFTTGame:
    """Red attacks and deploys south; blue holds the relay at (50, 70) on 100 x 100 cm."""
    g = game(state(*figs, stage="move"))
    relay = KeyPosition(name="Relay", holder="defender", at=(0.5, 0.3))
    g.spec = g.spec.model_copy(
        update={"victory": g.spec.victory.model_copy(update={"key_positions": (relay,)})}
    )
    return g


def test_the_ai_goes_for_the_enemy_key_position_and_guards_its_own() -> None:
    """R51: a grunt with no target in range closes on the relay the enemy holds; the only
    blue figure on it stays there."""
    grunt = fig("r1", "grunt", 20, 30)
    enemy = fig("b1", "terminator", 95, 30)
    plain = game(state(grunt, enemy, stage="move"))
    keyed = _relay_game(fig("r1", "grunt", 20, 30), fig("b1", "terminator", 95, 30))
    relay = (50.0, 70.0)
    went = {}
    for name, g in (("plain", plain), ("keyed", keyed)):
        chosen = TacticsAI(0).choose(g, "red")
        assert isinstance(chosen, Move)
        went[name] = dist(chosen.to, relay)
    assert went["keyed"] < went["plain"]
    away = game(state(fig("r1", "grunt", 50, 20), fig("b1", "terminator", 50, 71), stage="move"))
    guard = _relay_game(fig("r1", "grunt", 50, 20), fig("b1", "terminator", 50, 71))
    for g in (away, guard):
        g.state.player = "blue"
    left = TacticsAI(0).choose(away, "blue")
    assert isinstance(left, Move) and dist(left.to, relay) > 5  # without the relay it goes
    stays = TacticsAI(0).choose(guard, "blue")
    assert not isinstance(stays, Move) or dist(stays.to, relay) <= 5
