"""AFVs in the game flow (8.2): one shot a turn whatever the gun fires, and a jammed gun's
crew trying to clear it (ruling A8, TFT-R26) — all with scripted dice."""

from __future__ import annotations

import pytest

from tests.rulesets.tftww2.position import man, new_game, play, scenario, script, squad, three
from warbench.core import registry
from warbench.rulesets.tftww2.actions import Assault, ChargeAt, Done, Drive, Gun, MachineGun, Pivot
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.vehicles import assault_weapon


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


# -- static pieces (ruling A11) and close-assault weapons (8.2, ruling A10) -----------------


def gun_game(*, pak_facing: float = 180.0) -> TFTGame:
    """A red Sherman at 24,10 facing north; a blue Pak 40 at 24,18 facing `pak_facing`; one
    man a side out of the way."""
    data = scenario([squad(man(2, 2), name="red")], [squad(man(46, 46, facing=180), name="b")])
    data["sides"]["red"]["vehicles"] = [{"vehicle": "m4a1_sherman", "at": [24, 10], "facing": 0}]
    data["sides"]["blue"]["vehicles"] = [
        {"vehicle": "pak_40", "at": [24, 18], "facing": pak_facing}
    ]
    return new_game(data)


def test_a_static_gun_never_moves_and_is_small() -> None:
    game = gun_game()
    pak = game.state.tanks["bt1"]
    assert (pak.static, pak.immobilised, pak.width, pak.length) == (True, True, 2.0, 3.0)
    play(game, Pivot("r1", 0.0), Done(), Done())  # red's turn passes
    assert game.state.side == "blue"
    assert game.legal_actions_of("bt1") == []  # no orders: it stands
    assert "immobilised" in (game.check(Drive("bt1", (24.0, 20.0))) or "")


def test_over_running_a_static_gun_destroys_it_without_a_roll() -> None:
    game = gun_game()
    events = play(game, Drive("rt1", (24.0, 20.0)))  # the Sherman drives over the Pak
    pak = game.state.tanks["bt1"]
    assert (pak.status, pak.active) == ("over-run", False)
    assert not [e for e in events if e.roll is not None]  # no dice for a static piece
    assert any("a static piece is destroyed" in e.text for e in events)


def test_a_static_gun_fires_only_within_30_degrees_of_its_facing() -> None:
    game = gun_game(pak_facing=150.0)  # the Sherman is due south: 30 degrees off
    play(game, Pivot("r1", 0.0), Done(), Done())
    play(game, Pivot("b1", 180.0))  # blue's orders done: its ranged step
    assert game.check(Gun("bt1", "rt1")) is None
    game = gun_game(pak_facing=145.0)  # 35 degrees off
    play(game, Pivot("r1", 0.0), Done(), Done())
    play(game, Pivot("b1", 180.0))
    assert "a static gun fires within 30° of it" in (game.check(Gun("bt1", "rt1")) or "")


def test_a_lost_static_gun_counts_3_casualties() -> None:
    game = gun_game()
    play(game, Drive("rt1", (24.0, 20.0)))
    game.state.round = game.spec.victory.rounds
    while game.state.phase != "over":
        play(game, Done())
    assert game.state.score == {"red": 3.0, "blue": 0.0}


def assault_game(first: dict[str, object], second: dict[str, object]) -> TFTGame:
    """Two red men in base contact with the rear of a blue Pz IV at 24,20 facing north."""
    red = [man(23.0, 16.5) | first, man(25.0, 16.5) | second]
    data = scenario([squad(*red, name="red")], [squad(man(46, 46, facing=180), name="b")])
    data["sides"]["blue"]["vehicles"] = [{"vehicle": "pzkpfw_iv_h", "at": [24, 20], "facing": 0}]
    return new_game(data)


@pytest.mark.parametrize(
    ("kits", "factor"),
    [
        (({"anti_tank": "bazooka"}, {"anti_tank": "panzerfaust"}), 11),  # 5 + 3 + 3
        (({"anti_tank": "bazooka", "grenades": 1}, {"grenades": 1}), 9),  # 5 + 3 + 1
        (({"anti_tank": "satchel charge"}, {}), 7),  # 5 + 2 + 0 (a bayonet adds nothing)
    ],
)
def test_close_assault_with_each_mans_best_weapon(
    kits: tuple[dict[str, object], dict[str, object]], factor: int
) -> None:
    game = assault_game(*kits)
    play(game, Pivot("r1", 0.0), Pivot("r2", 0.0), Done())  # no shot taken: the close step
    assert game.state.phase == "close"
    script(game, *three(factor), *three(3))  # at most the factor: immobilised; the crew passes
    events = game.apply(Assault("r1", "bt1"))
    roll = next(e.roll for e in events if e.roll is not None)
    assert roll.request.target == factor
    assert game.state.tanks["bt1"].immobilised


def test_combined_arms_fields_a_bazooka_a_panzerfaust_and_an_anti_tank_gun_a_side() -> None:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("combined-arms"), 1)
    assert isinstance(game, TFTGame)
    guns = {t.id: (t.key, t.static) for t in game.state.tanks.values() if t.static}
    assert guns == {"rt2": ("m1_57mm", True), "bt2": ("pak_40", True)}
    kits = {m.id: m.anti_tank for m in game.state.men.values() if m.anti_tank}
    assert kits == {"r3": "bazooka", "b3": "panzerfaust"}
    assert assault_weapon(game.state.men["r3"]) == "bazooka"  # +3 beats his grenade's +1
    assert assault_weapon(game.state.men["r4"]) == "grenade"


@pytest.mark.parametrize("result_dice", [three(3), three(18)])  # knocked out, no effect
def test_one_shot_close_assault_weapons_are_spent_whatever_the_result(
    result_dice: list[int],
) -> None:
    # ruling A12: r1's panzerfaust and r2's grenade go; a bazooka would be kept
    game = assault_game({"anti_tank": "panzerfaust"}, {"grenades": 2})
    play(game, Pivot("r1", 0.0), Pivot("r2", 0.0), Done())
    script(game, *result_dice)
    events = game.apply(Assault("r1", "bt1"))
    r1, r2 = game.state.men["r1"], game.state.men["r2"]
    assert (r1.anti_tank, r2.grenades) == (None, 1)
    assert [e.text for e in events if e.kind == "spent"] == [
        "r1's panzerfaust is spent",
        "r2's grenade is spent",
    ]
    assert assault_weapon(r1) == "Attached Bayonet"  # nothing left but his bayonet


def test_a_bazooka_is_kept_after_a_close_assault() -> None:
    game = assault_game({"anti_tank": "bazooka"}, {"anti_tank": "boys"})
    play(game, Pivot("r1", 0.0), Pivot("r2", 0.0), Done())
    script(game, *three(18))
    events = game.apply(Assault("r1", "bt1"))
    assert (game.state.men["r1"].anti_tank, game.state.men["r2"].anti_tank) == ("bazooka", "boys")
    assert not [e for e in events if e.kind == "spent"]


def charge_game(kit: dict[str, object], at: tuple[float, float] = (24.0, 14.0)) -> TFTGame:
    """r1 facing north at `at`, a blue Pz IV at 24,20 facing north (its rear 3" off)."""
    data = scenario([squad(man(*at) | kit, name="red")], [squad(man(46, 46, facing=180), name="b")])
    data["sides"]["blue"]["vehicles"] = [{"vehicle": "pzkpfw_iv_h", "at": [24, 20], "facing": 0}]
    return new_game(data)


def test_a_man_charges_an_afv_into_base_contact_and_close_assaults_it() -> None:
    # TFT-R27: the charge ends where his base first touches the hull (its rear at y 17)
    game = charge_game({"anti_tank": "panzerfaust"})
    assert ChargeAt("r1", "bt1") in game.legal_actions_of("r1")
    events = game.apply(ChargeAt("r1", "bt1"))
    r1 = game.state.men["r1"]
    assert (round(r1.x, 3), round(r1.y, 3), r1.action) == (24.0, 16.5, "charge")
    assert 'r1 charges bt1 (2.5")' in [e.text for e in events]
    assert game.state.phase == "close"
    assert game.check(Assault("r1", "bt1")) is None


def test_a_charge_at_an_afv_makes_no_turn_and_reaches_the_move_rate() -> None:
    game = charge_game({}, at=(24.0, 6.0))  # 10.5" from the hull: beyond MOV
    assert "charges up to" in (game.check(ChargeAt("r1", "bt1")) or "")
    game = charge_game({}, at=(18.0, 14.0))  # the AFV is 63° off his facing
    assert "a charge makes no turn" in (game.check(ChargeAt("r1", "bt1")) or "")


def test_a_drive_off_the_table_names_the_table_and_where_the_centre_may_lie() -> None:
    game = gun_game()
    assert game.check(Drive("rt1", (24.0, 48.2))) == (
        '24,48.2 is off the 48"x48" table; rt1\'s centre must lie within x 0.5 to 47.5'
        " and y 0.5 to 47.5"
    )
