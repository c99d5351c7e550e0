"""The numpy screens that settle many legality questions at once agree with the one-at-a-time
rules they stand in for (seeded random positions on generated tables)."""

from __future__ import annotations

import copy
import dataclasses
import math
import random

import numpy as np
import pytest
import shapely

from tests.rulesets.gff.position import gun, profile, state_of, unit
from warbench.core.dice import Read, RollRequest, SeededDice
from warbench.core.game import Decision
from warbench.core.geometry import EPS, Base, Path, edge_distance
from warbench.core.terrain import Trait
from warbench.rulesets.gff import battlefield, movement
from warbench.rulesets.gff import game as game_module
from warbench.rulesets.gff.actions import Charge, Deploy
from warbench.rulesets.gff.battlefield import (
    Battlefield,
    arrange,
    arrange_many,
    box_covers,
    can_see,
    crosses_dangerous,
    generate_battlefield,
    in_cover_terrain,
    in_dangerous,
    moves_through_difficult,
    objective_problem,
    round_enters,
    screen_objectives,
    sees_any,
)
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.movement import (
    block_move_problem,
    others,
    screen_block_moves,
    too_close,
)
from warbench.rulesets.gff.placements import PlacementMemory, legal_many
from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight
from warbench.rulesets.gff.shooting import ranged_weapons, solutions, volleys


@pytest.fixture(scope="module", params=[1, 2, 3])
def table(request: pytest.FixtureRequest) -> Battlefield:
    return generate_battlefield(SeededDice(request.param))


def test_round_enters_agrees_with_the_terrain_rules(table: Battlefield) -> None:
    rng = random.Random(7)
    starts = np.array([(rng.uniform(0, 48), rng.uniform(0, 48)) for _ in range(300)])
    ends = starts + np.array([(rng.uniform(-12, 12), rng.uniform(-12, 12)) for _ in range(300)])
    radius = 0.5
    crossing = round_enters(starts, ends, radius, table, Trait.DANGEROUS)
    standing = round_enters(starts, None, radius, table, Trait.DANGEROUS)
    difficult = round_enters(starts, ends, radius, table, Trait.DIFFICULT)
    for i, (a, b) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
        base, path = Base((a[0], a[1]), 2 * radius), Path.of([a, b])
        assert crossing[i] == crosses_dangerous(base, path, table)
        assert standing[i] == in_dangerous(base, table)
        assert difficult[i] == moves_through_difficult(base, path, table)
    assert crossing.any() and difficult.any()  # the sample reaches such terrain


def test_the_move_screen_never_contradicts_block_move_problem(table: Battlefield) -> None:
    rng = random.Random(11)
    movers = [
        unit("r1", profile(size=3), [(20.0, 20.0), (21.25, 20.0), (22.5, 20.0)]),
        unit("b1", profile(size=2, base=1.25), [(26.0, 24.0), (27.5, 24.0)]),
    ]
    state = state_of(*movers)
    settled = 0
    for trial in range(40):
        for u in movers:
            for m in u.models:
                m.x, m.y = m.x + rng.uniform(-3, 3), m.y + rng.uniform(-3, 3)
        mover = movers[trial % 2]
        targets = [(rng.uniform(0, 48), rng.uniform(0, 48)) for _ in range(10)]
        targets += [(mover.centre()[0] + 3.0, mover.centre()[1] - 2.0)]
        obstacles = others(state, mover)
        verdicts = screen_block_moves(table, mover, targets, 12.0, obstacles)
        for to, verdict in zip(targets, verdicts, strict=True):
            problem = block_move_problem(state, table, mover, to, 12.0, obstacles=obstacles)
            if verdict is not None:
                settled += 1
                assert verdict == (problem is None), (to, problem)
    assert settled > 300


def test_arrange_many_is_arrange_for_each_centre(table: Battlefield) -> None:
    occupied = [Base((24.0 + i, 24.0), 3.0) for i in range(3)] + [Base((40.0, 40.0), 20.0)]
    centres = [(x + 0.5, y + 0.5) for x in range(0, 48, 4) for y in range(0, 48, 4)]
    many = arrange_many(centres, 5, 1.0, table, occupied=occupied)
    assert many == [arrange(c, 5, 1.0, table, occupied=occupied) for c in centres]
    assert None in many and any(m is not None for m in many)


def test_box_covers_is_covers_of_the_polygons() -> None:
    box = shapely.box(0.0, 0.0, 48.0, 12.0)
    rng = random.Random(3)
    for _ in range(400):
        base = Base((rng.uniform(-1, 49), rng.uniform(-1, 13)), rng.choice([1.0, 1.25, 2.0]))
        assert box_covers(box, [base]) == bool(box.covers(base.shape()))
    edge = Base((0.5, 6.0), 1.0)  # touching the edge from inside
    assert box_covers(box, [edge]) == bool(box.covers(edge.shape()))
    with pytest.raises(ValueError, match="rectangle"):
        box_covers(shapely.Polygon([(0, 0), (4, 0), (0, 4)]), [edge])


def test_screen_objectives_agrees_with_objective_problem(table: Battlefield) -> None:
    zones = [table.deployment_zone("south"), table.deployment_zone("north")]
    placed = [(24.0, 24.0), (10.0, 30.0)]
    points = [(x + 2.0, y + 2.0) for x in range(0, 48, 4) for y in range(0, 48, 4)]
    points += [(33.0, 24.0), (24.0, 33.0000000001)]  # 9" away: not over 9"
    verdicts = screen_objectives(points, placed, zones, table)
    for point, verdict in zip(points, verdicts, strict=True):
        if verdict is not None:
            assert verdict == (objective_problem(point, placed, zones, table) is None), point
    assert verdicts.count(True) > 10 and verdicts.count(False) > 10


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_charge_screen_only_drops_charges_the_rules_refuse(seed: int) -> None:
    """Charges the straight-line screen calls out of reach are refused by `check` too, and
    every charge `check` allows passes the screen."""
    ruleset = GrimdarkFutureFirefight()
    game = ruleset.new_game(ruleset.load_scenario("skirmish"), seed)
    assert isinstance(game, GFFGame)
    agents = {p: ruleset.agents()["random"](seed + n) for n, p in enumerate(ruleset.players)}
    screened = checked = 0
    while isinstance(game.pending, Decision) and checked < 400:
        player = game.pending.player
        if game.state.phase == "activate":
            with game.listing():
                for action in game.candidates(player):
                    if isinstance(action, Charge):
                        checked += 1
                        if game._screened_out(action):
                            screened += 1
                            assert game.check(action) is not None, action
        game.apply(agents[player].choose(game, player), player)
    assert screened > 0 and checked > screened


@pytest.mark.parametrize("seed", [0, 1])
def test_the_charge_reach_of_every_pair_at_once_is_that_of_each_pair(seed: int) -> None:
    """While the legal actions are listed, the charge screen measures every pair of units
    at once (`_least_apart`): the same answer as measuring the one pair, and the same least
    distance as the hypot of each pair of models."""
    ruleset = GrimdarkFutureFirefight()
    game = ruleset.new_game(ruleset.load_scenario("skirmish"), seed)
    assert isinstance(game, GFFGame)
    agents = {p: ruleset.agents()["random"](seed + n) for n, p in enumerate(ruleset.players)}
    compared = 0
    while isinstance(game.pending, Decision):
        player = game.pending.player
        if game.state.phase == "activate":
            charges = [a for a in game.candidates(player) if isinstance(a, Charge)]
            alone = [game._out_of_charge_reach(a) for a in charges]
            with game.listing():
                assert [game._out_of_charge_reach(a) for a in charges] == alone
            for a in charges:
                pair = [game.state.units[a.unit], game.state.units[a.target]]
                mine, theirs = ([(m.x, m.y) for m in u.models] for u in pair)
                least = min(
                    float(np.hypot(np.float64(x) - u, np.float64(y) - v))
                    for x, y in mine
                    for u, v in theirs
                )
                assert float(game_module._least_apart(pair)[0, 1]) == least
                compared += 1
        game.apply(agents[player].choose(game, player), player)
    assert compared > 20


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_placements_kept_across_decisions_are_those_found_afresh(seed: int) -> None:
    """Every deployment decision lists the same placements, in the same formations, with the
    placements kept from the decisions before as with none kept."""
    ruleset = GrimdarkFutureFirefight()
    game = ruleset.new_game(ruleset.load_scenario("skirmish"), seed)
    assert isinstance(game, GFFGame)
    agents = {p: ruleset.agents()["random"](seed + n) for n, p in enumerate(ruleset.players)}
    compared = 0
    while isinstance(game.pending, Decision) and game.state.phase != "activate":
        player = game.pending.player
        if game.state.phase in ("deploy", "scout"):
            memory, listed = game._placed, []
            for game._placed in (PlacementMemory(), memory):  # afresh, then kept
                with game.listing():
                    deploys = [a for a in game.candidates(player) if isinstance(a, Deploy)]
                    listed.append(
                        [(a, game._arranged(game.state.units[a.unit], a.at)) for a in deploys]
                    )
            fresh, kept = listed
            assert kept == fresh
            compared += len(kept)
        game.apply(agents[player].choose(game, player), player)
    assert compared > 20


def test_kept_placements_forget_the_points_a_removed_base_frees() -> None:
    table = Battlefield()
    gone = Base((10.0, 10.0), 1.0)
    kept = PlacementMemory().of(("k",), table, [gone], 3, 1.0)
    for point in [(12.0, 10.0), (40.0, 40.0)]:
        kept.formations[point] = arrange(point, 3, 1.0, table, occupied=[gone])
        kept.legal[point] = True
    kept.refresh([])
    assert list(kept.formations) == list(kept.legal) == [(40.0, 40.0)]


def test_many_formations_judged_at_once_as_one_at_a_time() -> None:
    """`legal_many` agrees with `too_close` and `box_covers`, also for gaps of exactly 1",
    bases touching the zone's edge and obstacles that are not round."""
    rng = random.Random(5)
    box = shapely.box(0.0, 0.0, 48.0, 12.0)
    obstacles = [Base((rng.uniform(0, 48), rng.uniform(0, 14)), 1.0) for _ in range(6)]
    formations = [
        [(rng.uniform(-1, 49), rng.uniform(-1, 13)) for _ in range(3)] for _ in range(300)
    ]
    formations += [[(0.5, 6.0), (2.0, 6.0), (3.5, 6.0)]]  # touching the edge from inside
    formations += [[(0.5 + h, 6.0), (2.0, 6.0), (3.5, 6.0)] for h in (-1e-9, 1e-9)]
    x, y = obstacles[0].centre
    formations += [[(x + 2.0, y), (x + 3.5, y), (x + 5.0, y)]]  # exactly 1" from a base
    formations += [[(x + 2.0 + h, y), (x + 3.5, y), (x + 5.0, y)] for h in (-1e-9, 1e-9)]
    spots = np.array(formations, dtype=np.float64)
    rect = Base((24.0, 6.0), 2.0, 1.0, 30.0)
    for theirs in (obstacles, [], [*obstacles, rect]):
        legal = legal_many(spots, 1.0, theirs, box)
        for f, ok in zip(formations, legal, strict=True):
            bases = [Base(p, 1.0) for p in f]
            assert ok == (box_covers(box, bases) and not too_close(bases, theirs))
        assert any(legal) and not all(legal)
    with pytest.raises(ValueError, match="rectangle"):
        legal_many(spots, 1.0, obstacles, shapely.Point(5, 5).buffer(3))


@pytest.mark.parametrize("heights", [False, True])
def test_sees_any_is_can_see_of_each_pair(heights: bool) -> None:
    """`sees_any` (all pairs at once) agrees with `can_see` one pair at a time, on generated
    tables with platforms and with heights counting or not."""
    rng = random.Random(13)
    settled = {True: 0, False: 0}
    for seed in (1, 2, 3, 4):
        field = dataclasses.replace(
            generate_battlefield(SeededDice(seed), jumping=True), heights=heights
        )
        for _ in range(10):
            shooters = [Base((rng.uniform(0, 48), rng.uniform(0, 48)), 1.0) for _ in range(4)]
            targets = [
                [Base((rng.uniform(0, 48), rng.uniform(0, 48)), 1.25) for _ in range(k)]
                for k in (0, 1, 3, 5)
            ]
            seen = sees_any(shooters, targets, field)
            for shooter, theirs, sees in zip(shooters, targets, seen, strict=True):
                assert sees == any(can_see(shooter, t, field) for t in theirs)
                settled[sees] += 1
    assert settled[True] > 10 and settled[False] > 10


def test_fire_solutions_at_once_follow_the_rule_model_by_model(table: Battlefield) -> None:
    """`solutions` (every weapon at every target, sight asked at once) gives each model's
    attacks when a target model is in its weapon's range and line of sight (Indirect: range
    only), and the nearest such distance; `volleys` of several units gives each one's."""
    rng = random.Random(17)
    firing = {True: 0, False: 0}
    weapons = [gun("Rifle", 24, 2), gun("Pistol", 8, 1), gun("Mortar", 30, 1, ["Indirect"])]
    for trial in range(12):
        spots = [(rng.uniform(2, 46), rng.uniform(2, 46)) for _ in range(3)]
        shooters = unit("r1", profile(size=3, weapons=weapons), spots)
        targets = [
            unit(
                f"b{k}", profile(size=2, base=1.25), [(rng.uniform(0, 48), rng.uniform(0, 48))] * 2
            )
            for k in range(3)
        ]
        found = solutions(table, shooters, weapons, targets)
        for weapon, row in zip(weapons, found, strict=True):
            for target, shot in zip(targets, row, strict=True):
                attacks, nearest = 0, math.inf
                for model in shooters.models:
                    base = model.base(1.0)
                    near = [
                        (edge_distance(base, b), b)
                        for b in target.bases()
                        if edge_distance(base, b) <= weapon.range
                    ]
                    indirect = weapon.rating("Indirect") is not None
                    if near and (indirect or any(can_see(base, b, table) for _, b in near)):
                        attacks += weapon.attacks
                        nearest = min(nearest, min(d for d, _ in near))
                assert (shot.attacks, shot.distance) == (attacks, nearest), (trial, weapon.name)
                firing[attacks > 0] += 1
        others = unit("r2", profile(size=2, weapons=weapons[:2]), spots[:2])
        asks = [(shooters, weapons, targets), (others, weapons[:2], targets[1:])]
        assert volleys(table, asks) == [solutions(table, *ask) for ask in asks]
    assert firing[True] > 5 and firing[False] > 5


def test_formations_are_the_same_whether_bases_are_looked_up_in_a_tree_or_not(
    table: Battlefield, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`arrange_many` measures every spot against every occupied base when they are few,
    else asks an STRtree for the near pairs first: the formations are the same."""
    rng = random.Random(23)
    occupied = [Base((rng.uniform(0, 48), rng.uniform(0, 48)), 1.0) for _ in range(60)]
    centres = [(x + 1.5, y + 1.5) for x in range(0, 48, 3) for y in range(0, 48, 6)]
    direct = arrange_many(centres, 4, 1.0, table, occupied=occupied)
    monkeypatch.setattr(battlefield, "_EVERY_PAIR", 0)
    assert arrange_many(centres, 4, 1.0, table, occupied=occupied) == direct
    assert direct != arrange_many(centres, 4, 1.0, table)  # the bases moved formations


def test_contact_vectors_skipping_far_pairs_are_those_of_every_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`contact_vector` leaves out the pairs of models that stay well apart along the way;
    with none left out (`_APART` infinite) every seeded charge gets the same vector."""
    rng = random.Random(11)
    cases = []
    for _ in range(300):
        mine = profile(size=rng.randint(1, 10), base=rng.choice([1.0, 1.26, 1.57, 2.0]))
        theirs = profile(size=rng.randint(1, 10), base=rng.choice([1.0, 1.26, 1.57, 2.0]))
        ax, ay = rng.uniform(4, 44), rng.uniform(4, 44)
        bx, by = ax + rng.uniform(-16, 16), ay + rng.uniform(-16, 16)
        cases.append(
            (unit("r1", mine, (ax, ay)), unit("b1", theirs, (bx, by)), rng.choice([6.0, 12.0]))
        )
    got = [movement.contact_vector(a, b, reach) for a, b, reach in cases]
    monkeypatch.setattr(movement, "_APART", math.inf)
    assert got == [movement.contact_vector(a, b, reach) for a, b, reach in cases]
    assert sum(v is not None for v in got) > 50


def test_the_plain_dice_of_the_table_are_logged_as_roll_logs_them() -> None:
    """`GFFGame.faces` logs a plain die (the table's rolls) without `resolve` and
    `Roll.explain`: the same faces, `Roll` and line as the generic `Game.roll`, and other
    requests still go through it."""
    ruleset = GrimdarkFutureFirefight()
    game = ruleset.new_game(ruleset.load_scenario("skirmish"), 5)
    assert isinstance(game, GFFGame)
    rng = random.Random(3)
    requests = [RollRequest(f"terrain {n}: x", sides=rng.randint(2, 60)) for n in range(200)] + [
        RollRequest("two dice", dice=2),
        RollRequest("modified", modifiers=(("cover", 1),)),
        RollRequest("test", read=Read.AT_LEAST, target=4),
    ]
    generic = copy.deepcopy(game)
    generic.dice = SeededDice(9)
    game.dice = SeededDice(9)
    game._events, game._rolls, generic._events, generic._rolls = [], [], [], []
    faces = [game.faces(r) for r in requests]
    assert faces == [generic.roll(r).faces for r in requests]
    assert game._events == generic._events and game._rolls == generic._rolls
    # a source giving two faces for one die is refused as `resolve` refuses it
    game.dice = type("Twice", (), {"faces": lambda self, request: (6, 6)})()
    with pytest.raises(ValueError, match=r"bad: faces \[6, 6\] do not fit d6"):
        game.faces(RollRequest("bad"))


def test_round_bases_clearly_in_or_out_of_cover_are_judged_as_by_their_polygon(
    table: Battlefield,
) -> None:
    """`in_cover_terrain(mostly=True)` settles a round base clearly inside one cover piece
    or outside them all without its polygon (`_disc_in_cover`): the verdicts are those of
    the share of its polygon inside the cover, for bases all over the table and around the
    cover pieces' outlines."""
    cover = [p.area for p in table.pieces if p.traits & battlefield._COVER]
    rng = random.Random(13)
    centres = [(rng.uniform(0, 48), rng.uniform(0, 48)) for _ in range(600)]
    for area in cover:  # on, just inside and just outside the outlines
        for x, y in area.exterior.coords:
            centres += [(x + rng.uniform(-1.5, 1.5), y + rng.uniform(-1.5, 1.5)) for _ in range(8)]
    settled = []
    for centre in centres:
        base = Base(centre, rng.choice([1.0, 1.26, 1.57, 2.0]))
        shape = base.shape()
        areas = [p.area for p in table.index.near(shape) if p.traits & battlefield._COVER]
        union = shapely.union_all(areas) if areas else shapely.Polygon()
        share = float(union.intersection(shape).area)
        assert in_cover_terrain(base, table, mostly=True) == (
            bool(areas) and share >= float(shape.area) / 2 - EPS
        )
        near = battlefield._near_cover(base, table)
        settled.append(battlefield._disc_in_cover(base, near) if near else False)
    assert settled.count(True) > 10 and settled.count(False) > 100 and settled.count(None) > 10


def test_kept_fire_solutions_are_those_found_afresh() -> None:
    """`GFFGame.fire_solution` keeps solutions under numbered spots (`_spot_number`) across
    decisions, in the game and in a fork: at every decision of seeded games each is the
    solution the rule finds afresh for where the units stand now."""
    ruleset = GrimdarkFutureFirefight()
    asked = 0
    for seed in (0, 1):
        game = ruleset.new_game(ruleset.load_scenario("skirmish"), seed)
        assert isinstance(game, GFFGame)
        agents = {p: ruleset.agents()["ai"](seed + n) for n, p in enumerate(ruleset.players)}
        while isinstance(game.pending, Decision):
            player = game.pending.player
            looked = game.fork(SeededDice(seed)) if len(game.steps) % 2 else game
            assert isinstance(looked, GFFGame)
            s = looked.state
            for shooter in s.side_units(player):
                for weapon in ranged_weapons(shooter):
                    for target in s.side_units(game_module.other(player)):
                        kept = looked.fire_solution(shooter, weapon, target)
                        assert kept == solutions(looked.field, shooter, [weapon], [target])[0][0]
                        asked += 1
            game.apply(agents[player].choose(game, player), player)
    assert asked > 500


def test_grid_visits_kept_per_zone_are_that_zones_points() -> None:
    """The deployment grid kept once per table size and zone (`game._grid_visits`) visits
    every 3" grid point inside that very zone once, and no other: each deployment and scout
    zone of two table sizes, and the whole table (ambushes)."""
    for width, depth in ((48.0, 48.0), (36.0, 30.0)):
        bf = Battlefield(width, depth)
        edges = battlefield.EDGES
        zones = [bf.deployment_zone(e) for e in edges] + [bf.scout_zone(e) for e in edges]
        for zone in [*zones, None]:
            visits = game_module._grid_visits(width, depth, None if zone is None else zone.wkb)
            grid = [
                (x, y)
                for x in game_module._steps(width, 3.0)
                for y in game_module._steps(depth, 3.0)
                if zone is None or zone.contains(shapely.Point(x, y))
            ]
            assert len(visits) == len(set(visits)) and set(visits) == set(grid)
