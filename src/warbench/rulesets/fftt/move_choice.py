"""The AI's choice of a move in the movement step, best first: every candidate move of the
figures it would move is scored at once with numpy, as an upper bound of its exact score
(`TacticsAI._move_score`, which also keeps an action to fire); only the candidates whose
bound could beat the best found so far are tested for legality and scored exactly. The
choice is the one of testing and scoring every candidate: the first legal form (full reach,
else half reach) with the highest score above `FLOOR`."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from warbench.rulesets.fftt import move_bounds, victory
from warbench.rulesets.fftt.actions import Move
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.state import Fig, State
from warbench.rulesets.fftt.table import BORDER, Point, Points, dist, rows

FLOOR = 0.5  # a move must score more than this to be made (else the figure stays)
NOISE = 0.1  # the random tie-break: up to 0.1, one draw per candidate
COVER = 0.6  # ending in cover
KEY = 1.0  # R51: worth of a pace closer to a key position (as one closer to the enemy)
GUARD = 5.0  # R51: the only guard of its own key position does not leave it
HEIGHT = 0.4  # R50: worth of ending a move at the border of a house with an upper floor
SLACK = 1e-9  # numpy's sums may differ from Python's in the last bit
WEIGHTS = np.array([COVER, HEIGHT, BORDER], dtype=float)  # for the compiled `move_bounds`

Exact = Callable[[Fig, Point], float | None]
Scores = dict[Point, float | None]  # `Exact`'s scores of one figure's moves, by point
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class Bounds:
    """The bounds of each figure's moves kept from one decision to the next (a figure's
    moves and their bounds change only when it, or the enemy, moves), worked out by the
    compiled `move_bounds.pair_bounds`: per figure, the points of its forms
    (`FFTTGame.move_points`, the same array while it stands still), what the bounds depend
    on, and the better bound of each form's two points. Without key positions (R51), whose
    scores depend on where the rest of the side stands: `best_move` adds their better
    score of each form's two points afresh (`_key_bounds`). Kept with them: the exact
    scores of the points `best_move` scored (`TacticsAI._move_score` without key
    positions, which depends on what the bounds do, the floor and the open doors), about
    half of them asked again at a later decision."""

    def __init__(self) -> None:
        self._table: object = None
        self._kept: dict[str, tuple[Points, tuple[object, ...], list[float], Scores]] = {}

    def of(
        self, game: FFTTGame, fig: Fig, points: Points, now: dict[str, float], enemy: Points
    ) -> list[float]:
        """`score_bounds` of the forms' full and half points of `fig` (`points`: the full
        ones, then the half ones; the enemies standing at the rows of `enemy`), the better
        of each pair, as Python floats (`best_move` adds and sorts them in Python)."""
        s = game.state
        if s.table is not self._table:
            self._table, self._kept = s.table, {}
        prof = fig.prof
        row = (prof.move, now[fig.id], prof.armed, prof.short, prof.long, fig.x, fig.y)
        given = (*row, fig.pace, fig.ap, enemy.tobytes(), fig.level, fig.out_of_ammo, s.open_doors)
        kept = self._kept.get(fig.id)
        if kept is not None and kept[0] is points and kept[1] == given:
            return kept[2]
        found: list[float] = move_bounds.pair_bounds(
            points, s.table, enemy, np.array([*row, fig.pace, fig.ap], dtype=float), WEIGHTS
        ).tolist()
        self._kept[fig.id] = (points, given, found, {})
        return found

    def scored(self, fig: Fig) -> Scores:
        """The exact scores kept with the bounds `of` last gave for `fig`, by point."""
        return self._kept[fig.id][3]


def best_move(
    game: FFTTGame,
    movers: Sequence[Fig],
    now: dict[str, float],
    spots: Sequence[Point],
    keys: list[dict[str, Any]],
    rng: random.Random,
    exact: Exact,
    kept: Bounds | None = None,
) -> Move | None:
    """The best legal move of `movers` (`now`: each one's distance to the nearest enemy,
    standing at `spots`), or None if none scores above FLOOR. A tie-break up to NOISE is
    drawn from `rng` for every candidate, in the order `figure_options` lists them. `kept`:
    bounds and exact scores kept from earlier decisions of the same agent (`exact` the same
    scoring; asked afresh with key positions). Only the chosen move is made a `Move`: the
    others are weighed by their points (`FFTTGame.move_points`)."""
    figs: list[Fig] = []
    owner: list[int] = []  # of each form, its figure's place in `figs`
    fulls: list[Point] = []
    halves: list[Point] = []
    points: list[Points] = []  # each figure's, its full points then its half points
    parts: list[list[float]] = []
    scored: list[Scores] = []  # each figure's kept exact scores
    enemy: Points | None = None
    for fig in movers:
        mine = game.move_points(fig)
        if mine is None or not mine[0]:
            continue
        owner += [len(figs)] * len(mine[0])
        figs.append(fig)
        fulls += mine[0]
        halves += mine[1]
        points.append(mine[2])
        if kept is not None:
            if enemy is None:
                enemy = rows(spots)
            parts.append(kept.of(game, fig, mine[2], now, enemy))
            scored.append(kept.scored(fig))
    if not fulls:
        return None
    noise = [rng.random() * NOISE for _ in fulls]
    if not parts:
        paired = _pair_bounds(game, figs, points, now, spots, keys).tolist()
    elif keys:
        paired = (np.concatenate(parts) + _key_bounds(game, figs, points, keys)).tolist()
    else:
        paired = list(chain.from_iterable(parts))
    upper_at = [b + n + SLACK for b, n in zip(paired, noise, strict=True)]
    # best first, then in listing order (the sort is stable, reversed or not); a bound
    # below FLOOR would end the search (the best score is never below it): left unsorted
    hopeful = [i for i, u in enumerate(upper_at) if u >= FLOOR]
    order = sorted(hopeful, key=upper_at.__getitem__, reverse=True)
    testers: dict[str, Callable[[Point], bool]] = {}
    best: tuple[str, Point] | None = None
    best_score, best_at = FLOOR, -1
    for i in order:
        if upper_at[i] < best_score or (upper_at[i] == best_score and i >= best_at):
            break  # no candidate left can beat the best one
        fig = figs[owner[i]]
        clear = testers.get(fig.id)
        if clear is None:
            clear = testers[fig.id] = game.move_tester(fig)
        full, half = fulls[i], halves[i]
        to = full if clear(full) else half if clear(half) else None
        if to is None:
            continue
        if not scored or keys:  # R51's scores depend on where the side stands
            score = exact(fig, to)
        else:
            known = scored[owner[i]]
            if to not in known:
                known[to] = exact(fig, to)
            score = known[to]
        if score is None:
            continue
        total = score + noise[i]
        if total > best_score or (total == best_score and i < best_at):
            best, best_score, best_at = (fig.id, to), total, i
    return None if best is None else Move(*best)


def _pair_bounds(
    game: FFTTGame,
    figs: list[Fig],
    points: list[Points],
    now: dict[str, float],
    spots: Sequence[Point],
    keys: list[dict[str, Any]],
) -> Floats:
    """For each form (`points[n]`: `figs[n]`'s full points, then its half points), the
    better `score_bounds` of its full and half points."""
    owner, together = _stacked(points)
    bounds = score_bounds(game, figs, owner, together, now, spots, keys)
    n = len(owner) // 2
    paired: Floats = np.maximum(bounds[:n], bounds[n:])
    return paired


def _stacked(points: list[Points]) -> tuple[Ints, Points]:
    """The figures' full points, then their half points (`points[n]`: figure n's), and the
    figure of each."""
    counts = [len(p) // 2 for p in points]
    together = np.concatenate(
        [p[: len(p) // 2] for p in points] + [p[len(p) // 2 :] for p in points]
    )
    owner = np.repeat(np.arange(len(points)), counts)
    return np.concatenate([owner, owner]), together


def _key_bounds(
    game: FFTTGame, figs: list[Fig], points: list[Points], keys: list[dict[str, Any]]
) -> Floats:
    """For each form (as `_pair_bounds`), the better `key_scores` of its full and half
    points: added to the kept bounds without key positions, the better of each pair, it
    bounds their sums from above (`a + b <= max(a) + max(b)`, and rounding is monotone)."""
    owner, together = _stacked(points)
    scores = key_scores(game, figs, owner, together, keys)
    n = len(owner) // 2
    paired: Floats = np.maximum(scores[:n], scores[n:])
    return paired


def score_bounds(
    game: FFTTGame,
    figs: list[Fig],
    owner: Ints,
    points: Points,
    now: dict[str, float],
    spots: Sequence[Point],
    keys: list[dict[str, Any]],
) -> Floats:
    """For each point, the score `TacticsAI._move_score` gives the move there of its
    owner (`figs[owner]`) before the tie-break; an upper bound: as if the move kept an
    action to fire unless its length alone spends them (equal when the move is worth
    making), minus infinity if it does."""
    s = game.state
    rows = [
        (f.prof.move, now[f.id], f.prof.armed, f.prof.short, f.prof.long, f.x, f.y, f.pace, f.ap)
        for f in figs
    ]
    pace, near, armed_, short, long, xs, ys, stride, ap = np.array(rows, dtype=float)[owner].T
    armed = armed_ > 0
    enemy = np.array(spots, dtype=float)
    then = np.hypot(points[:, 0:1] - enemy[:, 0], points[:, 1:2] - enemy[:, 1]).min(axis=1)
    shooting = np.where(near > short * 0.8, (near - then) / pace, 0.0)
    # keep an action to fire: a move costs at least its length in paces (`actions_for`)
    length = np.hypot(points[:, 0] - xs, points[:, 1] - ys)
    fewest = np.maximum(1.0, np.ceil(length / stride - 2e-6))
    spent = armed & (near < long + 2 * pace) & (ap - fewest < 1)
    cover = np.where(s.table.covered_at(points), COVER, 0.0)
    cover = cover + np.where((then <= long) & s.table.upper_floor_at(points), HEIGHT, 0.0)
    charging = (near - then) / pace * 2
    score = np.where(armed, shooting + cover, charging + 0.0)
    if keys:
        score = score + key_scores(game, figs, owner, points, keys)
    return np.where(spent, -np.inf, score)


def key_scores(
    game: FFTTGame, figs: list[Fig], owner: Ints, points: Points, keys: list[dict[str, Any]]
) -> Floats:
    """R51, key positions, for each point the move there of its owner (`figs[owner]`):
    every fighting figure closes on the enemy's (more once on it); of the holder's own, the
    nearest goes to one nobody holds, and its only guard stays on it (`key_role`)."""
    s = game.state
    pace = np.array([f.prof.move for f in figs], dtype=float)[owner]
    xs = np.array([f.x for f in figs], dtype=float)[owner]
    ys = np.array([f.y for f in figs], dtype=float)[owner]
    total = np.zeros(len(points))
    for k in keys:
        at, radius = (k["at"][0], k["at"][1]), k["radius"]
        then = np.hypot(points[:, 0] - at[0], points[:, 1] - at[1])
        closer = KEY * (np.hypot(xs - at[0], ys - at[1]) - then) / pace
        on = then <= radius
        role = np.array([key_role(s, f, at, radius, k["holder"]) for f in figs])[owner]
        term = np.where(role == "attack", closer + np.where(on, KEY, 0.0), 0.0)
        term = np.where(role == "guard", np.where(on, 0.0, -GUARD), term)
        term = np.where(role == "take", closer, term)
        total = total + term
    return total


def key_role(s: State, fig: Fig, at: Point, radius: float, holder: str | None) -> str:
    """What a key position asks of `fig` (R51): attack it (the enemy's), guard it (its only
    guard), take it (the nearest of the holder's own to one nobody holds), or nothing."""
    if holder != fig.side:
        return "attack"
    mine = [f for f in s.side_figs(fig.side) if victory.fighting(f)]
    guards = [f for f in mine if dist((f.x, f.y), at) <= radius]
    if guards == [fig]:
        return "guard"
    if not guards and fig is min(mine, key=lambda f: (dist(f.pos, at), f.id)):
        return "take"
    return "none"
