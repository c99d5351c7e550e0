"""The tftww2 fast paths agree with the exact code they stand for: a man's orders checked in
one pass (`movement.legal_orders`) with `order_problem` order by order, whether a side has
anything to do in a combat step with its candidates checked one by one, and the AI's value
of a place (`_Orders.place`) with the sum worked out term by term, to the last bit."""

from __future__ import annotations

import math
from collections.abc import Iterator

from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.tftww2 import movement
from warbench.rulesets.tftww2.actions import Done
from warbench.rulesets.tftww2.ai import GRENADE_SPREAD, LEASH, SkirmishAI, _Orders
from warbench.rulesets.tftww2.game import TFTGame, other


def positions(kind: str, steps: int = 400) -> Iterator[TFTGame]:
    """Every position of a seeded game per shipped scenario, `kind` on both sides."""
    ruleset = registry.get("tftww2")
    for info in ruleset.scenarios():
        game = ruleset.new_game(ruleset.load_scenario(info.id), 5)
        assert isinstance(game, TFTGame)
        agents = {p: ruleset.agents()[kind](n + 3) for n, p in enumerate(ruleset.players)}
        for _ in range(steps):
            if not isinstance(game.pending, Decision):
                break
            yield game
            player = game.pending.player
            game.apply(agents[player].choose(game, player), player)


def test_a_mans_orders_checked_in_one_pass_are_those_order_problem_allows() -> None:
    checked = prone = upstairs = 0
    for kind in ("ai", "random"):
        for game in positions(kind):
            s = game.state
            if s.phase != "orders":
                continue
            for man in s.side_men(s.side):
                acts = game._man_orders(man, s.side_men(other(s.side)))
                exact = [a for a in acts if movement.order_problem(game, man, a) is None]
                assert movement.legal_orders(game, man, acts) == exact
                checked += 1
                prone += man.stance == "prone"
                upstairs += man.floor > 0
    assert checked > 1000 and prone > 0 and upstairs > 0  # the cases the shortcuts skip


def _place_term_by_term(context: _Orders, value: float, x: float, y: float) -> float:
    """`_order_value`'s place terms as it added them one by one before `place`."""
    if context.goal is not None:
        after = math.hypot(context.goal[0] - x, context.goal[1] - y)
        value += (context.before - after) * context.weight
    if context.leader is not None:
        lx, ly = context.leader
        value -= 0.05 * max(0.0, math.hypot(lx - x, ly - y) - LEASH)
    for tx, ty in context.friends_afv:
        value -= 0.05 * max(0.0, math.hypot(tx - x, ty - y) - 12.0)
    for fx, fy in context.friends:
        apart = math.hypot(fx - x, fy - y)
        value -= 1.5 if apart < GRENADE_SPREAD else 0.5 if apart < context.spread else 0.0
    return value


def test_the_value_of_a_place_is_the_term_by_term_sum_to_the_last_bit() -> None:
    ai, compared = SkirmishAI(0), 0
    for game in positions("ai", 200):
        s = game.state
        if s.phase != "orders":
            continue
        ai._seen, ai._context = {}, {}
        for man in s.side_men(s.side)[:3]:
            context = ai._orders(game, man)
            for dx, dy in ((0.0, 0.0), (1.3, -2.0), (-3.7, 0.4), (2.0, 2.9)):
                x, y = man.x + dx, man.y + dy
                for start in (3.0, -1.234567, 0.1 + 0.2):
                    gain, costs = context.place(x, y)
                    value = start if gain is None else start + gain
                    for cost in costs:
                        value -= cost
                    assert value == _place_term_by_term(context, start, x, y)
                    compared += 1
    assert compared > 500


def test_legal_orders_of_a_man_who_may_not_move_keeps_only_standing_orders() -> None:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("patrol"), 0)
    assert isinstance(game, TFTGame)
    man = game.state.side_men(game.state.side)[0]
    man.stance = "prone"
    acts = game._man_orders(man, game.state.side_men(other(man.side)))
    kinds = {type(a).__name__ for a in movement.legal_orders(game, man, acts)}
    assert kinds <= {"Pivot", "ChangePosition", "CloseCombat", "AimAt", "Manipulate", "Climb"}
    assert {"Pivot", "ChangePosition"} <= kinds


def test_anything_to_do_is_any_legal_candidate_but_done() -> None:
    found = {"ranged": [0, 0], "close": [0, 0]}
    for kind in ("ai", "random"):
        for game in positions(kind):
            s = game.state
            if s.phase == "riposte":
                continue
            phase = s.phase
            for step in found:  # each combat step as it would open on this position
                s.phase = step
                exact = any(
                    not isinstance(a, Done) and game._illegal(a, s.side) is None
                    for a in game._candidates(s.side)
                )
                assert game._anything_to_do(s.side) == exact
                found[step][exact] += 1
            s.phase = phase
            if s.side_men(s.side) and s.side_men(other(s.side)):  # a man in base contact
                game.state = s.copy()
                man, enemy = game.state.side_men(s.side)[0], game.state.side_men(other(s.side))[0]
                game.state.phase, man.action, man.shots = "close", "fight", 0
                enemy.x, enemy.y, enemy.floor = man.x + 1.0, man.y, man.floor
                exact = any(
                    not isinstance(a, Done) and game._illegal(a, s.side) is None
                    for a in game._candidates(s.side)
                )
                assert game._anything_to_do(s.side) == exact
                found["close"][exact] += 1
                game.state = s
    assert all(n > 0 for counts in found.values() for n in counts), found
