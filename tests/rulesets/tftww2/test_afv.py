"""8.0 AFVs: movement, the firing limit, to-hit modifiers and criticals, hit location,
penetration, the damage table, the crew, over-running and close assault; and our vehicles."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.referee import Ref
from warbench.core.dice import DiceSource, Roll, RollRequest, exact_outcomes, resolve
from warbench.core.geometry import Base, Path
from warbench.rulesets.tftww2.afv import (
    CloseAssaultResult,
    Cover,
    DamageResult,
    Drive,
    Location,
    Part,
    TerrainKind,
    afv_tables,
    afv_to_hit,
    afv_to_hit_modifiers,
    can_fire,
    clear_jam,
    close_assault,
    close_assault_factor,
    crew_morale,
    crew_reaction,
    crew_tests,
    damage_table,
    explosion_dice,
    explosion_victims,
    facing_hit,
    he_modifiers,
    hit_location,
    move_cost,
    overrun_check,
    overrun_victims,
    penetrates,
    relative_bearing,
    turn_cost,
    vehicle,
)
from warbench.rulesets.tftww2.indirect import indirect_weapon


class DiceRef:
    """A referee over any dice source (for exact odds)."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        return resolve(request, self.dice.faces(request))

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        pass


def three(total: int) -> list[int]:
    """Three d6 faces summing to `total` (3-18)."""
    faces = [1, 1, 1]
    rest = total - 3
    for i in range(3):
        step = min(5, rest)
        faces[i] += step
        rest -= step
    return faces


# --- 8.1 movement --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "terrain", "cost"),
    [
        ("wheeled", "road", 0.5),
        ("wheeled", "open", 1),
        ("wheeled", "rough", 2),
        ("wheeled", "swampy", 4),
        ("wheeled", "forest", 4),
        ("tracked", "road", 1),
        ("tracked", "open", 1),
        ("tracked", "rough", 1),
        ("tracked", "swampy", 2),
        ("tracked", "forest", 4),
    ],
)
def test_move_cost_8_1(kind: Drive, terrain: TerrainKind, cost: float) -> None:
    assert move_cost(kind, terrain) == cost
    assert move_cost(kind, terrain, reverse=True) == 2 * cost  # reverse at half speed


@pytest.mark.parametrize(
    ("kind", "degrees", "cost"),
    [
        ("wheeled", 0, 0),
        ("wheeled", 60, 1),
        ("wheeled", 61, 2),
        ("wheeled", 180, 3),
        ("tracked", 30, 2),
        ("tracked", 60, 2),
        ("tracked", 120, 4),
        ("tracked", 121, 6),
    ],
)
def test_turn_cost_per_60_degrees(kind: Drive, degrees: float, cost: float) -> None:
    assert turn_cost(kind, degrees) == cost


def test_turn_cannot_be_negative() -> None:
    with pytest.raises(ValueError):
        turn_cost("tracked", -10)


@pytest.mark.parametrize(
    ("spent", "total", "fires"),
    [
        (0, 10, True),
        (5, 10, True),
        (5.5, 10, False),
        (4.5, 9, True),
        (5, 9, False),
        (10, 10, False),
    ],
)
def test_cannot_fire_after_spending_more_than_half(spent: float, total: float, fires: bool) -> None:
    assert can_fire(spent, total) is fires


# --- 8.2 to hit ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((0, False, False, "none", False), []),
        ((1, False, False, "none", False), [("target size", 1)]),
        ((-1, False, False, "none", False), [("target size", -1)]),
        ((0, True, False, "none", False), [("buttoned or under fire last round", -2)]),
        ((0, False, True, "none", False), [("target moved fast (over 6 inches)", -2)]),
        ((0, False, False, "soft", False), [("target in soft cover", -2)]),
        ((0, False, False, "hard", False), [("target in hard cover", -4)]),
        ((0, False, False, "none", True), [("firer on the move", -4)]),
    ],
)
def test_afv_to_hit_modifiers_each(
    args: tuple[int, bool, bool, Cover, bool], expected: list[object]
) -> None:
    assert afv_to_hit_modifiers(*args) == expected


def test_afv_to_hit_modifiers_add_up() -> None:
    mods = afv_to_hit_modifiers(-1, True, True, "hard", True)
    assert sum(v for _, v in mods) == -1 - 2 - 2 - 4 - 4


@pytest.mark.parametrize(
    ("buttoned", "moving", "total"),
    [(False, False, 0), (True, False, -2), (False, True, -4), (True, True, -6)],
)
def test_he_modifiers(buttoned: bool, moving: bool, total: int) -> None:
    assert sum(v for _, v in he_modifiers(buttoned, moving)) == total


@pytest.mark.parametrize(
    ("natural", "outcome"), [(6, "hit"), (9, "hit"), (10, "miss"), (15, "miss")]
)
def test_afv_hits_on_3d6_at_most_modified_fire_control(natural: int, outcome: str) -> None:
    shot = afv_to_hit(Ref(three(natural)), "Sherman → Pz IV", 11, [("buttoned", -2)])
    assert shot.needed == 9
    assert shot.outcome == outcome


@pytest.mark.parametrize(
    ("natural", "outcome"),
    [
        (3, "knocked out"),
        (4, "penetrates"),
        (5, "auto hit"),
        (16, "misfire"),
        (17, "jammed"),
        (18, "jammed badly"),
    ],
)
def test_afv_criticals(natural: int, outcome: str) -> None:
    fire_control = 4 if natural <= 5 else 30  # criticals beat any number needed
    ref = Ref(three(natural))
    shot = afv_to_hit(ref, "shot", fire_control, [("moving", -4)])
    assert shot.outcome == outcome
    assert shot.hit is (natural <= 5)
    assert shot.knocked_out is (natural == 3)
    assert shot.auto_penetrates is (natural == 4)
    assert shot.jammed is (natural in (17, 18))
    assert ref.events[0][0] == "critical"


@pytest.mark.parametrize("natural", [3, 4, 5])
def test_he_shot_criticals_3_to_5_are_automatic_hits(natural: int) -> None:
    shot = afv_to_hit(Ref(three(natural)), "HE", 4, [], he=True)
    assert shot.outcome == "auto hit"


def test_he_shot_critical_failures_still_jam() -> None:
    assert afv_to_hit(Ref(three(17)), "HE", 30, [], he=True).outcome == "jammed"


@pytest.mark.parametrize(
    ("badly", "natural", "cleared"),
    [(False, 12, True), (False, 13, False), (True, 8, True), (True, 9, False)],
)
def test_clearing_a_jam_on_the_crews_int(badly: bool, natural: int, cleared: bool) -> None:
    assert clear_jam(Ref(three(natural)), "jam", badly) is cleared


# --- hit location (ours) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("angle", "facing"),
    [
        (0, "front"),
        (45, "front"),
        (46, "side"),
        (90, "side"),
        (134, "side"),
        (135, "rear"),
        (180, "rear"),
        (225, "rear"),
        (226, "side"),
        (270, "side"),
        (314, "side"),
        (315, "front"),
        (-30, "front"),
    ],
)
def test_facing_by_90_degree_arcs(angle: float, facing: str) -> None:
    assert facing_hit(angle) == facing


@pytest.mark.parametrize(
    ("face", "part"),
    [(1, "turret"), (2, "turret"), (3, "hull"), (4, "hull"), (5, "hull"), (6, "hull")],
)
def test_hit_location_d6_turret_or_hull(face: int, part: Part) -> None:
    assert hit_location(Ref([face]), "loc", 180.0) == Location("rear", part)


def test_fire_from_above_hits_the_top() -> None:
    assert hit_location(Ref([1]), "loc", 0.0, from_above=True) == Location("top", "turret")


def test_relative_bearing_is_measured_from_the_hull_front() -> None:
    tank = Base((0.0, 0.0), 3.0, 5.0, facing=90.0)
    assert relative_bearing(tank, (10.0, 0.0)) == pytest.approx(0.0)
    assert relative_bearing(tank, (-10.0, 0.0)) == pytest.approx(180.0)
    assert facing_hit(relative_bearing(tank, (0.0, 10.0))) == "side"


def test_armour_at_the_location() -> None:
    sherman = vehicle("m4a1_sherman")
    assert sherman.armour_at(Location("front", "hull")) == 9
    assert sherman.armour_at(Location("side", "turret")) == 5
    assert sherman.armour_at(Location("top", "hull")) == 2


@pytest.mark.parametrize(
    ("penetration", "armour", "result"), [(7, 8, False), (8, 8, True), (9, 8, True)]
)
def test_equal_penetration_penetrates(penetration: int, armour: int, result: bool) -> None:
    assert penetrates(penetration, armour) is result


# --- 8.2 damage table ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "he", "extra", "result"),
    [
        (5, 0, [], "explodes"),
        (6, 0, [1], "damaged: mgs"),
        (15, 0, [3], "damaged: immobilised"),
        (16, 0, [], "no damage"),
        (7, 2, [], "explodes"),  # 7 - 2 = 5
        (8, 2, [5], "damaged: main gun"),  # 8 - 2 = 6
        (17, 2, [6], "damaged: main gun"),  # 15
        (18, 2, [], "no damage"),  # 16
    ],
)
def test_damage_table_boundaries(natural: int, he: int, extra: list[int], result: str) -> None:
    ref = Ref([*three(natural), *extra])
    assert damage_table(ref, "hit", he) == result
    assert ref.script.remaining == 0


@pytest.mark.parametrize(
    ("face", "result"),
    [
        (1, "damaged: mgs"),
        (2, "damaged: mgs"),
        (3, "damaged: immobilised"),
        (4, "damaged: immobilised"),
        (5, "damaged: main gun"),
        (6, "damaged: main gun"),
    ],
)
def test_damaged_sub_table(face: int, result: str) -> None:
    assert damage_table(Ref([3, 4, 3, face]), "hit", 0) == result


@pytest.mark.parametrize("face", [5, 6])
def test_no_main_gun_reads_main_gun_destroyed_as_mgs(face: int) -> None:
    assert damage_table(Ref([3, 4, 3, face]), "hit", 0, has_main_gun=False) == "damaged: mgs"


@given(faces=st.lists(st.integers(1, 6), min_size=4, max_size=4), he=st.integers(0, 5))
def test_damage_table_property(faces: list[int], he: int) -> None:
    result: DamageResult = damage_table(Ref(faces), "hit", he)
    total = sum(faces[:3]) - he
    if total <= 5:
        assert result == "explodes"
    elif total >= 16:
        assert result == "no damage"
    else:
        assert result.startswith("damaged: ")


def test_explosion_hits_everything_within_3_inches_for_4d6() -> None:
    tank = Base((0.0, 0.0), 3.0, 5.0)
    bases = {
        "near": Base((0.0, 5.0), 1.0),
        "far": Base((0.0, 6.1), 1.0),
        "side": Base((4.0, 0.0), 1.0),
    }
    assert explosion_victims(tank, bases) == ["near", "side"]  # 2.0" and 2.0" away; far 3.1"
    assert explosion_dice() == 4


# --- 8.2 crew ------------------------------------------------------------------------------------


def test_crew_tests_after_any_hit_that_does_not_explode() -> None:
    assert crew_tests(None)  # a hit that did not penetrate
    assert crew_tests("no damage")
    assert crew_tests("damaged: mgs")
    assert not crew_tests("explodes")


@pytest.mark.parametrize(
    ("natural", "mods", "passed"),
    [
        (12, [], True),
        (13, [], False),
        (14, [("unit in cover", 2)], True),
        (11, [("casualty", -2)], False),
    ],
)
def test_crew_morale_as_an_nco_ldr_12(
    natural: int, mods: list[tuple[str, int]], passed: bool
) -> None:
    assert crew_morale(Ref(three(natural)), "crew", mods) is passed


@pytest.mark.parametrize(
    ("passed", "immobilised", "reaction"),
    [
        (True, False, "carry on"),
        (True, True, "carry on"),
        (False, False, "reverse"),
        (False, True, "abandon"),
    ],
)
def test_crew_reaction(passed: bool, immobilised: bool, reaction: str) -> None:
    assert crew_reaction(passed, immobilised) == reaction


# --- 8.2 over-running ----------------------------------------------------------------------------


@pytest.mark.parametrize(("natural", "survives"), [(12, True), (13, False), (3, True), (18, False)])
def test_overrun_dex_roll_or_killed(natural: int, survives: bool) -> None:
    assert overrun_check(Ref(three(natural)), "overrun", 12) is survives


def test_overrun_destroys_static_pieces_without_a_roll() -> None:
    ref = Ref([])
    assert not overrun_check(ref, "ATG", None)
    assert ref.rolls == []


def test_overrun_victims_along_the_path() -> None:
    tank = Base((0.0, 0.0), 3.0, 5.0)  # 3" wide, facing up the table
    path = Path.of([(0.0, 0.0), (0.0, 20.0)])
    bases = {
        "in the way": Base((0.0, 10.0), 1.0),
        "brushed": Base((2.0, 15.0), 1.0),  # edge at 1.5: touches the 3" wide track
        "clear": Base((2.1, 15.0), 1.0),
        "beyond": Base((0.0, 23.6), 1.0),  # front of the tank stops at 22.5
    }
    assert overrun_victims(tank, path, bases) == ["in the way", "brushed"]


def test_overrun_follows_a_turn() -> None:
    tank = Base((0.0, 0.0), 3.0, 5.0)
    path = Path.of([(0.0, 0.0), (0.0, 10.0), (10.0, 10.0)])
    bases = {"round the corner": Base((8.0, 10.0), 1.0), "inside the bend": Base((8.0, 5.0), 1.0)}
    assert overrun_victims(tank, path, bases) == ["round the corner"]


# --- 8.2 close assault ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapons", "factor"),
    [
        ([], 5),
        (["rifle"], 5),
        (["grenade"], 6),
        (["Sticky bomb"], 6),
        (["Molotov cocktail"], 6),
        (["satchel charge"], 7),
        (["Panzerwurfmine"], 7),
        (["Boys"], 7),
        (["bazooka"], 8),
        (["Panzerfaust"], 8),
        (["No. 68 AT"], 8),
        (["Number 68 AT"], 8),
        (["PIAT"], 8),
        (["grenade", "grenade", "panzerfaust", "rifle"], 10),
        (["molotov", "satchel", "piat"], 11),
    ],
)
def test_close_assault_factor(weapons: list[str], factor: int) -> None:
    assert close_assault_factor(weapons) == factor


@given(st.lists(st.sampled_from(["grenade", "satchel charge", "piat", "smg"]), max_size=10))
def test_close_assault_factor_adds_per_character(weapons: list[str]) -> None:
    bonus = {"grenade": 1, "satchel charge": 2, "piat": 3, "smg": 0}
    assert close_assault_factor(weapons) == 5 + sum(bonus[w] for w in weapons)


@pytest.mark.parametrize(
    ("natural", "factor", "result"),
    [
        (3, 5, "knocked out"),
        (4, 5, "immobilised"),
        (5, 5, "immobilised"),
        (6, 5, "no effect"),
        (8, 8, "immobilised"),
        (9, 8, "no effect"),
        (16, 20, "no effect"),
        (18, 20, "no effect"),
        (15, 20, "immobilised"),
    ],
)
def test_close_assault(natural: int, factor: int, result: CloseAssaultResult) -> None:
    assert close_assault(Ref(three(natural)), "assault", factor) == result


def test_close_assault_exact_odds_at_the_base_factor() -> None:
    odds = exact_outcomes(lambda dice: close_assault(DiceRef(dice), "assault", 5))
    assert odds == {
        "knocked out": Fraction(1, 216),
        "immobilised": Fraction(9, 216),
        "no effect": Fraction(206, 216),
    }


# --- our vehicles --------------------------------------------------------------------------------


def test_five_authored_vehicles_and_two_static_guns() -> None:
    vehicles = afv_tables().vehicles
    assert set(vehicles) == {
        "m4a1_sherman",
        "m8_greyhound",
        "pzkpfw_iv_h",
        "stug_iii_g",
        "sdkfz_251_1",
        "pak_40",
        "m1_57mm",
    }
    assert vehicle("m8_greyhound").drive == "wheeled"
    assert all(vehicles[k].drive == "tracked" for k in vehicles if k != "m8_greyhound")
    assert all(10 <= v.fire_control <= 12 for v in vehicles.values())
    assert [k for k, v in vehicles.items() if v.static] == ["pak_40", "m1_57mm"]
    assert all(v.movement_points == 0 for v in vehicles.values() if v.static)
    assert vehicle("sdkfz_251_1").main_gun is None
    assert vehicle("sdkfz_251_1").open_topped
    assert not vehicle("stug_iii_g").turreted
    with pytest.raises(KeyError, match="m4a1_sherman"):
        vehicle("tiger")


@pytest.mark.parametrize(
    ("key", "row"),
    [
        ("m4a1_sherman", "light_artillery"),
        ("pzkpfw_iv_h", "light_artillery"),
        ("stug_iii_g", "light_artillery"),
        ("m8_greyhound", "grenade"),
    ],
)
def test_gun_he_follows_its_table_6_1_row(key: str, row: str) -> None:
    """Our scale: a gun's HE is the 6.1 row of a shell its size; its HE modifier that row's AP
    factor."""
    gun = vehicle(key).main_gun
    weapon = indirect_weapon(row)
    assert gun is not None and gun.he is not None and gun.he_capable
    assert (gun.he.dice, gun.he.area, gun.he_modifier) == (
        weapon.damage_dice,
        weapon.area,
        weapon.ap_factor,
    )


def test_the_matchups_our_scale_gives() -> None:
    sherman, pz4, stug, m8 = (
        vehicle(k) for k in ("m4a1_sherman", "pzkpfw_iv_h", "stug_iii_g", "m8_greyhound")
    )
    assert sherman.main_gun and pz4.main_gun and m8.main_gun
    front_hull = Location("front", "hull")
    assert penetrates(pz4.main_gun.penetration, sherman.armour_at(front_hull))
    assert penetrates(sherman.main_gun.penetration, pz4.armour_at(front_hull))  # 8 vs 8
    assert not penetrates(m8.main_gun.penetration, pz4.armour_at(front_hull))
    assert penetrates(m8.main_gun.penetration, pz4.armour_at(Location("side", "hull")))
    assert stug.target_size < 0 < sherman.target_size


def test_cover_literal_is_what_the_modifiers_take() -> None:
    covers: list[Cover] = ["none", "soft", "hard"]
    assert [sum(v for _, v in afv_to_hit_modifiers(0, False, False, c, False)) for c in covers] == [
        0,
        -2,
        -4,
    ]
