"""The compiled bounds of the AI's moves, kept from one decision to the next
(`move_choice.Bounds`, `move_bounds.pair_bounds`), against numpy's `score_bounds` worked
out afresh at every decision, and the choice made with them against the choice without."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from warbench.rulesets.fftt.move_bounds import pair_bounds
from warbench.rulesets.fftt.move_choice import (
    Bounds,
    Exact,
    _key_bounds,
    _pair_bounds,
    best_move,
    score_bounds,
)
from warbench.rulesets.fftt.state import Fig, other
from warbench.rulesets.fftt.table import BORDER, Piece, Point, Table, dist

from .test_move_choice import SCENARIOS, _context, _decisions, _scorer


@pytest.mark.parametrize("scenario", SCENARIOS[:3])
def test_kept_bounds_are_numpys_bounds_at_every_decision(scenario: str) -> None:
    kept = Bounds()
    compared = spent = 0
    for g, ai in _decisions(scenario, 5, 60):
        movers, nearest, spots = _context(g, ai)
        enemy = np.array(spots, dtype=float).reshape(-1, 2)
        for fig in movers:
            forms = g.move_forms(fig)
            if not forms:
                continue
            points = np.array([a.to for a, _ in forms] + [h.to for _, h in forms], dtype=float)
            owner = np.zeros(len(points), dtype=np.int64)
            bounds = score_bounds(g, [fig], owner, points, nearest, spots, [])
            want = np.maximum(bounds[: len(forms)], bounds[len(forms) :])
            got = kept.of(g, fig, points, nearest, enemy)
            assert got == want.tolist(), fig.id  # the same floats
            compared += len(forms)
            spent += sum(1 for b in got if math.isinf(b))
    assert compared >= 2_000
    assert spent >= 10


def test_the_kernel_on_made_up_figures_tables_and_points() -> None:
    """Random tables (cover, houses with and without an upper floor, overlapping), figures
    (armed or not, ranges missing for the unarmed), enemies and points, against numpy's
    arithmetic written out here as in `score_bounds`, with the table's many-point tests."""
    rng = np.random.default_rng(3)
    weights = np.array([0.6, 0.4, BORDER])
    kinds = ["forest", "building", "ruins", "river", "wall", "hill"]
    for _ in range(300):
        pieces = []
        for _ in range(int(rng.integers(0, 8))):
            x0, y0 = rng.uniform(0, 90, 2).round(1)
            kind = str(rng.choice(kinds))
            floors = int(rng.integers(1, 3)) if kind == "building" else 1
            pieces.append(Piece(kind, x0, y0, x0 + rng.uniform(3, 25), y0 + 10, (), floors))  # type: ignore[arg-type]
        table = Table(100.0, 100.0, tuple(pieces))
        n = int(rng.integers(1, 40))
        points = rng.uniform(0, 100, (2 * n, 2)).round(1)
        enemy = rng.uniform(0, 100, (int(rng.integers(1, 15)), 2))
        armed = bool(rng.random() < 0.7)
        pace = float(rng.choice([6.0, 8.0, 10.0, 15.0]))
        short, long = (15.0, 40.0) if armed else (np.nan, np.nan)
        x, y = rng.uniform(0, 100, 2)
        near = float(np.hypot(enemy[:, 0] - x, enemy[:, 1] - y).min())
        stride, ap = pace + float(rng.choice([0.0, 2.0])), float(rng.integers(1, 4))
        fig = np.array([pace, near, armed, short, long, x, y, stride, ap], dtype=float)
        then = np.hypot(points[:, 0:1] - enemy[:, 0], points[:, 1:2] - enemy[:, 1]).min(axis=1)
        shooting = np.where(near > short * 0.8, (near - then) / pace, 0.0)
        length = np.hypot(points[:, 0] - x, points[:, 1] - y)
        fewest = np.maximum(1.0, np.ceil(length / stride - 2e-6))
        spent = armed & (near < long + 2 * pace) & (ap - fewest < 1)
        upper = (then <= long) & table.upper_floor_at(points)
        cover = np.where(table.covered_at(points), 0.6, 0.0) + np.where(upper, 0.4, 0.0)
        score = np.where(armed, shooting + cover, (near - then) / pace * 2 + 0.0)
        want = np.where(spent, -np.inf, score)
        got = pair_bounds(points, table, enemy, fig, weights)
        assert got.tolist() == np.maximum(want[:n], want[n:]).tolist()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_choice_with_kept_bounds_is_the_choice_without(scenario: str) -> None:
    """Kept from one decision to the next (both sides', the exact scores too): the same
    choice, with fewer moves scored (but with key positions, R51)."""
    kept = Bounds()
    moved = 0
    asked = {"plain": 0, "kept": 0}
    for g, ai in _decisions(scenario, 8, 40):
        s = g.state
        movers, nearest, spots = _context(g, ai)
        assert spots == [e.pos for e in s.side_figs(other(s.player))]
        assert all(nearest[f.id] == min(dist(f.pos, p) for p in spots) for f in movers)
        exact = _scorer(ai, g, nearest, spots)
        plain = best_move(
            g, movers, nearest, spots, ai._keys, random.Random(5), _counted(exact, asked, "plain")
        )
        got = best_move(
            g,
            movers,
            nearest,
            spots,
            ai._keys,
            random.Random(5),
            _counted(exact, asked, "kept"),
            kept,
        )
        assert got == plain
        moved += got is not None
    assert moved >= 10
    if not ai._keys:  # with key positions the scores are asked afresh
        assert asked["kept"] < asked["plain"] * 0.8


def _counted(exact: Exact, asked: dict[str, int], name: str) -> Exact:
    """`exact`, counting its calls into `asked[name]`."""

    def score(fig: Fig, to: Point) -> float | None:
        asked[name] += 1
        return exact(fig, to)

    return score


def test_with_key_positions_the_kept_bounds_bound_numpys_from_above() -> None:
    """R51: the kept bounds plus the better key score of each form's two points
    (`_key_bounds`) are never below numpy's bound of the better point with its key score,
    and often equal to it."""
    kept = Bounds()
    compared = equal = 0
    for g, ai in _decisions("marines-vs-machina-relay", 5, 60):
        assert ai._keys
        movers, nearest, spots = _context(g, ai)
        enemy = np.array(spots, dtype=float).reshape(-1, 2)
        figs, points = [], []
        for fig in movers:
            mine = g.move_points(fig)
            if mine is not None and mine[0]:
                figs.append(fig)
                points.append(mine[2])
        if not figs:
            continue
        want = _pair_bounds(g, figs, points, nearest, spots, ai._keys)
        base = np.concatenate(
            [kept.of(g, f, p, nearest, enemy) for f, p in zip(figs, points, strict=True)]
        )
        got = base + _key_bounds(g, figs, points, ai._keys)
        assert (got >= want).all()
        compared += len(got)
        equal += int((got == want).sum())
    assert compared >= 2_000
    assert equal >= compared // 2
