"""What a balance sweep can vary in an operation: how many pieces a side chooses freely, and
how many named pieces of each squad-sheet kind it brings ("ALL MEN ARE CREATED EQUAL")."""

from __future__ import annotations

import copy
from typing import Any

from warbench.rulesets.ttt import scenario as scenarios
from warbench.rulesets.ttt.table import Table


def parameters(scenario: dict[str, Any]) -> dict[str, str]:
    """`SIDE.choose` and `SIDE.KIND` for each side and each kind of the squad sheet."""
    sheet = Table.build(scenarios.validate(scenario, "scenario")).sheet
    found = {}
    for side in scenarios.SIDES:
        found[f"{side}.choose"] = f"how many pieces {side} chooses freely (Any N)"
        for kind in sorted(sheet):
            found[f"{side}.{kind}"] = f"how many named {kind} pieces {side} brings"
    return found


def vary(scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
    """The operation with `parameter` set to the whole number `value`."""
    allowed = parameters(scenario)
    if parameter not in allowed:
        raise ValueError(f"ttt has no parameter '{parameter}'; allowed: {', '.join(allowed)}")
    if value != int(value) or value < 0:
        raise ValueError(f"{parameter} is a count of pieces: a whole number >= 0, not {value}")
    side, what = parameter.split(".", 1)
    data = copy.deepcopy(scenario)
    force = data["forces"][side]
    if what == "choose":
        force["choose"] = int(value)
    else:
        others = [kind for kind in force.get("pieces", []) if kind != what]
        force["pieces"] = others + [what] * int(value)
    spec = scenarios.validate(data, f"{parameter}={value:g}")
    Table.build(spec)  # the pieces must still fit their placement limits
    return spec.model_dump(mode="json")
