"""The tftww2 fast paths agree with the exact code they stand for: a man's orders checked in
one pass (`movement.legal_orders`) and made in one pass (`movement.legal_man_orders`) with
`order_problem` order by order, his fire, throws and indirect fire checked in one pass
(`fire.legal_fire`, `fire.legal_throws`, `area.legal_bombards`) with `shot_problem` and
`bombard_problem` shot by shot, whether a side has anything to do in a combat step with its
candidates checked one by one, and the AI's value of a place (`_Orders.place`), its danger
(`_danger_at`) and a man's orders scored together (`_order_scores`) with the sums worked out
term by term and order by order, to the last bit (the danger and place terms compiled in
`order_terms`, the rest in Python), and kept by all that weighing them reads
(`_weighing_key`); the AI's chance to hit kept per target is the chance as written; the
quick makers of orders and shots make the values the classes make."""

from __future__ import annotations

import dataclasses
import math
import pickle
from collections.abc import Callable, Iterator
from itertools import product

import pytest
import shapely
from shapely.geometry import LineString, Point

from warbench.ai.shuffle import shuffle
from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.game import Decision
from warbench.core.geometry import Base, bases_under, bearing, turn_between
from warbench.core.terrain import Trait
from warbench.rulesets.tftww2 import fire, movement, terrain
from warbench.rulesets.tftww2.actions import (
    CODEC,
    Bombard,
    Done,
    Fire,
    Pivot,
    Run,
    Throw,
    Walk,
    maker,
)
from warbench.rulesets.tftww2.ai import (
    _WEIGHED,
    ENEMY_READ,
    FRIEND_READ,
    GRENADE_SPREAD,
    LEASH,
    MAN_READ,
    SkirmishAI,
    _hit_value,
    _Orders,
    _plan,
    _weighing_key,
    p_hit,
)
from warbench.rulesets.tftww2.area import near_template
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.game import TFTGame, other
from warbench.rulesets.tftww2.indirect import template, touched
from warbench.rulesets.tftww2.profiles import weapon_profile
from warbench.rulesets.tftww2.state import Man
from warbench.rulesets.tftww2.vehicles import STATIC_ARC


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


def _in_orders(kind: str, steps: int = 400) -> Iterator[TFTGame]:
    """The `positions` in the orders phase."""
    for game in positions(kind, steps):
        if game.state.phase == "orders":
            yield game


def test_a_mans_orders_checked_in_one_pass_are_those_order_problem_allows() -> None:
    checked = prone = upstairs = 0
    for kind in ("ai", "random"):
        for game in _in_orders(kind):
            s = game.state
            for man in s.side_men(s.side):
                acts = game._man_orders(man, s.side_men(other(s.side)))
                exact = [a for a in acts if movement.order_problem(game, man, a) is None]
                assert movement.legal_orders(game, man, acts) == exact
                checked += 1
                prone += man.stance == "prone"
                upstairs += man.floor > 0
    assert checked > 1000 and prone > 0 and upstairs > 0  # the cases the shortcuts skip


def _orders_contexts(ai: SkirmishAI, steps: int) -> Iterator[tuple[TFTGame, Man, _Orders]]:
    """In the orders phases of `positions("ai", steps)`, the first three men of the side to
    play, each with `ai`'s context of his orders (its caches emptied at each position)."""
    for game in _in_orders("ai", steps):
        s = game.state
        ai._seen, ai._context = {}, {}
        for man in s.side_men(s.side)[:3]:
            yield game, man, ai._orders(game, man)


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
    for _, man, context in _orders_contexts(ai, 200):
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


def test_a_mans_orders_made_in_one_pass_are_the_legal_ones_of_those_sampled() -> None:
    checked = prone = upstairs = 0
    for kind in ("ai", "random"):
        for game in _in_orders(kind):
            s = game.state
            enemies = s.side_men(other(s.side))
            for man in s.side_men(s.side):
                sampled = game._man_orders(man, enemies)
                exact = [a for a in sampled if movement.order_problem(game, man, a) is None]
                assert movement.legal_man_orders(game, man, enemies) == exact
                checked += 1
                prone += man.stance == "prone"
                upstairs += man.floor > 0
    assert checked > 1000 and prone > 0 and upstairs > 0


def test_a_mans_shots_checked_in_one_pass_are_what_shot_problem_allows() -> None:
    checked, legal, illegal, throws, bombards = 0, 0, 0, 0, 0
    for kind in ("ai", "random"):
        for game in positions(kind):
            s = game.state
            enemies = s.side_men(other(s.side))
            for man in s.side_men(s.side):
                kept = (man.action, man.shots, man.last_target, man.aim_target)
                # every action that fires, with and without a shot taken and a last target
                for action in ("walk", "pivot", "aim", "run"):
                    for shots, last in ((0, None), (1, enemies[0].id if enemies else None)):
                        man.action, man.shots, man.last_target = action, shots, last
                        man.aim_target = enemies[-1].id if enemies else None
                        shots_at = [Fire(man.id, e.id) for e in enemies]
                        exact = [a for a in shots_at if fire.shot_problem(game, man, a) is None]
                        assert fire.legal_fire(game, man, enemies) == exact
                        legal += len(exact)
                        illegal += len(shots_at) - len(exact)
                        every = game._man_shots(man, enemies)  # fire, throws, bombardments
                        allowed = [a for a in every if game._shot_problem(man, a) is None]
                        assert game._legal_shots(man, enemies) == allowed
                        throws += sum(isinstance(a, Throw) for a in allowed)
                        bombards += sum(isinstance(a, Bombard) for a in allowed)
                        checked += 1
                man.action, man.shots, man.last_target, man.aim_target = kept
    assert checked > 5000 and legal > 500 and illegal > 500 and throws > 50 and bombards > 50


def _danger_term_by_term(
    game: TFTGame, context: _Orders, x: float, y: float, prone: bool, moved: float
) -> float:
    """`_danger_at` as it was written before its rows carried their expected hits."""
    inside = terrain.building_at(game.table, x, y) is not None
    cover = "hard" if inside else context.cover_at(game, x, y)
    full = inside or (prone and cover != "none")
    danger = 0.0
    shift = (-3 if prone else 0) + (-2 if moved > 6 else 0)
    if cover == "hard":
        shift -= 4
    elif cover == "soft":
        shift -= 6 if full else 2
    for enemy in game.state.side_men(other(game.state.side)):
        arm = weapon_profile(enemy.weapon)
        reach, shots, bite = arm.effective_range or 0, min(arm.shots, 2), _hit_value(arm)
        gap = math.hypot(enemy.x - x, enemy.y - y) - 1
        if enemy.grenades and gap <= 12:
            danger += 0.25
        if gap > 3 * reach or enemy.jam or (full and cover == "hard"):
            continue
        needed = attributes(enemy).dexterity + (3 if gap <= 6 else -6 if gap > reach else 0)
        danger += p_hit(needed + shift) * shots * bite
    for tx, ty, arc in context.tanks:
        if arc is not None and turn_between(arc, bearing((tx, ty), (x, y))) > STATIC_ARC:
            continue
        if not inside and terrain.clear_between(game.table, (tx, ty), (x, y)):
            danger += 0.4 if full else 0.8
    return danger


def test_the_danger_of_a_place_is_the_term_by_term_sum_to_the_last_bit() -> None:
    ai, compared = SkirmishAI(0), 0
    for game, man, context in _orders_contexts(ai, 200):
        for dx, dy in ((0.0, 0.0), (1.3, -2.0), (-3.7, 0.4), (6.0, 9.0), (-20.0, 25.0)):
            x, y = man.x + dx, man.y + dy
            for prone, moved in ((False, 0.0), (True, 0.0), (False, 7.5)):
                fast = ai._danger_at(game, man, context, x, y, prone, moved)
                assert fast == _danger_term_by_term(game, context, x, y, prone, moved)
                compared += 1
    assert compared > 1000


def _first_orders(steps: int) -> Iterator[tuple[TFTGame, Man, list[Action]]]:
    """In AI games' orders, each of the side's first four men without an order yet, with
    his legal actions."""
    for game in _in_orders("ai", steps):
        s = game.state
        for man in s.side_men(s.side)[:4]:
            if man.action is None:
                yield game, man, game.legal_actions_of(man.id)


def test_a_mans_orders_scored_together_score_as_each_alone_to_the_last_bit() -> None:
    compared = 0
    for game, man, actions in _first_orders(300):
        together, alone = SkirmishAI(0), SkirmishAI(0)
        together._seen, together._context = {}, {}
        alone._seen, alone._context = {}, {}
        scores = together._order_scores(game, man, actions)
        assert scores == [alone._score(game, man.side, a) for a in actions]
        compared += len(actions)
    assert compared > 2000


def test_a_mans_pivots_walks_and_runs_are_weighed_by_his_compass() -> None:
    """`_order_scores` finds each pivot, walk and run of a man's legal orders among the
    rows kept with his compass (`ai._plan`), so none is weighed alone."""
    weighed = 0
    for game, man, actions in _first_orders(300):
        slots = _plan(game, man).slots
        for action in actions:
            if isinstance(action, Pivot | Walk | Run):
                assert id(action) in slots
                weighed += 1
    assert weighed > 1000


def test_free_cover_found_at_once_is_cover_no_enemy_centre_is_in() -> None:
    checked = 0
    for game in positions("ai", 100):
        enemies: list[Man] = game.state.side_men(other(game.state.side))
        xs, ys = [e.x for e in enemies], [e.y for e in enemies]
        for piece in game.table.pieces:
            held = game.table.held_area(piece)
            exact = any(held.contains(Point(e.x, e.y)) for e in enemies)
            assert bool(shapely.contains_xy(held, xs, ys).any()) == exact
            checked += 1
    assert checked > 100


def _cover_afresh(game: TFTGame, target: Man, firer: Man | None) -> str:
    """`terrain._cover` as it was, every shape made afresh and the line cut per piece."""
    base = target.base().shape()
    found = set()
    line = LineString([(firer.x, firer.y), (target.x, target.y)]) if firer else None
    near = base.buffer(terrain.COVER_REACH)
    for piece in game.table.index.near(near):
        if not (piece.has(Trait.SOFT_COVER) or piece.has(Trait.HARD_COVER)):
            continue
        touching = piece.touches(base)
        screening = line is not None and piece.area.intersects(line.intersection(near))
        if touching or screening or (line is None and piece.area.intersects(near)):
            found.add("hard" if piece.has(Trait.HARD_COVER) else "soft")
    return "hard" if "hard" in found else "soft" if "soft" in found else "none"


def test_cover_with_each_mans_shapes_kept_is_cover_worked_out_afresh() -> None:
    counts = {"hard": 0, "soft": 0, "none": 0}
    for game in positions("ai", 150):
        s = game.state
        for target in s.side_men(other(s.side)):
            for firer in [*s.side_men(s.side), None]:
                found = terrain._cover(game.table, target, firer)
                assert found == _cover_afresh(game, target, firer)
                counts[found] += 1
    assert all(n > 0 for n in counts.values()), counts


def test_the_men_under_a_template_found_at_once_are_those_bases_under_finds() -> None:
    found = 0
    for game in positions("ai", 100):
        men = {m.id: Base((m.x, m.y), 1.0) for m in game.state.men.values() if m.active}
        for centre_of in list(game.state.men.values())[:4]:
            for dx, area in ((0.0, 2.0), (1.7, 3.0), (-2.49, 6.0), (5.5, 1.0)):
                centre = (centre_of.x + dx, centre_of.y)
                shape = template(centre, area)
                exact = bases_under(shape, men, partly=True)
                assert touched(shape, men) == exact
                assert touched(shape, near_template(game, centre, area)) == exact
                found += len(exact)
    assert found > 500
    assert touched(template((0.0, 0.0), 2.0), {}) == []


def test_the_men_near_a_template_are_all_it_touches_at_the_edge_too() -> None:
    """`area.near_template` keeps every man a template touches (`touched` of them is
    `touched` of all the men), templates put to touch a man's base just or just not."""
    edges = 0
    for game in positions("ai", 60):
        men = {m.id: Base((m.x, m.y), 1.0) for m in game.state.men.values() if m.active}
        for man in list(game.state.side_men("red"))[:3]:
            for area, heading, off in product((1.0, 2.0, 3.0, 6.0), (0.0, 37.0, 90.0), OFFS):
                gap = area + 0.5 + off  # from his centre to the template's
                rad = math.radians(heading)
                centre = (man.x + gap * math.sin(rad), man.y + gap * math.cos(rad))
                shape = template(centre, area)
                exact = bases_under(shape, men, partly=True)
                assert touched(shape, near_template(game, centre, area)) == exact
                edges += man.id in exact
    assert edges > 20


OFFS = (-1e-3, -1e-9, 0.0, 1e-9, 1e-7, 1e-3)  # how far past touching his base


def _chance_as_written(game: TFTGame, man: Man, target: Man, aimed: bool) -> float:
    """The AI's chance to hit as it was written before its roll needed was kept per target."""
    weapon = weapon_profile(man.weapon)
    reach = weapon.effective_range or 0
    gap = man.distance(target) - 1
    needed = attributes(man).dexterity + (4 if aimed else 0)
    needed += 3 if gap <= 6 else -6 if gap > reach else 0
    needed += -3 if target.stance == "prone" else 0
    cover = terrain.cover(game.table, target, man)
    if terrain.full_cover(game.table, target, man) and not target.fired_last_round:
        if cover == "hard" or terrain.inside_building(game.table, target):
            return 0.0
        needed -= 6
    else:
        needed -= {"hard": 4, "soft": 2, "none": 0}[cover]
    return p_hit(needed)


def test_the_chance_kept_per_target_is_the_chance_as_written() -> None:
    ai, compared, zero = SkirmishAI(0), 0, 0
    for game, man, context in _orders_contexts(ai, 200):
        for target in game.state.side_men(other(man.side)):
            for aimed in (False, True):
                kept = context.chance(game, man, target, aimed)
                assert kept == _chance_as_written(game, man, target, aimed)
                compared += 1
                zero += kept == 0.0
    assert compared > 500 and zero > 0


def test_quick_makers_make_the_values_the_classes_make() -> None:
    for cls, fields in (
        (Walk, ("r1", (1.25, 2.5), 45.0)),
        (Pivot, ("b3", 270.0)),
        (Run, ("r2", 8.0, 0.0)),
        (Fire, ("r1", "b2")),
        (Throw, ("r1", (3.0, 4.0))),
        (Done, ()),
    ):
        quick, made = maker(cls)(*fields), cls(*fields)
        assert type(quick) is cls and quick == made and hash(quick) == hash(made)
        assert str(quick) == str(made) and vars(quick) == vars(made)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(quick, "man", "x")  # noqa: B010 (frozen: any field refused)


def _weighed_afresh(
    game: TFTGame, unit: str | None = None
) -> tuple[list[Action], list[float]] | None:
    """The legal orders of the next man to order (or of `unit`) and their scores worked out
    anew (nothing kept of `SkirmishAI._weighed`), or None when no man is to be ordered."""
    ai = SkirmishAI(0)
    unit = unit or ai._next_unit(game, game.state.side)
    if unit is None or unit not in game.state.men:
        return None
    ai._seen, ai._context = {}, {}
    actions = game.legal_actions_of(unit)
    return actions, ai._order_scores(game, game.state.men[unit], actions) if actions else []


# another value for each field of a man but his id and status
_OTHER: dict[str, Callable[[Man], object]] = {
    "side": lambda m: other(m.side),
    "squad": lambda m: "xs9",
    "rank": lambda m: "CO" if m.rank == "Private" else "Private",
    "x": lambda m: m.x + 0.7,
    "y": lambda m: m.y - 0.3,
    "facing": lambda m: (m.facing + 123.0) % 360,
    "weapon": lambda m: "Rifle" if m.weapon != "Rifle" else "SMG",
    "close_weapon": lambda m: "Knife" if m.close_weapon != "Knife" else "Bayonet",
    "grenades": lambda m: m.grenades + 2,
    "radio": lambda m: not m.radio,
    "support": lambda m: None if m.support else "2-inch mortar",
    "stance": lambda m: "prone" if m.stance == "standing" else "standing",
    "wounded": lambda m: not m.wounded,
    "jam": lambda m: 0 if m.jam else 1,
    "close_state": lambda m: "broken" if m.close_state == "ok" else "ok",
    "action": lambda m: None if m.action else "run",
    "moved": lambda m: m.moved + 7.3,
    "shots": lambda m: m.shots + 1,
    "last_target": lambda m: None if m.last_target else "b1",
    "fired_this_round": lambda m: not m.fired_this_round,
    "fired_last_round": lambda m: not m.fired_last_round,
    "under_fire": lambda m: not m.under_fire,
    "under_fire_last_round": lambda m: not m.under_fire_last_round,
    "aim_target": lambda m: None if m.aim_target else "r1",
    "anti_tank": lambda m: None if m.anti_tank else "Panzerfaust",
    "support_shots": lambda m: 3 if m.support_shots is None else None,
    "floor": lambda m: 1 - m.floor,
}


def test_every_field_of_a_man_but_id_and_status_has_another_value_to_try() -> None:
    assert set(_OTHER) == {f.name for f in dataclasses.fields(Man)} - {"id", "status"}


def test_a_mans_orders_are_weighed_from_what_the_weighing_key_holds() -> None:
    """`_weighing_key` holds all that weighing the next man's orders reads: changing every
    field of a man it leaves out (of the man to order, his friends and the enemies in the
    fight, all but `MAN_READ`, `FRIEND_READ` and `ENEMY_READ`; of a man out of the fight,
    all but his status) changes neither his legal orders nor their scores."""
    compared = out = 0
    for kind in ("ai", "random"):
        for game in _in_orders(kind, 300):
            state = game.state
            ordered = SkirmishAI._next_unit(game, state.side)
            exact = _weighed_afresh(game, ordered)
            if exact is None:
                continue
            game.state = state.copy()
            for man in game.state.men.values():
                read: tuple[str, ...] = ("id", "status")
                if man.active:
                    read += (
                        MAN_READ
                        if man.id == ordered
                        else FRIEND_READ
                        if man.side == state.side
                        else ENEMY_READ
                    )
                else:
                    out += 1
                changed = {name: make(man) for name, make in _OTHER.items() if name not in read}
                for name, value in changed.items():
                    setattr(man, name, value)
            assert _weighed_afresh(game, ordered) == exact
            game.state = state
            compared += 1
    assert compared > 300 and out > 50


def test_kept_weighings_are_the_weighings_worked_out_anew() -> None:
    """Where the same key comes again (the games of one scenario from other seeds go over
    the same ground), the kept legal orders and scores are those worked out anew."""
    ruleset = registry.get("tftww2")
    scenario = ruleset.load_scenario(ruleset.scenarios()[0].id)
    kept = 0
    _WEIGHED.clear()  # room to keep this test's weighings
    for seed in range(40):
        game = ruleset.new_game(dict(scenario), seed)
        assert isinstance(game, TFTGame)
        agents = {p: SkirmishAI(seed * 2 + n) for n, p in enumerate(ruleset.players)}
        while isinstance(game.pending, Decision):
            player = game.pending.player
            exact = _weighed_afresh(game) if game.state.phase == "orders" else None
            unit = SkirmishAI._next_unit(game, player) if exact is not None else None
            if unit is not None and _weighing_key(game, game.state.men[unit]) in _WEIGHED:
                man = game.state.men[unit]
                actions, scores = agents[player]._weighed(game, man)
                assert (list(actions), list(scores)) == exact
                kept += 1
            game.apply(agents[player].choose(game, player), player)
    assert kept > 200


def test_a_man_is_ordered_as_his_orders_shuffled_then_scored_pick() -> None:
    """`choose` shuffles the places of a man's kept orders, not the orders: the same draws,
    so the same pick as shuffling his legal orders, scoring them and taking the first best."""
    picked = 0
    for game in _in_orders("ai", 300):
        exact = _weighed_afresh(game)
        if exact is None or not exact[0]:
            continue
        seed = picked
        actions, _ = exact
        rng = SkirmishAI(seed)._rng
        shuffle(rng, actions)
        ai = SkirmishAI(0)
        ai._seen, ai._context = {}, {}
        man = game.state.men[actions[0].man]  # type: ignore[attr-defined]
        scores = ai._order_scores(game, man, actions)
        chooser = SkirmishAI(seed)
        assert chooser.choose(game, game.state.side) == actions[scores.index(max(scores))]
        assert chooser._rng.getstate() == rng.getstate()  # the same draws made
        picked += 1
    assert picked > 100


def test_a_man_found_with_no_shot_in_a_ranged_step_has_none_after() -> None:
    """`TFTGame._anything_to_do` and `SkirmishAI._shoot` pass over the men found with no
    shot before in the step (`TFTGame.no_shot`): at every later decision of it each of them
    still has none, and none is known outside a ranged step; and a man's legal fire kept
    for the step (`TFTGame._legal_fire`) is `fire.legal_fire` as things stand, and all his
    legal shots kept for it (`TFTGame._legal_shots`) are those `_shot_problem` allows, at
    every decision of it, in AI and random games."""
    ruleset = registry.get("tftww2")
    checked, fired, shots = 0, 0, 0
    for info in ruleset.scenarios():
        scenario = ruleset.load_scenario(info.id)
        for seed, kind in product(range(8), ("ai", "random")):
            game = ruleset.new_game(dict(scenario), seed)
            assert isinstance(game, TFTGame)
            agents = {
                p: ruleset.agents()[kind](seed * 2 + n) for n, p in enumerate(ruleset.players)
            }
            while isinstance(game.pending, Decision):
                player, s = game.pending.player, game.state
                idle = game.no_shot()
                assert (idle is not None) == (s.phase == "ranged")
                if idle is not None:
                    enemies = s.side_men(other(player))
                    for man in (s.men[m] for m in idle):
                        assert not man.active or game._legal_shots(man, enemies) == []
                        checked += 1
                    for man in s.side_men(player):
                        kept = game._legal_fire(man, enemies)
                        assert kept == fire.legal_fire(game, man, enemies)
                        fired += len(kept)
                        every = game._man_shots(man, enemies)
                        allowed = [a for a in every if game._shot_problem(man, a) is None]
                        assert game._legal_shots(man, enemies) == allowed
                        shots += len(allowed) - len(kept)
                game.apply(agents[player].choose(game, player), player)
    assert checked > 100 and fired > 100 and shots > 10


def test_whether_all_are_ordered_or_a_side_fights_is_what_the_lists_say() -> None:
    """`TFTGame._all_ordered` and `State.in_fight` answer as the lists they stand for."""
    ordered = [0, 0]
    for kind in ("ai", "random"):
        for game in positions(kind):
            s = game.state
            exact = not game._to_order() and not game._tanks_to_order()
            assert game._all_ordered() == exact
            ordered[exact] += 1
            for side in ("red", "blue"):
                assert s.in_fight(side) == bool(s.side_men(side) or s.side_tanks(side))
    assert all(ordered), ordered


def test_an_actions_kept_text_is_the_text_worked_out() -> None:
    """`TFTAction.__str__` keeps the text `Action.__str__` works out from the fields: the
    same text asked once or again, of every kind of action legal in seeded games, and the
    kept text changes no equality, hash, copy or reading back."""
    kinds: set[type[Action]] = set()
    for game in positions("random", 150):
        pending = game.pending
        assert isinstance(pending, Decision)
        for action in game.legal_actions(pending.player):
            text = Action.__str__(action)
            assert str(action) == text and str(action) == text
            twin = type(action)(*(getattr(action, f.name) for f in dataclasses.fields(action)))
            assert twin == action and hash(twin) == hash(action) and str(twin) == text
            assert pickle.loads(pickle.dumps(action)) == action and CODEC.parse(text) == action
            kinds.add(type(action))
    assert len(kinds) >= 10, kinds
