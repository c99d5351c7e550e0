"""Sight lines judged many at once (sightlines.py, `Battlefield.can_see_all`, `sees_pairs`,
`can_see`'s batch of one) give exactly the verdicts of the one-line code (`Battlefield._sees`),
corners and edges included."""

from __future__ import annotations

import random

import numpy as np

from warbench.core.dice import SeededDice
from warbench.rulesets.fft3 import sightlines
from warbench.rulesets.fft3.battlefield import Battlefield, Point, from_data, generate

TOUCHING = [
    {"kind": "woods", "polygon": [[10, 10], [20, 10], [20, 20], [10, 20]]},
    {"kind": "town", "polygon": [[20, 12], [24, 12], [24, 18], [20, 18]]},  # shares an edge
    {"kind": "rough", "polygon": [[40, 10], [46, 16], [40, 22], [34, 16]]},
]


def _pairs(field: Battlefield, rng: random.Random) -> list[tuple[Point, float, Point, float]]:
    """Places anywhere, on corners of the terrain and half an inch off them."""
    corners = [(x, y) for p in field.pieces for x, y in p.area.exterior.coords]
    places: list[Point] = []
    for _ in range(150):
        pick = rng.random()
        x, y = rng.choice(corners)
        if pick < 0.15:
            places.append((x, y))
        elif pick < 0.3:
            places.append((x + rng.choice((-0.5, 0.5)), y))
        else:
            places.append((round(rng.uniform(0, 72), 2), round(rng.uniform(0, 48), 2)))
    radii = (0.0, 0.375, 0.625, 1.0)
    return [
        (rng.choice(places), rng.choice(radii), rng.choice(places), rng.choice(radii))
        for _ in range(1500)
    ]


def test_many_at_once_agree_with_the_exact_code() -> None:
    """`can_see_all`, `sees_pairs` and `can_see` (which asks the batch of one first) against
    the exact one-line code."""
    rng = random.Random(3)
    fields = [generate(SeededDice(seed)) for seed in range(6)] + [from_data(TOUCHING, 72, 48)]
    for field in fields:
        pairs = _pairs(field, rng)
        exact = [field._sees(*pair) for pair in pairs]
        batch = Battlefield(field.width, field.depth, field.pieces).can_see_all(pairs)
        assert batch == exact
        for radius in (0.0, 0.375, 0.625):  # one base size a batch, as the AI asks
            px = np.array([a[0] for a, _, _, _ in pairs])
            py = np.array([a[1] for a, _, _, _ in pairs])
            foes = (
                np.array([b[0] for _, _, b, _ in pairs]),
                np.array([b[1] for _, _, b, _ in pairs]),
                np.array([rb for _, _, _, rb in pairs]),
            )
            near = (np.arange(len(pairs)), np.arange(len(pairs))[::-1].copy())
            fresh = Battlefield(field.width, field.depth, field.pieces)
            got = fresh.sees_pairs(px, py, radius, foes, near).tolist()
            want = [
                field._sees(pairs[i][0], radius, pairs[j][2], pairs[j][3])
                for i, j in zip(*near, strict=True)
            ]
            assert got == want
        fresh = Battlefield(field.width, field.depth, field.pieces)
        assert [fresh.can_see(*pair) for pair in pairs] == exact


def test_the_batch_is_sure_of_clear_cut_lines_and_leaves_the_rest() -> None:
    field = from_data(TOUCHING, 72, 48)
    areas = field._sight_arrays
    a = np.array([(5, 11), (15, 5), (15, 15), (19.5, 15), (20, 15), (30, 15)], dtype=float)
    b = np.array([(30, 11), (15, 30), (16, 15), (30, 15), (30, 15), (36, 15)], dtype=float)
    got = areas.verdicts(a, b, 2 + 1e-9).tolist()
    # through the wood (south of the town); across it; 1" apart in it; out of the wood's
    # edge across the touching town (merged: unsure); from the shared edge (unsure); 1" into
    # the rough
    assert got == [
        sightlines.BLOCKED,
        sightlines.BLOCKED,
        sightlines.CLEAR,
        sightlines.UNSURE,
        sightlines.UNSURE,
        sightlines.CLEAR,
    ]


def test_a_sure_block_by_an_area_that_touches_none_outweighs_doubts_elsewhere() -> None:
    """`_line` stops at an area that blocks beyond doubt and touches no other: a line from a
    corner of the town (a doubt the batch would leave to the exact code) through the middle
    of the rough is BLOCKED, as the exact code has it; through the wood and the town that
    touch it, the doubt stays."""
    field = from_data(TOUCHING, 72, 48)
    areas = field._sight_arrays
    a = np.array([(24, 12), (5, 12)], dtype=float)
    b = np.array([(50, 16), (24, 18)], dtype=float)
    assert areas.verdicts(a, b, 2 + 1e-9).tolist() == [sightlines.BLOCKED, sightlines.UNSURE]
    assert not field._sees((24, 12), 0.0, (50, 16), 0.0)
