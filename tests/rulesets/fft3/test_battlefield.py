"""A Fistful of TOWs 3: Terrain, Movement cost, sight and the artillery template's sight line,
scenario terrain and the battlefield generator (battlefield.py)."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from typing import Any

import pytest
import shapely

from warbench.core.dice import DiceSource, RollRequest, SeededDice
from warbench.core.geometry import Path, sight_line
from warbench.core.terrain import Trait
from warbench.rulesets.fft3.battlefield import (
    DIFFICULT_KINDS,
    DIFFICULT_TRAITS,
    ROAD_TRAITS,
    Battlefield,
    Point,
    from_data,
    generate,
)

WOODS_A = [[10, 10], [20, 10], [20, 20], [10, 20]]
WOODS_B = [[40, 10], [50, 10], [50, 20], [40, 20]]  # a road runs through it, north to south
TERRAIN: list[dict[str, Any]] = [
    {"kind": "woods", "polygon": WOODS_A},
    {"kind": "woods", "polygon": WOODS_B, "name": "Big Wood"},
    {"kind": "road", "line": [[0, 30], [72, 30]]},
    {"kind": "road", "line": [[45, 0], [45, 48]]},
]


@pytest.fixture(scope="module")
def bf() -> Battlefield:
    return from_data(TERRAIN, 72, 48)


class Recording:
    """A dice source that remembers every request it is sent."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.requests: list[RollRequest] = []

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        self.requests.append(request)
        return self.dice.faces(request)


# --- Movement ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "vehicle", "mp"),
    [
        ((60, 5), (70, 5), True, 10.0),  # open: 1" per MP
        ((60, 5), (70, 5), False, 10.0),
        ((11, 12), (19, 12), True, 16.0),  # vehicles in difficult: ½" per MP
        ((11, 12), (19, 12), False, 8.0),  # infantry in difficult: 1" per MP
        ((20, 30), (30, 30), True, 5.0),  # roads: 2" per MP
        ((20, 30), (30, 30), False, 5.0),
        ((45, 11), (45, 19), True, 4.0),  # a road through woods: the road wins
        ((5, 15), (25, 15), True, 30.0),  # 5 open + 10 woods × 2 + 5 open
        ((5, 15), (25, 15), False, 20.0),
        ((5, 15), (15, 15), True, 15.0),  # ends in the woods
        ((35, 15), (55, 15), True, 28.5),  # 5 open, 4.5 woods, 1 road, 4.5 woods, 5 open
        ((35, 15), (55, 15), False, 19.5),
        ((60, 25), (60, 35), True, 9.5),  # across a road: 4.5 + 1 × ½ + 4.5
        ((10, 10), (20, 10), True, 10.0),  # along the woods' edge: not in the woods
        ((15, 15), (15, 15), True, 0.0),
    ],
)
def test_leg_cost(bf: Battlefield, a: Point, b: Point, vehicle: bool, mp: float) -> None:
    assert bf.leg_cost(a, b, vehicle=vehicle) == pytest.approx(mp, abs=1e-9)


def test_leg_cost_on_an_open_table_is_the_distance() -> None:
    assert Battlefield(72, 48).leg_cost((1, 2), (4, 6), vehicle=True) == pytest.approx(5.0)


@pytest.mark.parametrize(
    ("a", "b", "vehicle", "mp", "inches"),
    [
        ((5, 15), (25, 15), True, 9.0, 7.0),  # 5" open for 5 MP, then 2" of woods for 4 MP
        ((5, 15), (25, 15), True, 30.0, 20.0),  # exactly affordable: the whole leg
        ((5, 15), (25, 15), True, 100.0, 20.0),
        ((5, 15), (25, 15), True, 0.0, 0.0),
        ((5, 15), (25, 15), False, 9.0, 9.0),
        ((20, 30), (30, 30), False, 2.0, 4.0),  # on a road
        ((35, 15), (55, 15), True, 14.5, 10.5),  # 5 open + 4.5 woods = 14 MP, then ½ MP of road
    ],
)
def test_reach_clamps_a_move(
    bf: Battlefield, a: Point, b: Point, vehicle: bool, mp: float, inches: float
) -> None:
    assert bf.reach(a, b, mp, vehicle=vehicle) == pytest.approx(inches, abs=1e-9)


def test_reach_of_an_affordable_leg_is_exactly_its_length(bf: Battlefield) -> None:
    a, b = (3.3, 14.1), (27.7, 16.9)
    assert bf.reach(a, b, bf.leg_cost(a, b, vehicle=True), vehicle=True) == math.dist(a, b)


# --- Terrain: in difficult terrain, on a road, on the table ------------------------------------


def test_in_difficult_by_the_centre_edge_included(bf: Battlefield) -> None:
    assert bf.in_difficult((15, 15))
    assert bf.in_difficult((10, 15))  # on the edge
    assert bf.in_difficult((20, 20))  # on a corner
    assert not bf.in_difficult((9.99, 15))
    assert bf.in_difficult((45, 15))  # on the road through the woods: still in the woods
    assert not bf.in_difficult((45, 25))


def test_on_road(bf: Battlefield) -> None:
    assert bf.on_road((45, 25))
    assert bf.on_road((44.5, 25))  # the road's edge
    assert not bf.on_road((44.4, 25))
    assert bf.on_road((45, 15))
    assert not Battlefield(72, 48).on_road((45, 25))


def test_on_table_means_the_whole_base(bf: Battlefield) -> None:
    assert bf.on_table((0.5, 0.5), 0.5)
    assert bf.on_table((71.5, 47.5), 0.5)
    assert not bf.on_table((0.4, 5), 0.5)
    assert not bf.on_table((72, 24), 0.5)
    assert not bf.on_table((30, 47.6), 0.5)


# --- sight ---------------------------------------------------------------------------------------


def test_woods_between_block_sight(bf: Battlefield) -> None:
    assert not bf.can_see((5, 15), 0.5, (25, 15), 0.5)
    assert bf.can_see((5, 25), 0.5, (25, 25), 0.5)  # in the open
    assert Battlefield(72, 48).can_see((5, 15), 0.5, (25, 15), 0.5)


def test_stands_at_the_edges_of_two_woods_see_each_other(bf: Battlefield) -> None:
    assert bf.can_see((20, 15), 0.5, (40, 15), 0.5)
    assert bf.can_see((19.5, 15), 0.5, (40.5, 15), 0.5)


def test_a_stand_15_inside_sees_out_and_is_seen(bf: Battlefield) -> None:
    inside, outside = (11.5, 15), (2, 15)
    assert bf.can_see(inside, 0.5, outside, 0.5)
    assert bf.can_see(outside, 0.5, inside, 0.5)
    assert bf.can_see((12, 15), 0.5, outside, 0.5)  # 2" in: still seen


def test_a_stand_3_inside_is_not_seen(bf: Battlefield) -> None:
    inside, outside = (13, 15), (2, 15)
    assert not bf.can_see(inside, 0.5, outside, 0.5)
    assert not bf.can_see(outside, 0.5, inside, 0.5)


def test_stands_in_one_wood_see_2_into_it(bf: Battlefield) -> None:
    assert bf.can_see((12, 15), 0.5, (13.5, 15), 0.5)
    assert not bf.can_see((12, 15), 0.5, (15, 15), 0.5)


def test_a_road_does_not_open_sight_through_woods(bf: Battlefield) -> None:
    assert not bf.can_see((45, 15), 0.5, (45, 25), 0.5)  # 5" of woods along the road
    assert bf.can_see((45, 18.5), 0.5, (45, 25), 0.5)  # 1.5" in


def test_any_part_to_any_part_sees_past_a_wood_edge(bf: Battlefield) -> None:
    a, b = (5, 19.8), (25, 19.8)  # the centre line runs 0.2" inside the woods' north edge
    assert not sight_line(a, b, bf.pieces, see_into=2).clear
    assert bf.can_see(a, 0.5, b, 0.5)  # the left-hand rims' line passes north of the woods
    assert not bf.can_see(a, 0.1, b, 0.1)  # small bases: every line runs inside


def test_any_part_to_any_part_sees_past_a_corner(bf: Battlefield) -> None:
    a, b = (12, 27.5), (27.5, 12)  # the centre line clips 0.7" off the woods' corner
    assert not bf.can_see(a, 0.0, b, 0.0)
    assert bf.can_see(a, 0.5, b, 0.5)
    assert bf.can_see(b, 0.5, a, 0.5)


def test_artillery_template_needs_sight_to_some_part(bf: Battlefield) -> None:
    spotter = (2, 15)
    assert bf.sees_template(spotter, 0.5, (8, 30))
    assert bf.sees_template(spotter, 0.5, (11.5, 15))  # 1.5" into the woods
    assert not bf.sees_template(spotter, 0.5, (14, 15))
    assert not bf.sees_template(spotter, 0.5, (25, 15))  # behind the woods
    assert bf.sees_template((5, 19.8), 0.5, (25, 19.8))  # the template's rim shows past them


def test_remembered_answers_belong_to_their_battlefield(bf: Battlefield) -> None:
    assert not bf.can_see((5, 15), 0.5, (25, 15), 0.5)
    bare = replace(bf, pieces=())
    assert bare.can_see((5, 15), 0.5, (25, 15), 0.5)
    assert bare.leg_cost((11, 12), (19, 12), vehicle=True) == pytest.approx(8.0)
    assert from_data(TERRAIN, 72, 48) == bf


# --- the same answers as the core geometry -------------------------------------------------------


def _core_rate(vehicle: bool) -> Any:
    def rate(kinds: frozenset[str]) -> float:
        if "road" in kinds:
            return 0.5
        return 2.0 if vehicle and kinds & set(DIFFICULT_KINDS) else 1.0

    return rate


@pytest.mark.parametrize("seed", range(4))
def test_sight_and_cost_agree_with_core_geometry(seed: int) -> None:
    bf = generate(SeededDice(seed))
    blockers = [p for p in bf.pieces if p.has(Trait.BLOCKS_SIGHT)]
    rng = random.Random(seed)
    corners = [c for p in blockers for c in p.area.exterior.coords]
    for n in range(120):
        a: Point = (rng.uniform(0, 72), rng.uniform(0, 48))
        b: Point = (rng.uniform(0, 72), rng.uniform(0, 48))
        if n % 3 == 0:  # from a corner of a piece: edges and vertices on the line
            a = rng.choice(corners)
        assert bf.can_see(a, 0.0, b, 0.0) == sight_line(a, b, blockers, see_into=2).clear
        for vehicle in (True, False):
            core = Path.of([a, b]).cost(bf.pieces, _core_rate(vehicle))
            assert bf.leg_cost(a, b, vehicle=vehicle) == pytest.approx(core, abs=1e-6)


# --- scenario terrain ----------------------------------------------------------------------------


def test_from_data_builds_difficult_pieces_and_roads(bf: Battlefield) -> None:
    kinds = [(p.kind, p.name, p.traits) for p in bf.pieces]
    assert kinds == [
        ("woods", "woods 1", DIFFICULT_TRAITS),
        ("woods", "Big Wood", DIFFICULT_TRAITS),
        ("road", "road 3", ROAD_TRAITS),
        ("road", "road 4", ROAD_TRAITS),
    ]
    assert {Trait.DIFFICULT, Trait.BLOCKS_SIGHT} == DIFFICULT_TRAITS
    road = bf.pieces[3].area
    assert road.bounds == pytest.approx((44.5, 0.0, 45.5, 48.0))  # 1" wide, clipped to the table


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([{"kind": "hill", "polygon": WOODS_A}], r"terrain entry 1: kind 'hill' is not one of "),
        ([{"kind": "woods", "polygon": WOODS_A}, {"kind": "town"}], r"entry 2 \(town\): 'polygon'"),
        ([{"kind": "swamp", "polygon": [[0, 0], [5, 5], [5, 0], [0, 5]]}], r"not a simple outline"),
        ([{"kind": "rough", "polygon": [[0, 0], [5, "x"], [5, 5]]}], r"point \[5, 'x'\] of"),
        ([{"kind": "woods", "polygon": [[70, 0], [80, 0], [75, 5]]}], r"\[80.0, 0.0\] lies off"),
        ([{"kind": "road", "line": [[0, 30]]}], r"entry 1 \(road\): 'line' must be a list of at"),
        ([{"kind": "road", "line": [[0, 3], [0, 3], [9, 3]]}], r"'line' repeats a point"),
        (
            [{"kind": "road", "polygon": WOODS_A}],
            "unknown field polygon; allowed: kind, line",
        ),
        ([{"kind": "town", "polygon": WOODS_A, "name": 3}], r"entry 1 \(town\): name must be"),
        (["woods"], r"terrain entry 1 must be a mapping"),
    ],
)
def test_from_data_errors_name_the_entry_and_what_is_allowed(
    data: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(ValueError, match=message) as error:
        from_data(data, 72, 48)
    if "kind 'hill'" in message:
        assert str(error.value).endswith("woods, town, swamp, rough, road")


# --- generation ----------------------------------------------------------------------------------


def _shapes(bf: Battlefield) -> list[tuple[str, str, str]]:
    return [(p.kind, p.name, p.area.wkt) for p in bf.pieces]


def test_generation_is_deterministic_for_a_seed() -> None:
    assert _shapes(generate(SeededDice(11))) == _shapes(generate(SeededDice(11)))
    assert generate(SeededDice(11)) == generate(SeededDice(11))
    assert _shapes(generate(SeededDice(1))) != _shapes(generate(SeededDice(2)))


def test_generation_rolls_labelled_dice() -> None:
    dice = Recording(SeededDice(5))
    generate(dice)
    labels = [r.label for r in dice.requests]
    assert labels[0] == "terrain: difficult pieces (d6+5)"
    assert labels[1] == "terrain 1: kind (d4: woods, town, swamp, rough)"
    assert "terrain: roads (d3-1)" in labels
    assert all(label for label in labels)


@pytest.mark.parametrize(("width", "depth"), [(72.0, 48.0), (24.0, 24.0), (96.0, 60.0)])
def test_generated_tables_follow_our_rules(width: float, depth: float) -> None:
    table = shapely.box(0, 0, width, depth)
    kinds: set[str] = set()
    road_counts: set[int] = set()
    for seed in range(30):
        bf = generate(SeededDice(seed), width=width, depth=depth)
        assert (bf.width, bf.depth) == (width, depth)
        difficult = [p for p in bf.pieces if p.kind != "road"]
        roads = [p for p in bf.pieces if p.kind == "road"]
        assert bf.pieces == (*difficult, *roads)
        assert len(difficult) <= 11
        assert len(roads) <= 2
        kinds |= {p.kind for p in difficult}
        road_counts.add(len(roads))
        for piece in bf.pieces:
            area = piece.area
            assert area.geom_type == "Polygon" and area.is_valid and area.area > 0
            assert table.covers(area)
            coords = shapely.get_coordinates(area)
            assert abs(coords * 100 - (coords * 100).round()).max() < 1e-6  # on a 0.01" grid
        for piece in difficult:
            assert piece.traits == DIFFICULT_TRAITS
            x0, y0, x1, y1 = piece.area.bounds
            assert y0 >= 6 - 1e-9 and y1 <= depth - 6 + 1e-9  # at most 2" into the 8" strips
            centre = piece.area.centroid
            assert 10 - 0.01 <= centre.y <= depth - 10 + 0.01  # centres clear of the strips
            corners = shapely.get_coordinates(piece.area)
            across = max(math.dist(p, q) for p, q in itertools.combinations(corners, 2))
            assert 3.5 <= across <= 12.02  # 4" to 12" pieces (ovals inscribed, corners rounded)
        for one, other in itertools.combinations(difficult, 2):
            assert one.area.distance(other.area) >= 1 - 1e-9
        for road in roads:
            assert road.traits == ROAD_TRAITS
            x0, y0, x1, y1 = road.area.bounds
            assert (x0, x1) == (0, width) or (y0, y1) == (0, depth)  # edge to opposite edge
    assert len(road_counts) > 1
    if width >= 72:
        assert kinds == set(DIFFICULT_KINDS)
        assert road_counts == {0, 1, 2}
