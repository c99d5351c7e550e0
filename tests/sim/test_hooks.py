"""The rulesets' hooks for the lab: census by unit type, and the balance parameters."""

from __future__ import annotations

import pytest

from warbench.core import registry
from warbench.rulesets.fft3.parameters import battalion, stands
from warbench.sim.play import Matchup, play, spawn_seeds


@pytest.mark.parametrize(
    ("ruleset", "scenario"),
    [
        ("ttt", "cap-the-capn"),
        ("fft3", "meeting-engagement"),
        ("gff", "skirmish"),
        ("tftww2", "patrol"),
    ],
)
def test_census_at_the_end_counts_what_took_the_field_and_what_stands(
    ruleset: str, scenario: str
) -> None:
    rs = registry.get(ruleset)
    data = rs.load_scenario(scenario)
    result = play(
        Matchup(ruleset, data, (("red", "random"), ("blue", "random"))), spawn_seeds(3, 1)[0]
    )
    assert set(result.census) == {"red", "blue"}
    for units in result.census.values():
        assert units
        for fielded, standing in units.values():
            assert 0 <= standing <= fielded
    if ruleset == "fft3":
        totals = {s: sum(f for f, _ in u.values()) for s, u in result.census.items()}
        assert totals == {s: stands(f) for s, f in data["forces"].items()}
    if ruleset == "ttt":  # Cap the Cap'n: a Captain and 5 chosen pieces a side
        assert all(sum(f for f, _ in u.values()) == 6 for u in result.census.values())
    lost = sum(f - s for u in result.census.values() for f, s in u.values())
    assert lost > 0  # random play to the end loses something


@pytest.mark.parametrize("size", range(6, 13))
def test_fft3_battalions_of_every_size_are_legal(size: int) -> None:
    tanks, ifvs = battalion(size)
    assert 4 <= tanks <= 6 and 1 <= ifvs <= 3 and tanks + 2 * ifvs == size


@pytest.mark.parametrize(("ratio", "soviet"), [(1.0, 18), (1.5, 27), (2.0, 36), (0.5, 9)])
def test_fft3_ratio_rebuilds_the_soviet_force(ratio: float, soviet: int) -> None:
    rs = registry.get("fft3")
    data = rs.vary(rs.load_scenario("meeting-engagement"), "ratio", ratio)
    assert stands(data["forces"]["red"]) == soviet
    assert stands(data["forces"]["blue"]) == 18
    assert {u["organisation"] for u in data["forces"]["red"]["units"]} == {"tank-battalion"}


def test_fft3_ratio_too_small_for_a_battalion_is_refused() -> None:
    rs = registry.get("fft3")
    with pytest.raises(ValueError, match="at least 6"):
        rs.vary(rs.load_scenario("meeting-engagement"), "ratio", 0.2)


def test_ttt_counts_of_pieces() -> None:
    rs = registry.get("ttt")
    data = rs.load_scenario("cap-the-capn")
    assert "red.Sniper" in rs.parameters(data) and "blue.choose" in rs.parameters(data)
    more = rs.vary(data, "red.Sniper", 3)
    assert more["forces"]["red"]["pieces"].count("Sniper") == 3
    assert rs.vary(data, "blue.choose", 2)["forces"]["blue"]["choose"] == 2
    with pytest.raises(ValueError, match="whole number"):
        rs.vary(data, "red.Sniper", 1.5)
    with pytest.raises(ValueError, match=r"allowed: red\.choose"):
        rs.vary(data, "red.Tank", 1)


def test_gff_unit_counts_raise_the_points_and_drop_the_force_org() -> None:
    rs = registry.get("gff")
    data = rs.load_scenario("skirmish")
    more = rs.vary(data, "red.Warden Brothers", 2)
    names = [u["name"] for u in more["armies"]["red"]["army"]["units"]]
    assert names.count("Warden Brothers") == 2
    assert more["points"] == 260 and more["force_org"] is False
    assert "blue.Hive Tyrant" in rs.parameters(data)  # any unit of the faction
    tyrant = rs.vary(data, "blue.Hive Tyrant", 1)
    assert "Hive Tyrant" in [u["name"] for u in tyrant["armies"]["blue"]["army"]["units"]]
    for name in ("Warden Captain", "Warden Brothers", "Sentry Gun"):
        data = rs.vary(data, f"red.{name}", 0)
    with pytest.raises(ValueError, match="no units"):
        rs.vary(data, "red.Ash Marksmen", 0)


def test_rulesets_without_parameters_name_none() -> None:
    rs = registry.get("tftww2")
    data = rs.load_scenario("patrol")
    assert rs.parameters(data) == {}
    with pytest.raises(ValueError, match="allowed: none"):
        rs.vary(data, "ratio", 1)
