"""fftt's hooks for the simulation lab: the census by profile and the balance parameters."""

from __future__ import annotations

import pytest

from warbench.core import registry
from warbench.rulesets.fftt.scenario import validate
from warbench.sim.play import Matchup, play, spawn_seeds

RULESET = registry.get("fftt")


def test_census_at_the_end_counts_every_figure_and_the_standing() -> None:
    data = RULESET.load_scenario("marines-vs-machina")
    result = play(
        Matchup("fftt", data, (("red", "random"), ("blue", "random"))), spawn_seeds(2, 1)[0]
    )
    spec = validate(data, "scenario")
    for side, units in result.census.items():
        force = spec.forces[side]
        figures = len(force.figures) + sum(len(f.figures) for f in force.flanks)
        assert sum(fielded for fielded, _ in units.values()) == figures
        assert all(0 <= standing <= fielded for fielded, standing in units.values())
    assert result.census["red"]["Grunt"][0] == 9
    assert sum(f - s for u in result.census.values() for f, s in u.values()) > 0


def test_profile_counts_raise_the_force_points() -> None:
    data = RULESET.load_scenario("marines-vs-machina")
    params = RULESET.parameters(data)
    assert "red.sniper" in params and "blue.tank" in params and "red.tank" not in params
    more = RULESET.vary(data, "red.sniper", 4)
    assert [f["profile"] for f in more["forces"]["red"]["figures"]].count("sniper") == 4
    assert more["force_points"] == 26  # three more snipers at 2 FP
    assert RULESET.vary(data, "red.grunt", 0)["force_points"] == 20
    with pytest.raises(ValueError, match="whole number"):
        RULESET.vary(data, "red.grunt", 1.5)
    with pytest.raises(ValueError, match="must have at least one HQ"):
        RULESET.vary(data, "red.hq", 0)
    with pytest.raises(ValueError, match=r"allowed: red\.hq"):
        RULESET.vary(data, "red.queen", 1)


def test_a_profile_count_changes_every_list_of_a_race_that_has_it() -> None:
    """R52: in `behind-the-screen` a side writes one of its lists, so a sweep varies the
    profile in each of the side's lists whose race has it."""
    data = RULESET.load_scenario("behind-the-screen")
    params = RULESET.parameters(data)
    assert {"red.grunt", "red.tank", "red.queen", "blue.sniper"} <= set(params)
    more = RULESET.vary(data, "red.sentinel", 6)
    red = [more["forces"]["red"], *more["alternatives"]["red"]]
    counts = {f["race"]: [g["profile"] for g in f["figures"]].count("sentinel") for f in red}
    assert counts == {"marines": 0, "machina": 6, "insectoids": 0}
    assert more["force_points"] == 21  # the machina list: five sentinels became six
    assert (
        more["alternatives"]["blue"]
        == validate(data, "x").model_dump(mode="json")["alternatives"]["blue"]
    )
