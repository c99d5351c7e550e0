"""Our faction catalogues (data/armies/), their lists, and our points formula."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from warbench.rulesets.gff import armies
from warbench.rulesets.gff.armies import (
    UNIT_RULE_POINTS,
    WEAPON_RULE_FACTORS,
    Faction,
    army,
    faction,
    factions,
    load_faction,
    read_faction_file,
    unit_points,
    unit_points_exact,
    weapon_points,
)
from warbench.rulesets.gff.force_org import check_force_org
from warbench.rulesets.gff.profiles import UnitProfile, Weapon, special_rules

FACTION_IDS = ("ashen-wardens", "chitin-swarm")
ALL_UNITS = [(f, u.name) for f in FACTION_IDS for u in factions()[f].units]
LISTS = {"skirmish": 200, "full-match": 300}


def _profile(**changes: object) -> UnitProfile:
    """A test profile; by default every model has an 18" gun and a knife."""
    size = changes.get("size", 3)
    data: dict[str, object] = {
        "name": "Test Trooper",
        "size": size,
        "quality": 4,
        "defense": 4,
        "cost": 5,
        "rules": [],
        "equipment": [
            {"count": size, "weapon": {"name": "Gun", "range": 18, "attacks": 1}},
            {"count": size, "weapon": {"name": "Knife", "range": 0, "attacks": 1}},
        ],
    }
    data.update(changes)
    return UnitProfile.model_validate(data)


CATALOGUE = """\
faction: test-faction
name: Test Faction
authored: ours
units:
  - name: Trooper
    size: 2
    quality: 4
    defense: 4
    cost: 30
    equipment:
      - {count: 2, weapon: {name: Rifle, range: 24, attacks: 1}}
      - {count: 2, weapon: {name: Knife, range: 0, attacks: 1}}
  - name: Boss
    size: 1
    quality: 3
    defense: 3
    cost: 50
    rules: [Hero, "Tough(3)"]
    equipment:
      - {count: 1, weapon: {name: Claw, range: 0, attacks: 3, rules: ["AP(1)"]}}
lists:
  pair: [Boss, Trooper, Trooper]
"""


def _catalogue() -> dict[str, object]:
    data = yaml.safe_load(CATALOGUE)
    assert isinstance(data, dict)
    return data


# --- the shipped catalogues ---------------------------------------------------------------


def test_both_factions_ship_authored_by_us() -> None:
    found = factions()
    assert set(found) == set(FACTION_IDS)
    folder = resources.files("warbench.rulesets.gff").joinpath("data/armies")
    for fid in FACTION_IDS:
        assert found[fid].faction == fid
        assert found[fid].authored == "ours"
        head = folder.joinpath(f"{fid}.yaml").read_text().splitlines()[0]
        assert head.startswith("#") and "AUTHORED BY US" in head


def test_factions_are_cached() -> None:
    assert factions() is factions()


@pytest.mark.parametrize("fid", FACTION_IDS)
def test_each_faction_has_at_least_eight_distinct_profiles(fid: str) -> None:
    units = factions()[fid].units
    assert len(units) >= 8
    assert len({u.name for u in units}) == len(units)


def test_the_factions_contrast_elite_against_horde() -> None:
    elite, horde = factions()["ashen-wardens"].units, factions()["chitin-swarm"].units
    assert max(u.quality for u in elite) <= 4 and min(u.defense for u in elite) == 2
    assert sum(u.size for u in horde) > sum(u.size for u in elite)
    assert max(u.size for u in horde) >= 5 and max(u.defense for u in horde) == 6


def test_every_special_rule_of_the_reference_is_used() -> None:
    used: set[str] = set()
    for fac in factions().values():
        for unit in fac.units:
            used |= {r.name for r in unit.rules}
            for item in unit.equipment:
                used |= {r.name for r in item.weapon.rules}
            for spell in unit.spells:
                used |= {r.name for r in spell.rules}
    assert len(special_rules()) == 29
    assert set(special_rules()) - used == set()


@pytest.mark.parametrize(("fid", "name"), ALL_UNITS)
def test_every_model_has_a_melee_weapon(fid: str, name: str) -> None:
    unit = factions()[fid].unit(name)
    assert sum(e.count for e in unit.equipment if e.weapon.melee) >= unit.size


def test_most_units_have_a_ranged_weapon() -> None:
    ranged = [
        (f, n)
        for f, n in ALL_UNITS
        if any(not e.weapon.melee for e in faction(f).unit(n).equipment)
    ]
    assert len(ranged) >= 0.75 * len(ALL_UNITS)


def test_casters_have_spells_and_big_models_big_bases() -> None:
    for fac in factions().values():
        casters = [u for u in fac.units if u.has("Caster")]
        assert casters and all(len(u.spells) >= 2 for u in casters)
        for unit in fac.units:
            if (unit.rating("Tough") or 0) >= 6:
                assert unit.base >= 2.0


@pytest.mark.parametrize(("fid", "name"), ALL_UNITS)
def test_shipped_cost_is_the_points_formula(fid: str, name: str) -> None:
    unit = factions()[fid].unit(name)
    assert unit.cost == unit_points(unit), f"{name}: {unit_points_exact(unit):.2f}"


@pytest.mark.parametrize(("fid", "list_name"), [(f, n) for f in FACTION_IDS for n in LISTS])
def test_shipped_lists_hit_their_points_and_pass_force_org(fid: str, list_name: str) -> None:
    limit = LISTS[list_name]
    chosen = army(fid, list_name)
    assert chosen.points == limit
    assert chosen.faction == fid and chosen.authored == "ours"
    assert check_force_org(chosen, limit) == []


def test_army_keeps_the_list_order() -> None:
    chosen = army("ashen-wardens", "skirmish")
    assert [u.name for u in chosen.units] == list(factions()["ashen-wardens"].lists["skirmish"])
    assert chosen.name == "Ashen Wardens: skirmish"


def test_army_names_unknown_factions_and_lists() -> None:
    with pytest.raises(ValueError, match=r"unknown faction 'orcs'; known: ashen-wardens"):
        army("orcs", "skirmish")
    with pytest.raises(ValueError, match=r"no list 'huge'; lists: skirmish, full-match"):
        army("chitin-swarm", "huge")
    with pytest.raises(ValueError, match=r"no unit 'Titan'; known: Hive Tyrant"):
        faction("chitin-swarm").unit("Titan")


# --- the points formula -------------------------------------------------------------------


def test_every_rule_of_the_reference_has_a_price_where_it_stands() -> None:
    unit_rules = {n for n, spec in special_rules().items() if spec.where in ("unit", "both")}
    weapon_rules = {n for n, spec in special_rules().items() if spec.where in ("weapon", "both")}
    assert set(UNIT_RULE_POINTS) == unit_rules
    assert set(WEAPON_RULE_FACTORS) == weapon_rules


def test_points_worked_example_warden_brothers() -> None:
    # Three models, Q3+ D3+, Fearless, Relentless; each a 24" A1 AP(1) rifle and an A1 blade.
    body = 3 * (7.0 + 2.5 + 1.0 + 1.0)
    rifle = 3.5 * 1 * (4 / 6) * (1 + 24 / 24) * 1.25
    blade = 3.5 * 1 * (4 / 6) * 1.0
    unit = faction("ashen-wardens").unit("Warden Brothers")
    assert unit_points_exact(unit) == pytest.approx(body + 3 * rifle + 3 * blade)
    assert unit_points_exact(unit) == pytest.approx(59.0)
    assert unit_points(unit) == 60


def test_points_tough_multiplies_body_and_weapons_differently() -> None:
    plain = _profile(size=1, equipment=[])
    tough = _profile(size=1, equipment=[], rules=["Tough(4)"])
    assert unit_points_exact(tough) == pytest.approx(2 * unit_points_exact(plain))
    armed = _profile(size=1)
    armed_tough = _profile(size=1, rules=["Tough(4)"])
    weapons = unit_points_exact(armed) - unit_points_exact(plain)
    assert unit_points_exact(armed_tough) == pytest.approx(
        2 * unit_points_exact(plain) + 1.5 * weapons
    )


def test_points_reliable_hits_on_two_plus() -> None:
    gun = Weapon(name="Gun", range=0, attacks=1)
    reliable = Weapon.model_validate(
        {"name": "Gun", "range": 0, "attacks": 1, "rules": ["Reliable"]}
    )
    assert weapon_points(reliable, 6) == pytest.approx(weapon_points(gun, 2))
    assert weapon_points(gun, 6) < weapon_points(reliable, 6)


def test_points_limited_weapons_are_cheaper_and_spells_cost() -> None:
    gun = Weapon(name="Gun", range=12, attacks=1)
    once = Weapon.model_validate({"name": "Gun", "range": 12, "attacks": 1, "rules": ["Limited"]})
    assert weapon_points(once, 4) < weapon_points(gun, 4)
    base = _profile(rules=["Caster(1)"])
    spelled = _profile(
        rules=["Caster(1)"],
        spells=[{"name": "Zap", "cost": 1, "range": 12, "effect": "hits", "hits": 2}],
    )
    assert unit_points_exact(spelled) == pytest.approx(unit_points_exact(base) + 3.0)


def test_points_round_to_the_nearest_five() -> None:
    assert unit_points(_profile(size=1, equipment=[])) == 5  # 7.0 → 5
    unit = _profile()
    exact = unit_points_exact(unit)
    assert abs(unit_points(unit) - exact) <= 2.5


@given(
    quality=st.integers(2, 5),
    defense=st.integers(2, 6),
    size=st.integers(1, 10),
    attacks=st.integers(1, 6),
    ap=st.integers(0, 4),
    tough=st.integers(1, 12),
)
def test_points_never_fall_when_a_unit_gets_better(
    quality: int, defense: int, size: int, attacks: int, ap: int, tough: int
) -> None:
    rules = [f"Tough({tough})"] if tough > 1 else []
    weapon_rules = [f"AP({ap})"] if ap else []

    def guns(count: int, attacks: int) -> list[dict[str, object]]:
        weapon = {"name": "Gun", "range": 12, "attacks": attacks, "rules": weapon_rules}
        return [{"count": count, "weapon": weapon}]

    equipment = guns(size, attacks)

    def cost(**changes: object) -> float:
        data: dict[str, object] = {
            "size": size,
            "quality": quality,
            "defense": defense,
            "rules": rules,
            "equipment": equipment,
        }
        data.update(changes)
        return unit_points_exact(_profile(**data))

    here = cost()
    assert cost(quality=quality + 1) < here  # worse Quality is cheaper
    if defense > 2:
        assert cost(defense=defense - 1) > here
    assert cost(size=size + 1, equipment=guns(size + 1, attacks)) > here
    assert cost(rules=[f"Tough({tough + 1})"]) > here
    assert cost(equipment=guns(size, attacks + 1)) > here
    rounded = unit_points(
        _profile(size=size, quality=quality, defense=defense, rules=rules, equipment=equipment)
    )
    assert rounded % 5 == 0 and rounded >= 5 and abs(rounded - here) <= 2.5


# --- broken catalogues --------------------------------------------------------------------


def test_a_good_catalogue_loads_with_repeated_list_entries() -> None:
    loaded = load_faction(CATALOGUE, "test.yaml")
    assert isinstance(loaded, Faction)
    chosen = loaded.army("pair")
    assert [u.name for u in chosen.units] == ["Boss", "Trooper", "Trooper"]
    assert chosen.points == 110


def test_read_faction_file(tmp_path: Path) -> None:
    path = tmp_path / "test-faction.yaml"
    path.write_text(CATALOGUE)
    assert read_faction_file(path).faction == "test-faction"
    with pytest.raises(ValueError, match=r"missing\.yaml: cannot read faction catalogue: No such"):
        read_faction_file(tmp_path / "missing.yaml")


def test_broken_yaml_is_named_with_its_line_and_column() -> None:
    with pytest.raises(ValueError) as err:
        load_faction("faction: x\nunits: [unclosed\n", "bad.yaml")
    assert str(err.value) == (
        "bad.yaml: not valid YAML: line 3, column 1: expected ',' or ']', but got '<stream end>'"
        ", in a flow sequence that starts at line 2, column 8"
    )


def test_a_catalogue_must_be_a_mapping() -> None:
    with pytest.raises(ValueError, match=r"bad\.yaml: a faction catalogue is a mapping.*not list"):
        load_faction("- a\n- b\n", "bad.yaml")


def test_missing_fields_are_named() -> None:
    data = _catalogue()
    del data["authored"]
    del data["name"]
    with pytest.raises(ValueError) as err:
        load_faction(yaml.safe_dump(data), "cat.yaml")
    assert "name: Field required" in str(err.value)
    assert "authored: Field required" in str(err.value)


def test_every_broken_field_is_named_with_its_path_and_unit() -> None:
    data = _catalogue()
    units = data["units"]
    assert isinstance(units, list)
    units[0]["quality"] = 9
    units[0]["equipment"][0]["weapon"]["attacks"] = 0
    units[1]["rules"] = ["Hero", "Shielded"]
    with pytest.raises(ValueError) as err:
        load_faction(yaml.safe_dump(data), "cat.yaml")
    text = str(err.value)
    assert text.startswith("cat.yaml: ")
    assert "units[0] 'Trooper'.quality: Input should be less than or equal to 6" in text
    assert "units[0] 'Trooper'.equipment[0].weapon.attacks: Input should be greater" in text
    assert "units[1] 'Boss'.rules: unknown special rule 'Shielded'; known: Ambush" in text


def test_unit_consistency_errors_name_the_unit() -> None:
    data = _catalogue()
    units = data["units"]
    assert isinstance(units, list)
    units[0]["equipment"][0]["count"] = 5
    units[1]["spells"] = [{"name": "Zap", "cost": 1, "range": 12, "effect": "shield"}]
    with pytest.raises(ValueError) as err:
        load_faction(yaml.safe_dump(data), "cat.yaml")
    assert "units[0] 'Trooper': Trooper: 5 x Rifle but only 2 models" in str(err.value)
    assert "units[1] 'Boss': Boss has spells but no Caster(X) rule" in str(err.value)


def test_unknown_units_in_lists_are_each_named() -> None:
    data = _catalogue()
    data["lists"] = {"pair": ["Boss", "Tank", "Trooper", "Titan"], "empty": []}
    with pytest.raises(ValueError) as err:
        load_faction(yaml.safe_dump(data), "cat.yaml")
    text = str(err.value)
    assert "lists.pair[1]: unknown unit 'Tank'; known: Trooper, Boss" in text
    assert "lists.pair[3]: unknown unit 'Titan'" in text
    assert "lists.empty: names no units" in text


def test_duplicate_unit_names_and_bad_ids_are_refused() -> None:
    data = _catalogue()
    units = data["units"]
    assert isinstance(units, list)
    units.append(dict(units[0]))
    data["faction"] = "Test Faction"
    with pytest.raises(ValueError) as err:
        load_faction(yaml.safe_dump(data), "cat.yaml")
    assert "the name 'Trooper' is used by more than one profile" in str(err.value)
    assert "faction: 'Test Faction' is not an id" in str(err.value)


def test_unknown_fields_are_refused() -> None:
    data = _catalogue()
    data["colour"] = "red"
    with pytest.raises(ValueError, match=r"colour: Extra inputs are not permitted"):
        load_faction(yaml.safe_dump(data), "cat.yaml")


def test_a_catalogue_must_be_filed_under_its_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data" / "armies"
    folder.mkdir(parents=True)
    (folder / "test-faction.yaml").write_text(CATALOGUE)
    (folder / "notes.txt").write_text("not a catalogue")
    monkeypatch.setattr(resources, "files", lambda _package: tmp_path)
    uncached = armies.factions.__wrapped__
    assert list(uncached()) == ["test-faction"]
    (folder / "other.yaml").write_text(CATALOGUE)
    with pytest.raises(ValueError, match=r"other\.yaml: faction 'test-faction' must be in "):
        uncached()
