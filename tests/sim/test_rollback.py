"""A sim's games take no copy of the state before each step (`Game.rollback` off): a game
whose resolution fails is given up with its error; with rollback on (the default) the
failed step leaves the state as it was."""

from __future__ import annotations

import pytest

from warbench.core import registry
from warbench.core.game import Game
from warbench.sim.play import Matchup, play, spawn_seeds


def _failing(game: Game) -> None:
    """Make every resolution of `game` fail after changing its state."""

    def resolve(action: object, player: str) -> None:
        game.state.round += 100  # type: ignore[attr-defined]
        raise RuntimeError("resolution failed")

    game._resolve = resolve  # type: ignore[method-assign]


def test_a_failed_step_is_rolled_back_only_while_rollback_is_on() -> None:
    ruleset = registry.get("tftww2")
    for rollback in (True, False):
        game = ruleset.new_game(ruleset.load_scenario("patrol"), 1)
        game.rollback = rollback
        action = game.legal_actions(game.pending.player)[0]  # type: ignore[union-attr]
        before = game.state_hash()
        _failing(game)
        with pytest.raises(RuntimeError):
            game.apply(action)
        assert (game.state_hash() == before) is rollback


def test_a_sim_game_takes_no_copy_of_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = registry.get("tftww2")
    game_class = type(ruleset.new_game(ruleset.load_scenario("patrol"), 1))

    def refused(self: Game) -> object:
        raise AssertionError("a sim's step copied the state")

    monkeypatch.setattr(game_class, "_snapshot", refused)
    scenario = ruleset.load_scenario("patrol")
    matchup = Matchup("tftww2", scenario, (("red", "random"), ("blue", "random")))
    result = play(matchup, spawn_seeds(1, 1, 2)[0])
    assert result.steps > 0
