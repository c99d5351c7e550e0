"""SHOOTING: modifiers, range, sight, cover, damage, grenades and missiles, shooting into a
melee, running out of ammo."""

from __future__ import annotations

from tests.referee import Ref
from tests.rulesets.fftt.position import fig, state
from warbench.rulesets.fftt import shooting
from warbench.rulesets.fftt.state import Melee
from warbench.rulesets.fftt.table import Piece


def test_modifiers_accumulate() -> None:
    grunt = fig("r1", "grunt", 50, 20, elite=True, wounds=1)
    sentinel = fig("b1", "sentinel", 50, 45)
    s = state(grunt, sentinel, pieces=[Piece("ruins", 45, 43, 55, 48)])
    plan = shooting.shot(s, grunt, sentinel, indirect=False)
    reasons = [m.reason for m in plan.modifiers]
    assert reasons == [
        "long range",
        "target in cover",
        "firer wounded",
        "target is a Drone or Sentinel",
        "elite",
    ]
    assert plan.needed == 7 - 4 + 1


def test_short_range_no_modifier_and_beyond_long_range_refused() -> None:
    grunt = fig("r1", "grunt", 50, 20)
    near, far = fig("b1", "terminator", 50, 40), fig("b2", "terminator", 20, 60)
    s = state(grunt, near, far)
    assert shooting.shot(s, grunt, near, indirect=False).needed == 7
    assert "beyond" in (shooting.fire_problem(s, grunt, far, indirect=False) or "")


def test_figures_block_sight_and_low_walls_do_not() -> None:
    grunt = fig("r1", "grunt", 50, 20)
    target = fig("b1", "terminator", 50, 40)
    s = state(grunt, target, pieces=[Piece("wall", 40, 30, 60, 31)])
    assert shooting.fire_problem(s, grunt, target, indirect=False) is None
    s.figs["b2"] = fig("b2", "terminator", 50, 30)
    assert shooting.fire_problem(s, grunt, target, indirect=False) == "r1 cannot see b1"


def test_buildings_and_forests_at_the_border_or_within_5_cm() -> None:
    wood = Piece("forest", 40, 30, 60, 50)
    grunt = fig("r1", "grunt", 50, 20)
    deep = fig("b1", "terminator", 50, 40)
    border = fig("b2", "terminator", 45, 31)
    s = state(grunt, deep, border, pieces=[wood])
    assert shooting.fire_problem(s, grunt, deep, indirect=False) == "r1 cannot see b1"
    assert shooting.fire_problem(s, grunt, border, indirect=False) is None
    inside = fig("r2", "grunt", 50, 44)
    s.figs["r2"] = inside
    assert shooting.fire_problem(s, inside, deep, indirect=False) is None  # 4 cm apart


def test_the_higher_shooter_sees_over_what_is_nearer_to_it() -> None:
    hill = Piece("hill", 40, 10, 60, 25)
    grunt = fig("r1", "grunt", 50, 20)
    target = fig("b1", "terminator", 50, 40)
    blocker_near = fig("r2", "grunt", 50, 27)
    s = state(grunt, target, blocker_near, pieces=[hill])
    assert shooting.fire_problem(s, grunt, target, indirect=False) is None
    s.figs["r2"].y = 37  # now nearer the target than the shooter
    assert shooting.fire_problem(s, grunt, target, indirect=False) == "r1 cannot see b1"


def test_indirect_fire_needs_no_sight_at_minus_one() -> None:
    grenadier = fig("r1", "grenadier", 50, 30)
    target = fig("b1", "terminator", 50, 38)
    s = state(grenadier, target, fig("b2", "terminator", 50, 34))
    assert shooting.fire_problem(s, grenadier, target, indirect=False) == "r1 cannot see b1"
    assert shooting.fire_problem(s, grenadier, target, indirect=True) is None
    assert shooting.shot(s, grenadier, target, indirect=True).needed == 5
    grunt = fig("r2", "grunt", 50, 30)
    assert "only grenadiers" in (shooting.fire_problem(s, grunt, target, indirect=True) or "")


def test_the_tank_twin_laser_shoots_twice() -> None:
    tank = fig("b1", "tank", 50, 60)
    grunt = fig("r1", "grunt", 50, 40)
    s = state(tank, grunt)
    ref = Ref([1, 2, 3, 3])
    shooting.resolve(ref, s, tank, grunt, indirect=False, hold=True)
    assert len(ref.rolls) == 2
    assert s.pending_wounds == {"r1": 3}  # one wound, then two for the double


def test_missile_bursts_three_circles_and_cover_does_not_help() -> None:
    mt = fig("b1", "mt", 50, 90)
    target = fig("r1", "grunt", 50, 40)
    second = fig("r2", "grunt", 54, 40)  # 3 cm from the centre to its base: inner circle
    third = fig("r3", "grunt", 57, 40)  # 6 cm: middle circle
    fourth = fig("r4", "grunt", 59.5, 40)  # 8.5 cm: outer circle
    s = state(mt, target, second, third, fourth, pieces=[Piece("ruins", 40, 35, 62, 45)])
    assert [m.reason for m in shooting.shot(s, mt, target, indirect=False).modifiers] == []
    ref = Ref([1, 1])
    shooting.resolve(ref, s, mt, target, indirect=False, hold=True)
    assert s.pending_wounds == {"r1": 3, "r2": 3, "r3": 2, "r4": 1}


def test_shooting_into_a_melee_hits_the_wrong_figure_on_5_or_6() -> None:
    grunt = fig("r1", "grunt", 50, 30)
    enemy = fig("b1", "terminator", 50, 40)
    friend = fig("r2", "grunt", 52, 40)
    s = state(grunt, enemy, friend)
    s.melees = [Melee("b1", ["r2"])]
    ref = Ref([1, 2, 5])
    shooting.resolve(ref, s, grunt, enemy, indirect=False, hold=True)
    assert s.pending_wounds == {"r2": 1}
    ref = Ref([1, 2, 4])
    shooting.resolve(ref, s, grunt, enemy, indirect=False, hold=True)
    assert s.pending_wounds == {"r2": 1, "b1": 1}


def test_out_of_ammo_after_the_hqs_die_but_never_the_machina() -> None:
    grunt = fig("r1", "grunt", 50, 30)
    terminator = fig("b1", "terminator", 50, 45)
    s = state(grunt, terminator, fig("b2", "hq", 10, 90))
    shooting.resolve(Ref([6, 6]), s, terminator, grunt, indirect=False, hold=True)
    shooting.resolve(Ref([6, 6]), s, grunt, terminator, indirect=False, hold=True)
    assert grunt.out_of_ammo and not terminator.out_of_ammo
    assert "out of ammo" in (shooting.fire_problem(s, grunt, terminator, indirect=False) or "")


def test_insectoid_shooters_die_out_of_ammo_once_the_queens_are_dead() -> None:
    stinger = fig("b1", "stinger", 50, 45, race="insectoids")
    s = state(fig("r1", "grunt", 50, 30), stinger)
    shooting.resolve(Ref([6, 6]), s, stinger, s.figs["r1"], indirect=False, hold=True)
    assert stinger.where == "dead"
