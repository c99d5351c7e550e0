"""Continuous-table geometry: bases, arcs, templates, paths and sight lines."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely import affinity

from warbench.core.geometry import (
    Base,
    Path,
    Point,
    TerrainIndex,
    arc,
    bases_under,
    bearing,
    centre_distance,
    circle_template,
    edge_distance,
    in_arc,
    sight_clear,
    sight_line,
    turn_between,
    within,
)
from warbench.core.terrain import TerrainPiece, Trait


def box(x0: float, y0: float, x1: float, y1: float) -> shapely.Polygon:
    return shapely.box(x0, y0, x1, y1)


WOODS = TerrainPiece("woods", box(4, -1, 6, 1), frozenset({Trait.BLOCKS_SIGHT, Trait.DIFFICULT}))
HEDGE = TerrainPiece("hedge", box(2, -3, 2.5, 3), frozenset({Trait.SOFT_COVER}))


def round_base(x: float, y: float, width: float = 1.0) -> Base:
    return Base((x, y), width)


# --- bases and distances ---------------------------------------------------------------------


def test_round_bases_five_apart_are_four_apart_edge_to_edge() -> None:
    a, b = round_base(0, 0), round_base(3, 4)
    assert centre_distance(a, b) == 5.0
    assert edge_distance(a, b) == pytest.approx(4.0, abs=1e-12)
    assert within(a, b, 4.0)
    assert not within(a, b, 3.99)


def test_overlapping_bases_are_zero_apart() -> None:
    assert edge_distance(round_base(0, 0), round_base(0.5, 0)) == 0.0


def test_within_allows_float_noise_but_no_more() -> None:
    assert within(round_base(0, 0), round_base(1 + 1e-12, 0), 0.0)
    assert not within(round_base(0, 0), round_base(1.001, 0), 0.0)


def test_round_to_rectangle_distance_follows_facing() -> None:
    tank = Base((0, 0), width=4, depth=2)  # 4 wide along x, 2 deep along y when facing 0
    figure = round_base(0, 3)
    assert edge_distance(tank, figure) == pytest.approx(1.5)
    assert edge_distance(tank.moved((0, 0), facing=90), figure) == pytest.approx(0.5)


def test_rectangle_shape_is_turned_clockwise_to_its_facing() -> None:
    stand = Base((10, 10), width=4, depth=2, facing=90)  # front edge faces +x
    shape = stand.shape()
    assert shape.bounds == pytest.approx((9, 8, 11, 12))
    assert shape.area == pytest.approx(8)
    tilted = Base((10, 10), width=4, depth=2, facing=30).shape()
    upright = Base((10, 10), width=4, depth=2).shape()
    expected = affinity.rotate(upright, -30, origin=(10, 10))  # shapely turns anticlockwise
    assert tilted.equals_exact(expected, tolerance=1e-9)
    # the front edge's midpoint lies 1 along the facing from the centre
    front = (10 + math.sin(math.radians(30)), 10 + math.cos(math.radians(30)))
    assert tilted.boundary.distance(shapely.Point(front)) < 1e-9


def test_round_shape_has_its_diameter() -> None:
    shape = round_base(2, 3, width=2).shape()
    assert shape.bounds == pytest.approx((1, 2, 3, 4))
    assert shape.area == pytest.approx(math.pi, rel=1e-3)


def test_moved_keeps_or_changes_the_facing() -> None:
    base = Base((0, 0), 2, 1, facing=45)
    assert base.moved((3, 4)) == Base((3, 4), 2, 1, facing=45)
    assert base.moved((3, 4), facing=90).facing == 90
    assert base.centre == (0, 0)


@pytest.mark.parametrize(("width", "depth"), [(0, None), (-1, None), (1, 0)])
def test_base_needs_a_positive_size(width: float, depth: float | None) -> None:
    with pytest.raises(ValueError, match="positive size"):
        Base((0, 0), width, depth)


# --- bearings and turns ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("to", "expected"),
    [((0, 1), 0), ((1, 0), 90), ((0, -1), 180), ((-1, 0), 270), ((1, 1), 45), ((-1, 1), 315)],
)
def test_bearing_is_a_compass_bearing(to: Point, expected: float) -> None:
    assert bearing((0, 0), to) == pytest.approx(expected)


def test_bearing_never_returns_360() -> None:
    assert bearing((0, 0), (-1e-300, 1)) == 0.0


@pytest.mark.parametrize(
    ("f1", "f2", "expected"),
    [(350, 10, 20), (10, 350, 20), (90, 270, 180), (0, 720, 0), (-90, 90, 180), (0, 90, 90)],
)
def test_turn_between_is_the_smallest_turn(f1: float, f2: float, expected: float) -> None:
    assert turn_between(f1, f2) == pytest.approx(expected)


# --- arcs ------------------------------------------------------------------------------------


def at(origin: Point, compass: float, distance: float) -> Point:
    rad = math.radians(compass)
    return origin[0] + distance * math.sin(rad), origin[1] + distance * math.cos(rad)


def test_front_arc_sector() -> None:
    stand = Base((0, 0), 2, 1, facing=0)
    front = arc(stand, stand.facing, 120, 10)
    assert front.area == pytest.approx(math.pi * 100 / 3, rel=1e-3)
    assert front.contains(shapely.Point(at((0, 0), 59, 5)))
    assert front.contains(shapely.Point(at((0, 0), -59, 5)))
    assert not front.contains(shapely.Point(at((0, 0), 61, 5)))
    assert not front.contains(shapely.Point(0, -1))
    assert not front.contains(shapely.Point(0, 10.5))
    assert arc(stand, 0, 360, 10).area == pytest.approx(math.pi * 100, rel=1e-3)


@pytest.mark.parametrize(("width", "radius"), [(0, 1), (361, 1), (90, 0)])
def test_arc_rejects_bad_sizes(width: float, radius: float) -> None:
    with pytest.raises(ValueError, match="arc needs"):
        arc(round_base(0, 0), 0, width, radius)


@pytest.mark.parametrize(
    ("compass", "wholly", "partly"),
    [
        (0, True, True),
        (55, True, True),  # 10·sin 5° = 0.87 from the edge of the arc: more than the radius
        (62, False, True),  # centre 0.35 outside the edge: the base straddles it
        (-62, False, True),
        (65, False, False),  # 0.87 outside
        (180, False, False),
    ],
)
def test_front_arc_membership(compass: float, wholly: bool, partly: bool) -> None:
    stand = Base((0, 0), 2, 1, facing=0)
    target = Base(at((0, 0), compass, 10), 1.0)
    assert in_arc(stand, target, stand.facing, 120, wholly=True) is wholly
    assert in_arc(stand, target, stand.facing, 120, wholly=False) is partly


def test_arc_follows_the_stand_facing_and_reaches_far() -> None:
    stand = Base((0, 0), 2, 1, facing=90)
    far_east = Base((500, 0), 2, 1, facing=0)
    assert in_arc(stand, far_east, stand.facing, 120, wholly=True)
    assert not in_arc(stand, far_east, stand.facing + 180, 120, wholly=False)
    straddling = Base((10, 10 * math.tan(math.radians(60))), 2, 1)  # centre on the arc's edge
    assert in_arc(stand, straddling, stand.facing, 120, wholly=False)
    assert not in_arc(stand, straddling, stand.facing, 120, wholly=True)


# --- templates -------------------------------------------------------------------------------


def test_bases_under_a_burst() -> None:
    burst = circle_template((0, 0), 3)
    bases = {
        "centre": round_base(0, 0),
        "edge": round_base(3.4, 0),  # reaches in to 2.9
        "clear": round_base(0, 3.6),  # nearest edge at 3.1
        "tank": Base((0, -4.5), 4, 2),  # near edge at y = -3.5
        "long": Base((-3, 0), 1, 4, facing=90),  # from x = -5 to -1
    }
    assert bases_under(burst, bases) == ["centre", "edge", "long"]
    assert bases_under(burst, bases, partly=False) == ["centre"]


def test_template_needs_a_positive_radius() -> None:
    with pytest.raises(ValueError, match="positive radius"):
        circle_template((0, 0), 0)


# --- paths -----------------------------------------------------------------------------------


def test_path_needs_two_distinct_finite_waypoints() -> None:
    with pytest.raises(ValueError, match="at least 2 waypoints"):
        Path.of([(0, 0)])
    with pytest.raises(ValueError, match="waypoints 1 and 2 are the same"):
        Path.of([(0, 0), (1, 1), (1, 1)])
    with pytest.raises(ValueError, match="waypoint 1 is not a finite point"):
        Path.of([(0, 0), (math.nan, 1)])


def test_path_measures_along_its_legs() -> None:
    path = Path.of([(0, 0), (0, 3), (4, 3)])
    assert path.length == 7
    assert path.point_at(0) == (0, 0)
    assert path.point_at(1.5) == (0, 1.5)
    assert path.point_at(5) == (2, 3)
    assert path.point_at(7) == (4, 3)
    assert path.bearing_at(1) == 0
    assert path.bearing_at(3) == 90  # at a waypoint: the leg leaving it
    assert path.bearing_at(7) == 90
    with pytest.raises(ValueError, match="off the path"):
        path.point_at(7.5)
    with pytest.raises(ValueError, match="off the path"):
        path.bearing_at(-1)


def test_a_leg_too_short_to_measure_still_ends_at_its_waypoint() -> None:
    path = Path.of([(0, 0), (0, 1), (1e-157, 1)])  # 1 + 1e-157 == 1 in floats
    assert path.point_at(path.length) == (1e-157, 1)
    assert path.bearing_at(path.length) == 90


ROAD = TerrainPiece("road", box(5, -0.5, 7, 0.5), frozenset({Trait.ROAD}))


def test_segments_in_splits_the_path_by_terrain() -> None:
    path = Path.of([(0, 0), (10, 0)])
    assert path.segments_in([WOODS]) == [
        (0, 4, frozenset()),
        (4, 6, frozenset({"woods"})),
        (6, 10, frozenset()),
    ]
    assert path.segments_in([WOODS, ROAD]) == [
        (0, 4, frozenset()),
        (4, 5, frozenset({"woods"})),
        (5, 6, frozenset({"woods", "road"})),
        (6, 7, frozenset({"road"})),
        (7, 10, frozenset()),
    ]


def test_segments_in_joins_stretches_across_waypoints() -> None:
    path = Path.of([(0, 0), (5, 0), (5, 4)])  # turns inside the woods, leaves at y = 1
    assert path.segments_in([WOODS]) == [
        (0, 4, frozenset()),
        (4, 6, frozenset({"woods"})),
        (6, 9, frozenset()),
    ]


def test_a_path_along_an_edge_is_not_in_the_piece() -> None:
    assert Path.of([(0, 1), (10, 1)]).segments_in([WOODS]) == [(0, 10, frozenset())]


def test_path_cost_through_difficult_terrain() -> None:
    path = Path.of([(0, 0), (10, 0)])

    def rate(kinds: frozenset[str]) -> float:
        return 2.0 if "woods" in kinds else 1.0

    assert path.cost([WOODS], rate) == pytest.approx(4 + 2 * 2 + 4)
    assert path.cost(TerrainIndex([WOODS, HEDGE]), rate) == pytest.approx(12)
    assert Path.of([(0, 5), (10, 5)]).cost([WOODS], rate) == pytest.approx(10)


def test_first_point_coming_within_range_of_an_enemy() -> None:
    path = Path.of([(0, 0), (10, 0)])
    enemy = round_base(6, 1)
    reach = enemy.shape().buffer(1)  # within 1 edge to edge: 1.5 from the enemy's centre
    touch = path.first_point(reach)
    assert touch == pytest.approx(6 - math.sqrt(1.5**2 - 1), abs=0.01)
    assert path.first_point(round_base(6, 3).shape().buffer(1)) is None
    assert path.first_point(circle_template((0, 0), 2)) == 0  # starts under the template


def test_first_point_on_a_later_leg() -> None:
    path = Path.of([(0, 0), (0, 5), (10, 5)])
    assert path.first_point(WOODS.area) is None
    overwatch = arc(Base((7, 0), 1), 0, 90, 20)  # a 90° arc looking up the table from (7, 0)
    # the line y = 5 enters the arc's left edge (bearing -45) at x = 7 - 5
    assert path.first_point(overwatch) == pytest.approx(5 + 2)


# --- sight -----------------------------------------------------------------------------------


def test_woods_block_sight_and_count_as_crossed() -> None:
    sight = sight_line((0, 0), (10, 0), [HEDGE, WOODS])
    assert not sight.clear
    assert sight.blocked_by == "woods"
    assert sight.crossed == ("hedge", "woods")
    assert sight_line((10, 0), (0, 0), [HEDGE, WOODS]).crossed == ("woods", "hedge")


def test_non_blocking_piece_is_crossed_but_clear() -> None:
    sight = sight_line((0, 0), (3, 0), [HEDGE, WOODS])
    assert sight.clear
    assert sight.blocked_by is None
    assert sight.crossed == ("hedge",)


def test_seeing_out_of_and_into_woods_near_the_edge() -> None:
    assert not sight_line((5.5, 0), (10, 0), [WOODS]).clear  # 0.5 inside, see_into 0
    assert sight_line((5.5, 0), (10, 0), [WOODS], see_into=1).clear
    assert not sight_line((4.5, 0), (10, 0), [WOODS], see_into=1).clear  # 1.5 inside
    assert sight_line((0, 0), (4.5, 0), [WOODS], see_into=1).clear
    assert not sight_line((0, 0), (4.5, 0), [WOODS], see_into=0.4).clear
    assert sight_line((4.5, 0), (5.5, 0), [WOODS], see_into=1).clear  # both in the same woods
    assert not sight_line((4.5, 0), (5.5, 0), [WOODS], see_into=0.5).clear


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(st.integers(-4, 24), st.integers(-6, 6)),
    st.tuples(st.integers(-4, 24), st.integers(-6, 6)),
    st.sampled_from([0.0, 0.5, 1.0, 2.0]),
)
def test_sight_clear_is_the_verdict_of_the_whole_sight_line(
    a: tuple[int, int], b: tuple[int, int], see_into: float
) -> None:
    assume(a != b)
    copse = TerrainPiece("woods", box(6, -1, 8, 1), frozenset({Trait.BLOCKS_SIGHT}), name="Copse")
    pieces = [HEDGE, WOODS, copse]  # edges, corners and adjoining woods on the half inch
    for terrain in (pieces, TerrainIndex(pieces)):
        start, end = (a[0] / 2, a[1] / 2), (b[0] / 2, b[1] / 2)
        assert sight_clear(start, end, terrain, see_into=see_into) == (
            sight_line(start, end, terrain, see_into=see_into).clear
        )


def test_see_into_does_not_see_through_woods_in_between() -> None:
    assert not sight_line((0, 0), (10, 0), [WOODS], see_into=5).clear


def test_boundary_is_the_edge_not_inside() -> None:
    along = sight_line((0, 1), (10, 1), [WOODS])
    assert along.clear
    assert along.crossed == ("woods",)
    assert sight_line((4, 0), (0, 0), [WOODS]).clear  # from the edge looking out
    assert not sight_line((4, 0), (6, 0), [WOODS], see_into=1.9).clear  # edge to edge through


def test_adjoining_woods_count_together_for_see_into() -> None:
    copse = TerrainPiece("woods", box(6, -1, 8, 1), frozenset({Trait.BLOCKS_SIGHT}), name="Copse")
    assert not sight_line((7.5, 0), (0, 0), [WOODS, copse], see_into=2).clear  # 3.5 inside
    blocked = sight_line((7.5, 0), (20, 0), [WOODS, copse], see_into=0.4)
    assert blocked.blocked_by == "Copse"
    assert sight_line((7.5, 0), (20, 0), [WOODS, copse], see_into=0.5).clear


def test_sight_needs_two_points() -> None:
    with pytest.raises(ValueError, match="two different points"):
        sight_line((1, 1), (1, 1), [WOODS])


def test_terrain_index_gives_the_same_sight() -> None:
    pieces = [
        TerrainPiece(
            "woods" if (i + j) % 2 else "field",
            box(i * 10 + 3, j * 10 + 3, i * 10 + 7, j * 10 + 7),
            frozenset({Trait.BLOCKS_SIGHT}) if (i + j) % 2 else frozenset(),
            name=f"{i},{j}",
        )
        for i in range(6)
        for j in range(6)
    ]
    index = TerrainIndex(pieces)
    for a, b in [((0, 0), (59, 59)), ((0, 5), (59, 5)), ((1, 1), (1, 59)), ((15, 5), (5, 15))]:
        assert sight_line(a, b, index) == sight_line(a, b, pieces)
    assert sight_line((0, 5), (59, 5), index).blocked_by == "1,0"
    assert not sight_line((0, 5), (59, 5), index).clear


# --- properties ------------------------------------------------------------------------------

coordinate = st.floats(-50, 50, allow_nan=False)
size = st.floats(0.1, 10, allow_nan=False)
facing = st.floats(-720, 720, allow_nan=False)


@st.composite
def bases(draw: st.DrawFn) -> Base:
    centre = (draw(coordinate), draw(coordinate))
    return Base(centre, draw(size), draw(st.none() | size), draw(facing))


@settings(max_examples=150, deadline=None)
@given(bases(), bases())
def test_edge_distance_is_symmetric_and_bounded(a: Base, b: Base) -> None:
    distance = edge_distance(a, b)
    assert distance == pytest.approx(edge_distance(b, a), abs=1e-9)
    assert 0 <= distance <= centre_distance(a, b) + 1e-9
    assert within(a, b, distance)


@settings(max_examples=100, deadline=None)
@given(bases(), bases(), facing, st.floats(1, 360))
def test_wholly_in_arc_implies_partly(a: Base, b: Base, centre: float, width: float) -> None:
    if in_arc(a, b, centre, width, wholly=True):
        assert in_arc(a, b, centre, width, wholly=False)


points = st.tuples(coordinate, coordinate)


@settings(max_examples=150, deadline=None)
@given(st.lists(points, min_size=2, max_size=6))
def test_path_ends_at_its_last_waypoint(waypoints: list[Point]) -> None:
    assume(all(p != q for p, q in pairwise(waypoints)))
    path = Path.of(waypoints)
    assert path.point_at(path.length) == waypoints[-1]
    assert path.point_at(0) == waypoints[0]
    assert path.length >= math.dist(waypoints[0], waypoints[-1]) - 1e-9


@settings(max_examples=60, deadline=None)
@given(st.lists(points, min_size=2, max_size=5))
def test_segments_cover_the_whole_path(waypoints: list[Point]) -> None:
    assume(all(p != q for p, q in pairwise(waypoints)))
    path = Path.of(waypoints)
    stretches = path.segments_in([WOODS, ROAD, HEDGE])
    assert stretches[0][0] == 0
    assert stretches[-1][1] == path.length
    for (_, end, kinds), (start, _, next_kinds) in pairwise(stretches):
        assert end == start
        assert kinds != next_kinds
    assert path.cost([WOODS, ROAD, HEDGE], lambda kinds: 1.0) == pytest.approx(path.length)


@given(facing, facing)
def test_turn_between_is_between_0_and_180(f1: float, f2: float) -> None:
    turn = turn_between(f1, f2)
    assert 0 <= turn <= 180
    assert turn == pytest.approx(turn_between(f2, f1))


@given(points, points)
def test_bearing_is_in_range(a: Point, b: Point) -> None:
    assert 0 <= bearing(a, b) < 360
