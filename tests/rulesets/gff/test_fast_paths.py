"""The tenth, eleventh and thirteenth passes' compiled and reordered paths, each held to the
Python it stands for."""

from __future__ import annotations

import dataclasses
import math
import random

import numpy as np
import pytest

from tests.rulesets.gff.position import profile, unit
from tests.rulesets.gff.seeded_games import activations
from warbench.ai.shuffle import shuffle
from warbench.core.actions import Action
from warbench.core.game import Decision
from warbench.core.geometry import edge_distance
from warbench.rulesets.gff import kernels, melee, movement
from warbench.rulesets.gff.actions import Advance, Rush
from warbench.rulesets.gff.ai import FirefightAI
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight
from warbench.rulesets.gff.state import Unit


def _charges(seed: int, count: int) -> list[tuple[object, object, float]]:
    """Seeded charges of round-based units: scattered, and in exact ties (a unit square on to
    another, models on a grid), overlapping, touching, and from far away."""
    rng = random.Random(seed)
    cases: list[tuple[object, object, float]] = []
    for n in range(count):
        mine = profile(size=rng.randint(1, 10), base=rng.choice([1.0, 1.26, 1.57, 2.0]))
        theirs = profile(size=rng.randint(1, 10), base=rng.choice([1.0, 1.26, 1.57, 2.0]))
        ax, ay = rng.uniform(4, 44), rng.uniform(4, 44)
        if n % 4 == 0:  # on a grid: ties by symmetry
            bx, by = ax + rng.choice([-1, 0, 1]) * rng.randint(0, 12), ay + rng.randint(2, 14)
        elif n % 4 == 1:  # touching or overlapping
            bx, by = ax + rng.uniform(-2, 2), ay + rng.uniform(-2, 2)
        else:
            bx, by = ax + rng.uniform(-16, 16), ay + rng.uniform(-16, 16)
        cases.append(
            (
                unit("r1", mine, (ax, ay)),
                unit("b1", theirs, (bx, by)),
                rng.choice([0.0, 6.0, 12.0, 14.0]),
            )
        )
    return cases


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_compiled_contact_vectors_are_the_exact_ones(seed: int) -> None:
    """`contact_vector` (compiled, asking Python near a hair of contact) gives every seeded
    charge the very vector of `exact_contact_vector`, ties and overlaps included."""
    cases = _charges(seed, 400)
    got = [movement.contact_vector(a, b, reach) for a, b, reach in cases]  # type: ignore[arg-type]
    want = [movement.exact_contact_vector(a, b, reach) for a, b, reach in cases]  # type: ignore[arg-type]
    assert got == want
    assert sum(v is not None for v in got) > 100


def test_compiled_contact_asks_python_on_ties_and_hairs() -> None:
    """The kernels leave to Python what their square root might order or judge otherwise:
    two pairs equally near, and a step that ends within `CLOSE` of contact."""
    import numpy as np

    ours = np.array([[0.0, 0.0], [2.0, 0.0]])
    yours = np.array([[1.0, 5.0]])
    halves = np.full((2, 1), 1.0)
    assert kernels.nearest_pair(ours, yours, halves) == kernels.ASK
    assert kernels.nearest_pair(ours[:1], yours, halves[:1]) == 0
    one = np.array([[0.0, 0.0]])
    assert np.isnan(kernels.contact_steps(one, np.array([[0.0, 3.0]]), halves[:1], 0.0, 1.0, 6.0))
    assert kernels.contact_steps(one, np.array([[0.0, 3.1]]), halves[:1], 0.0, 1.0, 6.0) > 2.0
    assert kernels.contact_steps(one, np.array([[0.0, 30.0]]), halves[:1], 0.0, 1.0, 6.0) == -1.0


def _ranked_by_shuffling_the_actions(
    agent: FirefightAI, game: GFFGame, player: str, rng: random.Random
) -> list[Action]:
    """The legal actions best first as the AI ranked them before the tenth pass: the listed
    actions themselves shuffled, then sorted by score (stable)."""
    with game.listing():
        agent._memo, agent._free, agent._where = {}, {}, {}
        actions = game.candidates(player)
        scores = agent._scores(game, player, actions)
        pairs = list(enumerate(actions))
        shuffle(rng, pairs)
        keys = [-scores[n] for n, _ in pairs]
        ranked = [pairs[n][1] for n in sorted(range(len(pairs)), key=keys.__getitem__)]
        return [a for a in ranked if game.legal_now(a, player)]


def test_shuffling_places_ranks_as_shuffling_the_actions() -> None:
    """`FirefightAI.ranked` (scores in the listed order, ties by a shuffle of the places)
    gives every seeded decision the very order of shuffling the actions, from the same
    draws; and the listed actions made once (`GFFGame._action`) equal freshly made ones."""
    ruleset = GrimdarkFutureFirefight()
    checked = 0
    for seed in (4, 5):
        game = ruleset.new_game(ruleset.load_scenario("skirmish"), seed)
        assert isinstance(game, GFFGame)
        agents = {p: FirefightAI(seed * 2 + n) for n, p in enumerate(ruleset.players)}
        while isinstance(game.pending, Decision):
            player = game.pending.player
            agent = agents[player]
            rng = random.Random()
            rng.setstate(agent._rng.getstate())
            got = agent.ranked(game, player)
            assert got == _ranked_by_shuffling_the_actions(FirefightAI(0), game, player, rng)
            assert agent._rng.getstate() == rng.getstate()
            for action in game.candidates(player):
                fields = [getattr(action, f.name) for f in dataclasses.fields(action)]
                assert type(action)(*fields) == action
            checked += 1
            game.apply(got[0], player)
    assert checked > 100


def test_unmade_moves_are_the_listed_ones() -> None:
    """`candidates_unmade` leaves just the sampled Advance and Rush None, and `move_at` makes
    each the very move `candidates` lists there, at every activation of seeded games."""
    made = 0
    for game, _, player in activations((1, 2)):
        with game.listing():
            unmade = game.candidates_unmade(player)
            moves = [game.move_at(n) if a is None else a for n, a in enumerate(unmade)]
            listed = game.candidates(player)
        assert moves == listed
        assert [a is None for a in unmade] == [isinstance(a, Advance | Rush) for a in listed]
        made += unmade.count(None)
    assert made > 1000


def _numpy_unit_gaps(
    ours: np.ndarray, theirs: np.ndarray, vectors: np.ndarray, low: float, high: float
) -> tuple[np.ndarray, np.ndarray]:
    """The numpy `screen_block_moves` had before `kernels.unit_gaps` (the tenth pass's)."""
    ends = ours[None, :, :2] + vectors[:, None, :]  # K × n × 2
    apart = np.hypot(
        ends[:, :, None, 0] - theirs[None, None, :, 0],
        ends[:, :, None, 1] - theirs[None, None, :, 1],
    )
    gaps = apart - (ours[None, :, None, 2] + theirs[None, None, :, 2]) / 2
    return (gaps > high).all(axis=(1, 2)), (gaps < low).any(axis=(1, 2))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_compiled_unit_gaps_are_numpys(seed: int) -> None:
    """`kernels.unit_gaps` gives every seeded move the numpy's verdicts: scattered units,
    and moves that end a base exactly 1" (the limit) or a hair either side of it from an
    obstacle on a grid."""
    rng = np.random.default_rng(seed)
    low, high = movement.UNIT_GAP - movement.EPS - 1e-9, movement.UNIT_GAP - movement.EPS + 1e-9
    limit = movement.UNIT_GAP - movement.EPS
    for n in range(300):
        size = float(rng.choice([1.0, 1.26, 2.0]))
        mine, others, moves = rng.integers(1, 8), rng.integers(1, 12), rng.integers(1, 40)
        ours = np.column_stack([rng.uniform(10, 20, (mine, 2)), np.full(mine, size)])
        theirs = np.column_stack([rng.uniform(5, 25, (others, 2)), np.ones(others)])
        vectors = rng.uniform(-6, 6, (moves, 2))
        if n % 2:  # the first base ends on the limit, or a hair off it, from an obstacle
            theirs[0, :2] = np.round(ours[0, :2] * 4) / 4
            ours[0, :2] = theirs[0, :2] - (0.0, size / 2 + 0.5 + limit)
            hairs = [-2e-9, -1e-9, -5e-10, 0.0, 5e-10, 1e-9, 2e-9]
            vectors[::3, 0] = 0.0
            vectors[::3, 1] = rng.choice(hairs, len(vectors[::3]))
        got = kernels.unit_gaps(ours, theirs, vectors, low, high)
        want = _numpy_unit_gaps(ours, theirs, vectors, low, high)
        assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()


def _strikers_by_bases(mine: Unit, theirs: Unit) -> list[int]:
    """`melee.strikers` as it was before the thirteenth pass: `edge_distance` of the bases."""
    size, other = mine.profile.base, theirs.profile.base
    return [
        i
        for i, m in enumerate(mine.models)
        if any(
            edge_distance(m.base(size), t.base(other)) <= melee.STRIKE_REACH + 1e-9
            and abs(m.z - t.z) <= melee.STRIKE_HEIGHT + 1e-9
            for t in theirs.models
        )
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strikers_are_those_of_the_bases(seed: int) -> None:
    """`melee.strikers` (the round bases measured without making them) picks the models of
    `edge_distance`: scattered units, units in base contact, and models on a grid exactly
    2" apart edge to edge or a hair either side of it, on and off the ground."""
    rng = random.Random(seed)
    struck = 0
    for n in range(400):
        mine = profile(size=rng.randint(1, 10), base=rng.choice([1.0, 1.26, 1.57, 2.0]))
        yours = profile(size=rng.randint(1, 10), base=rng.choice([1.0, 1.26, 1.57, 2.0]))
        ax, ay = rng.uniform(4, 44), rng.uniform(4, 44)
        a = unit("r1", mine, (ax, ay))
        if n % 2:  # the first models exactly at the reach, or a hair off it
            gap = melee.STRIKE_REACH + rng.choice([-1e-9, 0.0, 1e-9, 2e-9, 1e-12])
            bx = a.models[0].x + (mine.base + yours.base) / 2 + gap
            b = unit("b1", yours, (bx, a.models[0].y))
            b.models[0].x, b.models[0].y = bx, a.models[0].y
        else:
            b = unit("b1", yours, (ax + rng.uniform(-8, 8), ay + rng.uniform(-8, 8)))
        for model in b.models:
            model.z = rng.choice([0.0, 0.0, 3.0, 4.0, 5.0])
        assert melee.strikers(a, b) == _strikers_by_bases(a, b)
        assert melee.strikers(b, a) == _strikers_by_bases(b, a)
        struck += bool(melee.strikers(a, b))
    assert struck > 100


def test_free_markers_of_a_side_at_once_are_each_units() -> None:
    """`FirefightAI._free_markers` (every unit of a side at once, who takes each marker
    found once) gives each unit the markers of the per-unit form it replaced, at every
    activation of seeded AI games."""
    checked = 0
    for game, _, player in activations((1, 2)):
        markers = game.state.markers
        for member in game.state.side_units(player):
            friends = [u.centre() for u in game.state.side_units(player) if u is not member]
            free = [
                m
                for m in markers
                if m.owner != player
                and not any(math.hypot(x - m.x, y - m.y) <= 3.0 for x, y in friends)
            ]
            want = free or [m for m in markers if m.owner != player] or markers
            got = FirefightAI(0)._free_markers(game, member)[member.id]
            assert [id(m) for m in got] == [id(m) for m in want]
            checked += 1
    assert checked > 100
