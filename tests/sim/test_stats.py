"""Wilson intervals against published figures; the 50% crossing on synthetic data."""

from __future__ import annotations

import numpy as np
import pytest

from warbench.sim.balance import parse_range
from warbench.sim.stats import crossing, wilson


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombe(successes: int, trials: int, low: float, high: float) -> None:
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_is_symmetric_and_takes_half_wins() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high)
    assert wilson(2.5, 5) == pytest.approx(wilson(5, 10), abs=0.2)  # a draw as half a win
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="successes <= trials"):
        wilson(11, 10)


def test_crossing_finds_the_synthetic_midpoint() -> None:
    rng = np.random.default_rng(5)
    values = np.arange(1.0, 3.01, 0.25)
    trials = 400
    true = 1.7
    wins = rng.binomial(trials, 1 / (1 + np.exp(-3 * (values - true))))
    found = crossing(list(values), list(wins), [trials] * len(values))
    assert found is not None and found.inside
    assert found.low < true < found.high
    assert abs(found.estimate - true) < 0.1
    assert found.high - found.low < 0.2


def test_crossing_interpolates_perfectly_separated_points() -> None:
    found = crossing([1, 2, 3, 4], [0, 0, 10, 10], [10, 10, 10, 10])
    assert found is not None
    assert (found.estimate, found.low, found.high) == pytest.approx((2.5, 2.0, 3.0))


def test_a_crossing_beyond_the_range_is_marked_as_outside() -> None:
    found = crossing([1, 2, 3], [0, 1, 2], [20, 20, 20])
    assert found is not None and not found.inside and found.estimate > 3
    assert crossing([1, 2, 3], [0, 0, 0], [10, 10, 10]) is None


def test_parse_range_is_inclusive_and_checked() -> None:
    assert parse_range("1:2:0.25") == [1.0, 1.25, 1.5, 1.75, 2.0]
    assert parse_range("3:3:1") == [3.0]
    with pytest.raises(ValueError, match="A:B:STEP"):
        parse_range("1:2")
    with pytest.raises(ValueError, match="STEP > 0"):
        parse_range("2:1:1")
