"""Artillery and Suppression, played through the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.rulesets.fft3.position import At, legal, play, position, stand, texts
from warbench.rulesets.fft3.artillery import templates_for
from warbench.rulesets.fft3.attack import to_hit_modifiers
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.state import Template

WOODS = {"kind": "woods", "polygon": [[30, 30], [42, 30], [42, 42], [30, 42]]}


def _barrage_phase(
    stands: list[At], faces: list[int], terrain: Sequence[dict[str, Any]] = ()
) -> FFT3Game:
    """Red's artillery phase with one template to place."""
    game = position(stands, faces=faces, phase="artillery", mover="red", terrain=terrain)
    game.state.templates_left = 1
    return game


@pytest.mark.parametrize(("units", "templates"), [(1, 0), (2, 0), (3, 1), (5, 1), (6, 2)])
def test_one_template_for_every_three_units(units: int, templates: int) -> None:
    assert templates_for(units) == templates


def test_with_fewer_than_three_units_the_artillery_phase_passes() -> None:
    """The test position has two units a side: no template, straight to movement."""
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 40)], phase="fire", mover="blue")
    events = play(game, "end")  # blue's fire phase ends the turn; red's half begins
    assert "red's artillery phase (0 templates)" in texts(events)
    assert game.pending.kind == "movement"  # type: ignore[union-attr]


def test_a_template_needs_a_friendly_stand_that_sees_part_of_it() -> None:
    game = _barrage_phase([At("s1t1", 10, 10), At("n1t1", 36, 50 - 14)], [], terrain=[WOODS])
    reason = legal(game, "barrage 36,38")  # the middle of the wood: hidden from s1t1
    assert reason is not None and "see" in reason
    assert legal(game, "barrage 36,29") is None  # just outside its edge


def test_a_template_off_the_table_is_refused_naming_the_table_s_bounds() -> None:
    game = _barrage_phase([At("s1t1", 10, 10), At("n1t1", 36, 36)], [])
    assert legal(game, "barrage 100,100") == (
        "the template's centre 100,100 is off the table; it must lie within x 0 to 72 and y 0 to 48"
    )


@pytest.mark.parametrize(
    ("faces", "alive", "suppressed"),
    [([6], False, False), ([5, 4], True, True), ([4, 3], False, False), ([3], True, False)],
)
def test_infantry_in_the_open(faces: list[int], alive: bool, suppressed: bool) -> None:
    """6: destroyed; 4-5: a quality check (NATO 4+), passed → suppressed; 1-3: nothing."""
    game = _barrage_phase([At("s1t1", 10, 10), At("n1i1", 36, 36)], faces)
    play(game, "barrage 36,36")
    inf = stand(game, "n1i1")
    assert (inf.alive, inf.suppressed) == (alive, suppressed)


@pytest.mark.parametrize(
    ("faces", "alive", "suppressed"),
    [([6, 4], True, True), ([6, 3], False, False), ([5], True, True), ([1], True, False)],
)
def test_vehicles(faces: list[int], alive: bool, suppressed: bool) -> None:
    """6: a quality check, passed → suppressed; 4-5: suppressed; 1-3: nothing."""
    game = _barrage_phase([At("s1t1", 10, 10), At("n1t1", 36, 36)], faces)
    play(game, "barrage 36,36")
    tank = stand(game, "n1t1")
    assert (tank.alive, tank.suppressed) == (alive, suppressed)


def test_infantry_in_difficult_terrain_counts_as_protected() -> None:
    game = _barrage_phase([At("s1t1", 36, 27), At("n1i1", 36, 31)], [5], terrain=[WOODS])
    play(game, "barrage 36,31")
    inf = stand(game, "n1i1")
    assert inf.alive and inf.suppressed  # 4-5 suppresses; in the open it would check


def test_every_stand_under_the_template_is_attacked_friend_or_foe() -> None:
    game = _barrage_phase(
        [At("s1t1", 10, 10), At("n1t1", 36, 36), At("n1t2", 37.5, 36), At("s2t1", 35.5, 37.5)],
        [1, 1, 1],
    )
    events = play(game, "barrage 36.5,36.5")
    rolls = [e.roll for e in events if e.roll is not None]
    assert len(rolls) == 3 and all("artillery:" in r.request.label for r in rolls)


def test_a_stand_takes_one_artillery_check_a_turn() -> None:
    game = _barrage_phase([At("s1t1", 10, 10), At("n1t1", 36, 36)], [6, 4, 6])
    game.state.templates_left = 2
    play(game, "barrage 36,36")
    events = play(game, "barrage 36.2,36")
    tank = stand(game, "n1t1")
    assert tank.alive and tank.suppressed
    assert any("has taken its artillery check this turn" in t for t in texts(events))


def test_a_template_attacks_a_stand_that_moves_into_it() -> None:
    """ "The template remains until the owning player's next artillery phase. Any stand that
    touches it during movement takes an immediate attack." """
    game = position(
        [At("s1t1", 10, 10), At("n1t1", 36, 40), At("n1t2", 37.5, 40)],
        phase="movement",
        mover="blue",
        faces=[5],
    )
    game.state.templates.append(_template("red", 36, 34))
    events = play(game, "move n1t1 36,30")
    assert any("runs into red's template" in t for t in texts(events))
    tank = stand(game, "n1t1")
    assert tank.suppressed and tank.at == (36, 30)
    assert tank.mp_left() == pytest.approx(14 - 10 - 2)  # suppression costs the mover 2 MP


def test_templates_come_off_and_suppression_ends_at_the_owners_next_artillery_phase() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 36, 40)], phase="fire", mover="blue")
    game.state.templates.append(_template("red", 36, 40))
    stand(game, "n1t1").suppressed_by = "red"
    play(game, "end")  # blue's half ends; red's artillery phase begins the next turn
    assert game.state.templates == []
    assert not stand(game, "n1t1").suppressed


def test_suppressed_stands_fire_at_minus_one_vehicle_minus_two_infantry() -> None:
    vehicle = dict(to_hit_modifiers("effective", 0, suppressed=True))
    infantry = dict(to_hit_modifiers("effective", 0, suppressed=True, infantry=True))
    assert vehicle["suppressed"] == -1 and infantry["suppressed"] == -2
    game = position(
        [At("s1t1", 10, 10), At("n1t1", 10, 30, 180)], suppressed=["s1t1"], faces=[1, 1]
    )
    events = play(game, "fire s1t1 gun n1t1", "resolve n1t1")
    to_hit = next(e.roll for e in events if e.roll is not None)
    assert ("suppressed", -1) in to_hit.request.modifiers


def _template(owner: str, x: float, y: float) -> Template:
    return Template(owner, x, y)


@pytest.mark.parametrize(
    ("stands", "faces", "text"),
    [
        (
            [At("s1t1", 10, 10), At("n1t1", 36, 36)],
            [2],
            "n1t1 NATO Tank: 2, no effect (vehicle: 6 check then suppressed, 4-5 suppressed, "
            "1-3 no effect)",
        ),
        (
            [At("s1t1", 10, 10), At("n1i1", 36, 36)],
            [6],
            "n1i1 NATO Infantry: 6, destroyed (infantry in the open: 6 destroyed, "
            "4-5 check then suppressed, 1-3 no effect)",
        ),
    ],
)
def test_the_log_gives_the_face_and_the_effects_table(
    stands: list[At], faces: list[int], text: str
) -> None:
    """A referee saw "d6 rolled 2" and "no effect" without the table that made it so."""
    game = _barrage_phase(stands, faces)
    events = play(game, "barrage 36,36")
    assert text in texts(events)
