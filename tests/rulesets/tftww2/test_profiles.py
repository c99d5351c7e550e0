"""2.0 Basic Characters, 4.3 Infantry Weapons, the 4.1/4.2/4.4 and 5.0 tables as data."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest
from pydantic import ValidationError

from warbench.rulesets.tftww2 import profiles
from warbench.rulesets.tftww2.profiles import (
    CharacterProfile,
    WeaponProfile,
    character_tables,
    characters,
    combat_tables,
    quality_modifier,
    weapons,
)


@pytest.mark.parametrize(
    ("troop", "values"),
    [
        ("Private", (12, 10, 12, 8, 8)),
        ("NCO", (14, 12, 12, 12, 8)),
        ("CO", (10, 14, 12, 14, 8)),
    ],
)
def test_basic_characters_table(troop: str, values: tuple[int, int, int, int, int]) -> None:
    p = characters()[troop]
    assert p.name == troop
    assert (p.strength, p.intelligence, p.dexterity, p.leadership, p.movement) == values


def test_basic_characters_are_exactly_the_three_troop_types() -> None:
    assert list(characters()) == ["Private", "NCO", "CO"]


def test_tables_are_loaded_once() -> None:
    assert character_tables() is character_tables()
    assert combat_tables() is combat_tables()


def test_character_profile_reads_the_table_headings_and_rejects_nonsense() -> None:
    p = CharacterProfile.model_validate(
        {"name": "x", "STR": 9, "INT": 8, "DEX": 7, "LDR": 6, "MOV": 5}
    )
    assert (p.strength, p.intelligence, p.dexterity, p.leadership, p.movement) == (9, 8, 7, 6, 5)
    with pytest.raises(ValidationError):
        CharacterProfile.model_validate(
            {"name": "x", "STR": 0, "INT": 8, "DEX": 7, "LDR": 6, "MOV": 5}
        )
    with pytest.raises(ValidationError):
        CharacterProfile.model_validate({"name": "x", "STR": 9})


@pytest.mark.parametrize(("quality", "value"), [("green", -4), ("regular", 0), ("elite", 4)])
def test_troop_quality_ldr_modifier(quality: Any, value: int) -> None:
    assert quality_modifier(quality) == value


def test_unknown_troop_quality_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown troop quality"):
        quality_modifier("veteran")  # type: ignore[arg-type]


# name: damage dice, effective range, snap shot, shots, automatic, melee, thrown, area, parry
WEAPONS: dict[str, tuple[Any, ...]] = {
    "Rifle": (4, 30, -6, 1, False, False, False, None, False),
    "Automatic Rifle": (4, 30, -4, 2, True, False, False, None, False),
    "Pistol": (2, 12, -2, 2, False, False, False, None, False),
    "SMG": (3, 18, -2, 3, True, False, False, None, False),
    "LMG": (5, 60, None, 4, True, False, False, None, False),
    "HMG": (6, 60, None, 4, True, False, False, None, False),
    "Grenade": (4, 12, 0, 1, False, False, True, 4, False),
    "Bayonet/Knife": (2, None, None, 1, False, True, False, None, False),
    "Attached Bayonet": (3, None, None, 1, False, True, False, None, True),
    "Rifle Butt/Club": (2, None, None, 1, False, True, False, None, True),
    "Improvised": (1, None, None, 1, False, True, False, None, False),
}


@pytest.mark.parametrize(("name", "row"), list(WEAPONS.items()))
def test_infantry_weapons_table(name: str, row: tuple[Any, ...]) -> None:
    w = weapons()[name]
    got = (
        w.damage_dice,
        w.effective_range,
        w.snap_shot,
        w.shots,
        w.automatic,
        w.melee,
        w.thrown,
        w.area_diameter,
        w.can_parry,
    )
    assert got == row


def test_infantry_weapons_are_exactly_the_table_rows() -> None:
    assert list(weapons()) == list(WEAPONS)


def test_automatic_weapons_and_parrying_weapons() -> None:
    assert {n for n, w in weapons().items() if w.automatic} == {
        "Automatic Rifle",
        "SMG",
        "LMG",
        "HMG",
    }
    assert {n for n, w in weapons().items() if w.can_parry} == {
        "Attached Bayonet",
        "Rifle Butt/Club",
    }


def test_every_weapons_ruling_is_recorded_in_the_yaml_and_the_docstring() -> None:
    text = resources.files(profiles.__package__).joinpath("data/weapons.yaml").read_text()
    doc = profiles.__doc__ or ""
    for tag in ("W1", "W2", "W3", "W4", "W5", "W6", "W7"):
        assert f"# {tag} " in text, tag
        assert f"- {tag} " in doc, tag
    assert "Auto Rifle -4 2" in text and "LMG/HMG 5/6 60 NP 4" in text


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"name": "x", "damage_dice": 2, "melee": True, "effective_range": 3}, "no range"),
        ({"name": "x", "damage_dice": 2, "melee": True, "automatic": True}, "by hand"),
        ({"name": "x", "damage_dice": 2}, "needs an effective range"),
        ({"name": "x", "damage_dice": 2, "effective_range": 5, "can_parry": True}, "parry"),
        ({"name": "x", "damage_dice": 2, "effective_range": 5, "thrown": True}, "area"),
        ({"name": "x", "damage_dice": 0, "effective_range": 5}, "greater than or equal"),
    ],
)
def test_weapon_profile_validation(data: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        WeaponProfile.model_validate(data)


def test_ranged_modifiers_table() -> None:
    t = combat_tables().ranged_modifiers
    assert (t.short_range, t.short_range_within) == (3, 6)
    assert t.extreme_range == -6
    assert t.aimed_shot == 4
    assert t.target_moved_fast == -2
    assert t.target_prone == -3
    assert (t.soft_cover, t.soft_full_cover) == (-2, -6)
    assert (t.hard_cover, t.hard_full_cover) == (-4, None)
    assert (t.additional_target, t.additional_target_within) == (-2, 4)
    assert t.additional_auto_target == -2


def test_close_combat_modifiers_table() -> None:
    t = combat_tables().close_combat_modifiers
    assert t.charging == -3
    assert t.charging_doubles_damage is True


def test_criticals_table() -> None:
    c = combat_tables().criticals
    hits = {3: "killed", 4: "double_damage", 5: "automatic_hit"}
    assert c["ranged"] == {**hits, 16: "misfire", 17: "jam", 18: "jam-hard"}
    assert c["close"] == {**hits, 16: "automatic_miss", 17: "dropped", 18: "broken"}
    assert c["thrown"] == {
        **hits,
        16: "automatic_miss",
        17: "automatic_miss",
        18: "explodes_in_hand",
    }
    assert set(combat_tables().critical_text) >= {v for t in c.values() for v in t.values()}


def test_ldr_modifiers_table() -> None:
    t = character_tables().ldr_modifiers
    assert (t.co_within, t.co_range) == (2, 6)
    assert t.per_casualty == -2
    assert t.in_cover == 2
    assert t.air_flame_rocket == -4
    assert (t.afv_support, t.afv_range) == (2, 12)
