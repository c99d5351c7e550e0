"""A faster `random.Random.shuffle` for the AIs' tie-breaking, draw for draw the same."""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def shuffle(rng: random.Random, items: list[T]) -> None:
    """`rng.shuffle(items)`: the same draws and the same order (CPython's Fisher–Yates over
    `getrandbits`, rejecting draws past the range), without two Python calls per item."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
