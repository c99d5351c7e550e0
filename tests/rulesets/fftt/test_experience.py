"""OPTIONAL RULES, Experience (a scenario switch): FPs killed per figure; +1 when shooting at
8, an extra wound at 16, veteran (+1 in hand to hand) at 20, a permanent extra action at 24,
one throw on the general's chart at 32; carried in and out for a campaign."""

from __future__ import annotations

import pytest

from tests.referee import Ref
from tests.rulesets.fftt.position import fig, game, state
from warbench.core import registry
from warbench.rulesets.fftt import hand_to_hand, shooting, wounds
from warbench.rulesets.fftt.actions import Done, Shoot
from warbench.rulesets.fftt.state import LUCKY_BASTARD


def _duel(xp: int, *, on: bool = True, victim: str = "terminator") -> tuple[Ref, object]:
    grunt = fig("r1", "grunt", 50, 20, xp=xp)
    target = fig("b1", victim, 50, 30, wounds=1)
    s = state(grunt, target)
    s.experience = on
    ref = Ref([1, 2])  # a hit
    shooting.resolve(ref, s, grunt, target, indirect=False, hold=False)
    return ref, s


def test_kills_count_only_with_the_switch() -> None:
    _, s = _duel(0, on=False)
    assert s.figs["b1"].where == "dead"  # type: ignore[attr-defined]
    assert s.figs["r1"].xp == 0  # type: ignore[attr-defined]
    ref, s = _duel(0)
    assert s.figs["r1"].xp == 1  # type: ignore[attr-defined]
    assert ("experience", "r1 has killed 1 enemy FPs") in ref.events


def test_eight_fps_give_plus_one_when_shooting() -> None:
    ref, s = _duel(7)
    assert ("experience", "r1 gains +1 when shooting") in ref.events
    grunt, other = s.figs["r1"], fig("b2", "terminator", 50, 35)  # type: ignore[attr-defined]
    plan = shooting.shot(s, grunt, other, indirect=False)  # type: ignore[arg-type]
    assert [m.reason for m in plan.modifiers] == ["experience (8 FPs killed)"]
    assert plan.needed == 8


def test_sixteen_twenty_and_twenty_four_fps() -> None:
    grunt = fig("r1", "grunt", 0, 0)
    assert (grunt.max_wounds, grunt.actions, grunt.veteran) == (2, 3, False)
    _, s = _duel(15)
    grunt = s.figs["r1"]  # type: ignore[attr-defined]
    assert (grunt.max_wounds, grunt.actions, grunt.veteran) == (3, 3, False)
    ref, s = _duel(19)
    grunt = s.figs["r1"]  # type: ignore[attr-defined]
    assert grunt.veteran and ("experience", "r1 gains veteran status (+1 in hand to hand)") in (
        ref.events
    )
    assert ("veteran", 1) in hand_to_hand.modifiers(grunt, 0)
    _, s = _duel(23)
    assert s.figs["r1"].actions == 4  # type: ignore[attr-defined]


def test_thirty_two_fps_throw_once_on_the_generals_chart() -> None:
    grunt = fig("r1", "grunt", 50, 20, xp=31)
    s = state(grunt, fig("b1", "terminator", 50, 30, wounds=1))
    s.experience = True
    ref = Ref([1, 2, 4, 5])  # a hit, then 4+5 on the chart: Lucky bastard
    shooting.resolve(ref, s, grunt, s.figs["b1"], indirect=False, hold=False)
    assert grunt.xp == 32 and grunt.ability == LUCKY_BASTARD
    assert ("experience", "r1 becomes a Lucky bastard") in ref.events
    assert ref.rolls[-1].request.label == "experience: r1 throws on the general's chart"


def test_held_casualties_credit_the_figure_that_dealt_the_last_wound() -> None:
    a, b = fig("r1", "grunt", 40, 20), fig("r2", "engineer", 60, 20)
    tank = fig("b1", "tank", 50, 40, wounds=2)
    s = state(a, b, tank)
    s.experience = True
    ref = Ref()
    wounds.wound(ref, s, tank, 1, "r1's fire", hold=True, by="r1")
    wounds.wound(ref, s, tank, 1, "r2's fire", hold=True, by="r2")
    assert tank.where == "table"  # held until the casualties are removed together
    wounds.remove_casualties(ref, s)
    assert (a.xp, b.xp) == (0, 4)


def test_experience_through_the_game_and_out_for_a_campaign() -> None:
    s = state(fig("r1", "grunt", 50, 20, xp=5), fig("b1", "terminator", 50, 30, wounds=1))
    s.figs["b2"] = fig("b2", "terminator", 90, 90)
    s.experience = True
    g = game(s, [1, 2])
    g.apply(Shoot("r1", "b1"), "red")
    assert g.state.figs["r1"].xp == 5  # the casualty is held to the end of the phase
    g.apply(Done(), "red")
    g.apply(Done(), "blue")
    assert g.state.figs["r1"].xp == 6
    assert g.experience() == {
        "r1": {
            "side": "red",
            "profile": "grunt",
            "xp": 6,
            "veteran": False,
            "ability": 0,
            "alive": True,
        }
    }
    shown = {f["id"]: f["xp"] for f in g.view("blue")["figures"]}
    assert shown["r1"] == 6


def test_carried_experience_needs_the_switch() -> None:
    ruleset = registry.get("fftt")
    data = ruleset.load_scenario("marines-vs-machina")
    data["forces"]["red"]["figures"][1]["xp"] = 12
    with pytest.raises(ValueError, match=r"optional\.experience"):
        ruleset.check_scenario(data)
    data["optional"] = {"experience": True}
    ruleset.check_scenario(data)
    g = ruleset.new_game(data, 1)
    assert g.state.figs["r2"].xp == 12  # type: ignore[attr-defined]
    assert g.state.experience  # type: ignore[attr-defined]
