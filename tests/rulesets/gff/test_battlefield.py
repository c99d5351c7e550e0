"""THE BATTLEFIELD, DEPLOYMENT, MISSION markers, TERRAIN (sight, cover, difficult, dangerous)
and MOVEMENT coherency of Grimdark Future Firefight, on the table geometry."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
import shapely
from pydantic import ValidationError

from warbench.core.dice import DiceSource, RollRequest, ScriptedDice, SeededDice
from warbench.core.geometry import Base, Path, Point, sight_line
from warbench.core.terrain import TerrainPiece, Trait
from warbench.rulesets.gff.battlefield import (
    Battlefield,
    TerrainKind,
    arrange,
    behind_sight_blockers,
    can_see,
    coherent,
    crosses_dangerous,
    deployment_zone,
    generate_battlefield,
    in_cover_terrain,
    in_dangerous,
    line_blocked,
    marker_within,
    move_problem,
    moves_through_difficult,
    objective_problem,
    opposite,
    scout_zone,
    terrain_kinds,
    terrain_table,
    unit_in_cover,
    visibility,
)

SEEDS = range(8)
COVER = {Trait.SOFT_COVER, Trait.HARD_COVER}


class Recording:
    """A dice source that remembers every request it is sent."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.requests: list[RollRequest] = []

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        self.requests.append(request)
        return self.dice.faces(request)


def piece(kind: str, x0: float, y0: float, x1: float, y1: float) -> TerrainPiece:
    """A rectangular piece of one of our kinds, with that kind's traits."""
    return TerrainPiece(kind, shapely.box(x0, y0, x1, y1), terrain_kinds()[kind].traits, 0.0, kind)


def table(*pieces: TerrainPiece) -> Battlefield:
    return Battlefield(48, 48, pieces)


def model(x: float, y: float, width: float = 1.0) -> Base:
    return Base((x, y), width)


# --- terrain kinds ---------------------------------------------------------------------------


def test_terrain_kinds_carry_the_traits_the_rules_read() -> None:
    kinds = terrain_kinds()
    assert kinds["forest"].traits == {Trait.SOFT_COVER, Trait.DIFFICULT}  # sight not blocked
    assert kinds["ruins"].traits == {Trait.HARD_COVER}
    assert {Trait.DIFFICULT, Trait.DANGEROUS} <= kinds["rubble"].traits
    assert {Trait.DIFFICULT, Trait.DANGEROUS} <= kinds["crater_field"].traits
    assert {Trait.BLOCKS_SIGHT, Trait.IMPASSABLE} <= kinds["building"].traits
    assert kinds["hill"].traits == frozenset() and kinds["hill"].height == (2, 3)
    assert kinds["pond"].traits & {Trait.DIFFICULT} and kinds["minefield"].traits == {
        Trait.DANGEROUS
    }
    assert {Trait.HARD_COVER, Trait.BLOCKS_SIGHT} <= kinds["wall"].traits
    assert all(k.across <= 6 for k in kinds.values() if Trait.IMPASSABLE in k.traits)


def test_an_impassable_kind_over_six_inches_across_is_refused() -> None:
    spec = {"traits": ["impassable"], "shape": "rect", "length": [5, 5], "width": [4, 4]}
    with pytest.raises(ValidationError, match='at most 6" across'):
        TerrainKind.model_validate(spec)
    with pytest.raises(ValidationError, match="least <= most"):
        TerrainKind.model_validate({**spec, "length": [3, 2], "width": [1, 1]})


# --- generation ------------------------------------------------------------------------------


def _mix(bf: Battlefield) -> dict[str, int]:
    return {
        name: sum(rule.counts(p.traits) for p in bf.pieces)
        for name, rule in terrain_table().mix.items()
    }


def test_generation_is_deterministic_for_a_dice_sequence() -> None:
    first = generate_battlefield(SeededDice(11)).to_data()
    assert generate_battlefield(SeededDice(11)).to_data() == first
    assert generate_battlefield(SeededDice(12)).to_data() != first


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_table_has_the_mix_and_pieces_apart(seed: int) -> None:
    bf = generate_battlefield(SeededDice(seed))
    assert len(bf.pieces) == 22 and (bf.width, bf.depth) == (48, 48)
    mix = _mix(bf)
    assert mix["cover"] >= 3 and mix["difficult"] >= 3
    assert mix["dangerous"] >= 2 and mix["sight blockers"] >= 3
    for p in bf.pieces:
        assert p.area.is_valid and bf.table.covers(p.area)
        assert p.traits == terrain_kinds()[p.kind].traits
        low, high = terrain_kinds()[p.kind].height
        assert low <= p.height <= high
    for a, b in itertools.combinations(bf.pieces, 2):
        assert a.area.distance(b.area) >= 0.5 - 1e-9, (a.name, b.name)
    walls = [p for p in bf.pieces if p.has(Trait.IMPASSABLE)]
    for a, b in itertools.combinations(walls, 2):
        assert a.area.distance(b.area) >= 3 - 1e-9
    for p in walls:
        assert p.area.distance(bf.table.exterior) >= 3 - 1e-9
        corners = shapely.get_coordinates(p.area)
        assert max(math.dist(a, b) for a, b in itertools.combinations(corners, 2)) <= 6
        assert p.area.convex_hull.area == pytest.approx(p.area.area)


def test_a_small_table_still_fills_the_mix_first() -> None:
    for seed in SEEDS:
        mix = _mix(generate_battlefield(SeededDice(seed), pieces=11))
        assert mix["cover"] >= 3 and mix["difficult"] >= 3
        assert mix["dangerous"] >= 2 and mix["sight blockers"] >= 3


def test_every_roll_is_a_labelled_request_to_the_given_dice() -> None:
    dice = Recording(SeededDice(3))
    bf = generate_battlefield(dice)
    labels = [r.label for r in dice.requests]
    assert all(label.startswith("terrain ") for label in labels)
    assert sum(label.endswith(": kind") for label in labels) >= len(bf.pieces) - 1
    facings = [r for r in dice.requests if "facing" in r.label]
    assert facings and all(r.sides == 12 for r in facings)
    xs = [r for r in dice.requests if r.label.endswith(": x")]
    assert len(xs) >= len(bf.pieces) and all(r.sides >= 30 for r in xs)


# Kinds a lone piece is rolled among: all but the hill, which fills nothing in the mix.
LONE = ["forest", "ruins", "rubble", "crater_field", "barricade", "building", "pond"]
LONE += ["minefield", "wall"]
# building (6 of 9), length 4.5 (3 of d3), width 3 (1 of d2), height 6 (5 of d5),
# facing 90° (3 on d12), x 5.25 (1 of d39), y 43.5 (40 of d40)
BUILDING_NW = [6, 3, 1, 5, 3, 1, 40]


def test_scripted_dice_place_a_building_exactly() -> None:
    dice = Recording(ScriptedDice(BUILDING_NW))
    bf = generate_battlefield(dice, pieces=1)
    assert [r.sides for r in dice.requests] == [len(LONE), 3, 2, 5, 12, 39, 40]
    assert dice.requests[0].label == "terrain 1: kind"
    assert dice.requests[-1].label == "terrain 1, try 1: y"
    (building,) = bf.pieces
    assert building.kind == LONE[5] == "building" and building.name == "building 1"
    assert building.area.equals(shapely.box(3, 42, 7.5, 45))  # 4.5 east-west, 3" off the edges
    assert building.height == 6 and building.has(Trait.IMPASSABLE)


def test_scripted_dice_retry_a_piece_that_would_overlap() -> None:
    # second building 3.5 × 3 × 4 facing north: first at x 4.5, y 43.25 (overlaps), then at
    # x 43.5, y 43.25
    script = [*BUILDING_NW, 6, 1, 1, 1, 12, 1, 40, 12, 40, 40]
    dice = ScriptedDice(script)
    bf = generate_battlefield(dice, pieces=2)
    assert dice.remaining == 0
    assert bf.pieces[1].area.equals(shapely.box(42, 41.5, 45, 45))
    with pytest.raises(RuntimeError, match="terrain 2, try 2: y"):
        generate_battlefield(ScriptedDice(script[:-1]), pieces=2)


def test_battlefield_from_data_round_trips_and_names_its_errors() -> None:
    items: list[dict[str, Any]] = [
        {"kind": "forest", "polygon": [[2, 2], [8, 2], [8, 7], [2, 7]], "name": "Dark wood"},
        {"kind": "hill", "polygon": [[20, 20], [26, 20], [23, 25]], "height": 3},
    ]
    bf = Battlefield.from_data(items)
    assert bf.pieces[0].name == "Dark wood" and bf.pieces[0].has(Trait.DIFFICULT)
    assert bf.pieces[1].height == 3 and bf.pieces[1].name == "hill 2"
    assert Battlefield.from_data(bf.to_data()) == bf
    assert len(bf.index.near(shapely.box(0, 0, 10, 10))) == 1
    with pytest.raises(ValueError, match=r"unknown kind 'lava'; known kinds: forest, ruins"):
        Battlefield.from_data([{"kind": "lava", "polygon": [[0, 0], [1, 0], [1, 1]]}])
    off = [{"kind": "ruins", "polygon": [[45, 45], [50, 45], [50, 47]], "name": "Far ruin"}]
    with pytest.raises(ValueError, match=r"terrain piece 1 'Far ruin' lies off the 48\"×48\""):
        Battlefield.from_data(off)
    bowtie = [{"kind": "ruins", "polygon": [[0, 0], [4, 4], [4, 0], [0, 4]]}]
    with pytest.raises(ValueError, match="terrain piece 1: polygon is not a simple outline"):
        Battlefield.from_data(bowtie)
    with pytest.raises(ValueError, match="at least 3"):
        Battlefield.from_data([{"kind": "ruins", "polygon": [[0, 0], [4, 4]]}])
    with pytest.raises(ValueError, match="unknown field colour; allowed: kind, polygon, height"):
        Battlefield.from_data([{**items[0], "colour": "green"}])
    with pytest.raises(ValueError, match="height must be a number"):
        Battlefield.from_data([{**items[1], "height": -1}])


# --- deployment and scouting -------------------------------------------------------------------


def test_deployment_zones_are_within_12_inches_of_an_edge() -> None:
    assert deployment_zone("south").bounds == (0, 0, 48, 12)
    assert deployment_zone("north").bounds == (0, 36, 48, 48)
    assert deployment_zone("west").bounds == (0, 0, 12, 48)
    assert deployment_zone("east").bounds == (36, 0, 48, 48)
    assert [opposite(e) for e in ("north", "south", "east", "west")] == [
        "south",
        "north",
        "west",
        "east",
    ]
    assert deployment_zone("north").distance(deployment_zone(opposite("north"))) == 24


def test_smaller_tables_keep_armies_24_inches_apart() -> None:
    small = Battlefield(36, 30)
    assert small.deployment_zone("south").bounds == (0, 0, 36, 3)
    assert small.deployment_zone("west").bounds == (0, 0, 6, 30)
    assert small.deployment_zone("south").distance(small.deployment_zone("north")) == 24
    with pytest.raises(ValueError, match="no room to deploy 24"):
        deployment_zone("south", width=48, table_depth=24)


def test_scouts_deploy_within_12_inches_of_their_zone() -> None:
    assert scout_zone("south").bounds == (0, 0, 48, 24)
    assert scout_zone("east").bounds == (24, 0, 48, 48)
    assert Battlefield(36, 30).scout_zone("north").bounds == (0, 15, 36, 30)


# --- objectives --------------------------------------------------------------------------------

ZONES = [deployment_zone("south"), deployment_zone("north")]


def test_objective_placement_rules_each_give_their_reason() -> None:
    bf = table(piece("building", 20, 20, 24, 24))
    assert objective_problem((10, 24), [], ZONES, bf) is None
    off = objective_problem((49, 24), [], ZONES, bf)
    assert off is not None and "off the table" in off and '48"×48"' in off
    inside = objective_problem((22, 22), [], ZONES, bf)
    assert inside is not None and "impassable terrain (building)" in inside
    assert objective_problem((20, 22), [(40, 40)], [], bf) is None  # on its edge is fine
    zone = objective_problem((10, 11), [], ZONES, bf)
    assert zone is not None and "outside of deployment zones" in zone
    edge = objective_problem((10, 12), [], ZONES, bf)  # exactly 12" from the edge: inside
    assert edge is not None and "deployment zone" in edge
    assert objective_problem((10, 12.01), [], ZONES, bf) is None
    near = objective_problem((10, 24), [(19, 24)], ZONES, bf)
    assert near is not None and '9.00" from the marker at (19.00, 24.00)' in near
    assert 'over 9" away' in near
    assert objective_problem((10, 24), [(19.01, 24), (40, 30)], ZONES, bf) is None


def test_a_model_is_within_3_inches_of_a_marker_edge_to_edge() -> None:
    assert marker_within((10, 10), model(13.5, 10), 3)  # 3.5 to the centre, 3 to the edge
    assert not marker_within((10, 10), model(13.6, 10), 3)
    assert marker_within((10, 10), model(14, 10, 2.0), 3)
    assert not marker_within((10, 10), model(14.1, 10, 2.0), 3)
    tank = Base((10, 15), 2.0, 4.0)  # 4" deep, front edge 2" from its centre
    assert marker_within((10, 10), tank, 3) and not marker_within((10, 10), tank, 2.9)


# --- sight and cover ---------------------------------------------------------------------------

BUILDING = piece("building", 10, 10, 14, 14)
LONG_WALL = piece("wall", 10, 0, 11, 30)
THICK = TerrainPiece("wall", shapely.box(10, 0, 13, 30), frozenset({Trait.BLOCKS_SIGHT}))


def test_open_table_lines_are_clear() -> None:
    assert visibility(model(5, 5), model(40, 40), table()) == "clear"
    assert visibility(model(5, 15), model(20, 15), table(BUILDING)) == "clear"


def test_a_building_corner_obscures_the_centre_line_only() -> None:
    bf = table(BUILDING)
    shooter, target = model(6, 14.3), model(14.3, 6)  # centre line clips the (10, 10) corner
    assert line_blocked(shooter.centre, target.centre, bf)
    assert not line_blocked((6, 13.8), (13.8, 6), bf)
    assert visibility(shooter, target, bf) == "obscured" and can_see(shooter, target, bf)
    assert visibility(model(6, 13.5), model(13.5, 6), bf) == "clear"  # passes the corner


def test_a_target_wholly_behind_a_wall_is_hidden() -> None:
    bf = table(LONG_WALL)
    assert visibility(model(5, 15), model(20, 15), bf) == "hidden"
    assert not can_see(model(5, 15), model(20, 15), bf)
    assert visibility(model(5, 29), model(20, 30.6), bf) == "obscured"  # over its end
    assert visibility(model(5, 29), model(20, 30.4), bf) == "hidden"


def test_a_model_inside_a_sight_blocker_sees_only_from_its_points_outside() -> None:
    bf = table(THICK)
    assert visibility(model(20, 15), model(11.5, 15), bf) == "hidden"  # wholly inside
    straddling = model(12.8, 15)  # centre inside, east edge outside
    assert visibility(model(20, 15), straddling, bf) == "obscured"
    assert visibility(straddling, model(20, 15), bf) == "obscured"
    assert visibility(model(5, 15), straddling, bf) == "hidden"  # from the west: through it


def test_sight_lines_agree_with_the_core_sight_line() -> None:
    ell = TerrainPiece(
        "wall",
        shapely.Polygon([(30, 30), (36, 30), (36, 31), (31, 31), (31, 36), (30, 36)]),
        frozenset({Trait.BLOCKS_SIGHT}),
    )
    bf = Battlefield(48, 48, (*generate_battlefield(SeededDice(5)).pieces, ell))
    rng = np.random.default_rng(0)
    ends = rng.uniform(0, 48, (600, 4))
    ends[:20] = [20, 10, 20, 40] * np.ones((20, 4)) + np.arange(20)[:, None] * [1, 0, 1, 0]
    got = [line_blocked((a, b), (c, d), bf) for a, b, c, d in ends]
    want = [not sight_line((a, b), (c, d), bf.index).clear for a, b, c, d in ends]
    assert got == want and 50 < sum(got) < 550
    only = table(ell)
    assert line_blocked((29, 33), (33, 33), only) and not line_blocked((29, 30), (40, 30), only)
    assert not line_blocked((32, 33), (40, 33), only)  # from inside the L's notch, outward
    assert line_blocked((30.5, 29), (30.5, 32), only)  # ends inside it


FOREST = piece("forest", 20, 20, 30, 30)
SHOOTERS = [model(24, 40 + i * 1.25) for i in range(3)]


def test_cover_needs_most_models_fully_inside_cover_terrain() -> None:
    bf = table(FOREST)
    inside = [model(21 + i * 1.5, 25) for i in range(3)]
    out = [model(35, 25), model(36.5, 25)]
    assert unit_in_cover(inside + out, SHOOTERS, bf)  # 3 of 5
    assert not unit_in_cover(inside[:2] + out + [model(29.8, 22)], SHOOTERS, bf)  # 2 of 5
    assert not unit_in_cover(inside[:2] + out[:2], SHOOTERS, bf)  # half is not most
    assert in_cover_terrain(model(20.5, 25), bf)  # touching the edge from inside
    assert not in_cover_terrain(model(20.49, 25), bf)


def test_a_single_model_needs_to_be_mostly_inside() -> None:
    bf = table(FOREST)
    assert unit_in_cover([model(20.1, 25)], SHOOTERS, bf)  # 60% inside
    assert not unit_in_cover([model(19.9, 25)], SHOOTERS, bf)  # 40% inside
    assert in_cover_terrain(model(20, 25), bf, mostly=True)  # exactly half
    assert not in_cover_terrain(model(20, 25), bf)
    squad = [model(20.1, 25), model(21.5, 25, 1.0)]
    assert not unit_in_cover(squad, SHOOTERS, bf)  # two models: one fully inside of two


def test_adjoining_cover_pieces_count_together() -> None:
    bf = table(piece("ruins", 10, 10, 15, 15), piece("ruins", 15, 10, 20, 15))
    assert in_cover_terrain(model(15, 12), bf)
    assert in_cover_terrain(Base((15, 12), 2.0, 1.0, 90.0), bf)
    assert not in_cover_terrain(Base((19.8, 12), 2.0, 1.0, 90.0), bf)


def test_models_behind_sight_blockers_get_cover_unless_indirect() -> None:
    bf = table(LONG_WALL)
    shooters = [model(5, 10 + i * 1.25) for i in range(3)]
    behind = [model(15, 12 + i * 1.25) for i in range(4)]
    assert behind_sight_blockers(behind, shooters, bf) == [True] * 4
    assert unit_in_cover(behind, shooters, bf)
    assert not unit_in_cover(behind, shooters, bf, sight_blockers=False)
    # two of four stand on the shooters' side of the wall
    spread = [*behind[:2], model(8, 20), model(8, 21.5)]
    assert behind_sight_blockers(spread, shooters, bf) == [True, True, False, False]
    assert not unit_in_cover(spread, shooters, bf)
    # a single model: a clear line from any shooter model takes its cover away
    lone = [model(15, 30.2)]
    assert not behind_sight_blockers(lone, [*shooters, model(5, 31)], bf)[0]
    assert unit_in_cover(lone, shooters, bf)
    with pytest.raises(ValueError, match="at least one"):
        unit_in_cover([], shooters, bf)


# --- movement ------------------------------------------------------------------------------------

MOVE_TABLE = table(
    FOREST,
    piece("building", 30, 5, 34, 9),
    piece("minefield", 5, 30, 10, 35),
)


def _move(points: Sequence[Point], allowance: float, **kw: bool) -> str | None:
    return move_problem(model(*points[0]), Path.of(points), allowance, MOVE_TABLE, **kw)


def test_moves_up_to_the_allowance_in_the_open() -> None:
    assert _move([(2, 2), (2, 14)], 12) is None
    too_far = _move([(2, 2), (2, 14.5)], 12)
    assert too_far is not None and '12.50" long' in too_far and 'at most 12"' in too_far
    assert _move([(2, 2), (8, 2), (8, 8)], 12) is None
    start = move_problem(model(3, 3), Path.of([(2, 2), (2, 8)]), 12, MOVE_TABLE)
    assert start is not None and "the model stands at (3.00, 3.00)" in start


def test_difficult_terrain_caps_the_move_at_6_inches() -> None:
    through = [(15, 25), (23, 25)]  # 8" into the forest
    problem = _move(through, 12)
    assert problem is not None and "difficult terrain (forest)" in problem and '6"' in problem
    assert _move([(15, 25), (21, 25)], 12) is None  # 6" in total is fine
    assert _move(through, 12, strider=True) is None
    assert _move(through, 12, flying=True) is None
    # the base enters the forest although its centre stays 0.4" outside
    skim = [(15, 19.6), (27, 19.6)]
    assert moves_through_difficult(model(15, 19.6), Path.of(skim), MOVE_TABLE)
    assert _move(skim, 12) is not None
    grazing = [(15, 19.5), (27, 19.5)]  # the base only touches its edge
    assert not moves_through_difficult(model(15, 19.5), Path.of(grazing), MOVE_TABLE)
    assert _move(grazing, 12) is None
    leaving = [(25, 25), (25, 37)]  # starts inside: moving through it at some point
    assert _move(leaving, 12) is not None


def test_impassable_terrain_blocks_all_but_flying() -> None:
    across = [(28, 7), (36, 7)]
    problem = _move(across, 12)
    assert problem is not None and "impassable terrain (building)" in problem
    assert _move(across, 12, flying=True) is None
    ends_in = _move([(28, 7), (31, 7)], 12, flying=True)
    assert ends_in is not None and "end inside impassable terrain" in ends_in
    assert _move([(28, 4.5), (36, 4.5)], 12) is None  # brushing past its south side
    assert _move([(29.5, 7), (29.4, 7)], 12) is None  # touching its wall


def test_the_base_stays_on_the_table() -> None:
    off = _move([(2, 2), (2, 0.4)], 12)
    assert off is not None and 'stay on the 48"×48" table' in off
    assert _move([(2, 2), (0.5, 0.5)], 12) is None
    assert _move([(1, 2), (-3, 10), (1, 18)], 20, flying=True) is not None


def test_dangerous_terrain_crossed_or_stood_in() -> None:
    bf = MOVE_TABLE
    assert crosses_dangerous(model(2, 32), Path.of([(2, 32), (12, 32)]), bf)
    assert not crosses_dangerous(model(2, 29.5), Path.of([(2, 29.5), (12, 29.5)]), bf)
    assert crosses_dangerous(model(2, 29.6), Path.of([(2, 29.6), (12, 29.6)]), bf)
    assert in_dangerous(model(10.4, 32), bf) and not in_dangerous(model(10.5, 32), bf)
    assert not crosses_dangerous(model(20, 40), Path.of([(20, 40), (12, 40)]), bf)


# --- coherency and formations --------------------------------------------------------------------


def test_coherent_names_the_broken_rule() -> None:
    assert coherent([model(0, 0)]) is None
    assert coherent([model(i * 1.5, 0) for i in range(5)]) is None
    lonely = coherent([model(0, 0), model(1.5, 0), model(4, 0)])
    assert lonely is not None and 'model 3 at (4.00, 0.00) is 1.50"' in lonely
    assert 'within 1" of at least one other member' in lonely
    chain = coherent([model(i * 1.9, 0) for i in range(5)])  # 7.6" end to end
    assert chain is not None and 'models 1 and 5 are 6.60" apart' in chain
    assert 'within 6" of all other members' in chain
    tanks = [Base((0, 0), 2.0, 4.0), Base((3, 0), 2.0, 4.0)]  # 1" apart side by side
    assert coherent(tanks) is None
    assert coherent([tanks[0], Base((3.1, 0), 2.0, 4.0)]) is not None


def _check_formation(spots: list[Point] | None, count: int, size: float, bf: Battlefield) -> None:
    """`count` bases of diameter `size`, coherent, not overlapping, on the table and out of
    impassable terrain."""
    assert spots is not None and len(spots) == count
    bases = [Base(s, size) for s in spots]
    assert coherent(bases) is None
    for a, b in itertools.combinations(bases, 2):
        assert math.dist(a.centre, b.centre) >= size - 1e-9
    for b in bases:
        assert size / 2 - 1e-9 <= b.centre[0] <= bf.width - size / 2 + 1e-9
        assert size / 2 - 1e-9 <= b.centre[1] <= bf.depth - size / 2 + 1e-9
        for p in bf.pieces:
            if p.has(Trait.IMPASSABLE):
                assert p.area.distance(shapely.Point(b.centre)) >= size / 2 - 1e-6


@pytest.mark.parametrize(("size", "most"), [(1.0, 20), (1.26, 20), (2.0, 13)])
def test_arrange_keeps_coherency_for_1_to_20_models(size: float, most: int) -> None:
    bf = table()
    assert arrange((24, 24), most + 1, size, bf) is None or most == 20
    for count in range(1, most + 1):
        spots = arrange((24, 24), count, size, bf)
        _check_formation(spots, count, size, bf)
        assert spots is not None
        middle = np.mean(spots, axis=0)
        assert math.dist(middle, (24, 24)) < size  # around the centre asked for
    assert arrange((24, 24), 0, 1.0, bf) == []


def test_arrange_makes_a_near_square_grid() -> None:
    spots = arrange((24, 24), 9, 1.0, table(), gap=0.5)
    assert spots is not None
    assert sorted({round(x, 6) for x, _ in spots}) == [22.5, 24, 25.5]
    assert sorted({round(y, 6) for _, y in spots}) == [22.5, 24, 25.5]


def test_arrange_avoids_buildings_edges_and_occupied_bases() -> None:
    building = piece("building", 22, 22, 26, 26)
    bf = table(building)
    spots = arrange((24, 24), 10, 1.0, bf)  # asked for right on the building
    _check_formation(spots, 10, 1.0, bf)
    assert spots is not None
    assert all(building.area.distance(shapely.Point(s)) >= 0.5 - 1e-9 for s in spots)
    corner = arrange((0, 0), 5, 1.0, bf)
    _check_formation(corner, 5, 1.0, bf)
    others = [model(24 + dx, 10 + dy) for dx in (-1.5, 0, 1.5) for dy in (-1.5, 0, 1.5)]
    crowd = arrange((24, 10), 5, 1.0, bf, occupied=others)
    _check_formation(crowd, 5, 1.0, bf)
    assert crowd is not None
    for s, o in itertools.product(crowd, others):
        assert math.dist(s, o.centre) >= 1 - 1e-9
    tank = Base((10, 10), 3.0, 5.0)
    beside = arrange((10, 10), 4, 1.0, bf, occupied=[tank])
    _check_formation(beside, 4, 1.0, bf)
    assert beside is not None
    assert all(tank.shape().distance(shapely.Point(s)) >= 0.5 - 1e-9 for s in beside)


def test_arrange_stays_inside_a_deployment_zone() -> None:
    zone = deployment_zone("south")
    spots = arrange((24, 11.5), 10, 1.0, table(), inside=zone)
    _check_formation(spots, 10, 1.0, table())
    assert spots is not None and all(y <= 11.5 + 1e-9 for _, y in spots)


def test_arrange_returns_none_when_nothing_fits() -> None:
    assert arrange((2, 2), 20, 1.0, Battlefield(4, 4)) is None
    assert arrange((24, 24), 5, 1.0, table(), gap=1.5) is None  # no neighbour within 1"
    # a closed ring of bases leaves room for one model in its middle
    turns = np.arange(0, 2 * math.pi, 0.3)
    ring = [model(24 + 1.5 * math.sin(t), 24 + 1.5 * math.cos(t)) for t in turns]
    assert arrange((24, 24), 2, 1.0, table(), occupied=ring, max_shift=1.0) is None
    assert arrange((24, 24), 1, 1.0, table(), occupied=ring, max_shift=1.0) == [(24, 24)]
    assert arrange((24, 24), 2, 1.0, table(), occupied=ring) is not None  # outside the ring
    with pytest.raises(ValueError, match="count >= 0"):
        arrange((24, 24), -1, 1.0, table())
