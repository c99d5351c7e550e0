"""The compiled `hypot` is CPython's `math.hypot` to the last bit: on any two floats
(hypothesis: NaN, infinities, subnormals, the largest and smallest), on Pythagorean triples
(exact answers, where a last-bit slip shows), on the table's distances (differences of
coordinates rounded to the hundredth, as the AI's walks end) and on a million seeded pairs of
every magnitude."""

from __future__ import annotations

import math

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from warbench.core.hypot import hypot


def _same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


@given(st.floats(), st.floats())
@settings(max_examples=3000, deadline=None)
def test_any_two_floats(a: float, b: float) -> None:
    assert _same(hypot(a, b), math.hypot(a, b))


@given(
    st.floats(min_value=-100, max_value=100).map(lambda v: round(v, 2)),
    st.floats(min_value=-100, max_value=100).map(lambda v: round(v, 2)),
    st.floats(min_value=-100, max_value=100).map(lambda v: round(v, 2)),
    st.floats(min_value=-100, max_value=100).map(lambda v: round(v, 2)),
)
@settings(max_examples=3000, deadline=None)
def test_distances_on_the_table(ax: float, ay: float, bx: float, by: float) -> None:
    assert hypot(ax - bx, ay - by) == math.hypot(ax - bx, ay - by)


@given(
    st.integers(1, 10**6),
    st.sampled_from([(3, 4), (5, 12), (8, 15), (7, 24), (20, 21), (9, 40)]),
    st.integers(-60, 60),
)
@settings(max_examples=2000, deadline=None)
def test_pythagorean_triples(k: int, legs: tuple[int, int], power: int) -> None:
    a, b = legs[0] * k * 2.0**power / 100, legs[1] * k * 2.0**power / 100
    for x, y in ((a, b), (b, -a), (-a, -b), (a * 0.01, b * 0.01)):
        assert hypot(x, y) == math.hypot(x, y)


@numba.njit(cache=False)
def _hypots(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    out = np.empty(a.size)
    for i in range(a.size):
        out[i] = hypot(a[i], b[i])
    return out


def test_a_million_seeded_pairs_of_every_magnitude() -> None:
    rng = np.random.default_rng(7)
    n = 250_000
    bits = rng.integers(0, 2**64, 2 * n, dtype=np.uint64).view(np.float64)
    pairs = [
        (rng.uniform(-100, 100, n), rng.uniform(-100, 100, n)),  # the table
        (bits[:n], bits[n:]),  # any bits at all
        (rng.uniform(0, 1, n), rng.uniform(0, 1, n) * 10.0 ** rng.integers(-300, 300, n)),
        (rng.integers(0, 2**52, n, dtype=np.uint64).view(np.float64), rng.uniform(0, 1e-300, n)),
    ]
    for a, b in pairs:
        found = _hypots(a, b).tolist()
        for x, y, got in zip(a.tolist(), b.tolist(), found, strict=True):
            assert _same(got, math.hypot(x, y)), (x, y)
