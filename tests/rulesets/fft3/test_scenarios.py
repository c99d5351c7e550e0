"""Units (organisations rejected with clear errors), the shipped scenarios at the rulebook's
ratios and at 1:1, and scenario files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rulesets.fft3.position import scenario
from warbench.core.registry import get
from warbench.rulesets.fft3.scenario import UnitSpec, organisation_problems, shipped, validate


def _stands(force: object) -> int:
    return sum(u.tanks + 2 * u.ifvs for u in force.units)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("side", "unit", "problem"),
    [
        ("nato", UnitSpec(id="n", organisation="company", tanks=4, ifvs=0), "0-3 tanks"),
        ("nato", UnitSpec(id="n", organisation="company", tanks=0, ifvs=4), "0-3 IFVs"),
        ("nato", UnitSpec(id="n", organisation="company", tanks=3, ifvs=2), "1-4 tanks and IFVs"),
        ("nato", UnitSpec(id="n", organisation="company", tanks=0, ifvs=0), "1-4 tanks and IFVs"),
        ("soviet", UnitSpec(id="s", organisation="tank-battalion", tanks=3, ifvs=1), "4-6 tanks"),
        ("soviet", UnitSpec(id="s", organisation="tank-battalion", tanks=5, ifvs=0), "1-3 IFVs"),
        (
            "soviet",
            UnitSpec(id="s", organisation="motor-rifle-battalion", tanks=1, ifvs=5),
            "6-9 IFVs",
        ),
        (
            "soviet",
            UnitSpec(id="s", organisation="motor-rifle-battalion", tanks=4, ifvs=6),
            "1-3 tanks",
        ),
        (
            "nato",
            UnitSpec(id="n", organisation="tank-battalion", tanks=4, ifvs=1),
            "allowed: company",
        ),
        ("soviet", UnitSpec(id="s", organisation="company", tanks=1, ifvs=1), "not a soviet"),
    ],
)
def test_invalid_organisations_are_rejected_naming_the_limit(
    side: str, unit: UnitSpec, problem: str
) -> None:
    problems = organisation_problems(side, unit)  # type: ignore[arg-type]
    assert problems and problem in problems[0]


@pytest.mark.parametrize(
    ("side", "org", "tanks", "ifvs"),
    [
        ("nato", "company", 3, 1),
        ("nato", "company", 0, 3),
        ("soviet", "tank-battalion", 6, 3),
        ("soviet", "motor-rifle-battalion", 3, 9),
        ("soviet", "motor-rifle-battalion", 1, 6),
    ],
)
def test_valid_organisations_pass(side: str, org: str, tanks: int, ifvs: int) -> None:
    unit = UnitSpec(id="u", organisation=org, tanks=tanks, ifvs=ifvs)
    assert organisation_problems(side, unit) == []  # type: ignore[arg-type]


def test_a_scenario_with_a_bad_unit_names_the_unit_and_the_side() -> None:
    data = scenario()
    data["forces"] = {
        **data["forces"],
        "blue": {
            "side": "nato",
            "zone": [40, 48],
            "units": [{"id": "n1", "organisation": "company", "tanks": 3, "ifvs": 3}],
        },
    }
    with pytest.raises(ValueError, match=r"blue: unit n1: a NATO company has 1-4 tanks and IFVs"):
        validate(data, "test")


def test_scenario_files_name_every_broken_field() -> None:
    data = scenario()
    data["turns"] = 0
    data["objectives"] = [[100, 10]]
    with pytest.raises(ValueError) as err:
        validate(data, "test")
    assert "turns" in str(err.value)


def test_unit_ids_must_be_unique() -> None:
    data = scenario()
    data["forces"]["blue"] = {
        **data["forces"]["blue"],
        "units": [
            {"id": "s1", "organisation": "company", "tanks": 1, "ifvs": 1},
        ],
    }
    with pytest.raises(ValueError, match="s1 is used twice"):
        validate(data, "test")


def test_the_meeting_engagement_gives_the_soviets_one_and_a_half_to_twice_the_stands() -> None:
    """ "The Soviets should get 1.5 to 2 times as many tanks, IFVs and infantry in a meeting
    engagement." """
    s = shipped()["meeting-engagement"]
    ratio = _stands(s.forces["red"]) / _stands(s.forces["blue"])
    assert s.forces["red"].side == "soviet" and 1.5 <= ratio <= 2.0


def test_the_deliberate_attack_gives_the_soviet_attacker_three_times_the_stands() -> None:
    """ "If attacking, the Soviets need at least 3 times as many stands." """
    s = shipped()["deliberate-attack"]
    assert s.attacker == "red" and s.forces["red"].side == "soviet"
    assert _stands(s.forces["red"]) >= 3 * _stands(s.forces["blue"])


@pytest.mark.parametrize("sid", ["meeting-engagement-even", "deliberate-attack-even"])
def test_the_even_scenarios_are_one_to_one(sid: str) -> None:
    s = shipped()[sid]
    assert _stands(s.forces["red"]) == _stands(s.forces["blue"])


def test_scenario_ids_are_the_issues() -> None:
    ids = {s.id for s in get("fft3").scenarios()}
    assert {"meeting-engagement", "deliberate-attack"} <= ids


def test_a_scenario_file_loads_by_path(tmp_path: Path) -> None:
    import yaml

    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(scenario()))
    data = get("fft3").load_scenario(str(path))
    assert data["id"] == "test"


def test_terrain_entries_are_checked() -> None:
    data = scenario(terrain=[{"kind": "lava", "polygon": [[0, 0], [1, 0], [1, 1]]}])
    with pytest.raises(ValueError, match="kind 'lava' is not one of woods, town, swamp"):
        get("fft3").new_game(data, seed=1)


def test_generated_battlefields_are_the_same_for_the_same_seed() -> None:
    ruleset = get("fft3")
    data = ruleset.load_scenario("meeting-engagement")
    first, again, other = (ruleset.new_game(data, seed=s) for s in (5, 5, 6))
    pieces = [[p.area.wkt for p in g.field.pieces] for g in (first, again, other)]  # type: ignore[attr-defined]
    assert pieces[0] == pieces[1] != pieces[2]
    assert len(first.field.pieces) >= 6  # type: ignore[attr-defined]
