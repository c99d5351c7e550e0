"""What a balance sweep can vary in a game: how many of each of its faction's units a side
fields. The points limit rises to the larger army and the optional Force Org. is set aside,
so a unit's worth in play can be set against its points."""

from __future__ import annotations

import copy
from typing import Any

from warbench.rulesets.gff import armies
from warbench.rulesets.gff import scenario as scenarios
from warbench.rulesets.gff.profiles import ArmyList, UnitProfile


def _profiles(army: ArmyList) -> dict[str, UnitProfile]:
    """The units a side may field: its faction's catalogue when shipped, else its list's."""
    found = {u.name: u for u in army.units}
    catalogue = armies.factions().get(army.faction)
    if catalogue is not None:
        found.update({u.name: u for u in catalogue.units})
    return found


def _armies(scenario: dict[str, Any]) -> dict[str, ArmyList]:
    spec = scenarios.validate(scenario, "scenario")
    resolved = {side: choice.army for side, choice in spec.armies.items()}
    return {side: army for side, army in resolved.items() if army is not None}


def parameters(scenario: dict[str, Any]) -> dict[str, str]:
    """`SIDE.UNIT` for each side and each unit its faction has."""
    found = {}
    for side, army in _armies(scenario).items():
        for name, unit in sorted(_profiles(army).items()):
            found[f"{side}.{name}"] = f"how many {name} ({unit.cost} pts) {side} fields"
    return found


def vary(scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
    """The game with `value` copies of the unit in that side's army."""
    allowed = parameters(scenario)
    if parameter not in allowed:
        raise ValueError(f"gff has no parameter '{parameter}'; allowed: {', '.join(allowed)}")
    if value != int(value) or value < 0:
        raise ValueError(f"{parameter} is a count of units: a whole number >= 0, not {value}")
    side, name = parameter.split(".", 1)
    forces = _armies(scenario)
    army = forces[side]
    units = [u for u in army.units if u.name != name] + [_profiles(army)[name]] * int(value)
    if not units:
        raise ValueError(f"{parameter}={value:g} leaves {side} with no units")
    forces[side] = army.model_copy(update={"units": tuple(units)})
    data = copy.deepcopy(scenario)
    data["armies"] = {s: {"army": a.model_dump(mode="json")} for s, a in forces.items()}
    data["points"] = max(scenario["points"], *(a.points for a in forces.values()))
    data["force_org"] = False
    return scenarios.validate(data, f"{parameter}={value:g}").model_dump(mode="json")
