"""The gff AI plays the mission and beats the random agent in 90% of 200 seeded games."""

from __future__ import annotations

import numpy as np

from tests.ai_vs_random import ai_wins
from tests.rulesets.gff.seeded_games import activations
from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.game import Decision
from warbench.rulesets.gff.actions import Advance, Rush
from warbench.rulesets.gff.ai import FirefightAI
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight

GAMES = 200


def test_ai_beats_random_in_nine_games_out_of_ten() -> None:
    wins = sum(ai_wins("gff", "skirmish", seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("gff").agents()["ai"] is FirefightAI


def test_the_ai_picks_the_best_scored_legal_action() -> None:
    """Scoring every candidate and checking only the best ones picks what the full list of
    legal actions would: the legal candidate of the highest score."""
    ruleset = GrimdarkFutureFirefight()
    game = ruleset.new_game(ruleset.load_scenario("skirmish"), 3)
    assert isinstance(game, GFFGame)
    agent = FirefightAI(3)
    for _ in range(30):
        assert isinstance(game.pending, Decision)
        player = game.pending.player
        chosen = agent.choose(game, player)
        legal = game.legal_actions(player)
        assert chosen in legal
        with game.listing():
            actions = game.candidates(player)
            scores = agent._scores(game, player, actions)
        best = max(s for a, s in zip(actions, scores, strict=True) if a in legal)
        assert scores[actions.index(chosen)] == best
        game.apply(chosen, player)


def _numpy_move_scores(
    agent: FirefightAI, game: GFFGame, actions: list[Action]
) -> list[float | None]:
    """`FirefightAI._move_scores` as it was in numpy (the reference its kernel must match)."""
    scores: list[float | None] = [None] * len(actions)
    moves = [(n, a) for n, a in enumerate(actions) if isinstance(a, Advance | Rush)]
    if not moves:
        return scores
    order: dict[str, int] = {}
    row = np.array([order.setdefault(a.unit, len(order)) for _, a in moves], dtype=np.intp)
    units = [game.state.units[uid] for uid in order]
    at = np.array([a.to for _, a in moves], dtype=np.float64)
    markers = game.state.markers
    values = np.zeros(len(at))
    if markers:
        spots = np.array([(m.x, m.y) for m in markers], dtype=np.float64)
        gaps = np.hypot(at[:, None, 0] - spots[None, :, 0], at[:, None, 1] - spots[None, :, 1])
        theirs = np.array([m.owner != units[0].side for m in markers], dtype=np.bool_)
        if theirs.any():
            reach = np.array([3.0 + u.profile.base for u in units])[row]
            values = 3.0 * (gaps[:, theirs] <= reach[:, None]).sum(axis=1).astype(np.float64)
        free = [agent._free_for(game, unit) for unit in units]
        mine = np.array([[any(m is f for f in fs) for m in markers] for fs in free])[row]
        nearest = np.where(mine, gaps, np.inf).min(axis=1)
        some = mine.any(axis=1)
        values[some] -= 0.15 * nearest[some]
    advances = np.array([isinstance(a, Advance) for _, a in moves], dtype=np.bool_)
    if advances.any():
        shooting = set(row[advances].tolist())
        volley = np.array(
            [
                0.5 * agent._shooting_value(game, unit) if n in shooting else 0.0
                for n, unit in enumerate(units)
            ]
        )
        values[advances] += volley[row[advances]]
    for (n, _), value in zip(moves, values.tolist(), strict=True):
        scores[n] = value
    return scores


def test_compiled_move_scores_are_the_numpy_ones() -> None:
    """The move scores (`kernels.move_values`) are those of the numpy code they replaced, to
    the bit, at every activation of seeded AI games (markers held, free and contested)."""
    scored = 0
    for game, agents, player in activations((1, 2, 3)):
        with game.listing():
            agent = agents[player]
            agent._memo, agent._free, agent._where = {}, {}, {}
            actions = game.candidates(player)
            found = agent._move_scores(game, actions)
            assert found == _numpy_move_scores(agent, game, actions)
            scored += sum(1 for value in found if value)
    assert scored > 1000
