"""The compiled danger and place terms (`order_terms.order_values`) are the AI's Python
ones (`SkirmishAI._danger_at` and `_Orders.place`, summed as `_order_value` sums them) to
the last bit, on contexts hypothesis makes up on the combined-arms table (its buildings,
woods, walls and hedges): any enemy men, weapons, wounds, grenades and jams, friends near
and far, a leader, friendly AFVs, enemy AFVs and guns, a goal or none, places anywhere on
the table, standing or prone, moving fast or not, with any fire."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.core import registry
from warbench.core.geometry import turn_between
from warbench.rulesets.tftww2.ai import _COVER, SkirmishAI, _arm, _hit_value, _Orders
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.order_terms import order_values, pivot_fire
from warbench.rulesets.tftww2.profiles import weapon_profile

WEAPONS = ["Rifle", "Automatic Rifle", "Pistol", "SMG", "LMG", "HMG"]


@cache
def _game() -> TFTGame:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("combined-arms"), 1)
    assert isinstance(game, TFTGame)
    return game


def _coord(limit: float) -> st.SearchStrategy[float]:
    return st.floats(min_value=0.0, max_value=limit).map(lambda v: round(v, 2))


xs, ys = _coord(72.0), _coord(48.0)
points = st.tuples(xs, ys)
threats = st.tuples(
    points,
    st.sampled_from(WEAPONS),
    st.sampled_from(["Private", "NCO", "CO"]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
tanks = st.tuples(points, st.one_of(st.none(), st.floats(0.0, 359.0)))


@st.composite
def contexts(draw: st.DrawFn) -> _Orders:
    rows = [
        (x, y, *_arm(weapon, rank, wounded, grenades, jammed))
        for (x, y), weapon, rank, wounded, grenades, jammed in draw(st.lists(threats, max_size=8))
    ]
    goal = draw(st.one_of(st.none(), points))
    return _Orders(
        weapon=weapon_profile(draw(st.sampled_from(WEAPONS))),
        enemies=[],
        seen=[],
        threat_rows=rows,
        tanks=[(x, y, arc) for (x, y), arc in draw(st.lists(tanks, max_size=2))],
        goal=goal,
        leader=draw(st.one_of(st.none(), points)),
        friends_afv=draw(st.lists(points, max_size=2)),
        friends=draw(st.lists(points, max_size=10)),
        spread=draw(st.sampled_from([4.5, 6.5])),
        cover=_COVER,
        weight=draw(st.sampled_from([0.08, 0.25])),
        before=draw(st.floats(0.0, 90.0)) if goal is not None else 0.0,
    )


orders = st.tuples(points, st.booleans(), st.floats(0.0, 12.0), st.floats(-1.0, 3.0))


@given(contexts(), st.lists(orders, min_size=1, max_size=12))
@settings(max_examples=400, deadline=None)
def test_the_compiled_terms_are_the_python_terms_to_the_last_bit(
    context: _Orders, queries: list[tuple[tuple[float, float], bool, float, float]]
) -> None:
    game = _game()
    man = next(iter(game.state.men.values()))
    spots: dict[tuple[float, float], int] = {}
    places: list[float] = []
    rows: list[float] = []
    expected = []
    for (x, y), prone, moved, fire in queries:
        if (x, y) not in spots:
            spots[(x, y)] = len(spots)
            places.extend(context.ground(game, x, y))
        rows.extend((float(spots[(x, y)]), float(prone), float(moved > 6), fire))
        danger = SkirmishAI._danger_at(game, man, context, x, y, prone, moved)
        value = 3.0 + 3.0 * fire - 2.0 * danger
        gain, costs = context.place(x, y)
        if gain is not None:
            value += gain
        for cost in costs:
            value -= cost
        expected.append(value)
    found = order_values(*context.arrays(), np.array(places + rows), len(spots))
    assert found.tolist() == expected


angles = st.floats(0.0, 359.99)


@given(
    st.lists(st.tuples(angles, st.floats(0.0, 1.0)), max_size=10),
    angles,
    st.sampled_from(WEAPONS),
)
@settings(max_examples=400, deadline=None)
def test_the_compiled_fire_of_each_pivot_is_the_python_fire_to_the_last_bit(
    sighted: list[tuple[float, float]], facing: float, weapon_name: str
) -> None:
    """`pivot_fire` against `_order_value`'s pivot: the best chance among the men seen
    within 80° of the new facing (`turn_between`), times the shots and a hit's worth, less
    the turn over 720, for the eight facings and odd ones."""
    weapon = weapon_profile(weapon_name)
    turns = [float(a) for a in range(0, 360, 45)] + [facing, (facing + 80.0) % 360.0]
    expected = []
    for turn in turns:
        arc = [chance for heading, chance in sighted if turn_between(turn, heading) <= 80]
        fire = max(arc) * min(weapon.shots, 3) * _hit_value(weapon) if arc else 0.0
        expected.append(fire - turn_between(facing, turn) / 720)
    found = pivot_fire(
        np.array([h for h, _ in sighted], dtype=np.float64).reshape(-1),
        np.array([c for _, c in sighted], dtype=np.float64).reshape(-1),
        np.array(turns),
        facing,
        min(weapon.shots, 3),
        _hit_value(weapon),
    )
    assert found.tolist() == expected
