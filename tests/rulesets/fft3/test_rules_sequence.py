"""Sequence of Play, played through the game: each turn the attacker's half, then the
defender's, each an artillery phase, a movement phase and a fire phase followed by the
quality checks; and a road's combat effect taken from the terrain it runs through."""

from __future__ import annotations

from tests.rulesets.fft3.position import At, legal, play, position, stand, texts

WOODS = {"kind": "woods", "polygon": [[0, 20], [72, 20], [72, 26], [0, 26]]}
ROAD = {"kind": "road", "line": [[10, 0], [10, 48]]}


def test_attacker_then_defender_each_artillery_movement_fire() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 60, 40, 180)], phase="movement")
    events = texts(play(game, "end", "end", "end", "end"))
    phases = [e for e in events if "phase" in e or e.startswith("turn")]
    assert phases == [
        "red's fire phase",
        "blue's artillery phase (0 templates)",
        "blue's movement phase",
        "blue's fire phase",
        "turn 2 begins",
        "red's artillery phase (0 templates)",
        "red's movement phase",
    ]


def test_a_road_takes_the_combat_effect_of_the_woods_it_runs_through() -> None:
    game = position(
        [At("s1t1", 10, 10), At("n1t1", 10, 21, 180)], terrain=[WOODS, ROAD], faces=[6, 6, 5, 5]
    )
    assert game.field.on_road((10, 21))
    events = play(game, "fire s1t1 gun n1t1", "resolve n1t1")
    labels = [e.roll.request.label for e in events if e.roll]
    assert labels[1].startswith("terrain save")
    assert stand(game, "n1t1").alive  # both hits saved: the road is in the woods


def test_a_road_through_the_open_gives_no_terrain_save() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 30, 180)], terrain=[ROAD], faces=[6, 1, 1])
    events = play(game, "fire s1t1 gun n1t1", "resolve n1t1")
    labels = [e.roll.request.label for e in events if e.roll]
    assert not any(label.startswith("terrain save") for label in labels)


def test_an_action_of_another_phase_names_the_forms_this_phase_allows() -> None:
    """It said "this is the movement phase; allowed: move, strategic, ..." without the
    fields each takes."""
    game = position([At("s1t1", 10, 10), At("n1t1", 60, 40, 180)], phase="movement")
    assert legal(game, "resolve n1t1") == (
        "now is the movement phase; allowed: move STAND TO, strategic STAND TO, "
        "face STAND FACING, embark IFV INFANTRY, debark IFV AT, end"
    )
