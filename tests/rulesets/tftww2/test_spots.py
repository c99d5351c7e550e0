"""The compiled free-spot test (`spots.free_spots`) answers as the Python test it stands for
(`movement._free_spots`, `blocked` less leaving an upper floor) on any spots and bases
hypothesis makes up on the building-assault table: on and off its edges, on, near and
just clear of other men's bases (a base's width apart to a hair)."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.core import registry
from warbench.rulesets.tftww2 import movement
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.spots import free_spots
from warbench.rulesets.tftww2.state import MAN_BASE


@cache
def _game() -> TFTGame:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("building-assault"), 1)
    assert isinstance(game, TFTGame)
    return game


spots = st.tuples(
    st.floats(-1.0, 80.0).map(lambda v: round(v, 2)),
    st.floats(-1.0, 50.0).map(lambda v: round(v, 2)),
)
# a base at a spot plus an offset of about a base's width: overlapping, touching or clear
offsets = st.tuples(st.floats(-1.2, 1.2), st.floats(-1.2, 1.2))


@given(st.lists(spots, min_size=1, max_size=20), st.lists(st.tuples(st.integers(0, 19), offsets)))
@settings(max_examples=300, deadline=None)
def test_the_compiled_free_spots_are_the_python_ones(
    ends: list[tuple[float, float]], near: list[tuple[int, tuple[float, float]]]
) -> None:
    game = _game()
    man = next(iter(game.state.men.values()))
    bases = [(ends[i % len(ends)][0] + dx, ends[i % len(ends)][1] + dy) for i, (dx, dy) in near]
    saved = {o.id: (o.x, o.y, o.floor) for o in game.state.men.values()}
    others = [o for o in game.state.men.values() if o is not man]
    try:
        for other in others:  # the men other than him stand on the bases (the rest aside)
            other.floor = 1
        for other, (x, y) in zip(others, bases, strict=False):
            other.x, other.y, other.floor = x, y, man.floor
        python = movement._free_spots(game, man)
        half = MAN_BASE / 2
        compiled = free_spots(
            np.array(ends, dtype=np.float64),
            np.array(bases[: len(others)], dtype=np.float64).reshape(-1, 2),
            game.table.width - half,
            game.table.depth - half,
        )
        assert compiled.tolist() == [python(x, y) for x, y in ends]
    finally:
        for other in game.state.men.values():
            other.x, other.y, other.floor = saved[other.id]
