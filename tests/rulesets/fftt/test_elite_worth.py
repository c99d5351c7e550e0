"""An elite troop is worth 1 FP more than its profile (R57, OURS) wherever FPs are counted:
the price of a force, the victory tallies (the turn limit, a third lost), surrender's
score and the AI's hopelessness, the search agent's evaluation, the experience gained
for killing it, the AI's worth of a target and the balance sweep's force points. Each
test below would fail with the profile's FPs alone."""

from __future__ import annotations

import copy
from fractions import Fraction

from tests.referee import Ref
from tests.rulesets.fftt.position import fig, game, state
from warbench.core import registry
from warbench.core.game import GameOver
from warbench.rulesets.fftt import shooting
from warbench.rulesets.fftt.actions import Done, Shoot, Surrender
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.evaluation import fighting_share
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.scenario import FigureSpec, ForceSpec
from warbench.rulesets.fftt.state import Fig

RULESET = registry.get("fftt")


def _dead(f: Fig) -> Fig:
    f.where = "dead"
    return f


def _end_of_turn(*figs: Fig, turn: int = 1, **victory: object) -> FFTTGame:
    """A game at blue's part of the general firing of phase 3 (`done` ends the turn), with
    these victory settings."""
    s = state(*figs)
    s.stage, s.phase, s.part, s.player, s.turn = "general", 3, 1, "blue", turn
    g = game(s, [6, 6, 1, 1])  # initiative dice of the next turn, if it comes
    g.spec = g.spec.model_copy(update={"victory": g.spec.victory.model_copy(update=victory)})
    return g


def test_one_worth_prices_the_force_and_the_figure() -> None:
    engineer = fig("r1", "engineer", 50, 10, elite=True)
    assert (engineer.prof.fp, engineer.fp, fig("r2", "engineer", 50, 20).fp) == (3, 4, 3)
    force = ForceSpec(
        race="marines",
        figures=(FigureSpec(profile="hq"), FigureSpec(profile="engineer", elite=True)),
    )
    assert force.points() == 1 + engineer.fp


def test_the_turn_limit_counts_the_elite_fp() -> None:
    """An elite engineer (4 FP) against a tank (4 FP) is a draw, not blue's battle."""
    g = _end_of_turn(
        fig("r1", "engineer", 50, 10, elite=True), fig("b1", "tank", 50, 90), turn=8, turns=8
    )
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.reason == "turn 8 ends the battle: 4 FP red, 4 FP blue standing"
    assert over.winner is None and over.score == {"red": 4.0, "blue": 4.0}


def test_a_third_lost_counts_a_dead_elite_troops_fp() -> None:
    """Four grunts stand of 6 FP (a dead elite grunt was 2): a third is lost. Counted by
    profile (4 of 5) it would not be."""
    red = [fig(f"r{n}", "grunt", 10 * n, 10) for n in range(1, 5)]
    g = _end_of_turn(
        *red,
        _dead(fig("r5", "grunt", 60, 10, elite=True)),
        fig("b1", "tank", 50, 90),
        third_lost=True,
    )
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.winner == "blue" and "red lost a third of its forces" in over.reason


def test_surrender_scores_the_elite_fp() -> None:
    g = game(
        state(fig("r1", "grunt", 50, 40, elite=True), fig("b1", "terminator", 50, 80), stage="move")
    )
    g.apply(Surrender(), "red")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.winner == "blue" and over.score == {"red": 2.0, "blue": 1.0}


def test_the_ai_weighs_elite_fps_before_surrendering() -> None:
    """R47: a quarter or less of the enemy's fighting FPs. An elite grunt (2 FP) against
    four terminators (4 FP) is not hopeless; a grunt against three, one of them elite, is."""
    terminators = [fig(f"b{i}", "terminator", 10 * i, 90) for i in range(1, 5)]
    s = state(fig("r1", "grunt", 50, 10, elite=True), *terminators, stage="move")
    s.turn = 2
    assert not TacticsAI.hopeless(game(s), "red")
    terminators = [fig(f"b{i}", "terminator", 10 * i, 90, elite=i == 1) for i in range(1, 4)]
    s = state(fig("r1", "grunt", 50, 10), *terminators, stage="move")
    s.turn = 2
    assert TacticsAI.hopeless(game(s), "red")


def test_the_search_evaluation_counts_the_elite_fp() -> None:
    """A grunt standing of a force of a grunt and a dead elite grunt: a third left, not a
    half."""
    s = state(
        fig("r1", "grunt", 50, 10),
        _dead(fig("r2", "grunt", 60, 10, elite=True)),
        fig("b1", "terminator", 50, 90, elite=True),
    )
    assert fighting_share(s, "red") == 1 / 3
    assert fighting_share(s, "blue") == 1.0


def test_killing_an_elite_troop_gains_its_fps_in_experience() -> None:
    grunt = fig("r1", "grunt", 50, 20)
    target = fig("b1", "terminator", 50, 30, wounds=1, elite=True)
    s = state(grunt, target)
    s.experience = True
    ref = Ref([1, 2])  # a hit
    shooting.resolve(ref, s, grunt, target, indirect=False, hold=False)
    assert target.where == "dead" and grunt.xp == 2
    assert ("experience", "r1 has killed 2 enemy FPs") in ref.events


def test_the_ai_fires_at_the_elite_of_two_like_targets() -> None:
    """Two terminators alike but for the second's elite mark: the AI's worth of a hit is
    its FPs, so it shoots the elite one (the first listed would win a tie)."""
    s = state(
        fig("r1", "grunt", 50, 20),
        fig("b1", "terminator", 45, 35),
        fig("b2", "terminator", 55, 35, elite=True),
    )
    ai = TacticsAI(0)
    plain, elite = ai._value(s, s.figs["b1"], Fraction(1)), ai._value(s, s.figs["b2"], Fraction(1))
    assert (plain, elite) == (0.5, 1.0)  # 1 and 2 FP, two wounds left each
    assert ai.choose(game(s), "red") == Shoot("r1", "b2")


def test_a_balance_sweep_prices_elite_troops() -> None:
    """Raising the agreed force points to the dearer force counts an elite engineer at 4."""
    data = copy.deepcopy(RULESET.load_scenario("marines-vs-machina"))
    red = data["forces"]["red"]
    red["figures"] = [
        {**f, "elite": True} if f["profile"] == "engineer" else f for f in red["figures"]
    ]
    data["force_points"] = 21
    more = RULESET.vary(data, "red.sniper", 4)
    assert more["force_points"] == 27  # three more snipers at 2 FP, the elite engineer at 4
