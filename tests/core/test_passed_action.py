"""In a sim's game (`rollback` off) `Game.apply` does not test again the action `check` has
just passed (the latest test, nothing applied since); any other test, any step, another
player or another action object makes it test as before, and with `rollback` on (play, the
server, tests and tools, which may set the state directly) every action is tested."""

from __future__ import annotations

import contextlib

import pytest

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.game import Decision, Game, IllegalAction


def _counted(game: Game) -> list[Action]:
    """Record every call of `game`'s `_illegal` (the ruleset's own legality test)."""
    tested: list[Action] = []
    illegal = game._illegal

    def counting(action: Action, player: str) -> str | None:
        tested.append(action)
        return illegal(action, player)

    game._illegal = counting  # type: ignore[method-assign]
    return tested


def _game() -> tuple[Game, str, list[Action]]:
    """A tftww2 patrol at its first decision, rollback off as in sims: the game, who decides,
    their legal actions."""
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("patrol"), 1)
    game.rollback = False
    pending = game.pending
    assert isinstance(pending, Decision)
    return game, pending.player, game.legal_actions(pending.player)


def test_the_action_just_passed_is_not_tested_again() -> None:
    game, player, legal = _game()
    tested = _counted(game)
    assert game.check(legal[0], player) is None
    game.apply(legal[0], player)
    assert tested == [legal[0]]


def test_with_rollback_on_every_action_is_tested() -> None:
    game, player, legal = _game()
    for when in ("before the test", "after it"):
        game.rollback = when == "before the test"
        tested = _counted(game)
        assert game.check(legal[0], player) is None
        game.rollback = True
        game.apply(legal[0], player)
        assert tested == [legal[0], legal[0]], when
        game, player, legal = _game()


def test_another_test_in_between_makes_apply_test_again() -> None:
    game, _, legal = _game()
    tested = _counted(game)
    assert game.check(legal[0]) is None
    assert game.check(legal[1]) is None
    game.apply(legal[0])
    assert tested == [legal[0], legal[1], legal[0]]


def test_an_equal_action_that_is_another_object_is_tested() -> None:
    game, _, legal = _game()
    tested = _counted(game)
    assert game.check(legal[0]) is None
    twin = game.parse(str(legal[0]))
    assert twin == legal[0] and twin is not legal[0]
    game.apply(twin)
    assert len(tested) == 2


def test_the_wrong_player_is_refused_after_a_pass() -> None:
    game, player, legal = _game()
    other = next(p for p in game.ruleset.players if p != player)
    assert game.check(legal[0]) is None
    before = game.state_hash()
    with pytest.raises(IllegalAction, match="decision now"):
        game.apply(legal[0], other)
    assert game.state_hash() == before


def test_a_pass_does_not_outlive_the_step() -> None:
    game, _, legal = _game()
    assert game.check(legal[0]) is None
    game.apply(legal[0])
    tested = _counted(game)
    with contextlib.suppress(IllegalAction):  # legal again or not, it is tested afresh
        game.apply(legal[0])
    assert tested[:1] == [legal[0]]


def test_a_test_made_while_resolving_does_not_outlive_the_step() -> None:
    game, _, legal = _game()
    resolve = game._resolve

    def testing_first(action: Action, player: str) -> None:
        assert game.check(action) is None  # of the state before the step
        resolve(action, player)

    game._resolve = testing_first  # type: ignore[method-assign]
    game.apply(legal[0])
    game._resolve = resolve  # type: ignore[method-assign]
    tested = _counted(game)
    with contextlib.suppress(IllegalAction):  # legal again or not, it is tested afresh
        game.apply(legal[0])
    assert tested[:1] == [legal[0]]
