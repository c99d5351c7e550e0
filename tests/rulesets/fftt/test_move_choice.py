"""The AI's best-first choice of a move gives the answers of the plain code: numpy's score
bounds against `TacticsAI._move_score` (equal when the move is worth making, never below
it), the choice against testing and scoring every candidate with `route_problem`, the
untested forms against `figure_options`, the table's many-point tests against its one-point
tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.fftt import movement
from warbench.rulesets.fftt.actions import Move
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.move_choice import FLOOR, NOISE, Exact, best_move, score_bounds
from warbench.rulesets.fftt.state import Fig, other
from warbench.rulesets.fftt.table import Piece, Point, Table, dist

SCENARIOS = [
    "marines-vs-machina",
    "marines-vs-insectoids",
    "machina-vs-insectoids",
    "marines-vs-machina-relay",  # key positions (R51)
]


def _decisions(scenario: str, seed: int, limit: int) -> Iterator[tuple[FFTTGame, TacticsAI]]:
    """The first `limit` movement decisions of a seeded AI-v-AI battle with enemies in
    sight, each with the deciding AI (its key positions read)."""
    ruleset = registry.get("fftt")
    g = ruleset.new_game(ruleset.load_scenario(scenario), seed)
    assert isinstance(g, FFTTGame)
    agents = {"red": TacticsAI(seed), "blue": TacticsAI(seed + 1)}
    found = 0
    while isinstance(g.pending, Decision) and found < limit:
        player = g.pending.player
        s = g.state
        if s.stage == "move" and s.side_figs(other(player)):
            agent = agents[player]
            agent._keys = g.key_positions()
            yield g, agent
            found += 1
        g.apply(agents[player].choose(g, player), player)
    assert found == limit


def _context(g: FFTTGame, ai: TacticsAI) -> tuple[list[Fig], dict[str, float], list[Point]]:
    s = g.state
    enemies = s.side_figs(other(s.player))
    movers = ai.movers(s, s.side_figs(s.player), enemies)
    nearest = {f.id: min(dist(f.pos, e.pos) for e in enemies) for f in movers}
    return movers, nearest, [e.pos for e in enemies]


def _scorer(ai: TacticsAI, g: FFTTGame, nearest: dict[str, float], spots: list[Point]) -> Exact:
    def exact(fig: Fig, to: Point) -> float | None:
        return ai._move_score(g.state, fig, to, spots, nearest[fig.id])

    return exact


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_bounds_are_the_exact_scores_of_moves_worth_making(scenario: str) -> None:
    compared = spent = 0
    for g, ai in _decisions(scenario, 4, 40):
        s = g.state
        movers, nearest, spots = _context(g, ai)
        for fig in movers:
            forms = g.move_forms(fig)
            points = np.array([m.to for pair in forms for m in pair], dtype=float).reshape(-1, 2)
            owner = np.zeros(len(points), dtype=np.int64)
            bounds = score_bounds(g, [fig], owner, points, nearest, spots, ai._keys)
            for to, bound in zip(points.tolist(), bounds.tolist(), strict=True):
                exact = ai._move_score(s, fig, (to[0], to[1]), spots, nearest[fig.id])
                if exact is None:
                    spent += bound == -np.inf
                    continue
                assert bound == pytest.approx(exact, abs=1e-9), (fig.id, to)
                compared += 1
    assert compared >= 500
    assert spent >= 10  # the keep-an-action bound does rule moves out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_best_first_choice_is_the_best_of_all_legal_moves(scenario: str) -> None:
    moved = 0
    for g, ai in _decisions(scenario, 7, 30):
        s = g.state
        movers, nearest, spots = _context(g, ai)
        exact = _scorer(ai, g, nearest, spots)
        best: Move | None = None
        best_score, noise = FLOOR, random.Random(99)
        for fig in movers:
            for full, half in g.move_forms(fig):
                tie = noise.random() * NOISE
                form = next(
                    (m for m in (full, half) if movement.route_problem(s, fig, m.to) is None),
                    None,
                )
                score = None if form is None else exact(fig, form.to)
                if score is not None and score + tie > best_score:
                    best, best_score = form, score + tie
        got = best_move(g, movers, nearest, spots, ai._keys, random.Random(99), exact)
        assert got == best
        moved += best is not None
    assert moved >= 10


@pytest.mark.parametrize("scenario", SCENARIOS[:3])
def test_the_untested_forms_give_the_listed_moves(scenario: str) -> None:
    for g, _ in _decisions(scenario, 2, 25):
        s = g.state
        for fig in s.side_figs(s.player):
            listed: list[Move] = []
            forms = g.move_forms(fig)
            if forms:
                clear = g.move_tester(fig)
                for full, half in forms:
                    if clear(full.to):
                        listed.append(full)
                    elif clear(half.to):
                        listed.append(half)
            assert listed == g.figure_options((fig.id,), (Move,))


@pytest.mark.parametrize("scenario", SCENARIOS[:3])
def test_the_move_points_are_the_points_of_the_forms(scenario: str) -> None:
    """`move_points` (what the AI weighs) gives the destinations of `move_forms`, in its
    order, full and half, and the same rows as arrays, for every figure, healers too."""
    compared = 0
    for g, _ in _decisions(scenario, 3, 25):
        s = g.state
        for fig in s.side_figs(s.player):
            forms = g.move_forms(fig)
            spots = g.move_points(fig)
            if not forms:
                assert spots is None or not spots[0]
                continue
            assert spots is not None
            fulls, halves, rows = spots
            assert fulls == [a.to for a, _ in forms]
            assert halves == [h.to for _, h in forms]
            assert rows.tolist() == [list(p) for p in fulls + halves]
            compared += len(forms)
    assert compared >= 500


def test_the_tables_many_point_tests_are_its_one_point_tests() -> None:
    pieces = (
        Piece("forest", 40, 40, 60, 60),
        Piece("building", 10, 70, 30, 90, (("south", "door"),), 2),
        Piece("building", 70, 10, 90, 25, (("north", "door"),)),
        Piece("wall", 5, 30, 35, 31),
        Piece("river", 0, 45, 100, 50),
    )
    rng = random.Random(2)
    for table in (Table(100.0, 100.0, pieces), Table(100.0, 100.0, ())):
        points = [(float(rng.randint(0, 100)), round(rng.uniform(0, 100), 1)) for _ in range(500)]
        points += [(10.0, 80.0), (30.0, 71.5), (12.0, 88.0), (20.0, 80.0), (40.0, 40.0)]
        array = np.array(points, dtype=float)
        covered = table.covered_at(array).tolist()
        upper = table.upper_floor_at(array).tolist()
        for p, cover, high in zip(points, covered, upper, strict=True):
            assert cover == table.covered(p), p
            house = table.building_at(p)
            assert high == (house is not None and house.floors > 1 and house.near_edge(p)), p
