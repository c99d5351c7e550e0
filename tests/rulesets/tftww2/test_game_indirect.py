"""6.0-6.4 and 7.0 through the game: grenades (DEX, 12", scatter 1d6 and half damage on a
miss, an 18 explodes in the hand, every base under the template); the mortar man and the
radio CO (`bombard`) after Pivot or Aim, at a point they see, off-table fire missions,
critical failures; hard cover toward the centre −4 a die, inside an intact building −6 a
die; buildings hit, collapsing (cumulative, more than half at once, a critical 3) on
everyone inside."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.tftww2.position import (
    dice_left,
    done,
    man,
    new_game,
    only_roll,
    position,
    rect,
    rolls,
    scenario,
    script,
    squad,
    texts,
    three,
    where,
)
from warbench.core.events import Event
from warbench.rulesets.tftww2.actions import Bombard, Pivot, Throw, Walk
from warbench.rulesets.tftww2.game import TFTGame

MORTAR: dict[str, Any] = {"weapon": "Pistol", "close": "Bayonet/Knife", "support": "light_mortar"}


def act(game: TFTGame, action: Bombard | Throw, *faces: int) -> list[Event]:
    """Apply `action` with these dice, every one of which must be used."""
    script(game, *faces)
    events = game.apply(action)
    assert dice_left(game) == 0
    return events


def blast_at(events: list[Event]) -> str:
    [blast] = [e.text for e in events if e.kind == "blast"]
    return blast.rsplit(" ", 1)[1]


# -- grenades -------------------------------------------------------------------------------


def grenadier(*blue: dict[str, Any], grenades: int = 2, **kw: Any) -> TFTGame:
    """r1 (DEX 12) with grenades at 10,10 facing north; r2 beside him; the blue men given."""
    return position(
        [man(10, 10, grenades=grenades), man(11, 10, facing=90)],
        list(blue) or [man(10, 20, facing=0)],
        **kw,
    )


@pytest.mark.parametrize(("total", "hit"), [(12, True), (13, False)])
def test_a_grenade_is_thrown_on_dex(total: int, hit: bool) -> None:
    game = grenadier(man(10, 20), man(40, 40))
    done(game)
    scatter = [] if hit else [4, 2]  # back toward the thrower 2": 10,18 - b1 still under it
    events = act(game, Throw("r1", (10.0, 20.0)), *three(total), *scatter, 1, 1, 1, 2)
    roll = only_roll(events, "grenade: r1 → 10,20 (skill")
    assert roll.request.label == "grenade: r1 → 10,20 (skill 12)"
    assert roll.success is hit
    assert blast_at(events) == ("10.0,20.0" if hit else "10.0,18.0")
    damage = [e.text for e in events if e.kind == "damage"]
    note = "5 damage" if hit else "2 damage (halved: scattered)"
    assert damage == [f"grenade: r1 → 10,20 → b1: {note}"]
    assert game.state.men["r1"].grenades == 1


def test_a_grenade_reaches_12_inches() -> None:
    game = grenadier(man(10, 30))
    done(game)
    assert game.check(Throw("r1", (10.0, 22.5))) == (
        'a grenade is thrown up to 12"; that point is 12.5" away'
    )
    assert game.check(Throw("r1", (10.0, 22.0))) is None


def test_a_missed_grenade_scatters_1d6_on_a_1d6_bearing_for_half_damage() -> None:
    game = grenadier(man(10, 20), man(10, 24.5))
    done(game)
    # a miss; direction 1: straight on, away from the thrower; 3": the blast is at 10,23
    events = act(game, Throw("r1", (10.0, 20.0)), *three(13), 1, 3, 6, 6, 6, 6)
    assert blast_at(events) == "10.0,23.0"
    assert rolls(events, "grenade: r1 → 10,20: scatter distance (thrown)")[0].request.dice == 1
    b1, b2 = game.state.men["b1"], game.state.men["b2"]
    assert (b1.wounded, b1.status) == (False, "ok")  # 3" from the blast: out of the 2" radius
    assert b2.status == "incapacitated"  # 24 halved: 12


def test_a_grenade_attacks_every_base_under_its_template() -> None:
    blue = [man(10, 20), man(12.4, 20), man(10, 17.6), man(10, 22.6), man(40, 40)]
    game = grenadier(*blue)
    done(game)
    events = act(game, Throw("r1", (10.0, 20.0)), *three(10), *[1, 1, 1, 1] * 3)
    hit = [e.text.split(" → ")[-1].split(":")[0] for e in events if e.kind == "damage"]
    assert hit == ["b1", "b2", "b3"]  # b2 and b3's bases reach within 2"; b4's does not
    assert [game.state.men[m].wounded for m in ("b1", "b2", "b3", "b4")] == [
        True,
        True,
        True,
        False,
    ]


def test_a_grenade_18_explodes_in_the_hand() -> None:
    game = grenadier(man(10, 20), man(40, 40))
    done(game)
    events = act(game, Throw("r1", (10.0, 20.0)), *three(18), *[2, 2, 2, 2] * 2)
    assert "grenade: r1 → 10,20: natural 18, explodes in hand" in texts(events)
    assert blast_at(events) == "10.0,10.0"
    assert game.state.men["r1"].status == "incapacitated"  # 8, full damage
    assert game.state.men["r2"].status == "incapacitated"  # beside him
    assert not game.state.men["b1"].wounded


def test_grenades_are_thrown_one_a_turn_after_walk_pivot_or_aim_while_they_last() -> None:
    game = grenadier(man(10, 20), man(40, 40), grenades=1)
    game.apply(Walk("r1", (10.0, 11.0), 0.0))
    game.apply(Pivot("r2", 0.0))
    act(game, Throw("r1", (10.0, 20.0)), *three(10), *[1] * 4)
    assert game.check(Throw("r1", (10.0, 20.0))) == "r1 has no grenades"
    game.state.men["r1"].grenades = 1
    assert game.check(Throw("r1", (10.0, 20.0))) == (
        "r1 may not throw now (his action is walk; one throw a turn)"
    )
    assert game.check(Throw("r2", (10.0, 20.0))) == "r2 has no grenades"


# -- the mortar man and the radio CO ------------------------------------------------------------


def battery(
    *blue: dict[str, Any],
    missions: int = 1,
    terrain: list[dict[str, Any]] | None = None,
    artillery: str | None = "light_artillery",
) -> TFTGame:
    """r1 the CO with a radio at 10,10; r2 serving a light mortar at 26,10; a blue squad."""
    return new_game(
        scenario(
            [squad(man(10, 10, rank="CO", radio=True), man(26, 10, **MORTAR), name="hq")],
            [squad(*(blue or (man(26, 30), man(40, 44))), name="blue")],
            terrain=terrain or [],
            red_artillery=artillery,
            red_missions=missions,
        )
    )


def test_indirect_fire_only_after_pivot_or_aim() -> None:
    game = battery()
    game.apply(Walk("r1", (10.0, 11.0), 0.0))
    game.apply(Pivot("r2", 0.0))
    assert where(game)[2] == "ranged"
    assert game.check(Bombard("r1", (26.0, 30.0))) == (
        "r1 may bring indirect fire only after Pivot or Aim, once a turn"
    )
    act(game, Bombard("r2", (26.0, 30.0)), *three(16))  # a misfire
    assert game.check(Bombard("r2", (26.0, 30.0))) == (
        "r2 may bring indirect fire only after Pivot or Aim, once a turn"
    )


def test_only_a_mortar_man_or_a_co_with_a_radio_brings_indirect_fire() -> None:
    game = new_game(
        scenario(
            [squad(man(10, 10, radio=True), man(12, 10), name="red")],
            [squad(man(26, 30), name="blue")],
            red_artillery="light_artillery",
            red_missions=2,
        )
    )
    done(game)
    assert game.check(Bombard("r1", (26.0, 30.0))) == "r1 serves no mortar and has no radio"
    assert game.check(Bombard("r2", (26.0, 30.0))) == "r2 serves no mortar and has no radio"


def test_the_point_must_be_seen() -> None:
    woods = rect("woods", 0, 20, 48, 26, name="wood")
    game = battery(man(26, 30), man(40, 44), terrain=[woods])
    game.state.men["r1"].action = game.state.men["r2"].action = "pivot"
    game.state.phase = "ranged"
    assert game.check(Bombard("r2", (26.0, 30.0))) == (
        "r2 cannot see 26,30 to spot the fall of shot"
    )
    assert game.check(Bombard("r1", (26.0, 30.0))) == (
        "r1 cannot see 26,30 to spot the fall of shot"
    )
    assert game.check(Bombard("r2", (26.0, 21.5))) is None  # 1.5" into the wood


def test_off_table_fire_needs_missions_left_and_spends_them() -> None:
    game = battery(missions=1)
    done(game)
    act(game, Bombard("r1", (26.0, 30.0)), *three(16))  # critical failure: no shot
    assert game.state.missions["red"] == 0
    done(game, 2)  # blue's turn passes
    assert where(game) == (2, "red", "orders", "red")
    done(game)
    assert game.check(Bombard("r1", (26.0, 30.0))) == "red has no off-table fire missions left"


def test_no_off_table_fire_without_artillery() -> None:
    game = battery(artillery=None, missions=3)
    done(game)
    assert game.state.missions["red"] == 0
    assert game.check(Bombard("r1", (26.0, 30.0))) == "red has no off-table fire missions left"


def test_off_table_artillery_is_rolled_on_the_cos_int_and_hits_with_its_template() -> None:
    game = battery(man(26, 30), man(30.5, 30), man(40, 44))
    done(game)
    # INT 14: a hit; 6d6 (light artillery) on b1 and b2 within its 5" radius
    events = act(game, Bombard("r1", (26.0, 30.0)), *three(14), *[1] * 6, *[6] * 6)
    roll = only_roll(events, "Lgt Artillery (75mm): r1 → 26,30 (skill")
    assert roll.request.label == "Lgt Artillery (75mm): r1 → 26,30 (skill 14)"
    assert roll.success
    assert (game.state.men["b1"].wounded, game.state.men["b2"].status) == (True, "dead")
    assert not game.state.men["b3"].wounded
    assert game.state.squads["bs1"].area_attack


@pytest.mark.parametrize("total", [16, 17, 18])
def test_a_critical_failure_off_table_is_no_shot(total: int) -> None:
    game = battery()
    done(game)
    events = act(game, Bombard("r1", (26.0, 30.0)), *three(total))
    assert f"Lgt Artillery (75mm): r1 → 26,30: natural {total}, no shot" in texts(events)
    assert not [e for e in events if e.kind == "blast"]
    assert game.state.men["r1"].jam == 0


@pytest.mark.parametrize(("total", "jam"), [(16, 0), (17, 1), (18, 2)])
def test_the_mortars_critical_failures_misfire_or_jam_it(total: int, jam: int) -> None:
    game = battery()
    done(game)
    events = act(game, Bombard("r2", (26.0, 30.0)), *three(total))
    assert not [e for e in events if e.kind == "blast"]
    assert game.state.men["r2"].jam == jam
    if jam:
        done(game, 2)
        done(game)
        assert where(game) == (2, "red", "ranged", "red")
        assert game.check(Bombard("r2", (26.0, 30.0))) == (
            "r2's Lgt Mortar (up to 80mm) is jammed (unjam r2)"
        )


def test_a_critical_hit_lands_on_the_point_whatever_was_needed() -> None:
    game = battery()
    game.state.men["r2"].under_fire_last_round = True
    game.state.men["r2"].wounded = True  # INT 5, -2: 3 needed
    done(game)
    events = act(game, Bombard("r2", (26.0, 30.0)), *three(5), *[1] * 5)
    assert blast_at(events) == "26.0,30.0"
    assert game.state.men["b1"].wounded


def test_a_missed_mortar_bomb_scatters_2d6_for_half_damage() -> None:
    game = battery(man(26, 30), man(26, 37), man(40, 44))
    done(game)
    # miss; direction 1 = away from r2 (north); 2d6 = 5: the blast lands at 26,35
    events = act(game, Bombard("r2", (26.0, 30.0)), *three(11), 1, 2, 3, *[6] * 5)
    assert blast_at(events) == "26.0,35.0"
    assert "→ b2: 15 damage (halved: scattered)" in texts(events)
    assert not game.state.men["b1"].wounded  # 5" off: out of the 3" radius


def test_an_off_table_shot_is_minus_2_for_a_spotter_under_fire_not_minus_4() -> None:
    game = battery()
    game.state.men["r1"].under_fire_last_round = True
    done(game)
    script(game, *three(12), *[1] * 30)  # enough for a hit or a scatter
    events = game.apply(Bombard("r1", (26.0, 30.0)))
    roll = only_roll(events, "Lgt Artillery (75mm): r1 → 26,30 (skill")
    assert roll.success


def test_off_table_scatter_1_is_directly_away_from_the_friendly_table_edge() -> None:
    game = battery(man(30, 30), man(40, 44))
    done(game)
    # a miss (INT 14); direction 1; 3d6 = 6: red's edge is south, so 6" north: 30,36
    script(game, *three(15), 1, 2, 2, 2)
    events = game.apply(Bombard("r1", (30.0, 30.0)))
    assert blast_at(events) == "30.0,36.0"


def test_the_ranged_step_is_played_when_only_a_bombard_at_a_point_is_possible() -> None:
    barn = rect("building", 20, 24, 32, 36, name="barn", material="wood")
    game = new_game(
        scenario(
            [squad(man(26, 10, **MORTAR), name="mortar")],
            [squad(man(26, 30), name="blue")],
            terrain=[barn],
        )
    )
    game.apply(Pivot("r1", 0.0))
    assert where(game) == (1, "red", "ranged", "red")


# -- cover and buildings ------------------------------------------------------------------------


def test_hard_cover_toward_the_centre_takes_4_off_each_die() -> None:
    wall = rect("wall", 20, 31, 32, 32, name="wall")
    game = battery(man(26, 33.5), man(26, 28), man(40, 44), terrain=[wall])
    done(game)
    events = act(game, Bombard("r2", (26.0, 30.5)), *three(10), *[6, 6, 5, 5, 4] * 2)
    damage = [e.text for e in events if e.kind == "damage"]
    assert damage == [
        "Lgt Mortar (up to 80mm): r2 → 26,30.5 → b1: 6 damage (-4 a die for cover)",
        "Lgt Mortar (up to 80mm): r2 → 26,30.5 → b2: 26 damage",
    ]
    assert game.state.men["b1"].wounded and game.state.men["b1"].status == "ok"
    assert game.state.men["b2"].status == "dead"


HUT = rect("building", 24, 28, 28, 32, name="hut", material="wood", floors=2)  # 4x4: 24 hits


@pytest.mark.parametrize(("faces", "falls"), [((3, 3, 2, 2, 2), False), ((3, 3, 3, 2, 2), True)])
def test_a_building_falls_to_more_than_half_its_hits_in_one_attack(
    faces: tuple[int, ...], falls: bool
) -> None:
    game = battery(man(26, 30), man(40, 44), terrain=[HUT])
    done(game)
    inside = [] if falls else [6, 6, 6, 6, 6]  # b1 inside the standing hut: -6 a die
    events = act(game, Bombard("r2", (26.0, 30.0)), *three(10), *faces, *inside)
    hits = sum(faces)
    assert f"hut takes {hits} hits ({hits} of 24)" in texts(events)
    assert ("hut collapses" in texts(events)) is falls
    assert game.state.building_hits == {"hut": hits}
    b1 = game.state.men["b1"]
    if falls:
        assert game.state.collapsed == ["hut"]
        assert b1.status == "incapacitated"
        assert "b1 is buried: incapacitated" in texts(events)
    else:
        assert (b1.status, b1.wounded) == ("ok", False)
        assert "0 damage (-6 a die for cover)" in texts(events)


def test_a_building_falls_to_more_than_its_hits_in_all() -> None:
    game = new_game(
        scenario(
            [squad(*[man(22 + 4 * n, 10, **MORTAR) for n in range(3)], name="mortars")],
            [squad(man(26, 30), man(40, 44), name="blue")],
            terrain=[HUT],
        )
    )
    done(game)
    at = (26.0, 29.5)  # 1.5" inside the hut's south wall: each of them sees it
    for shooter, faces in (("r1", [3, 3, 2, 2, 2]), ("r2", [3, 3, 2, 2, 2])):
        act(game, Bombard(shooter, at), *three(10), *faces, *[6] * 5)
    assert game.state.building_hits == {"hut": 24}
    assert game.state.collapsed == []  # exactly its hits: it stands
    events = act(game, Bombard("r3", at), *three(10), 1, 1, 1, 1, 1)
    assert "hut takes 5 hits (29 of 24)" in texts(events)
    assert game.state.collapsed == ["hut"]
    assert game.state.men["b1"].status == "incapacitated"


def test_a_critical_3_from_indirect_fire_collapses_the_building() -> None:
    game = battery(man(26, 30), man(40, 44), terrain=[HUT])
    done(game)
    events = act(game, Bombard("r2", (26.0, 30.0)), *three(3), 1, 1, 1, 1, 1)
    assert "hut takes 5 hits (5 of 24)" in texts(events)
    assert game.state.collapsed == ["hut"]
    assert game.state.men["b1"].status == "incapacitated"


def test_a_critical_3_from_a_grenade_does_not_collapse_it() -> None:
    game = position(
        [man(26, 20, grenades=1), man(30, 10)], [man(26, 30), man(40, 44)], terrain=[HUT]
    )
    done(game)
    events = act(game, Throw("r1", (26.0, 30.0)), *three(3), 1, 1, 1, 1, *[6] * 4)
    assert "hut takes 4 hits (4 of 24)" in texts(events)
    assert game.state.collapsed == []


def test_men_in_a_collapsed_building_lose_its_protection() -> None:
    game = battery(man(26, 30), man(40, 44), terrain=[HUT])
    game.state.collapsed.append("hut")
    game.state.men["b1"].status = "ok"
    done(game)
    events = act(game, Bombard("r2", (26.0, 30.0)), *three(10), 1, 1, 1, 1, 1)
    assert "hut takes" not in texts(events)  # rubble takes no more damage
    assert "b1: 5 damage" in texts(events)
    assert game.state.men["b1"].wounded


def test_a_scattered_shot_still_touching_the_building_aimed_at_damages_it() -> None:
    game = battery(man(26, 30), man(40, 44), terrain=[HUT])
    done(game)
    # a miss; direction 1 (north), 3": the centre 1" beyond the hut's north wall
    script(game, *three(12), 1, 1, 2, *[6] * 5, *[6] * 5)
    events = game.apply(Bombard("r2", (26.0, 30.0)))
    assert "hut takes 15 hits (15 of 24)" in texts(events)
