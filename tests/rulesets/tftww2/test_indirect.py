"""6.0-6.4 Thrown and indirect fire: table 6.1, who rolls, the 6.2 modifiers, the hit roll and
its criticals, 6.3 scatter, the template, and 6.4 damage in cover."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from tests.referee import Ref
from warbench.core.geometry import Base
from warbench.rulesets.tftww2.indirect import (
    ScatterKind,
    area_damage,
    fire_problem,
    hard_cover_toward_centre,
    indirect_modifiers,
    indirect_tables,
    indirect_weapon,
    off_table,
    resolve_indirect,
    scatter,
    scatter_direction,
    skill_test,
    template,
    touched,
    who_rolls,
)


def three(total: int) -> list[int]:
    """Three d6 faces summing to `total` (3-18)."""
    faces = [1, 1, 1]
    rest = total - 3
    for i in range(3):
        step = min(5, rest)
        faces[i] += step
        rest -= step
    assert sum(faces) == total
    return faces


# --- table 6.1 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "row", "dice", "area", "table", "ap", "kind"),
    [
        ("grenade", 1, 4, 2, "thrown", 1, "thrown"),
        ("grenade_smoke", 2, None, 4, "thrown", None, "thrown"),
        ("light_mortar", 3, 5, 3, "on", 1, "mortar"),
        ("heavy_mortar", 4, 6, 4, "both", 2, "mortar"),
        ("light_artillery", 5, 6, 5, "off", 2, "artillery"),
        ("light_bomb", 5, 6, 5, "off", 2, "bomb"),
        ("medium_artillery", 6, 7, 6, "off", 4, "artillery"),
        ("medium_bomb", 6, 7, 6, "off", 4, "bomb"),
        ("heavy_artillery", 7, 8, 8, "off", 5, "artillery"),
        ("heavy_bomb", 7, 8, 8, "off", 5, "bomb"),
    ],
)
def test_table_6_1_rows(
    key: str, row: int, dice: int | None, area: float, table: str, ap: int | None, kind: str
) -> None:
    weapon = indirect_weapon(key)
    assert (weapon.row, weapon.damage_dice, weapon.area, weapon.table) == (row, dice, area, table)
    assert (weapon.ap_factor, weapon.scatter) == (ap, kind)


def test_table_6_1_has_every_row_and_nothing_else() -> None:
    weapons = indirect_tables().weapons
    rows = [w.row for w in weapons.values() if w.row is not None]
    assert len(rows) == 10
    assert sorted(set(rows)) == [1, 2, 3, 4, 5, 6, 7]
    assert sorted(k for k, w in weapons.items() if w.row is None) == ["flame_thrower", "rockets"]


def test_tables_are_loaded_once() -> None:
    assert indirect_tables() is indirect_tables()


def test_unknown_weapon_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="grenade"):
        indirect_weapon("flamethrower")


def test_smoke_does_no_damage_and_grenades_are_thrown() -> None:
    assert indirect_weapon("grenade_smoke").smoke
    assert not indirect_weapon("grenade").smoke
    assert indirect_weapon("grenade").thrown
    assert not indirect_weapon("light_mortar").thrown


def test_grenade_area_is_a_radius_matching_the_4_inch_diameter_of_4_3() -> None:
    """Ruling I1: 6.1's 2 is the radius of 4.3's "4 inch diameter area effect"."""
    minx, miny, maxx, maxy = template((0.0, 0.0), indirect_weapon("grenade").area).bounds
    assert maxx - minx == pytest.approx(4.0)
    assert maxy - miny == pytest.approx(4.0)


# --- 6.2 modifiers and who rolls -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ((False, False, False), []),
        ((True, False, False), [("firer under fire last round", -2)]),
        ((False, True, False), [("spotter under fire last round", -2)]),
        ((False, False, True), [("throwing through window", -6)]),
        (
            (True, True, True),
            [
                ("firer under fire last round", -2),
                ("spotter under fire last round", -2),
                ("throwing through window", -6),
            ],
        ),
    ],
)
def test_modifiers_to_hit_6_2(flags: tuple[bool, bool, bool], expected: list[object]) -> None:
    assert indirect_modifiers(*flags) == expected


def test_thrown_weapons_use_the_throwers_dex() -> None:
    rolls = who_rolls(indirect_weapon("grenade"), off_table=False, spotted=False)
    assert (rolls.who, rolls.attribute) == ("thrower", "DEX")


def test_off_table_fire_uses_the_spotters_int() -> None:
    rolls = who_rolls(indirect_weapon("medium_artillery"), off_table=True, spotted=False)
    assert (rolls.who, rolls.attribute) == ("spotter", "INT")


def test_on_table_fire_uses_the_firers_int_unless_spotted() -> None:
    mortar = indirect_weapon("light_mortar")
    assert who_rolls(mortar, off_table=False, spotted=False).who == "firer"
    assert who_rolls(mortar, off_table=False, spotted=True).who == "spotter"
    assert who_rolls(mortar, off_table=False, spotted=False).attribute == "INT"


def test_where_a_weapon_fires_from() -> None:
    assert off_table(indirect_weapon("light_artillery"))
    assert not off_table(indirect_weapon("light_mortar"))
    assert not off_table(indirect_weapon("grenade"))
    assert off_table(indirect_weapon("heavy_mortar"), True)
    assert not off_table(indirect_weapon("heavy_mortar"), False)
    with pytest.raises(ValueError, match="on or off"):
        off_table(indirect_weapon("heavy_mortar"))


def test_off_table_weapons_need_a_spotter_or_a_co_with_radio() -> None:
    artillery = indirect_weapon("heavy_artillery")
    problem = fire_problem(artillery, has_spotter=False, co_with_radio=False)
    assert problem is not None and "spotter" in problem
    assert fire_problem(artillery, has_spotter=True, co_with_radio=False) is None
    assert fire_problem(artillery, has_spotter=False, co_with_radio=True) is None


def test_heavy_mortar_off_table_needs_a_spotter_but_on_table_does_not() -> None:
    mortar = indirect_weapon("heavy_mortar")
    assert fire_problem(mortar, False, False, off_table=True) is not None
    assert fire_problem(mortar, False, False, off_table=False) is None
    assert fire_problem(mortar, True, False) is not None  # must say where it is


def test_weapons_fire_only_from_where_6_1_allows() -> None:
    assert fire_problem(indirect_weapon("light_mortar"), True, True, off_table=True) is not None
    assert fire_problem(indirect_weapon("grenade"), True, True, off_table=True) is not None
    assert fire_problem(indirect_weapon("light_bomb"), True, True, off_table=False) is not None
    assert fire_problem(indirect_weapon("light_mortar"), False, False) is None
    assert fire_problem(indirect_weapon("grenade"), False, False) is None


# --- 6.0 the hit roll ----------------------------------------------------------------------------


def test_skill_test_lowers_the_number_needed_and_names_the_modifiers() -> None:
    request = skill_test("mortar", 12, [("firer under fire last round", -2)])
    assert request.target == 10
    assert request.dice == 3
    assert "skill 12" in request.label and "-2 firer under fire" in request.label


@pytest.mark.parametrize(
    ("total", "outcome"), [(6, "hit"), (10, "hit"), (11, "miss"), (15, "miss")]
)
def test_indirect_hits_on_3d6_at_most_the_modified_int(total: int, outcome: str) -> None:
    ref = Ref(three(total))
    result = resolve_indirect(ref, "mortar", 12, [("spotter", -2)], off_table=False)
    assert result.outcome == outcome
    assert result.needed == 10
    assert result.natural == total


@pytest.mark.parametrize("natural", [3, 4, 5])
def test_critical_hit_is_an_automatic_hit_whatever_the_modifiers(natural: int) -> None:
    ref = Ref(three(natural))
    result = resolve_indirect(ref, "art", 8, [("window", -6)], off_table=True)
    assert result.outcome == "auto hit"
    assert result.hit and result.critical_hit and not result.scatters


@pytest.mark.parametrize("natural", [16, 17, 18])
def test_off_table_critical_failure_is_not_fired(natural: int) -> None:
    result = resolve_indirect(Ref(three(natural)), "art", 20, [], off_table=True)
    assert result.outcome == "no shot"
    assert not result.hit and not result.scatters


@pytest.mark.parametrize(
    ("natural", "outcome"), [(16, "misfire"), (17, "jammed"), (18, "jammed badly")]
)
def test_on_table_critical_failures_follow_4_4(natural: int, outcome: str) -> None:
    result = resolve_indirect(Ref(three(natural)), "mortar", 20, [], off_table=False)
    assert result.outcome == outcome


@pytest.mark.parametrize(
    ("natural", "outcome"), [(16, "miss"), (17, "miss"), (18, "explodes in hand")]
)
def test_thrown_critical_failures(natural: int, outcome: str) -> None:
    result = resolve_indirect(Ref(three(natural)), "grenade", 20, [], off_table=False, thrown=True)
    assert result.outcome == outcome


def test_critical_three_of_indirect_fire_collapses_a_building_but_4_does_not() -> None:
    three_ = resolve_indirect(Ref([1, 1, 1]), "mortar", 12, [], off_table=False)
    four = resolve_indirect(Ref([1, 1, 2]), "mortar", 12, [], off_table=False)
    assert three_.collapses_building
    assert not four.collapses_building


def test_thrown_critical_three_does_not_collapse_a_building() -> None:
    result = resolve_indirect(Ref([1, 1, 1]), "grenade", 12, [], off_table=False, thrown=True)
    assert result.outcome == "auto hit"
    assert not result.collapses_building


def test_a_thrown_weapon_is_never_off_table() -> None:
    with pytest.raises(ValueError, match="thrown"):
        resolve_indirect(Ref([3, 3, 3]), "grenade", 12, [], off_table=True, thrown=True)


def test_criticals_are_logged() -> None:
    ref = Ref([1, 1, 1])
    resolve_indirect(ref, "art", 12, [], off_table=True)
    assert ref.events and ref.events[0][0] == "critical"


# --- 6.3 scatter ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "expected"), [(1, 0.0), (2, 60.0), (3, 120.0), (4, 180.0), (5, 240.0), (6, 300.0)]
)
def test_scatter_direction_1_is_away_from_the_firer_then_clockwise(
    face: int, expected: float
) -> None:
    assert scatter_direction(face, 0.0) == expected


def test_scatter_direction_turns_with_the_firers_bearing() -> None:
    assert scatter_direction(1, 90.0) == 90.0
    assert scatter_direction(4, 90.0) == 270.0  # straight back towards the firer
    assert scatter_direction(6, 90.0) == 30.0
    with pytest.raises(ValueError):
        scatter_direction(7, 0.0)


@pytest.mark.parametrize(
    ("kind", "distance_faces"),
    [
        ("thrown", [4]),
        ("mortar", [3, 4]),
        ("afv_he", [6, 1]),
        ("artillery", [2, 2, 2]),
        ("bomb", [6, 6, 6, 6]),
    ],
)
def test_scatter_distance_dice_by_weapon_kind(kind: ScatterKind, distance_faces: list[int]) -> None:
    ref = Ref([1, *distance_faces])  # direction 1: directly away, firer looking up the table
    dx, dy = scatter(ref, "shot", kind, 0.0)
    assert ref.script.remaining == 0
    assert ref.rolls[1].request.dice == len(distance_faces)
    assert dx == pytest.approx(0.0, abs=1e-9)
    assert dy == pytest.approx(sum(distance_faces))


def test_scatter_moves_the_template_along_the_rolled_direction() -> None:
    dx, dy = scatter(Ref([2, 3, 4]), "mortar", "mortar", 0.0)  # 60 degrees clockwise, 7"
    assert dx == pytest.approx(7 * math.sin(math.radians(60)))
    assert dy == pytest.approx(7 * math.cos(math.radians(60)))
    dx, dy = scatter(Ref([4, 5]), "grenade", "thrown", 90.0)  # back towards the firer, 5"
    assert dx == pytest.approx(-5.0)
    assert dy == pytest.approx(0.0, abs=1e-9)


@given(
    kind=st.sampled_from(["thrown", "mortar", "afv_he", "artillery", "bomb"]),
    direction=st.integers(1, 6),
    faces=st.lists(st.integers(1, 6), min_size=4, max_size=4),
    firer=st.floats(0, 359.9),
)
def test_scatter_distance_and_direction_property(
    kind: ScatterKind, direction: int, faces: list[int], firer: float
) -> None:
    n = indirect_tables().scatter_dice[kind]
    dx, dy = scatter(Ref([direction, *faces[:n]]), "x", kind, firer)
    assert math.hypot(dx, dy) == pytest.approx(sum(faces[:n]))
    expected = scatter_direction(direction, firer)
    got = math.degrees(math.atan2(dx, dy)) % 360.0
    assert min(abs(got - expected), 360 - abs(got - expected)) < 1e-6


# --- 6.0 template --------------------------------------------------------------------------------


def test_template_touches_every_base_under_or_touching_it() -> None:
    bases = {
        "centre": Base((0.0, 0.0), 1.0),
        "touching": Base((3.5, 0.0), 1.0),  # edge at 3.0: exactly the rim of a 3" template
        "clear": Base((3.6, 0.0), 1.0),
        "tank": Base((0.0, -5.0), 3.0, 5.0),  # front edge at y = -2.5
    }
    assert touched(template((0.0, 0.0), 3.0), bases) == ["centre", "touching", "tank"]


# --- 6.4 damage ----------------------------------------------------------------------------------


def damage(
    faces: list[int], *, scattered: bool = False, hard: bool = False, inside: bool = False
) -> int:
    return area_damage(
        Ref(faces),
        "blast",
        len(faces),
        scattered=scattered,
        hard_cover_toward_centre=hard,
        in_intact_building=inside,
    )


def test_area_damage_is_the_dice_total() -> None:
    assert damage([6, 5, 4, 1]) == 16


def test_scattered_shots_do_half_rounded_down() -> None:
    assert damage([6, 5, 4, 2], scattered=True) == 8
    assert damage([6, 5, 4, 1], scattered=True) == 8  # 16 -> 8
    assert damage([6, 4, 1], scattered=True) == 5  # 11 -> 5


def test_hard_cover_toward_the_centre_takes_4_off_each_die_never_below_0() -> None:
    assert damage([6, 5, 2, 1], hard=True) == 3  # 2 + 1 + 0 + 0


def test_an_intact_building_takes_6_off_each_die() -> None:
    assert damage([6, 6, 5], inside=True) == 0
    assert damage([6, 6, 5, 6], inside=True, hard=True) == 0  # -6 replaces -4, not -10 more


def test_cover_reduces_each_die_before_a_scatter_halves() -> None:
    assert damage([6, 6, 6, 5], hard=True, scattered=True) == 3  # (2 + 2 + 2 + 1) // 2


def test_area_damage_needs_dice() -> None:
    with pytest.raises(ValueError):
        area_damage(
            Ref([]),
            "x",
            0,
            scattered=False,
            hard_cover_toward_centre=False,
            in_intact_building=False,
        )


@given(
    faces=st.lists(st.integers(1, 6), min_size=1, max_size=8),
    scattered=st.booleans(),
    hard=st.booleans(),
    inside=st.booleans(),
)
def test_area_damage_property(faces: list[int], scattered: bool, hard: bool, inside: bool) -> None:
    cut = 6 if inside else 4 if hard else 0
    expected = sum(max(0, f - cut) for f in faces)
    if scattered:
        expected //= 2
    got = damage(faces, scattered=scattered, hard=hard, inside=inside)
    assert got == expected
    assert 0 <= got <= sum(faces)


WALL = shapely.box(4.0, -2.0, 4.5, 2.0)


def test_hard_cover_between_centre_and_target() -> None:
    assert hard_cover_toward_centre(Base((6.0, 0.0), 1.0), (0.0, 0.0), [WALL])


def test_hard_cover_on_the_far_side_does_not_count() -> None:
    assert not hard_cover_toward_centre(Base((3.0, 0.0), 1.0), (0.0, 0.0), [WALL])
    assert not hard_cover_toward_centre(Base((6.0, 0.0), 1.0), (10.0, 0.0), [WALL])


def test_a_line_along_the_edge_or_past_a_corner_is_not_through_cover() -> None:
    assert not hard_cover_toward_centre(Base((6.0, 2.0), 1.0), (0.0, 2.0), [WALL])
    assert not hard_cover_toward_centre(Base((7.5, -1.0), 1.0), (1.5, 5.0), [WALL])  # corner


def test_standing_in_hard_cover_facing_the_blast_counts() -> None:
    ruins = shapely.box(5.0, -3.0, 9.0, 3.0)
    assert hard_cover_toward_centre(Base((7.0, 0.0), 1.0), (0.0, 0.0), [ruins])


def test_cover_holding_the_centre_gives_none() -> None:
    ruins = shapely.box(-3.0, -3.0, 9.0, 3.0)
    assert not hard_cover_toward_centre(Base((7.0, 0.0), 1.0), (0.0, 0.0), [ruins])
    assert not hard_cover_toward_centre(Base((0.0, 0.0), 1.0), (0.0, 0.0), [WALL])
