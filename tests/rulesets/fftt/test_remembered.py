"""Answers remembered for speed give the answers worked out afresh: the table's cover
(`Table.in_cover`), and the AI's firing choice, which works out a support call's worth once
per side, skill and target (`TacticsAI._fire`)."""

from __future__ import annotations

import random

import pytest

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.game import Decision
from warbench.rulesets.fftt.actions import CallSupport, Done, Lob, Shoot
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.game import PROMPTS, FFTTGame
from warbench.rulesets.fftt.table import Piece, Table


def test_remembered_cover_is_cover_worked_out_afresh() -> None:
    pieces = (
        Piece("forest", 40, 40, 60, 60),
        Piece("building", 10, 70, 30, 90, (("south", "door"),), 2),
        Piece("wall", 5, 30, 35, 31),
        Piece("ruins", 60, 10, 75, 20),
        Piece("river", 0, 45, 100, 50),
    )
    rng = random.Random(4)
    table = Table(100.0, 100.0, pieces)
    points = [(round(rng.uniform(0, 100), 1), round(rng.uniform(0, 100), 1)) for _ in range(60)]
    covered = 0
    for _ in range(2):  # the second time from memory
        for a in points:
            for b in points:
                assert table.in_cover(a, b) == table._in_cover(a, b), (a, b)
                covered += table.in_cover(a, b)
    assert 100 < covered < 2 * 60 * 60  # some lines in cover, not all


def _plain_fire(ai: TacticsAI, g: FFTTGame, player: str) -> Action:
    """`TacticsAI._fire` with every candidate scored on its own."""
    s = g.state
    ranked = []
    for n, a in enumerate(g.candidates(player)):
        score = ai._fire_score(s, player, a)
        if score is not None and score > 0.05:
            ranked.append((-score, n, a))
    ranked.sort(key=lambda r: (r[0], r[1]))
    for _, _, a in ranked:
        if g.check(a, player) is not None:
            continue
        if isinstance(a, Lob) and g.check(Shoot(a.figure, a.target), player) is None:
            continue
        return a
    return Done()


def test_the_firing_choice_with_support_worked_out_once_is_the_plain_one() -> None:
    ruleset = registry.get("fftt")
    compared = supports = 0
    for seed in range(3):
        g = ruleset.new_game(ruleset.load_scenario("marines-vs-insectoids-generals"), seed)
        assert isinstance(g, FFTTGame)
        agents = {"red": TacticsAI(seed), "blue": TacticsAI(seed + 7)}
        while isinstance(g.pending, Decision):
            player = g.pending.player
            if g.state.stage in ("light", "general"):
                chosen = agents[player].choose(g, player)
                assert chosen == _plain_fire(agents[player], g, player)
                compared += 1
                supports += isinstance(chosen, CallSupport)
            else:
                chosen = agents[player].choose(g, player)
            g.apply(chosen, player)
    assert compared >= 50
    assert supports >= 3


def test_the_building_at_a_point_is_the_first_listed_holding_it() -> None:
    pieces = (
        Piece("forest", 0, 0, 50, 50),
        Piece("building", 10, 10, 30, 30, (("south", "door"),)),
        Piece("vehicle", 20, 20, 25, 30),
        Piece("building", 25, 25, 45, 40, (("north", "door"),), 2),  # overlaps the first
    )
    table = Table(60.0, 60.0, pieces)
    rng = random.Random(6)
    found = set()
    for _ in range(3_000):
        p = (round(rng.uniform(0, 60), 1), float(rng.randint(0, 60)))
        want = next((pc for pc in pieces if pc.kind == "building" and pc.contains(p)), None)
        assert table.building_at(p) is want, p
        found.add(want)
    assert found == {None, pieces[1], pieces[3]}


def test_the_firing_steps_test_of_more_than_done_is_every_candidate_tested(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`FFTTGame._can_fire` (figure by figure, its aims kept per layout) answers as testing
    every candidate of the step with `_illegal`, at each time the game asks it, in battles
    with bombs, lobs, support calls and a layout changed by light firing."""
    ruleset = registry.get("fftt")
    asked = {True: 0, False: 0}
    plain_can_fire = FFTTGame._can_fire

    def compared(g: FFTTGame, player: str) -> bool:
        found = plain_can_fire(g, player)
        assert found == any(not isinstance(a, Done) for a in g._options(player))
        asked[found] += 1
        return found

    monkeypatch.setattr(FFTTGame, "_can_fire", compared)
    for scenario in ("marines-vs-insectoids-generals", "behind-the-screen"):
        for seed in range(3):
            g = ruleset.new_game(ruleset.load_scenario(scenario), seed)
            assert isinstance(g, FFTTGame)
            agents = {"red": TacticsAI(seed), "blue": TacticsAI(seed + 7)}
            while isinstance(g.pending, Decision):
                player = g.pending.player
                g.apply(agents[player].choose(g, player), player)
    assert asked[True] >= 50
    assert asked[False] >= 50


def test_the_kept_decision_is_the_one_worked_out_afresh() -> None:
    """`FFTTGame.pending`, kept for its stage, player, turn and phase, is at every step of
    AI battles the decision made afresh from the state (and after a state put back)."""
    ruleset = registry.get("fftt")
    compared = 0
    for seed in range(2):
        g = ruleset.new_game(ruleset.load_scenario("behind-the-screen"), seed)
        assert isinstance(g, FFTTGame)
        agents = {"red": TacticsAI(seed), "blue": TacticsAI(seed + 7)}
        while isinstance(g.pending, Decision):
            s = g.state
            where = f"turn {s.turn}, phase {s.phase}: " if s.turn else ""
            want = Decision(s.player, s.stage, f"{s.player}, {where}{PROMPTS[s.stage]}")
            assert g.pending == want
            compared += 1
            player = g.pending.player
            g.apply(agents[player].choose(g, player), player)
    assert compared >= 200
