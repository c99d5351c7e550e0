"""The search agent's candidates in fft3 (`search_candidates.py`): the AI's choice first, then
the decisions it weighs (fire allocation, holding, templates), every one legal."""

from __future__ import annotations

from tests.rulesets.fft3.position import At, play, position
from warbench.ai.search import Forking
from warbench.core.actions import Action
from warbench.core.geometry import bearing
from warbench.rulesets.fft3.actions import (
    Barrage,
    End,
    Face,
    Fire,
    Move,
    Overwatch,
    Resolve,
    Strategic,
)
from warbench.rulesets.fft3.ai import TowsAI
from warbench.rulesets.fft3.game import FFT3Game

FAR = [At("n1t1", 30, 40, 180), At("n2t1", 60, 46, 180)]
"""NATO stands beyond the Soviets' reach, one in each unit (the AI gives each unit an
objective)."""


def _two_targets() -> FFT3Game:
    """Two Soviet tanks in reach of a NATO tank and a NATO IFV (the AI shoots at the tank)."""
    return position(
        [
            At("s1t1", 30, 10),
            At("s1t2", 33, 10),
            At("n1t1", 30, 24, 180),
            At("n2v1", 36, 20, 180),
        ],
        carried={"n2i1": "n2v1"},
    )


def _legal_and_distinct(game: FFT3Game, ranked: list[Action]) -> None:
    assert all(game.check(a, "red") is None for a in ranked)
    assert len(set(map(str, ranked))) == len(ranked)


def test_fire_candidates_offer_the_other_target_and_overwatch_after_the_ai_choice() -> None:
    game = _two_targets()
    ranked = TowsAI(0).ranked(game, "red")
    choice = TowsAI(0).choose(game, "red")
    assert ranked[0] == choice
    assert isinstance(choice, Fire) and choice.target == "n1t1"
    assert ranked[1] == Overwatch(choice.stand)
    assert isinstance(ranked[2], Fire) and ranked[2].target == "n2v1"
    _legal_and_distinct(game, ranked)


def test_with_fire_declared_the_candidates_weigh_resolving_against_firing_more() -> None:
    game = _two_targets()
    play(game, "fire s1t1 gun n1t1")
    ai = TowsAI(0)
    ranked = ai.ranked(game, "red")
    assert ranked[0] == TowsAI(0).choose(game, "red")
    if isinstance(ranked[0], Fire):
        assert ranked[1] == Resolve("n1t1")
    else:
        assert ranked[0] == Resolve("n1t1")
        assert isinstance(ranked[1], Fire) and ranked[1].target == "n1t1"
    _legal_and_distinct(game, ranked)


def test_movement_candidates_hold_the_stand_facing_the_nearest_enemy() -> None:
    game = position(
        [At("s1t1", 30, 6), At("s1t2", 33, 6), At("s2t1", 50, 6), *FAR], phase="movement"
    )
    ranked = TowsAI(0).ranked(game, "red")
    choice = TowsAI(0).choose(game, "red")
    assert ranked[0] == choice
    assert isinstance(choice, Move | Strategic)
    hold = ranked[1]
    assert isinstance(hold, Face) and hold.stand == choice.stand
    stand = game.state.stands[choice.stand]
    assert hold.facing == round(bearing(stand.at, (30, 40)), 1) % 360
    assert isinstance(ranked[2], Move | Strategic) and ranked[2].stand == choice.stand
    _legal_and_distinct(game, ranked)


def test_artillery_candidates_are_templates_by_the_worth_they_cover_then_none() -> None:
    game = position(
        [
            At("s1t1", 30, 6),
            At("s1t2", 33, 6),
            At("s2t1", 36, 6),
            At("n1t1", 30, 30, 180),
            At("n1t2", 31.5, 30, 180),
            At("n2v1", 50, 30, 180),
            At("n2t1", 70, 46, 180),
        ],
        phase="artillery",
    )
    game.state.templates_left = 1  # as if the Soviets had a third unit
    ranked = TowsAI(0).ranked(game, "red")
    assert ranked[0] == TowsAI(0).choose(game, "red")
    barrages = [a for a in ranked if isinstance(a, Barrage)]
    assert barrages[0].at in {(30, 30), (31.5, 30)}  # two tanks under one template
    assert End() in ranked
    _legal_and_distinct(game, ranked)


def test_a_fork_remembers_the_stands_moved_this_phase() -> None:
    game = position(
        [At("s1t1", 30, 6), At("s1t2", 33, 6), At("s2t1", 50, 6), *FAR], phase="movement"
    )
    ai = TowsAI(0)
    first = ai.choose(game, "red")
    assert isinstance(first, Move | Strategic)
    fork = ai.fork(1)
    assert isinstance(ai, Forking)
    game.apply(first, "red")
    second = fork.choose(game, "red")
    assert not isinstance(second, Move | Strategic) or second.stand != first.stand
    assert second == ai.choose(game, "red")  # it plays on as the AI it was forked from
