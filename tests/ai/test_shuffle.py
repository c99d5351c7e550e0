"""`warbench.ai.shuffle` shuffles as `random.Random.shuffle` does."""

from __future__ import annotations

import random

from warbench.ai.shuffle import shuffle


def test_shuffle_matches_random() -> None:
    """The same order as `random.Random.shuffle`, and the generator left in the same state,
    for lists of every length up to 300 (the AIs' seeded games depend on it)."""
    for seed in range(5):
        ours, theirs = random.Random(seed), random.Random(seed)
        for length in range(300):
            items = list(range(length))
            expected = list(items)
            shuffle(ours, items)
            theirs.shuffle(expected)
            assert items == expected
        assert ours.getstate() == theirs.getstate()
