"""What a balance sweep can vary in a battle: how many figures of each profile of its race a
side fields on the table (its flanking forces stay as they are). The agreed force points
rise to the dearer force, so a profile's worth in play can be set against its FPs."""

from __future__ import annotations

import copy
from typing import Any

from warbench.rulesets.fftt import scenario as scenarios
from warbench.rulesets.fftt.profiles import forces


def parameters(scenario: dict[str, Any]) -> dict[str, str]:
    """`SIDE.PROFILE` for each side and each profile of the races of its lists (R52)."""
    spec = scenarios.validate(scenario, "scenario")
    found: dict[str, str] = {}
    for side in scenarios.SIDES:
        for force in spec.lists(side):
            for key, prof in forces()[force.race].items():
                found.setdefault(
                    f"{side}.{key}", f"how many {prof.name}s ({prof.fp} FP) {side} fields"
                )
    return found


def _points(force: dict[str, Any]) -> int:
    """The force points of a force as scenario data (flanking forces and elite troops'
    extra FP included, R57)."""
    return scenarios.ForceSpec.model_validate(force).points()


def vary(scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
    """The battle with `value` figures of the profile on the table in that side's force (in
    each of its lists of a race that has the profile, R52)."""
    allowed = parameters(scenario)
    if parameter not in allowed:
        raise ValueError(f"fftt has no parameter '{parameter}'; allowed: {', '.join(allowed)}")
    if value != int(value) or value < 0:
        raise ValueError(f"{parameter} is a count of figures: a whole number >= 0, not {value}")
    side, key = parameter.split(".", 1)
    data = copy.deepcopy(scenario)
    lists = {
        s: [data["forces"][s], *data.get("alternatives", {}).get(s, [])] for s in scenarios.SIDES
    }
    for force in lists[side]:
        if key not in forces()[force["race"]]:
            continue
        figures = [f for f in force["figures"] if f["profile"] != key]
        figures += [{"profile": key, "elite": False}] * int(value)
        if not figures:
            raise ValueError(f"{parameter}={value:g} leaves {side} with no figures on the table")
        force["figures"] = figures
        if force.get("general") and force["general"]["figure"] >= len(figures):
            force["general"] = None
    every = [force for side_lists in lists.values() for force in side_lists]
    data["force_points"] = max(scenario["force_points"], *map(_points, every))
    return scenarios.validate(data, f"{parameter}={value:g}").model_dump(mode="json")
