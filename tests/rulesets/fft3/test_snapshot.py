"""The snapshot taken before every action (`State.freeze`, `thaw`) gives back the state as it
was, sharing nothing with it, like `State.copy`; one of only the stands an action can change
gives back the state as it was after that action fails."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.state import thaw


def _busy_game() -> FFT3Game:
    """A seeded AI game played to a fire phase with fire declared and a template down."""
    ruleset = registry.get("fft3")
    game = ruleset.new_game(ruleset.load_scenario("meeting-engagement"), 1)
    assert isinstance(game, FFT3Game)
    agents = {p: ruleset.agents()["ai"](n) for n, p in enumerate(ruleset.players)}
    while isinstance(game.pending, Decision):
        s = game.state
        if s.groups and s.templates and any(x.attacks for x in s.stands.values()):
            return game
        game.apply(agents[game.pending.player].choose(game, game.pending.player))
    raise AssertionError("the game ended before fire was declared with a template down")


def test_thawed_state_equals_a_copy_and_shares_nothing() -> None:
    game = _busy_game()
    s = game.state
    frozen = s.freeze()
    copy = s.copy()
    first, second = thaw(frozen), thaw(frozen)
    assert first == copy and second == copy and game.state_data() == _data(game, first)
    stand = next(x for x in s.stands.values() if x.attacks)
    stand.x += 1.0
    stand.attacks.append("overwatch")
    s.units[stand.unit].stands.append("nobody")
    s.templates[0].attacked.append("nobody")
    next(iter(s.groups.values())).append(next(iter(s.groups.values()))[0])
    s.resolved.append("nobody")
    s.held["9"] = "red"
    first.stands[stand.id].attacks.append("gun")
    assert thaw(frozen) == copy and second == copy


def _data(game: FFT3Game, state: object) -> object:
    """`state_data` of `game` with `state` in place of its own."""
    mine = game.state
    game.state = state  # type: ignore[assignment]
    try:
        return game.state_data()
    finally:
        game.state = mine


@pytest.mark.parametrize("kind", ["ai", "random"])
def test_a_failed_action_leaves_the_state_as_it_was(kind: str) -> None:
    """Every action of seeded games, made to fail at its very end (after all it changes),
    gives back the state as it was, also where the snapshot held only the stands the
    action can change (`FFT3Game._touched`)."""
    ruleset = registry.get("fft3")
    partial: Counter[str] = Counter()
    for scenario in ("meeting-engagement", "deliberate-attack-even"):
        for seed in range(2):
            game = ruleset.new_game(ruleset.load_scenario(scenario), seed)
            assert isinstance(game, FFT3Game)
            agents = {
                p: ruleset.agents()[kind](seed * 2 + n) for n, p in enumerate(ruleset.players)
            }
            while isinstance(game.pending, Decision):
                player = game.pending.player
                action = agents[player].choose(game, player)
                before, data = game.state.copy(), json.dumps(game.state_data())
                steps, log = len(game.steps), len(game.log)
                if game._touched(action) is not None:
                    partial[type(action).verb] += 1
                game._check_wipe_out = _fail  # type: ignore[method-assign]
                with pytest.raises(RuntimeError, match="at the end"):
                    game.apply(action, player)
                del game._check_wipe_out
                assert game.state == before, f"{scenario} seed {seed}: {action}"
                assert json.dumps(game.state_data()) == data
                assert (len(game.steps), len(game.log)) == (steps, log)
                game.apply(action, player)
    assert {"move", "fire", "resolve", "overwatch"} <= set(partial), partial


def _fail() -> None:
    raise RuntimeError("the action fails at the end")
