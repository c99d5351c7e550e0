"""What a balance sweep can vary in a scenario: the Soviet:NATO ratio of stands (the
rulebook: the Soviets want "1.5 to 2 times" NATO's numbers)."""

from __future__ import annotations

import copy
import math
from typing import Any

from warbench.rulesets.fft3 import scenario as scenarios

RATIO = "ratio"


def parameters(scenario: dict[str, Any]) -> dict[str, str]:
    """`ratio`, when one side is Soviet and the other NATO."""
    sides = {force["side"] for force in scenario["forces"].values()}
    if sides != {"soviet", "nato"}:
        return {}
    return {
        RATIO: "Soviet stands per NATO stand; the Soviet force is rebuilt as tank battalions "
        "(4-6 tanks and 1-3 IFVs each, every IFV carrying an infantry stand)"
    }


def stands(force: dict[str, Any]) -> int:
    """A force's stands: each tank, each IFV and the infantry stand each IFV carries."""
    return sum(unit["tanks"] + 2 * unit["ifvs"] for unit in force["units"])


def battalion(size: int) -> tuple[int, int]:
    """Tanks and IFVs of a tank battalion of `size` stands (6 to 12), as many tanks as fit."""
    tanks = min(6, size - 2)
    if (size - tanks) % 2:
        tanks -= 1
    return tanks, (size - tanks) // 2


def vary(scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
    """The scenario with round(`value` x NATO's stands) Soviet stands in tank battalions
    of 6-12 stands, as even in size as they can be."""
    allowed = parameters(scenario)
    if parameter not in allowed:
        raise ValueError(
            f"fft3 has no parameter '{parameter}'; allowed: {', '.join(allowed) or 'none'}"
        )
    data = copy.deepcopy(scenario)
    soviet = next(f for f in data["forces"].values() if f["side"] == "soviet")
    nato = next(f for f in data["forces"].values() if f["side"] == "nato")
    wanted = round(value * stands(nato))
    if wanted < 6:
        raise ValueError(
            f"ratio {value:g} gives {wanted} Soviet stands; a tank battalion has at least 6, "
            f"so the ratio must be at least {6 / stands(nato):.2f}"
        )
    count = math.ceil(wanted / 12)
    sizes = [wanted // count + (1 if n < wanted % count else 0) for n in range(count)]
    soviet["units"] = [
        {"id": f"s{n}", "organisation": "tank-battalion", "tanks": t, "ifvs": i}
        for n, (t, i) in enumerate(map(battalion, sizes), start=1)
    ]
    return scenarios.validate(data, f"{parameter}={value:g}").model_dump(mode="json")
