"""MISSION: objective markers seized and contested at the end of each round; 4 rounds;
the player that controls most markers wins."""

from __future__ import annotations

import math

from warbench.rulesets.gff.quality import Referee
from warbench.rulesets.gff.state import Marker, State, Unit

SEIZE_RANGE = 3.0
ROUNDS = 4


def near(unit: Unit, marker: Marker, reach: float = SEIZE_RANGE) -> bool:
    """Any model of the unit within `reach` of the marker (measured to its base edge)."""
    radius = unit.profile.base / 2
    return any(
        math.hypot(m.x - marker.x, m.y - marker.y) - radius <= reach + 1e-9 for m in unit.models
    )


def can_hold(unit: Unit, round_number: int) -> bool:
    """Shaken units and units that arrived by Ambush this round neither seize nor contest."""
    return unit.deployed and not unit.shaken and unit.arrived != round_number


def score_markers(ref: Referee, state: State) -> None:
    """End of round: a marker with a unit of one side within 3" and no enemy is seized; with
    both sides it turns neutral; otherwise it stays as it was."""
    for number, marker in enumerate(state.markers, start=1):
        sides = {
            u.side
            for u in state.units.values()
            if u.alive and can_hold(u, state.round) and near(u, marker)
        }
        before = marker.owner
        if len(sides) == 1:
            marker.owner = sides.pop()
        elif len(sides) == 2:
            marker.owner = None
        if marker.owner != before:
            ref.emit("objective", f"objective {number} is now {marker.owner or 'neutral'}")


def final_result(state: State) -> tuple[str | None, str, dict[str, float]]:
    """After the last round: most markers wins, equal is a draw."""
    counts = {side: float(sum(m.owner == side for m in state.markers)) for side in ("red", "blue")}
    tally = f"red {counts['red']:.0f}, blue {counts['blue']:.0f} of {len(state.markers)}"
    if counts["red"] == counts["blue"]:
        return None, f"equal objectives after {ROUNDS} rounds ({tally})", counts
    winner = "red" if counts["red"] > counts["blue"] else "blue"
    return winner, f"{winner} controls most objectives after {ROUNDS} rounds ({tally})", counts
