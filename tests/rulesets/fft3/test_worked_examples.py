"""Examples (fistful-of-tows-3-intro.txt): the Anti-vehicle Attack, the Missile Attack (and
its second example) and the Anti-infantry Attack, reproduced step by step as printed, with the
printed dice scripted and each printed number asserted.

The stands are placed on concrete positions so the arc comes from `arc_of_fire`: the Soviet
target at the origin facing 0° (+y), the firer's centre put so its base edge is the printed
distance from the target's base edge ("measure the range (from any part of each stand)").
"""

from __future__ import annotations

import math

from tests.referee import Ref
from warbench.core.dice import Read
from warbench.rulesets.fft3.anti_infantry import check_modifiers
from warbench.rulesets.fft3.anti_vehicle import gun_penetration, penetration_dice, resolve_hits
from warbench.rulesets.fft3.attack import roll_to_hit, terrain_saves, to_hit_modifiers
from warbench.rulesets.fft3.facing import Arc, arc_of_fire
from warbench.rulesets.fft3.profiles import StandProfile, forces, profile, range_band
from warbench.rulesets.fft3.quality import quality_check
from warbench.rulesets.fft3.state import RADIUS

Point = tuple[float, float]

TARGET: Point = (0.0, 0.0)
FACING = 0.0  # the Soviet target faces +y
NATO_TO_HIT = forces().sides["nato"].to_hit
SOVIET_QUALITY = forces().sides["soviet"].quality


def armour_struck(target: StandProfile, arc: Arc) -> int:
    """The target's armour the fire strikes: front or flank, as `arc_of_fire` says."""
    assert target.armour is not None
    return target.armour.front if arc == "front" else target.armour.flank


def gap(a: Point, ra: float, b: Point, rb: float) -> float:
    """Base edge to base edge."""
    return math.dist(a, b) - ra - rb


# Anti-vehicle Attack --------------------------------------------------------------------

# "The Soviet tank is 25 inches away" and "the NATO tank is in the Soviet tank's front arc":
# straight ahead of it.
NATO_TANK_AT: Point = (0.0, 25.0 + RADIUS["tank"] + RADIUS["tank"])


def test_anti_vehicle_example_front_arc_and_long_range() -> None:
    """ "the NATO tank is in the Soviet tank's front arc" ... "The Soviet tank is 25 inches
    away. The NATO tank's effective range is 24". Since the attack is greater than 24" but
    not greater than 36", this is a long range anti-vehicle attack." """
    nato = profile("nato", "tank")
    assert nato.gun is not None
    assert arc_of_fire(TARGET, FACING, NATO_TANK_AT, RADIUS["tank"]) == "front"
    distance = gap(TARGET, RADIUS["tank"], NATO_TANK_AT, RADIUS["tank"])
    assert math.isclose(distance, 25.0)
    assert nato.gun.range == 24
    assert range_band(distance, nato.gun.range) == "long"
    assert range_band(36.0, nato.gun.range) == "long"  # "not greater than 36""


def test_anti_vehicle_example_step_by_step() -> None:
    """To hit 2, 5, 6 at −1 long +1 NATO → 2 hits; saves 2 and 6 → one avoided; Pen 14 − 2
    = 12 v front armour 10 → 2 dice, 2 and 4 → a quality check; the Soviet player needs 5+,
    rolls a 2: destroyed."""
    ref = Ref([2, 5, 6, 2, 6, 2, 4, 2])
    nato, soviet = profile("nato", "tank"), profile("soviet", "tank")
    assert nato.gun is not None and soviet.armour is not None

    # Second: the range band.
    band = range_band(gap(TARGET, RADIUS["tank"], NATO_TANK_AT, RADIUS["tank"]), nato.gun.range)
    assert band == "long"

    # Third: roll to hit, "The NATO tank's player rolls 3 dice, getting a 2, 5 and 6."
    mods = to_hit_modifiers(band, NATO_TO_HIT)
    assert mods == (("long range", -1), ("quality", 1))
    hits = roll_to_hit(ref, "NATO tank gun at Soviet tank", nato.gun.rof, mods)
    to_hit = ref.rolls[0]
    assert to_hit.request.dice == 3
    assert to_hit.request.read is Read.COUNT_AT_LEAST
    assert to_hit.request.target == 4
    assert to_hit.request.modifiers == (("long range", -1), ("quality", 1))
    assert to_hit.faces == (2, 5, 6)
    assert hits == 2  # "so 2 hits are scored"
    assert to_hit.explain() == (
        "to hit: NATO tank gun at Soviet tank: 3d6 rolled 2+5+6 -1 long range +1 quality;"
        " 2 of 3 succeed at 4+"
    )

    # Fourth: "The target is in difficult terrain, so its player rolls 2d6 – one for each
    # hit – getting a 2 and 6. A 5+ saves, so one hit is avoided."
    left = terrain_saves(ref, "Soviet tank on the edge of town", hits)
    saves = ref.rolls[1]
    assert saves.request.dice == 2
    assert saves.request.target == 5
    assert saves.request.modifiers == ()
    assert saves.faces == (2, 6)
    assert saves.successes == 1
    assert left == 1
    assert "1 of 2 succeeds at 5+" in saves.explain()

    # Fifth: "The NATO tank's penetration is 14, less 2 for long range, which equals 12. The
    # Soviet tank's front armor is 10. 12 - 10 = 2 dice."
    assert nato.gun.pen == 14
    pen = gun_penetration(nato.gun.pen, band)
    assert pen == 12
    side = arc_of_fire(TARGET, FACING, NATO_TANK_AT, RADIUS["tank"])
    armour = armour_struck(soviet, side)
    assert armour == 10
    assert penetration_dice(pen, armour) == (2, ())
    outcome = resolve_hits(ref, "NATO tank gun at Soviet tank, front armour", left, pen, armour)
    penetration = ref.rolls[2]
    assert penetration.request.dice == 2
    assert penetration.request.modifiers == ()
    assert penetration.faces == (2, 4)
    # "the Soviet tank takes a single quality check"
    assert outcome == "check"
    assert "Pen 12 v armour 10" in penetration.explain()
    assert "6 destroys, 4-5 check" in penetration.explain()

    # "The Soviet player rolls 1 die. He needs a 5+ to pass, but rolls a 2. The Soviet tank
    # is destroyed."
    assert SOVIET_QUALITY == 5
    check = quality_check(ref, "Soviet tank", SOVIET_QUALITY)
    assert check.request.dice == 1
    assert check.request.target == 5
    assert check.faces == (2,)
    assert check.total == 2
    assert check.success is False
    assert (
        check.explain() == "quality check: Soviet tank: d6 rolled 2 = 2, needs 5 or more: failure"
    )

    assert len(ref.rolls) == 4
    assert ref.script.remaining == 0


# Missile Attack --------------------------------------------------------------------------

# "The infantry stand is entirely in the Soviet tank's flank arc" at "9"": square to its right.
INFANTRY_FLANK_AT: Point = (9.0 + RADIUS["tank"] + RADIUS["infantry"], 0.0)
# The second example's front hit: the same stand 9" straight ahead.
INFANTRY_FRONT_AT: Point = (0.0, 9.0 + RADIUS["tank"] + RADIUS["infantry"])


def test_missile_example_flank_hit_destroys() -> None:
    """Flank arc, 9" within the missile's single range; one die (ROF 1) rolls 3 +1 NATO =
    4, a hit; open ground, no save; Pen 8 v flank 4 → 4 dice 1, 2, 5, 6: the 6 destroys."""
    ref = Ref([3, 1, 2, 5, 6])
    infantry, soviet = profile("nato", "infantry"), profile("soviet", "tank")
    assert infantry.missile is not None and soviet.armour is not None

    side = arc_of_fire(TARGET, FACING, INFANTRY_FLANK_AT, RADIUS["infantry"])
    assert side == "flank"
    distance = gap(TARGET, RADIUS["tank"], INFANTRY_FLANK_AT, RADIUS["infantry"])
    assert math.isclose(distance, 9.0)
    # "The range is 9", so the attack may proceed": missiles have a single range.
    assert distance <= infantry.missile.range

    # "The infantry stand rolls one die (ROF 1) and rolls a 3." "+1 quality to hit modifier
    # for NATO" "The modified roll is a 4, which is a hit."
    mods = to_hit_modifiers(None, NATO_TO_HIT)
    assert mods == (("quality", 1),)
    assert infantry.missile.rof == 1
    hits = roll_to_hit(ref, "NATO infantry missile at Soviet tank", infantry.missile.rof, mods)
    to_hit = ref.rolls[0]
    assert to_hit.request.dice == 1
    assert to_hit.faces == (3,)
    assert to_hit.total == 4
    assert hits == 1
    assert to_hit.explain().endswith("d6 rolled 3 +1 quality; 1 of 1 succeeds at 4+")

    # "The Soviet tank is in the open and gets no terrain saving roll." (no roll made here)
    # "The missile's penetration is 8. The Soviet tank's flank armor is 4. 8-4=4."
    assert infantry.missile.pen == 8
    armour = armour_struck(soviet, side)
    assert armour == 4
    assert penetration_dice(infantry.missile.pen, armour) == (4, ())
    outcome = resolve_hits(ref, "missile, flank armour", hits, infantry.missile.pen, armour)
    penetration = ref.rolls[1]
    assert penetration.request.dice == 4  # "The NATO player rolls 4 dice"
    assert penetration.faces == (1, 2, 5, 6)
    assert penetration.successes == 1
    assert outcome == "destroyed"  # "The 6 destroys the Soviet tank."

    assert len(ref.rolls) == 2
    assert ref.script.remaining == 0


def test_missile_second_example_front_hit_no_effect() -> None:
    """ "the attack hits the Soviet tank's front armor, which is 10. The missile's
    penetration is 8. 8-10= -2. The NATO player rolls 1 die and subtracts 2. The roll is a
    5. Subtracting 2 leaves a 3, which is no effect." """
    ref = Ref([3, 5])
    infantry, soviet = profile("nato", "infantry"), profile("soviet", "tank")
    assert infantry.missile is not None and soviet.armour is not None

    side = arc_of_fire(TARGET, FACING, INFANTRY_FRONT_AT, RADIUS["infantry"])
    assert side == "front"
    distance = gap(TARGET, RADIUS["tank"], INFANTRY_FRONT_AT, RADIUS["infantry"])
    assert math.isclose(distance, 9.0)
    assert distance <= infantry.missile.range

    hits = roll_to_hit(ref, "missile", infantry.missile.rof, to_hit_modifiers(None, NATO_TO_HIT))
    assert hits == 1  # "the same situation": the 3 +1 hits again

    armour = armour_struck(soviet, side)
    assert armour == 10
    assert penetration_dice(infantry.missile.pen, armour) == (1, (("Pen below armour", -2),))
    outcome = resolve_hits(ref, "missile, front armour", hits, infantry.missile.pen, armour)
    penetration = ref.rolls[1]
    assert penetration.request.dice == 1
    assert penetration.request.modifiers == (("Pen below armour", -2),)
    assert penetration.faces == (5,)
    assert penetration.total == 3  # "Subtracting 2 leaves a 3"
    assert outcome == "no effect"
    assert "-2 Pen below armour" in penetration.explain()

    assert ref.script.remaining == 0


# Anti-infantry Attack --------------------------------------------------------------------


def test_anti_infantry_example_step_by_step() -> None:
    """27" is long range for the NATO tank's 24" gun; 3 dice 1, 5, 6 at −1 long, +1 NATO,
    −1 AI → 2 hits; saves 2 and 4 avoid none; the check is a 5 − 1 = 4, failing at 5+."""
    ref = Ref([1, 5, 6, 2, 4, 5])
    nato = profile("nato", "tank")
    assert nato.gun is not None

    # "The range is 27", which is long range."
    band = range_band(27.0, nato.gun.range)
    assert band == "long"

    # "The NATO tank's ROF is 3, so the NATO player rolls 3 dice to hit, getting a 1, 5 and 6."
    assert nato.gun.rof == 3
    assert nato.gun.ai == -1
    mods = to_hit_modifiers(band, NATO_TO_HIT, ai_rating=nato.gun.ai)
    assert mods == (("long range", -1), ("quality", 1), ("AI rating", -1))
    hits = roll_to_hit(ref, "NATO tank gun at Soviet infantry", nato.gun.rof, mods)
    to_hit = ref.rolls[0]
    assert to_hit.request.dice == 3
    assert to_hit.request.modifier_total == -1
    assert to_hit.faces == (1, 5, 6)
    assert hits == 2  # "Two of the dice are 4 or higher, so 2 hits are scored."
    assert to_hit.explain() == (
        "to hit: NATO tank gun at Soviet infantry: 3d6 rolled 1+5+6 -1 long range +1 quality"
        " -1 AI rating; 2 of 3 succeed at 4+"
    )

    # "The infantry gets 2 saving terrain throws. The Soviet player rolls two dice and gets a
    # 2 and a 4. Neither is a 5+ so no hits are avoided."
    left = terrain_saves(ref, "Soviet infantry on the edge of town", hits)
    saves = ref.rolls[1]
    assert saves.request.dice == 2
    assert saves.faces == (2, 4)
    assert saves.successes == 0
    assert left == 2

    # "Since 2 hits are scored, the infantry stand must subtract 1 from its quality check
    # roll. It rolls a 5, which is reduced to a 4. This fails (a 5+ modified roll was
    # required to pass the quality check)"
    mods = check_modifiers(left)
    assert mods == (("additional hits", -1),)
    check = quality_check(ref, "Soviet infantry", SOVIET_QUALITY, mods)
    assert check.request.target == 5
    assert check.faces == (5,)
    assert check.total == 4
    assert check.success is False
    assert check.explain() == (
        "quality check: Soviet infantry: d6 rolled 5 -1 additional hits = 4, needs 5 or more:"
        " failure"
    )

    assert len(ref.rolls) == 3
    assert ref.script.remaining == 0
