"""Armor and Facing: "A vehicle's front is the 120 degree arc in front of the stand. Any
fire from an enemy stand that is wholly or partly in the vehicle's front arc is taken
against the vehicle's front armor ... Any fire from an enemy stand wholly in the vehicle's
flank arc is taken against the vehicle's flank armor."

Stands stand on round bases (ruling R3 of docs/rules/fft3.md), so the arcs are measured from
the centre of the target: a firer of radius r whose centre is d away is partly in the front
arc when its bearing is within 60° + asin(r/d) of the target's facing (exact for a disc and
a sector).
"""

from __future__ import annotations

import math
from typing import Literal

from warbench.core.geometry import bearing, turn_between

Point = tuple[float, float]
Arc = Literal["front", "flank"]

FRONT_ARC = 120.0


def arc_of_fire(target: Point, facing: float, firer: Point, firer_radius: float) -> Arc:
    """Which armour the fire of a stand at `firer` strikes on a vehicle at `target`."""
    d = math.dist(target, firer)
    if d <= firer_radius:
        return "front"  # the firer's base covers the target's centre: partly in every arc
    spread = math.degrees(math.asin(firer_radius / d))
    off = turn_between(facing, bearing(target, firer))
    return "front" if off <= FRONT_ARC / 2 + spread + 1e-9 else "flank"
