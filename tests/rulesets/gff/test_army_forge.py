"""Importing Army Forge's JSON export: mapping to our rules, and every problem at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warbench.rulesets.gff.army_forge import import_army_forge, import_army_forge_file
from warbench.rulesets.gff.army_forge_spells import default_spells
from warbench.rulesets.gff.force_org import check_force_org
from warbench.rulesets.gff.profiles import Rule, special_rules

DATA = Path(__file__).parent / "data"


def _weapon(**changes: Any) -> dict[str, Any]:
    weapon: dict[str, Any] = {
        "name": "Rifle",
        "label": 'Rifle (24", A1, AP(1))',
        "range": 24,
        "attacks": 1,
        "count": 2,
        "specialRules": [{"key": "ap", "name": "AP", "rating": "1"}],
    }
    weapon.update(changes)
    return weapon


def _unit(**changes: Any) -> dict[str, Any]:
    unit: dict[str, Any] = {
        "selectionId": "s1",
        "armyId": "test-army",
        "name": "Troopers",
        "size": 2,
        "quality": 4,
        "defense": 4,
        "cost": 40,
        "rules": [{"key": "fearless", "name": "Fearless", "rating": ""}],
        "equipment": [_weapon(), _weapon(name="Knife", range=0, specialRules=[])],
    }
    unit.update(changes)
    return unit


def _export(*units: dict[str, Any], **fields: Any) -> str:
    data: dict[str, Any] = {"gameSystem": "gff", "name": "Test List", "units": list(units)}
    data.update(fields)
    return json.dumps(data)


def _problems(text: str) -> list[str]:
    with pytest.raises(ValueError) as err:
        import_army_forge(text, "test.json")
    lines = str(err.value).splitlines()
    assert lines[0].startswith("test.json: ") and lines[0].endswith("nothing imported:")
    return [line.removeprefix("- ") for line in lines[1:]]


# --- the fixtures -------------------------------------------------------------------------


def test_the_valid_fixture_imports() -> None:
    chosen = import_army_forge_file(DATA / "army_forge_valid.json")
    assert chosen.name == "Starhold Raiders"
    assert chosen.faction == "starhold-raiders"
    assert chosen.authored.startswith("Army Forge export: ")
    assert chosen.points == 200
    assert [u.name for u in chosen.units] == [
        "Raider Chief",
        "Raider Crew",
        "Raider Crew",
        "Gun Skiff",
    ]
    chief, crew, crew2, skiff = chosen.units
    assert [str(r) for r in chief.rules] == ["Hero", "Tough(3)", "Fearless"]
    assert chief.base == pytest.approx(1.26)  # 32 mm
    pistol, maul = chief.equipment
    assert (pistol.count, pistol.weapon.range, pistol.weapon.attacks) == (1, 12, 2)
    assert pistol.weapon.rules == (Rule(name="AP", rating=1),)
    assert [str(r) for r in maul.weapon.rules] == ["AP(1)", "Counter"]
    assert maul.weapon.melee
    assert [str(r) for r in crew.equipment[1].weapon.rules] == ["Blast(3)", "Limited"]
    assert len(crew2.equipment) == 2  # read from "loadout"
    assert [str(r) for r in skiff.rules] == ["Fast", "Tough(3)"]  # "FAST", "tough"
    assert [str(r) for r in skiff.equipment[0].weapon.rules] == ["AP(3)", "Deadly(3)"]
    assert check_force_org(chosen, 200) == []


def test_the_problem_fixture_lists_every_problem_and_imports_nothing() -> None:
    with pytest.raises(ValueError) as err:
        import_army_forge_file(DATA / "army_forge_problems.json")
    text = str(err.value)
    assert "army_forge_problems.json: 9 problems, nothing imported:" in text
    expected = [
        'gameSystem "aof" is not Grimdark Future; accepted: gf, gff',
        "unit 1 'Shield Warden': unknown special rule 'Shielded' (not in this rulebook); "
        "known rules: Ambush, AP, Bane",
        "unit 1 'Shield Warden' equipment[0] 'Power Glaive': unknown special rule 'Takedown'",
        "unit 2 'Line Troopers': missing field 'quality'",
        "unit 2 'Line Troopers' equipment[0] 'Rifle': count must be at least 1, not 0",
        "unit 2 'Line Troopers' equipment[1] 'Bayonet': Tough is a unit rule, not a weapon rule",
        "unit 3 'Breacher Team': cost is negative (-10)",
        "unit 3 'Breacher Team': AP is a weapon rule, not a unit rule",
        "unit 3 'Breacher Team' equipment[0] 'Breaching Charge': range is negative (-6)",
    ]
    for message in expected:
        assert message in text
    assert text.count("\n- ") == len(expected)


def test_import_of_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"nowhere\.json: cannot read Army Forge export"):
        import_army_forge_file(tmp_path / "nowhere.json")


# --- the format ---------------------------------------------------------------------------


def test_a_bare_list_of_units_imports() -> None:
    chosen = import_army_forge(json.dumps([_unit(), _unit(name="Scouts")]), "exports/my list.json")
    assert [u.name for u in chosen.units] == ["Troopers", "Scouts"]
    assert chosen.name == "my list"
    assert chosen.faction == "test-army"


def test_without_army_ids_the_faction_is_army_forge() -> None:
    unit = _unit()
    del unit["armyId"]
    assert import_army_forge(_export(unit), "x.json").faction == "army-forge"


@pytest.mark.parametrize("system", ["gf", "gff", "GFF"])
def test_grimdark_future_game_systems_are_accepted(system: str) -> None:
    assert import_army_forge(_export(_unit(), gameSystem=system), "x.json").points == 40


@pytest.mark.parametrize("system", ["aof", "aofs", "ftl", 3])
def test_other_game_systems_are_named(system: object) -> None:
    problems = _problems(_export(_unit(), gameSystem=system))
    assert problems == [
        f"gameSystem {json.dumps(system)} is not Grimdark Future; accepted: gf, gff"
    ]


def test_the_custom_name_is_display_only() -> None:
    chosen = import_army_forge(_export(_unit(customName="Red Squad")), "x.json")
    assert chosen.units[0].name == "Troopers"
    problems = _problems(_export(_unit(customName="Red Squad", size=-1)))
    assert problems == ["unit 1 'Red Squad' (Troopers): size is negative (-1)"]


def test_join_and_combined_entries_import_as_their_own_units() -> None:
    hero = _unit(name="Boss", size=1, joinToUnit="s1", equipment=[_weapon(count=1)])
    twin = _unit(combined=True, joinToUnit="s1")
    chosen = import_army_forge(_export(_unit(), hero, twin), "x.json")
    assert [u.name for u in chosen.units] == ["Troopers", "Boss", "Troopers"]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ({"key": "ap", "name": "AP", "rating": "2"}, "AP(2)"),
        ({"key": "ap", "name": "ap", "rating": 2}, "AP(2)"),
        ({"key": "ap", "name": "AP", "rating": 2.0}, "AP(2)"),
        ({"key": "ap", "name": "AP", "rating": " +2 "}, "AP(2)"),
        ({"key": "rending", "name": "RENDING"}, "Rending"),
        ({"key": "rending", "name": "Rending", "rating": None}, "Rending"),
        ({"key": "rending", "name": "Rending", "rating": ""}, "Rending"),
        ({"key": "rending"}, "Rending"),
    ],
)
def test_weapon_rules_map_case_insensitively_with_int_ratings(
    rule: dict[str, Any], expected: str
) -> None:
    unit = _unit(equipment=[_weapon(specialRules=[rule])])
    weapon = import_army_forge(_export(unit), "x.json").units[0].equipment[0].weapon
    assert [str(r) for r in weapon.rules] == [expected]
    assert all(isinstance(r.rating, int | None) for r in weapon.rules)


def test_the_listed_points_must_add_up() -> None:
    assert import_army_forge(_export(_unit(), listPoints=40), "x.json").points == 40
    assert _problems(_export(_unit(), _unit(), listPoints=70)) == [
        "list: listPoints is 70 but the units' costs add up to 80"
    ]


def test_count_above_size_is_named() -> None:
    problems = _problems(_export(_unit(equipment=[_weapon(count=3)])))
    assert problems == ["unit 1 'Troopers': Troopers: 3 x Rifle but only 2 models"]


def test_bases_in_mm_become_inches() -> None:
    chosen = import_army_forge(_export(_unit(bases={"round": "50", "square": "40"})), "x.json")
    assert chosen.units[0].base == pytest.approx(1.97)
    problems = _problems(_export(_unit(bases={"round": "huge"})))
    assert problems == ["unit 1 'Troopers': bases.round \"huge\" is not a size in mm"]


# --- each problem -------------------------------------------------------------------------


def test_malformed_json_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"^bad\.json: not valid JSON \(line 1, column \d+: "):
        import_army_forge('{"units": [', "bad.json")


@pytest.mark.parametrize("data", ['"units"', "42", "null"])
def test_json_that_is_no_export_is_refused(data: str) -> None:
    with pytest.raises(ValueError, match=r"^x\.json: expected Army Forge's export"):
        import_army_forge(data, "x.json")


def test_missing_or_empty_units_are_refused() -> None:
    assert _problems(json.dumps({"name": "x"})) == ["missing field 'units' (the list of units)"]
    assert _problems(_export()) == ["the list has no units"]
    assert _problems(json.dumps([])) == ["the list has no units"]
    assert _problems(json.dumps({"units": {"a": 1}})) == ['units must be a list, not {"a": 1}']
    assert _problems(json.dumps(["Troopers"])) == [
        'unit 1: a unit is an object with name, size, ..., not "Troopers"'
    ]


@pytest.mark.parametrize("field", ["name", "size", "quality", "defense", "cost"])
def test_missing_unit_fields_are_named(field: str) -> None:
    unit = _unit()
    del unit[field]
    where = "unit 1" if field == "name" else "unit 1 'Troopers'"
    assert _problems(_export(unit)) == [f"{where}: missing field '{field}'"]


def test_missing_equipment_is_named() -> None:
    unit = _unit()
    del unit["equipment"]
    assert _problems(_export(unit)) == [
        "unit 1 'Troopers': missing field 'equipment' (or 'loadout')"
    ]


@pytest.mark.parametrize("field", ["name", "range", "attacks", "count"])
def test_missing_weapon_fields_are_named(field: str) -> None:
    weapon = _weapon()
    del weapon[field]
    where = "unit 1 'Troopers' equipment[0]" + ("" if field == "name" else " 'Rifle'")
    assert _problems(_export(_unit(equipment=[weapon]))) == [f"{where}: missing field '{field}'"]


@pytest.mark.parametrize("field", ["size", "quality", "defense", "cost"])
def test_negative_unit_numbers_are_refused(field: str) -> None:
    assert _problems(_export(_unit(**{field: -2}))) == [
        f"unit 1 'Troopers': {field} is negative (-2)"
    ]


@pytest.mark.parametrize("field", ["range", "attacks", "count"])
def test_negative_weapon_numbers_are_refused(field: str) -> None:
    assert _problems(_export(_unit(equipment=[_weapon(**{field: -1})]))) == [
        f"unit 1 'Troopers' equipment[0] 'Rifle': {field} is negative (-1)"
    ]


def test_zero_count_and_zero_attacks_are_refused() -> None:
    problems = _problems(_export(_unit(equipment=[_weapon(count=0, attacks=0)])))
    assert problems == [
        "unit 1 'Troopers' equipment[0] 'Rifle': attacks must be at least 1, not 0",
        "unit 1 'Troopers' equipment[0] 'Rifle': count must be at least 1, not 0",
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"size": "3"}, 'size must be a whole number, not "3"'),
        ({"quality": 1}, "quality must be from 2 to 6, not 1"),
        ({"defense": 7}, "defense must be from 2 to 6, not 7"),
        ({"size": 0}, "size must be at least 1, not 0"),
        ({"cost": 1.5}, "cost must be a whole number, not 1.5"),
        ({"cost": True}, "cost must be a whole number, not true"),
        ({"name": ""}, 'name must be a non-empty text, not ""'),
        ({"rules": "Fearless"}, 'rules must be a list, not "Fearless"'),
        ({"equipment": {}}, "equipment must be a list, not {}"),
    ],
)
def test_wrong_unit_values_are_named(changes: dict[str, Any], message: str) -> None:
    problems = _problems(_export(_unit(**changes)))
    assert len(problems) == 1 and problems[0].endswith(message)


def test_unknown_unit_rule_names_unit_rule_and_known_rules() -> None:
    rules = [{"key": "shielded", "name": "Shielded", "rating": ""}]
    (problem,) = _problems(_export(_unit(rules=rules)))
    assert problem.startswith("unit 1 'Troopers': unknown special rule 'Shielded'")
    assert problem.endswith("known rules: " + ", ".join(special_rules()))


def test_unknown_weapon_rule_is_named() -> None:
    rules = [{"key": "takedown", "name": "Takedown", "rating": ""}]
    (problem,) = _problems(_export(_unit(equipment=[_weapon(specialRules=rules)])))
    assert problem.startswith("unit 1 'Troopers' equipment[0] 'Rifle': unknown special rule")


def test_unit_rules_on_weapons_and_weapon_rules_on_units_are_refused() -> None:
    unit = _unit(
        rules=[{"key": "rending", "name": "Rending"}],
        equipment=[_weapon(specialRules=[{"key": "fast", "name": "Fast"}])],
    )
    assert _problems(_export(unit)) == [
        "unit 1 'Troopers': Rending is a weapon rule, not a unit rule",
        "unit 1 'Troopers' equipment[0] 'Rifle': Fast is a unit rule, not a weapon rule",
    ]


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ({"name": "Tough"}, "Tough needs a rating, like Tough(1)"),
        ({"name": "Tough", "rating": "three"}, 'Tough: rating "three" is not a whole number'),
        ({"name": "Tough", "rating": 2.5}, "Tough: rating 2.5 is not a whole number"),
        ({"name": "Fearless", "rating": "1"}, "Fearless takes no rating, but has rating 1"),
        ({"rating": "1"}, 'rules: a rule without a name: {"rating": "1"}'),
        ("Fearless", 'rules: "Fearless" is not a rule {key, name, rating}'),
    ],
)
def test_broken_rules_are_named(rule: object, message: str) -> None:
    assert _problems(_export(_unit(rules=[rule]))) == [f"unit 1 'Troopers': {message}"]


def test_problems_from_every_unit_are_collected() -> None:
    text = _export(
        _unit(size=-1),
        _unit(name="Scouts", rules=[{"name": "Takedown"}]),
        _unit(name="Bikes", equipment=[_weapon(count=0)]),
        gameSystem="aof",
    )
    problems = _problems(text)
    assert len(problems) == 4
    assert [p.split(":")[0] for p in problems] == [
        'gameSystem "aof" is not Grimdark Future; accepted',
        "unit 1 'Troopers'",
        "unit 2 'Scouts'",
        "unit 3 'Bikes' equipment[0] 'Rifle'",
    ]


# --- round trip ---------------------------------------------------------------------------

UNIT_RULES = ["Fast", "Fearless", "Hero", "Scout", "Stealth", "Strider", "Tough", "Impact"]
WEAPON_RULES = ["AP", "Blast", "Deadly", "Rending", "Bane", "Reliable", "Surge"]


@st.composite
def _af_units(draw: st.DrawFn) -> dict[str, Any]:
    size = draw(st.integers(1, 10))
    rated = {"Tough", "Impact", "AP", "Blast", "Deadly"}

    def rules(names: list[str]) -> list[dict[str, Any]]:
        chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=3))
        out = []
        for name in chosen:
            spelled = draw(st.sampled_from([name, name.lower(), name.upper()]))
            rating: object = None
            if name in rated:
                value = draw(st.integers(1, 6))
                rating = draw(st.sampled_from([value, str(value)]))
            out.append({"key": name.lower(), "name": spelled, "rating": rating})
        return out

    weapons = [
        {
            "name": f"Weapon {i}",
            "label": f"Weapon {i}",
            "range": draw(st.sampled_from([0, 6, 12, 18, 24, 36])),
            "attacks": draw(st.integers(1, 6)),
            "count": draw(st.integers(1, size)),
            "specialRules": rules(WEAPON_RULES),
        }
        for i in range(draw(st.integers(1, 3)))
    ]
    return {
        "name": draw(st.sampled_from(["Troopers", "Beast", "Walker"])),
        "size": size,
        "quality": draw(st.integers(2, 6)),
        "defense": draw(st.integers(2, 6)),
        "cost": draw(st.integers(1, 300)),
        "rules": rules(UNIT_RULES),
        "equipment": weapons,
    }


@given(units=st.lists(_af_units(), min_size=1, max_size=6))
def test_valid_exports_import_field_for_field(units: list[dict[str, Any]]) -> None:
    chosen = import_army_forge(_export(*units), "x.json")
    assert len(chosen.units) == len(units)
    for unit, profile in zip(units, chosen.units, strict=True):
        assert (profile.name, profile.size, profile.quality, profile.defense, profile.cost) == (
            unit["name"],
            unit["size"],
            unit["quality"],
            unit["defense"],
            unit["cost"],
        )
        assert [r.name.lower() for r in profile.rules] == [r["key"] for r in unit["rules"]]
        assert [r.rating for r in profile.rules] == [
            None if r["rating"] is None else int(r["rating"]) for r in unit["rules"]
        ]
        for item, equipment in zip(unit["equipment"], profile.equipment, strict=True):
            assert equipment.count == item["count"]
            assert (equipment.weapon.range, equipment.weapon.attacks) == (
                item["range"],
                item["attacks"],
            )
            assert [r.name.lower() for r in equipment.weapon.rules] == [
                r["key"] for r in item["specialRules"]
            ]


# --- spells (ruling GFF-R27) --------------------------------------------------------------


CASTER_RULES = [{"key": "caster", "name": "Caster", "rating": "2"}]


def test_a_caster_without_spells_gets_the_default_spellbook() -> None:
    army = import_army_forge(_export(_unit(rules=CASTER_RULES), _unit()), "test.json")
    caster, plain = army.units
    assert caster.spells == default_spells()
    assert [s.name for s in caster.spells] == [
        "Psychic Bolt",
        "Warding",
        "Guidance",
        "Psychic Storm",
    ]
    assert plain.spells == ()


def test_list_spells_go_to_every_caster_read_from_their_firefight_text() -> None:
    book = [
        {
            "id": "a1",
            "name": "Flame Lance",
            "type": 0,
            "threshold": 2,
            "effect": 'Target enemy unit within 12" takes 6 hits.',
            "effectSkirmish": 'Target enemy unit within 18" takes 3 hits with AP(1) and Rending.',
        },
        {
            "name": "Iron Skin",
            "threshold": 1,
            "effect": 'Target friendly unit within 12" '
            "gets +1 to defense rolls next time it takes hits.",
        },
        {
            "name": "Clarity",
            "threshold": 1,
            "effect": 'Target friendly unit within 6" gets +1 to hit rolls next time it shoots.',
        },
    ]
    army = import_army_forge(_export(_unit(rules=CASTER_RULES), spells=book), "test.json")
    lance, skin, clarity = army.units[0].spells
    assert (lance.cost, lance.range, lance.effect, lance.hits) == (2, 18, "hits", 3)
    assert lance.rules == (Rule(name="AP", rating=1), Rule(name="Rending"))
    assert (skin.effect, skin.value, skin.lasts, skin.range) == ("defense", 1, "next", 12)
    assert (clarity.effect, clarity.when, clarity.lasts, clarity.range) == (
        "to_hit",
        "shooting",
        "next",
        6,
    )


def test_a_units_own_spells_replace_the_lists() -> None:
    own = [{"name": "Zap", "threshold": 1, "effect": 'Enemy unit within 6" takes 1 hit.'}]
    book = [{"name": "Boom", "threshold": 3, "effect": 'Enemy unit within 6" takes 5 hits.'}]
    army = import_army_forge(
        _export(_unit(rules=CASTER_RULES, spells=own), _unit(rules=CASTER_RULES), spells=book),
        "test.json",
    )
    assert [s.name for s in army.units[0].spells] == ["Zap"]
    assert [s.name for s in army.units[1].spells] == ["Boom"]


def test_spells_it_cannot_read_are_named_and_nothing_is_imported() -> None:
    book = [
        {"name": "Mind Warp", "threshold": 2, "effect": "Target enemy unit gets -1 to morale."},
        {"name": "Hex", "threshold": 9, "effect": 'Enemy unit within 6" takes 1 hit.'},
        {"name": "Curse", "threshold": 1, "effect": 'Enemy within 6" takes 1 hit with Shred.'},
        {"threshold": 1, "effect": 'Enemy unit within 6" takes 1 hit.'},
    ]
    problems = _problems(_export(_unit(rules=CASTER_RULES), spells=book))
    assert len(problems) == 4
    assert problems[0].startswith("list spells[0] 'Mind Warp': cannot read the spell's effect")
    assert "understood:" in problems[0]
    assert problems[1].startswith("list spells[1] 'Hex': threshold:")
    assert problems[2].startswith("list spells[2] 'Curse': spell rule 'Shred'")
    assert problems[3] == "list spells[3]: a spell needs a name, not null"


def test_spells_on_a_unit_without_caster_are_an_error() -> None:
    own = [{"name": "Zap", "threshold": 1, "effect": 'Enemy unit within 6" takes 1 hit.'}]
    (problem,) = _problems(_export(_unit(spells=own)))
    assert "has spells but no Caster(X) rule" in problem
