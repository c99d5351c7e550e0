"""Figure ids tell nothing hidden (R56): a force's main force is numbered from 1 (`r1`), each
flanking force apart from 1 with its flank (`rfw1`, `rfe1`), so a flanking force that enters
shows the same ids whatever else its side wrote down."""

from __future__ import annotations

from tests.rulesets.fftt.position import fig, game, state
from tests.rulesets.fftt.test_secret_forces import _sent_to
from warbench.core.game import Decision
from warbench.rulesets.fftt import setup
from warbench.rulesets.fftt.actions import Done
from warbench.rulesets.fftt.scenario import FigureSpec, FlankSpec, ForceSpec

HQ, GRUNT = FigureSpec(profile="hq"), FigureSpec(profile="grunt")


def _force(west: int) -> ForceSpec:
    """Red's force: HQ and two grunts, `west` grunts by the west flank (none for 0), two by
    the east flank."""
    flanks = [FlankSpec(flank="east", label="Echo", figures=(GRUNT, GRUNT))]
    if west:
        flanks.insert(0, FlankSpec(flank="west", label="Whisky", figures=(GRUNT,) * west))
    return ForceSpec(race="marines", figures=(HQ, GRUNT, GRUNT), flanks=tuple(flanks))


def test_each_flanking_force_is_numbered_apart_from_the_main_force() -> None:
    blue = ForceSpec(
        race="machina",
        figures=(FigureSpec(profile="hq"),),
        flanks=(FlankSpec(flank="east", figures=(FigureSpec(profile="sentinel"),)),),
    )
    figs, flanks = setup.figures({"red": _force(3), "blue": blue})
    assert list(figs) == ["r1", "r2", "r3", "rfw1", "rfw2", "rfw3", "rfe1", "rfe2", "b1", "bfe1"]
    assert [(f.side, f.flank, f.figures) for f in flanks] == [
        ("red", "west", ["rfw1", "rfw2", "rfw3"]),
        ("red", "east", ["rfe1", "rfe2"]),
        ("blue", "east", ["bfe1"]),
    ]
    assert [figs[i].flank for i in ("rfw3", "rfe1", "bfe1")] == [0, 1, 2]
    # a force written later (behind-the-screen's force step) indexes its flanks on
    _, later = setup.figures({"blue": blue}, flanks_before=2)
    assert later[0].figures == ["bfe1"]


def _blue_sees_the_east_force_enter(west: int) -> str:
    """Everything blue is sent once red's east flanking force has entered in turn 2 while
    its west force (of `west` grunts) failed its roll and stays hidden."""
    figs, flanks = setup.figures({"red": _force(west)})
    s = state(fig("b1", "terminator", 50, 90), stage="light")
    for n, f in enumerate(f for f in figs.values() if f.flank is None):
        f.where, f.x, f.y, f.ap = "table", 20.0 + 10 * n, 5.0, f.prof.actions
    s.figs.update(figs)
    s.flanks = flanks
    s.turn, s.phase, s.part, s.player = 2, 1, 1, "blue"
    g = game(s, [1, 6] if west else [6])  # the west force fails its 6, the east one makes it
    g.apply(Done(), "blue")
    while isinstance(g.pending, Decision) and g.pending.kind == "enter":
        g.apply(g.legal_actions("red")[0], "red")
    assert [g.state.figs[i].where for i in ("rfe1", "rfe2")] == ["table", "table"]
    assert all(g.state.figs[f"rfw{n}"].where == "flank" for n in range(1, west + 1))
    return _sent_to(g, "blue")


def test_a_flanking_force_entering_tells_nothing_of_the_other_one() -> None:
    seen = [_blue_sees_the_east_force_enter(west) for west in (0, 1, 4)]
    assert "rfe1 (grunt) enters at" in seen[0]
    assert "whisky" not in seen[1] and "rfw" not in seen[1]
    assert seen[0] == seen[1] == seen[2]
