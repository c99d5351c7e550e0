"""7.0 Damage to buildings: the hit points table, what may target a building, cumulative and
single-attack collapse, the critical 3 of indirect fire (6.0), and those inside."""

from __future__ import annotations

import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from tests.referee import Ref
from warbench.core.geometry import Base
from warbench.rulesets.tftww2.buildings import (
    Building,
    Material,
    Size,
    WeaponKind,
    building_table,
    can_target_building,
    collapse_casualties,
    damage_building,
    hit_points,
    in_intact_building,
    occupants,
)
from warbench.rulesets.tftww2.indirect import resolve_indirect


def house(material: Material = "wood", size: Size = "small", floors: int = 1) -> Building:
    return Building("h1", material, size, floors, shapely.box(0.0, 0.0, 4.0, 4.0))


@pytest.mark.parametrize(
    ("material", "size", "points"),
    [
        ("wood", "small", 12),
        ("wood", "medium", 24),
        ("wood", "large", 36),
        ("stone", "small", 24),
        ("stone", "medium", 36),
        ("stone", "large", 48),
        ("reinforced", "small", 36),
        ("reinforced", "medium", 48),
        ("reinforced", "large", 72),
    ],
)
def test_hit_points_table_per_floor(material: Material, size: Size, points: int) -> None:
    assert hit_points(material, size, 1) == points
    assert house(material, size).hit_points == points


def test_hit_points_are_per_floor() -> None:
    assert hit_points("stone", "medium", 2) == 72
    assert house("reinforced", "large", 3).hit_points == 216


def test_size_columns_are_the_rulebook_footprints() -> None:
    sizes = building_table().sizes
    assert [sizes[s].footprint for s in ("small", "medium", "large")] == [
        (4, 4),
        (8, 8),
        (12, 12),
    ]


def test_a_building_has_at_least_one_floor() -> None:
    with pytest.raises(ValueError):
        hit_points("wood", "small", 0)
    with pytest.raises(ValueError):
        house(floors=0)


def test_cumulative_damage_collapses_only_beyond_the_hit_points() -> None:
    h = house()  # 12 hit points; no attack over half of them
    assert not damage_building(h, 6)
    assert not damage_building(h, 6)  # exactly 12: stands
    assert h.hits_taken == 12 and h.intact
    assert damage_building(h, 1)  # 13 > 12
    assert h.collapsed


def test_more_than_half_from_one_attack_collapses() -> None:
    assert damage_building(house(), 7)  # 7 > 6
    assert not damage_building(house(), 6)  # exactly half stands
    assert damage_building(house("stone", "medium"), 19)  # 36: 19 > 18
    assert not damage_building(house("stone", "medium"), 18)


def test_critical_three_of_indirect_fire_collapses_whatever_the_damage() -> None:
    h = house("reinforced", "large", 3)
    result = resolve_indirect(Ref([1, 1, 1]), "heavy artillery", 12, [], off_table=True)
    assert damage_building(h, 0, critical_three=result.collapses_building)
    assert h.collapsed


def test_critical_four_does_not_collapse() -> None:
    h = house("reinforced", "large", 3)
    result = resolve_indirect(Ref([1, 1, 2]), "heavy artillery", 12, [], off_table=True)
    assert not damage_building(h, 0, critical_three=result.collapses_building)


def test_a_collapsed_building_stays_collapsed() -> None:
    h = house()
    damage_building(h, 13)
    assert damage_building(h, 0)
    assert h.collapsed and h.hits_taken == 13


def test_damage_cannot_be_negative() -> None:
    with pytest.raises(ValueError):
        damage_building(house(), -1)


@pytest.mark.parametrize(
    ("kind", "allowed"),
    [
        ("small_arms", False),
        ("close_combat", False),
        ("direct_fire", False),
        ("direct_fire_he", True),
        ("area_effect", True),
        ("smoke", False),
    ],
)
def test_what_may_target_a_building(kind: WeaponKind, allowed: bool) -> None:
    assert can_target_building(kind) is allowed


BASES = {
    "inside": Base((2.0, 2.0), 1.0),
    "on the wall": Base((4.0, 2.0), 1.0),  # centre on the edge counts
    "outside": Base((5.0, 2.0), 1.0),  # base touches the wall, centre outside
}


def test_occupants_are_those_whose_base_centre_is_in_the_footprint() -> None:
    assert occupants(house(), BASES) == ["inside", "on the wall"]


def test_everyone_inside_a_collapsed_building_is_incapacitated() -> None:
    h = house()
    assert collapse_casualties(h, BASES) == []
    damage_building(h, 13)
    assert collapse_casualties(h, BASES) == ["inside", "on the wall"]


def test_only_an_intact_building_protects() -> None:
    h = house()
    assert in_intact_building([h], BASES["inside"])
    assert not in_intact_building([h], BASES["outside"])
    damage_building(h, 13)
    assert not in_intact_building([h], BASES["inside"])


@given(
    material=st.sampled_from(["wood", "stone", "reinforced"]),
    size=st.sampled_from(["small", "medium", "large"]),
    floors=st.integers(1, 3),
    attacks=st.lists(st.integers(0, 80), max_size=8),
)
def test_collapse_property(material: Material, size: Size, floors: int, attacks: list[int]) -> None:
    h = house(material, size, floors)
    points = h.hit_points
    for i, hits in enumerate(attacks):
        collapsed = damage_building(h, hits)
        so_far = attacks[: i + 1]
        expected = sum(so_far) > points or any(2 * a > points for a in so_far)
        assert collapsed is expected
