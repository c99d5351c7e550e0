"""A composition's marks (R57): elite troops (1 FP more), and with the optional rules'
switches the general (one, of the main force, named; its ability thrown) and the enemy FPs
a figure has killed before (Experience, up to 31). Bad marks are refused naming what is
wrong and what the battle allows, changing nothing; what is marked stays secret."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.fftt.test_compositions import _at_force, _Composes
from tests.rulesets.fftt.test_secret_forces import RULESET, SCREEN, _game, _seen_until_revealed
from warbench.core.actions import Action
from warbench.core.game import Game, IllegalAction
from warbench.core.ruleset import Agent
from warbench.rulesets.fftt.actions import Compose
from warbench.rulesets.fftt.ai import TacticsAI


def _switched() -> dict[str, Any]:
    """`behind-the-screen` with the general's chart and experience on."""
    data = RULESET.load_scenario(SCREEN)
    data["optional"] = {"generals": True, "experience": True}
    return data


def test_elite_troops_cost_one_fp_more_and_are_elite() -> None:
    g = _at_force(5)  # red attacks and writes first
    assert g.view("red")["compose"]["marks"] == ["elite (1 FP more)"]
    g.apply(
        Compose("marines", "hq,engineer/elite,grunt*5/elite", "Alpha:grunt*2/elite", "-"), "red"
    )
    red = {f.id: f for f in g.state.figs.values() if f.side == "red"}
    assert [red[i].elite for i in ("r1", "r2", "r3", "r7", "rfw1", "rfw2")] == [
        False,
        True,
        True,
        True,
        True,
        True,
    ]
    told = [e.text for e in g.log if e.visible_to == frozenset({"red"})][-1]
    assert told == (
        "you write down a force of your own, marines (19 FP): HQ, Engineer (elite), "
        "5 Grunt (elite); flanking force 'Alpha' (west): 2 Grunt (elite)"
    )


def test_a_general_and_experience_with_their_switches() -> None:
    g = _at_force(5, _switched())
    marks = g.view("red")["compose"]["marks"]
    assert marks == [
        "elite (1 FP more)",
        "xp=N (enemy FPs killed before, 1 to 31)",
        "general or general=NAME (one, in the main force)",
    ]
    assert "marks PROFILE/MARK: elite (1 FP more); xp=N" in RULESET.board_text(g)
    g.apply(Compose("marines", "hq,engineer/general=Kowalski/xp=20,grunt*4/xp=8", "-", "-"), "red")
    engineer, grunt = g.state.figs["r2"], g.state.figs["r3"]
    assert (engineer.xp, engineer.veteran, grunt.xp) == (20, True, 8)
    assert engineer.ability  # the general's ability is thrown on the chart (R35)
    told = [e.text for e in g.log if e.visible_to == frozenset({"red"})]
    assert "HQ, Engineer (general Kowalski, 20 FP killed), 4 Grunt (8 FP killed)" in told[-3]
    assert told[-1].startswith("Kowalski (r2) is a ")
    assert not [e for e in g.log if e.seen_by("blue") and "Kowalski" in e.text]


def test_with_the_chart_on_an_unmarked_composition_has_its_first_figure_as_general() -> None:
    g = _at_force(5, _switched())
    g.apply(Compose("marines", "hq,grunt*4", "-", "-"), "red")
    told = [e.text for e in g.log if e.visible_to == frozenset({"red"})]
    assert "marines (5 FP): HQ (general), 4 Grunt" in told[-3]
    assert told[-1].startswith("General (r1) is a ")


BAD: list[tuple[Action, str, bool]] = [
    (
        Compose("marines", "hq,engineer*5/elite", "-", "-"),
        "the force costs 21 FP (an elite troop 1 FP more), over the 20 agreed",
        False,
    ),
    (
        Compose("marines", "hq", "grunt*3/elite", "-"),
        "the west flanking force costs 6 FP (an elite troop 1 FP more); at most a quarter",
        False,
    ),
    (Compose("marines", "hq/veteran", "-", "-"), "'hq/veteran': 'veteran' is not a mark of", False),
    (
        Compose("marines", "hq,engineer/general", "-", "-"),
        "needs the optional rule generals",
        False,
    ),
    (Compose("marines", "hq,engineer/xp=8", "-", "-"), "needs the optional rule experience", False),
    (
        Compose("marines", "hq/xp=32", "-", "-"),
        "'hq/xp=32': xp=N, N the enemy FPs the figure",
        True,
    ),
    (Compose("marines", "hq/xp=0", "-", "-"), "killed, from 1 to 31", True),
    (Compose("marines", "hq/xp=", "-", "-"), "killed, from 1 to 31", True),
    (Compose("marines", "hq/general,grunt/general", "-", "-"), "one general, not 2", True),
    (Compose("marines", "hq,grunt*2/general", "-", "-"), "the general is one figure, not 2", True),
    (Compose("marines", "hq", "grunt/general", "-"), "WEST: the general is a figure of the", True),
    (Compose("marines", "hq/general=Sgt.K", "-", "-"), "a general's name is 1 to 40 letters", True),
]


@pytest.mark.parametrize(("action", "message", "switched"), BAD)
def test_bad_marks_are_refused_naming_what_is_wrong_and_change_nothing(
    action: Action, message: str, switched: bool
) -> None:
    g = _at_force(5, _switched() if switched else None)
    before, events = g.state_hash(), len(g.log)
    with pytest.raises(IllegalAction) as refused:
        g.apply(action, "red")
    assert message in str(refused.value)
    assert g.state_hash() == before and len(g.log) == events
    assert g.pending.kind == "force"  # type: ignore[union-attr]


MARKED = [
    Compose("marines", "hq,grunt*7", "-", "-"),
    Compose("marines", "hq,engineer/elite/xp=31/general=MARKER-general,grunt*6/xp=9", "-", "-"),
    Compose("marines", "hq/general=MARKER-hq,medic/elite,grunt*6/elite", "grunt*2/xp=16", "-"),
]


@pytest.mark.parametrize("viewer", ["blue", None])
def test_whatever_red_marks_blue_and_spectators_get_the_same(viewer: str | None) -> None:
    """Games alike but for red's marks (elite, a named general, experience): blue's views,
    scenes, events and legal actions are the same until the screen comes down."""
    for seed in (0, 5):  # red defends, then red attacks (and writes first)
        runs = []
        for action in MARKED:
            g = _game(seed, _switched())
            agents: dict[str, Agent] = {"red": _Composes(7, action), "blue": TacticsAI(8)}
            seen = _seen_until_revealed(g, agents, viewer)
            assert [s.action for s in g.steps if s.player == "red"].count(str(action)) == 1
            assert g.parse(str(action)) == action  # its text replays it
            assert Game.replay(g.record).state_hash() == g.state_hash()
            assert not [t for t in seen if "marker" in t]
            runs.append(seen)
        assert len(runs[0]) > 3
        assert runs[0] == runs[1] == runs[2]
