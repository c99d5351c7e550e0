"""The tenth pass's compiled and reordered paths, each held to the Python it stands for."""

from __future__ import annotations

import random

import pytest

from tests.rulesets.gff.position import profile, unit
from warbench.rulesets.gff import kernels, movement


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
