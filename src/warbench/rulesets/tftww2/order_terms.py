"""The AI's danger and place terms of a man's orders, compiled with numba: the values
`SkirmishAI._order_scores` gives every walk, run, pivot, aim and change of position of one
man at once, each worked out as `SkirmishAI._order_value` works it out one order at a time
(`_danger_at`, then `_Orders.place`), operation by operation and in the same order, so to
the last bit; distances by CPython's own `math.hypot` (`hypot.hypot`).

What the Python side hands over (float64 arrays, flat where numpy would be slow to build
rows):

- `threats` (n, 7): each enemy man's x, y, longest reach, effective range, DEX, grenades
  (1/0) and jammed weapon (1/0), and `hits` (n, 19): his expected hits for each roll
  needed, 0..18 (`ai._Threat`);
- `context`: a goal (1/0), its x and y, the distance to it now and the weight of an inch
  gained; a leader (1/0), his x and y; the spread the man keeps from his friends; how many
  friendly AFVs, then their x, y, then the x, y of his side's other men;
- `orders`: first `places` rows of 5 — a place's x, y, inside a building (1/0), cover there
  (0 none, 1 soft, 2 hard) and how many enemy AFVs and guns would see him there (looked up
  in Python) — then rows of 4, one an order: its place's row, prone (1/0), more than 6"
  moved (1/0) and the fire it allows this turn.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from warbench.core.compiled import compiled
from warbench.core.hypot import hypot

Array = NDArray[np.float64]
GRENADE_SPREAD = 4.5  # `ai.GRENADE_SPREAD`
LEASH = 6.0  # `ai.LEASH`
AFV_REACH = 12.0  # 5.0: a friendly AFV within 12"


@compiled
def _place_terms(context: Array, places: Array) -> tuple[Array, Array]:
    """Each place's gain toward the goal (0.0 without one: adding it changes nothing then,
    see `order_values`) and its costs in `_Orders.place`'s order (a cost of 0 taking off
    nothing, to the last bit)."""
    count = places.shape[0]
    tanks = int(context[9])
    friends = (context.shape[0] - 10 - 2 * tanks) // 2
    gains = np.zeros(count)
    costs = np.zeros((count, 1 + tanks + friends))
    spread = context[8]
    for p in range(count):
        x, y = places[p, 0], places[p, 1]
        if context[0] != 0.0:
            after = hypot(context[1] - x, context[2] - y)
            gains[p] = (context[3] - after) * context[4]
        if context[5] != 0.0:
            stray = hypot(context[6] - x, context[7] - y) - LEASH
            costs[p, 0] = 0.05 * (stray if stray > 0.0 else 0.0)  # max(0.0, stray)
        at = 10
        for t in range(tanks):
            stray = hypot(context[at] - x, context[at + 1] - y) - AFV_REACH
            costs[p, 1 + t] = 0.05 * (stray if stray > 0.0 else 0.0)
            at += 2
        for f in range(friends):
            dx, dy = context[at] - x, context[at + 1] - y
            if -spread < dx < spread and -spread < dy < spread:
                apart = hypot(dx, dy)
                costs[p, 1 + tanks + f] = (
                    1.5 if apart < GRENADE_SPREAD else 0.5 if apart < spread else 0.0
                )
            at += 2
    return gains, costs


@compiled
def _danger(
    threats: Array, hits: Array, gaps: Array, place: Array, p: int, prone: bool, fast: bool
) -> float:
    """`SkirmishAI._danger_at` at place `p` (its distances to the threats in `gaps`)."""
    inside = place[2] != 0.0
    cover = int(place[3])
    full = inside or (prone and cover != 0)
    sheltered = full and cover == 2
    danger = 0.0
    shift = (-3 if prone else 0) + (-2 if fast else 0)
    if cover == 2:
        shift -= 4
    elif cover == 1:
        shift -= 6 if full else 2
    for e in range(threats.shape[0]):
        gap = gaps[p, e]
        if threats[e, 5] != 0.0 and gap <= 12:
            danger += 0.25
        if gap > threats[e, 2] or threats[e, 6] != 0.0 or sheltered:
            continue
        needed = int(threats[e, 4]) + shift
        needed += 3 if gap <= 6 else -6 if gap > threats[e, 3] else 0
        danger += hits[e, 0 if needed < 0 else 18 if needed > 18 else needed]
    for _ in range(int(place[4])):
        danger += 0.4 if full else 0.8
    return danger


@compiled
def order_values(threats: Array, hits: Array, context: Array, orders: Array, count: int) -> Array:
    """Each order's value (`orders` after its first `count` rows of places): `3.0 + 3.0 *
    fire - 2.0 * danger`, plus the gain, less each cost (`SkirmishAI._order_value`'s sum)."""
    places = orders[: 5 * count].reshape((count, 5))
    queries = orders[5 * count :].reshape((-1, 4))
    gaps = np.empty((count, threats.shape[0]))
    for p in range(count):
        for e in range(threats.shape[0]):
            gaps[p, e] = hypot(threats[e, 0] - places[p, 0], threats[e, 1] - places[p, 1]) - 1
    gains, costs = _place_terms(context, places)
    goal = context[0] != 0.0
    values = np.empty(queries.shape[0])
    for q in range(queries.shape[0]):
        p = int(queries[q, 0])
        danger = _danger(
            threats, hits, gaps, places[p], p, queries[q, 1] != 0.0, queries[q, 2] != 0.0
        )
        total = 3.0 + 3.0 * queries[q, 3] - 2.0 * danger
        if goal:
            total += gains[p]
        for c in range(costs.shape[1]):
            total -= costs[p, c]
        values[q] = total
    return values


@compiled
def pivot_fire(
    headings: Array, chances: Array, turns: Array, facing: float, volley: int, hit: float
) -> Array:
    """The fire each pivot allows (`SkirmishAI._order_value`'s pivot): the best unaimed
    chance among the men he sees (their bearings `headings`) within 80° of its new facing,
    times his shots (`volley`) and the worth of a hit, less a 720th of each degree turned
    from `facing`; `turn_between` written out, in its operations' order."""
    fires = np.empty(turns.shape[0])
    for t in range(turns.shape[0]):
        turn = turns[t]
        fire, best = 0.0, -1.0
        for e in range(headings.shape[0]):
            off = abs(turn - headings[e]) % 360.0
            if (off if off <= 180.0 else 360.0 - off) <= 80 and chances[e] > best:
                best = chances[e]
        if best >= 0.0:
            fire = best * volley * hit
        off = abs(facing - turn) % 360.0
        fire -= (off if off <= 360.0 - off else 360.0 - off) / 720
        fires[t] = fire
    return fires
