"""The fftt AI's ranking for the search agent (`ranking.py`): its choice first, then legal
alternatives only; setup and surrender left to the AI; and where look-aheads stop
(`lookahead.py`)."""

from __future__ import annotations

from collections import Counter

from warbench.ai.search import Ranking
from warbench.core import registry
from warbench.core.dice import SeededDice
from warbench.core.game import Decision
from warbench.rulesets.fftt.actions import Surrender
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.lookahead import phase_over, progress
from warbench.rulesets.fftt.ranking import SETUP

RULESET = registry.get("fftt")


def _battle(scenario: str, seed: int) -> list[FFTTGame]:
    """Every decision of a seeded AI-v-AI battle, as a copy of the game there."""
    game = RULESET.new_game(RULESET.load_scenario(scenario), seed)
    assert isinstance(game, FFTTGame)
    game.track_hashes = False
    agents = {p: TacticsAI(seed * 2 + n) for n, p in enumerate(RULESET.players)}
    found: list[FFTTGame] = []
    while isinstance(game.pending, Decision):
        copy = game.fork(SeededDice(len(found)))
        assert isinstance(copy, FFTTGame)
        found.append(copy)
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    return found


def test_the_ranking_leads_with_the_ais_choice_and_offers_only_legal_actions() -> None:
    ranks: Counter[str] = Counter()
    for scenario, seed in (("marines-vs-machina", 0), ("marines-vs-insectoids", 1)):
        for n, game in enumerate(_battle(scenario, seed)):
            pending = game.pending
            assert isinstance(pending, Decision)
            player, before = pending.player, game.state_hash()
            ranked = TacticsAI(n).ranked(game, player)
            assert game.state_hash() == before  # ranking touches nothing
            assert str(ranked[0]) == str(TacticsAI(n).choose(game, player))
            legal = {str(a) for a in game.legal_actions(player)}
            assert all(str(a) in legal for a in ranked)
            assert len({str(a) for a in ranked}) == len(ranked)
            assert not any(isinstance(a, Surrender) for a in ranked[1:])
            if game.state.stage in SETUP:
                assert len(ranked) == 1
            ranks[game.state.stage] += len(ranked) > 1
    assert isinstance(TacticsAI(0), Ranking)
    assert ranks["move"] and ranks["general"] and ranks["first"]  # alternatives offered


def test_lookaheads_stop_at_the_end_of_the_phase() -> None:
    games = _battle("marines-vs-machina", 0)
    first = next(g for g in games if g.state.stage == "first")
    moving = next(g for g in games if g.state.stage == "move" and g.state.turn == 2)
    turn, phase = moving.state.turn, moving.state.phase
    assert progress(moving.state) == 4 * turn + phase
    later = [g for g in games if progress(g.state) > progress(moving.state)]
    same = [g for g in games if progress(g.state) == progress(moving.state)]
    assert later and same
    assert phase_over(moving, later[0]) and not phase_over(moving, same[-1])
    # the initiative's choice is read after the turn's first phase, not before it
    start = progress(first.state)
    phase_one = [g for g in games if progress(g.state) == start + 1]
    phase_two = [g for g in games if progress(g.state) == start + 2]
    assert phase_one and phase_two
    assert not phase_over(first, phase_one[-1]) and phase_over(first, phase_two[0])
