"""The Forces, Range, Quality Checks, Armor and Facing, Anti-vehicle Attack, Missile Attacks
and Anti-infantry Fire of fistful-of-tows-3-intro.txt: one test per rule, each calling the
rules code directly with the scripted referee."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.referee import Ref
from warbench.core.dice import Modifier, Read
from warbench.rulesets.fft3.anti_infantry import check_modifiers
from warbench.rulesets.fft3.anti_vehicle import gun_penetration, penetration_dice, resolve_hits
from warbench.rulesets.fft3.attack import roll_to_hit, terrain_saves, to_hit_modifiers
from warbench.rulesets.fft3.facing import arc_of_fire
from warbench.rulesets.fft3.profiles import (
    Band,
    Kind,
    Launcher,
    Side,
    forces,
    profile,
    range_band,
    tables,
)
from warbench.rulesets.fft3.quality import OUT_OF_COHESION, passes, quality_check

DETERMINISTIC = settings(derandomize=True, max_examples=200, deadline=None)

# The Forces -------------------------------------------------------------------------------

# Type, Mov, Arm (front-flank), gun Pen, ROF, Rng, AI, missile (Pen, ROF, Rng) or "-".
VEHICLES: list[tuple[Side, Kind, str, int, int, int, int, int, int, int, tuple[int, ...]]] = [
    ("nato", "tank", "NATO Tank", 14, 12, 6, 14, 3, 24, -1, ()),
    ("soviet", "tank", "Soviet Tank", 10, 10, 4, 14, 2, 16, -1, ()),
    ("nato", "ifv", "NATO IFV", 14, 6, 5, 7, 2, 16, -1, (8, 1, 40)),
    ("soviet", "ifv", "Soviet IFV", 10, 5, 3, 7, 4, 12, -1, (8, 1, 30)),
]


@pytest.mark.parametrize(
    ("side", "kind", "name", "mov", "front", "flank", "pen", "rof", "rng", "ai", "missile"),
    VEHICLES,
)
def test_vehicle_data_line_exactly_as_tabled(
    side: Side,
    kind: Kind,
    name: str,
    mov: int,
    front: int,
    flank: int,
    pen: int,
    rof: int,
    rng: int,
    ai: int,
    missile: tuple[int, ...],
) -> None:
    p = profile(side, kind)
    assert (p.name, p.side, p.kind, p.mov) == (name, side, kind, mov)
    assert p.vehicle
    assert p.armour is not None
    assert (p.armour.front, p.armour.flank) == (front, flank)
    assert p.gun is not None
    assert (p.gun.pen, p.gun.rof, p.gun.range, p.gun.ai) == (pen, rof, rng, ai)
    if missile:
        assert p.missile is not None
        assert (p.missile.pen, p.missile.rof, p.missile.range) == missile
    else:
        assert p.missile is None  # "-" in the table
    assert p.law is None
    assert p.anti_infantry is None


# Type, Mov, Anti-Infantry (AI, ROF, Rng), LAW (Pen, ROF, Rng), Missile (Pen, ROF, Rng).
INFANTRY: list[tuple[Side, str, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = [
    ("nato", "NATO Infantry", 4, (1, 3, 4), (5, 1, 2), (8, 1, 10)),
    ("soviet", "Soviet Infantry", 4, (1, 3, 4), (5, 1, 2), (6, 1, 5)),
]


@pytest.mark.parametrize(("side", "name", "mov", "ai", "law", "missile"), INFANTRY)
def test_infantry_data_line_exactly_as_tabled(
    side: Side,
    name: str,
    mov: int,
    ai: tuple[int, ...],
    law: tuple[int, ...],
    missile: tuple[int, ...],
) -> None:
    p = profile(side, "infantry")
    assert (p.name, p.side, p.kind, p.mov) == (name, side, "infantry", mov)
    assert not p.vehicle
    assert p.armour is None
    assert p.gun is None
    assert p.anti_infantry is not None
    assert (p.anti_infantry.ai, p.anti_infantry.rof, p.anti_infantry.range) == ai
    assert p.law is not None
    assert (p.law.pen, p.law.rof, p.law.range) == law
    assert p.missile is not None
    assert (p.missile.pen, p.missile.rof, p.missile.range) == missile


def test_the_forces_hold_exactly_the_six_data_lines() -> None:
    assert set(forces().stands) == {
        "nato-tank",
        "soviet-tank",
        "nato-ifv",
        "soviet-ifv",
        "nato-infantry",
        "soviet-infantry",
    }


def test_missiles_and_laws_have_a_single_range() -> None:
    """ "Missiles have a single range." — a launcher has one range and no bands."""
    assert set(Launcher.model_fields) == {"pen", "rof", "range"}


@pytest.mark.parametrize(("side", "quality", "to_hit"), [("nato", 4, 1), ("soviet", 5, 0)])
def test_quality_table(side: Side, quality: int, to_hit: int) -> None:
    """Side / Quality Rating / To Hit Bonus: NATO 4+ +1, Soviet 5+ 0."""
    q = forces().sides[side]
    assert (q.quality, q.to_hit) == (quality, to_hit)


# Range ------------------------------------------------------------------------------------

EPS = 0.01


def band_cases() -> list[tuple[float, float, Band | None]]:
    cases: list[tuple[float, float, Band | None]] = []
    for effective in (24.0, 16.0, 12.0, 4.0):
        cases += [
            (effective, 0.0, "close"),
            (effective, effective / 2, "close"),  # "Short range is ½ Effective range"
            (effective, effective / 2 + EPS, "effective"),
            (effective, effective, "effective"),
            (effective, effective + EPS, "long"),
            (effective, effective * 1.5, "long"),  # "Long range is 1½ times Effective Range"
            (effective, effective * 1.5 + EPS, None),  # "outside long range, the attack misses"
        ]
    return cases


@pytest.mark.parametrize(("effective", "distance", "band"), band_cases())
def test_range_bands_at_their_boundaries(effective: float, distance: float, band: Band) -> None:
    assert range_band(distance, effective) == band


def test_range_band_of_every_gun_and_anti_infantry_weapon() -> None:
    """24" NATO tank gun: 12 close, 24 effective, 36 long (the worked example: "greater than
    24" but not greater than 36" ... long range")."""
    assert [range_band(d, 24) for d in (12, 13, 24, 25, 36, 37)] == [
        "close",
        "effective",
        "effective",
        "long",
        "long",
        None,
    ]
    assert [range_band(d, 4) for d in (2, 3, 4, 5, 6, 7)] == [
        "close",
        "effective",
        "effective",
        "long",
        "long",
        None,
    ]


# Roll to hit: modifiers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("band", "expected"),
    [("close", (("close range", 1),)), ("effective", ()), ("long", (("long range", -1),))],
)
def test_range_to_hit_modifier(band: Band, expected: tuple[Modifier, ...]) -> None:
    """+1 if target is at Close Range; −1 if target is at Long Range."""
    assert to_hit_modifiers(band, 0) == expected


def test_missile_has_no_range_to_hit_modifier() -> None:
    assert to_hit_modifiers(None, 0) == ()


@pytest.mark.parametrize("side", ["nato", "soviet"])
def test_quality_to_hit_modifier(side: Side) -> None:
    """+Quality "to hit" modifier: NATO +1, Soviet 0."""
    bonus = forces().sides[side].to_hit
    assert sum(v for _, v in to_hit_modifiers("effective", bonus)) == {"nato": 1, "soviet": 0}[side]
    if bonus:
        assert to_hit_modifiers("effective", bonus) == (("quality", 1),)


@pytest.mark.parametrize(("infantry", "value"), [(False, -1), (True, -2)])
def test_suppressed_to_hit_modifier_vehicle_and_infantry(infantry: bool, value: int) -> None:
    """ "Suppressed armored vehicle stands have a -1 to-hit modifier. Suppressed infantry
    stands have a -2 to-hit modifier." """
    mods = to_hit_modifiers("effective", 0, suppressed=True, infantry=infantry)
    assert mods == (("suppressed", value),)


def test_infantry_firer_not_suppressed_has_no_modifier() -> None:
    assert to_hit_modifiers("effective", 0, infantry=True) == ()


def test_overwatch_to_hit_modifier() -> None:
    """ "all overwatch attacks are at -1 to hit" """
    assert to_hit_modifiers("effective", 0, overwatch=True) == (("overwatch", -1),)


@pytest.mark.parametrize(
    ("kind", "side"), [("tank", "nato"), ("ifv", "soviet"), ("infantry", "nato")]
)
def test_ai_rating_to_hit_modifier(kind: Kind, side: Side) -> None:
    """Anti-infantry fire adds the firer's AI rating (vehicle guns −1, infantry +1)."""
    p = profile(side, kind)
    ai = p.gun.ai if p.gun is not None else p.anti_infantry.ai if p.anti_infantry else 0
    assert ai == (1 if kind == "infantry" else -1)
    assert to_hit_modifiers("effective", 0, ai_rating=ai) == (("AI rating", ai),)


def test_all_to_hit_modifiers_together() -> None:
    """A suppressed NATO infantry stand on overwatch at long range with its +1 AI."""
    mods = to_hit_modifiers("long", 1, suppressed=True, infantry=True, overwatch=True, ai_rating=1)
    assert sorted(mods) == sorted(
        [
            ("long range", -1),
            ("quality", 1),
            ("AI rating", 1),
            ("suppressed", -2),
            ("overwatch", -1),
        ]
    )


# Roll to hit: dice ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "modifiers", "hits"),
    [
        ([3, 4, 5], (), 2),
        ([1, 2, 3], (), 0),
        ([3, 3], (("close range", 1),), 2),
        ([4, 5, 6], (("long range", -1),), 2),
        ([4, 5, 6, 6], (("suppressed", -2),), 2),
        ([6, 5], (("long range", -1), ("overwatch", -1)), 1),
        ([6], (("long range", -1), ("suppressed", -2)), 0),
        ([6, 6], (("long range", -1), ("suppressed", -2), ("overwatch", -1)), 0),
    ],
)
def test_each_die_4_or_more_after_modifiers_hits(
    faces: list[int], modifiers: tuple[Modifier, ...], hits: int
) -> None:
    """ "Roll a number of dice equal to the stand's ROF" ... "Each die that is 4+ (taking
    modifiers into account) is a hit." (no natural 6 that always hits)"""
    ref = Ref(faces)
    assert roll_to_hit(ref, "test", len(faces), modifiers) == hits
    (roll,) = ref.rolls
    assert roll.request.dice == len(faces)
    assert roll.request.read is Read.COUNT_AT_LEAST
    assert roll.request.target == 4
    assert roll.request.modifiers == modifiers
    assert (
        f"{hits} of {len(faces)} {'succeeds' if hits == 1 else 'succeed'} at 4+" in roll.explain()
    )


# Terrain saves ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "left"), [([4], 1), ([5], 0), ([6], 0), ([1, 4, 5, 6], 2), ([2, 3], 2)]
)
def test_terrain_save_one_die_per_hit_5_or_more_avoids(faces: list[int], left: int) -> None:
    """ "roll 1d6 for each hit. On a 5+, the hit is avoided." """
    ref = Ref(faces)
    assert terrain_saves(ref, "test", len(faces)) == left
    (roll,) = ref.rolls
    assert roll.request.dice == len(faces)
    assert roll.request.target == 5
    assert roll.request.modifiers == ()


def test_no_terrain_save_roll_without_hits() -> None:
    ref = Ref([])
    assert terrain_saves(ref, "test", 0) == 0
    assert ref.rolls == []


# Resolve hits: penetration ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("pen", "band", "expected"),
    [(14, "close", 16), (14, "effective", 14), (14, "long", 12), (7, "close", 9), (7, "long", 5)],
)
def test_gun_penetration_plus_2_close_minus_2_long(pen: int, band: Band, expected: int) -> None:
    """ "If a gun attack is at close range, the weapon's penetration is increased by 2. If a
    gun attack is at long range, the weapon's penetration is decreased by 2." """
    assert gun_penetration(pen, band) == expected


@pytest.mark.parametrize(
    ("pen", "armour", "hits", "dice"),
    [(12, 10, 1, 2), (12, 10, 2, 4), (8, 4, 1, 4), (14, 4, 3, 30), (7, 6, 2, 2)],
)
def test_pen_above_armour_rolls_hits_times_difference_dice(
    pen: int, armour: int, hits: int, dice: int
) -> None:
    """ "For each hit remaining, roll a number of d6s equal to the firing stand's penetration
    less the target's armor." """
    assert penetration_dice(pen, armour) == (pen - armour, ())
    ref = Ref([1] * dice)
    assert resolve_hits(ref, "test", hits, pen, armour) == "no effect"
    (roll,) = ref.rolls
    assert roll.request.dice == dice
    assert roll.request.modifiers == ()


@pytest.mark.parametrize("hits", [1, 2, 3])
def test_pen_equal_to_armour_rolls_one_unmodified_die_per_hit(hits: int) -> None:
    """ "If the firing stand's penetration is equal to the target's armor, roll 1 die." """
    assert penetration_dice(10, 10) == (1, ())
    ref = Ref([6] + [1] * (hits - 1))
    assert resolve_hits(ref, "test", hits, 10, 10) == "destroyed"
    assert ref.rolls[0].request.dice == hits
    assert ref.rolls[0].request.modifiers == ()


@pytest.mark.parametrize(("pen", "armour"), [(7, 10), (8, 10), (5, 6), (7, 12)])
def test_pen_below_armour_rolls_one_die_per_hit_with_the_difference(pen: int, armour: int) -> None:
    """ "If the firing stand's penetration is less than the target's armor, roll 1 die and
    apply the difference between the firing stand's penetration and the target's armor." """
    assert penetration_dice(pen, armour) == (1, (("Pen below armour", pen - armour),))
    ref = Ref([1, 1])
    resolve_hits(ref, "test", 2, pen, armour)
    (roll,) = ref.rolls
    assert roll.request.dice == 2
    assert roll.request.modifier_total == pen - armour


@pytest.mark.parametrize(
    ("faces", "outcome"),
    [
        ((6, 1), "destroyed"),
        ((1, 6), "destroyed"),
        ((4, 6), "destroyed"),  # a 6 beats any 4-5
        ((6, 5), "destroyed"),
        ((4, 1), "check"),
        ((5, 3), "check"),
        ((4, 5), "check"),
        ((3, 3), "no effect"),
        ((1, 2), "no effect"),
    ],
)
def test_penetration_die_6_destroys_4_5_check_3_or_less_nothing(
    faces: tuple[int, int], outcome: str
) -> None:
    """ "A roll of 6 means that the target is destroyed. A roll of 4-5 means that the target
    takes a quality check ... A roll of 3- is no effect" (Pen 12 v armour 10: 2 dice)."""
    ref = Ref(faces)
    assert resolve_hits(ref, "test", 1, 12, 10) == outcome


def test_several_4_5s_give_a_single_check() -> None:
    """ "takes a quality check (maximum on one per firing phase)" """
    ref = Ref([4, 5, 4, 5])
    assert resolve_hits(ref, "test", 2, 12, 10) == "check"


def test_ifv_cannot_hurt_a_soviet_tank_in_front() -> None:
    """ "7-10 = -3. Two penetration dice (one for each hit) are rolled and a -3 applied to
    each one. Since the maximum modified roll is 3, the IFV cannot hurt the Soviet tank" """
    ifv, tank = profile("nato", "ifv"), profile("soviet", "tank")
    assert ifv.gun is not None and tank.armour is not None
    pen, armour = gun_penetration(ifv.gun.pen, "effective"), tank.armour.front
    assert pen - armour == -3
    ref = Ref([6, 6])
    assert resolve_hits(ref, "IFV at Soviet tank", 2, pen, armour) == "no effect"
    (roll,) = ref.rolls
    assert roll.request.dice == 2
    assert roll.request.modifiers == (("Pen below armour", -3),)
    assert roll.successes == 0


@pytest.mark.parametrize(("face", "outcome"), [(6, "check"), (5, "no effect"), (4, "no effect")])
def test_pen_two_below_armour_needs_a_6_for_a_check(face: int, outcome: str) -> None:
    """Missile Pen 8 v front 10: one die −2, so a 6 is a 4 (check) and nothing destroys."""
    ref = Ref([face])
    assert resolve_hits(ref, "test", 1, 8, 10) == outcome


def test_no_penetration_roll_without_hits() -> None:
    ref = Ref([])
    assert resolve_hits(ref, "test", 0, 14, 4) == "no effect"
    assert ref.rolls == []


# Anti-infantry: the quality check ---------------------------------------------------------


@pytest.mark.parametrize(
    ("hits", "expected"),
    [
        (0, ()),
        (1, ()),
        (2, (("additional hits", -1),)),
        (3, (("additional hits", -2),)),
        (5, (("additional hits", -4),)),
    ],
)
def test_anti_infantry_check_reduced_by_1_per_hit_after_the_first(
    hits: int, expected: tuple[Modifier, ...]
) -> None:
    """ "The quality check die roll is reduced by 1 for every additional hit after the first
    in that phase." """
    assert check_modifiers(hits) == expected


@pytest.mark.parametrize(("hits", "face", "success"), [(1, 5, True), (2, 5, False), (3, 6, False)])
def test_anti_infantry_check_of_soviet_infantry(hits: int, face: int, success: bool) -> None:
    ref = Ref([face])
    roll = quality_check(ref, "Soviet infantry", 5, check_modifiers(hits))
    assert roll.success is success


# Quality checks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("side", "face", "success"),
    [
        ("nato", 1, False),
        ("nato", 3, False),
        ("nato", 4, True),
        ("nato", 6, True),
        ("soviet", 4, False),
        ("soviet", 5, True),
        ("soviet", 6, True),
    ],
)
def test_quality_check_passes_on_rating_or_more(side: Side, face: int, success: bool) -> None:
    """ "If the roll equals or exceeds the stand's quality rating, there's no effect. If the
    roll is less than the stand's quality rating, the stand is eliminated." """
    quality = forces().sides[side].quality
    ref = Ref([face])
    roll = quality_check(ref, side, quality)
    assert roll.request.dice == 1
    assert roll.request.read is Read.AT_LEAST
    assert roll.request.target == quality
    assert roll.success is success
    assert passes(face, quality, ()) is success


@pytest.mark.parametrize(
    ("quality", "face", "success"),
    [(4, 4, False), (4, 5, True), (5, 5, False), (5, 6, True)],
)
def test_out_of_cohesion_is_minus_1_to_the_quality_check(
    quality: int, face: int, success: bool
) -> None:
    """ "A stand that is not in cohesion has a -1 to its quality check." """
    assert OUT_OF_COHESION == ("out of cohesion", -1)
    assert passes(face, quality, (OUT_OF_COHESION,)) is success
    roll = quality_check(Ref([face]), "test", quality, (OUT_OF_COHESION,))
    assert roll.success is success


def test_one_roll_for_the_unit_each_stand_reads_its_own_modifiers() -> None:
    """ "If a unit takes a quality check, make one roll for the whole unit": a NATO 4 passes
    the stand in cohesion and fails the one out of it."""
    assert passes(4, 4, ())
    assert not passes(4, 4, (OUT_OF_COHESION,))


# Armor and Facing -------------------------------------------------------------------------

POINT = 0.001  # a near point-sized firer


def around(
    bearing: float, distance: float, centre: tuple[float, float] = (0.0, 0.0)
) -> tuple[float, float]:
    """The point at compass `bearing` (0 = +y, 90 = +x) and `distance` from `centre`."""
    b = math.radians(bearing)
    return (centre[0] + distance * math.sin(b), centre[1] + distance * math.cos(b))


def test_dead_ahead_is_front() -> None:
    assert arc_of_fire((0, 0), 0.0, (0, 10), 0.625) == "front"


def test_dead_behind_is_flank() -> None:
    assert arc_of_fire((0, 0), 0.0, (0, -10), 0.625) == "flank"


@pytest.mark.parametrize("side", [1, -1])
def test_square_to_the_side_is_flank(side: int) -> None:
    assert arc_of_fire((0, 0), 0.0, (side * 10, 0), 0.625) == "flank"


@pytest.mark.parametrize(
    ("off", "arc"), [(0, "front"), (59, "front"), (61, "flank"), (120, "flank"), (180, "flank")]
)
@pytest.mark.parametrize("facing", [0.0, 90.0, 225.0, 350.0])
def test_front_arc_is_120_degrees(off: float, arc: str, facing: float) -> None:
    """ "A vehicle's front is the 120 degree arc in front of the stand": 60° either side."""
    for sign in (1, -1):
        firer = around(facing + sign * off, 10.0, (3.0, -2.0))
        assert arc_of_fire((3.0, -2.0), facing, firer, POINT) == arc


@pytest.mark.parametrize("sign", [1, -1])
def test_firer_straddling_the_front_arc_edge_is_front(sign: int) -> None:
    """ "Any fire from an enemy stand that is wholly or partly in the vehicle's front arc is
    taken against the vehicle's front armor": a base whose centre is outside the 60° line
    but whose edge crosses it strikes the front."""
    r = 0.625
    edge = around(sign * 60.0, 10.0)  # on the 60° line, 10" out
    out = (math.cos(math.radians(60)) * sign, -math.sin(math.radians(60)))  # away from front
    straddling = (edge[0] + out[0] * (r - 0.01), edge[1] + out[1] * (r - 0.01))
    wholly_out = (edge[0] + out[0] * (r + 0.01), edge[1] + out[1] * (r + 0.01))
    assert arc_of_fire((0, 0), 0.0, straddling, r) == "front"
    assert arc_of_fire((0, 0), 0.0, wholly_out, r) == "flank"


def test_firer_wholly_in_flank_is_flank() -> None:
    """ "Any fire from an enemy stand wholly in the vehicle's flank arc is taken against the
    vehicle's flank armor." — a base at 70°, 5" out, clears the 60° line."""
    firer = around(70.0, 5.0)
    assert 5.0 * math.sin(math.radians(10)) > 0.625  # the whole base is past the line
    assert arc_of_fire((0, 0), 0.0, firer, 0.625) == "flank"


def front_sector(facing: float, reach: float = 100.0) -> shapely.Polygon:
    """The 120° front arc from the origin as a polygon (straight sides, exact)."""
    steps = 60
    rim = [around(facing - 60 + 120 * i / steps, reach) for i in range(steps + 1)]
    return shapely.Polygon([(0.0, 0.0), *rim])


coordinate = st.floats(min_value=-30, max_value=30, allow_nan=False)


@DETERMINISTIC
@given(
    x=coordinate,
    y=coordinate,
    facing=st.floats(min_value=0, max_value=359.9),
    radius=st.sampled_from([0.375, 0.625, 0.05]),
)
def test_arc_is_front_exactly_when_the_base_touches_the_front_sector(
    x: float, y: float, facing: float, radius: float
) -> None:
    """Independent geometry: the base (a disc) is partly in the front arc iff the distance
    from its centre to the 120° sector is at most its radius."""
    assume(math.hypot(x, y) > radius + 0.1)
    distance = front_sector(facing).distance(shapely.Point(x, y))
    assume(abs(distance - radius) > 1e-6)
    expected = "front" if distance <= radius else "flank"
    assert arc_of_fire((0.0, 0.0), facing, (x, y), radius) == expected


@DETERMINISTIC
@given(
    bearing=st.floats(min_value=0, max_value=180),
    distance=st.floats(min_value=1.5, max_value=40),
    facing=st.floats(min_value=0, max_value=359.9),
)
def test_arc_is_symmetric_left_and_right(bearing: float, distance: float, facing: float) -> None:
    """Mirroring the firer across the target's facing line never changes the armour hit."""
    spread = math.degrees(math.asin(0.625 / distance))
    assume(abs(bearing - (60 + spread)) > 1e-6)
    left = arc_of_fire((0, 0), facing, around(facing - bearing, distance), 0.625)
    right = arc_of_fire((0, 0), facing, around(facing + bearing, distance), 0.625)
    assert left == right


def test_tables_read_by_the_rules() -> None:
    """combat.yaml: to hit 4+, terrain save 5+, bands ½ and 1½, Pen ±2, 6 / 4-5."""
    t = tables()
    assert (t.to_hit, t.terrain_save) == (4, 5)
    assert t.range_bands == {"close": 0.5, "long": 1.5}
    assert t.gun_pen == {"close": 2, "long": -2}
    assert t.penetration == {"destroyed": 6, "check": 4}
    assert t.to_hit_modifiers == {
        "close": 1,
        "long": -1,
        "suppressed_vehicle": -1,
        "suppressed_infantry": -2,
        "overwatch": -1,
    }
