"""AFVs in the game flow (8.2): one shot a turn whatever the gun fires, and a jammed gun's
crew trying to clear it (ruling A8, TFT-R26) — all with scripted dice."""

from __future__ import annotations

from tests.rulesets.tftww2.position import man, new_game, play, scenario, script, squad, three
from warbench.rulesets.tftww2.actions import Done, Gun, MachineGun, Pivot
from warbench.rulesets.tftww2.game import TFTGame


def tank_game(red_tank: str = "m4a1_sherman") -> TFTGame:
    """A red AFV at 24,10 facing north, one red man out of the way, one blue man 20" ahead."""
    data = scenario([squad(man(2, 2), name="red")], [squad(man(24, 30, facing=180), name="blue")])
    data["sides"]["red"]["vehicles"] = [{"vehicle": red_tank, "at": [24, 10], "facing": 0}]
    return new_game(data)


def test_an_he_shot_is_the_afvs_one_shot_of_the_turn() -> None:
    game = tank_game()
    play(game, Pivot("r1", 0.0), Done())  # r1 stands, the AFV stands: ranged step
    # HE to hit (a natural 10 hits), then the template's damage dice on b1
    script(game, *three(10), *[1] * 12)
    play(game, Gun("rt1", "b1"))
    assert game.state.tanks["rt1"].fired
    assert "has fired this turn" in (game.check(Gun("rt1", "b1")) or "")
    assert "has fired this turn" in (game.check(MachineGun("rt1", "b1")) or "")


def test_a_jammed_crew_tries_to_clear_the_gun_at_the_start_of_its_turn() -> None:
    game = tank_game()
    game.state.tanks["rt1"].jam = 1
    play(game, Pivot("r1", 0.0), Done())
    assert "jammed" in (game.check(Gun("rt1", "b1")) or "")
    script(game, *three(12))  # blue's turn passes; then the crew's INT 12 roll: 12 clears
    play(game, Done(), Done())
    while game.state.side != "red":
        play(game, Done())
    tank = game.state.tanks["rt1"]
    assert tank.jam == 0
    assert tank.fired  # clearing it was the crew's action: no fire this turn
    assert any(e.kind == "unjam" for e in game.log)


def test_a_badly_jammed_gun_stays_jammed_on_a_failed_roll() -> None:
    game = tank_game()
    game.state.tanks["rt1"].jam = 2
    play(game, Pivot("r1", 0.0), Done())
    script(game, *three(9))  # INT 12 - 4 = 8: a 9 fails
    while game.state.side != "blue":
        play(game, Done())
    while game.state.side != "red":
        play(game, Done())
    assert game.state.tanks["rt1"].jam == 2
    assert any(e.kind == "jam" and "still jammed" in e.text for e in game.log)
