"""Balance sweeps: one run of games per value of a scenario parameter (rewritten by the
ruleset's own `vary` hook), a player's score at each, and where it crosses 50%."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from warbench.core.ruleset import Ruleset
from warbench.sim.play import Matchup
from warbench.sim.report import Rate, Summary, summarise
from warbench.sim.runner import Backend, run
from warbench.sim.stats import Crossing, crossing


def parse_range(text: str) -> list[float]:
    """`A:B:STEP` as the values A, A+STEP, ... up to B inclusive (ValueError if malformed)."""
    parts = text.split(":")
    try:  # a wrong number of parts fails the unpacking too
        start, stop, step = (float(p) for p in parts)
    except ValueError:
        raise ValueError(
            f"range '{text}' is not A:B:STEP with three numbers, e.g. 1:2.5:0.25"
        ) from None
    if not all(math.isfinite(v) for v in (start, stop, step)):
        raise ValueError(f"range '{text}': START, STOP and STEP must be finite numbers")
    if step <= 0 or stop < start:
        raise ValueError(f"range '{text}': need STEP > 0 and B >= A")
    count = math.floor((stop - start) / step + 1e-9) + 1
    if count > 200:
        raise ValueError(f"range '{text}' has {count} values; at most 200 are allowed")
    return [round(start + n * step, 10) for n in range(count)]


@dataclass(frozen=True)
class SweepPoint:
    """One value of the parameter and the run of games played at it."""

    value: float
    summary: Summary


@dataclass(frozen=True)
class Sweep:
    """A finished sweep: `player`'s score (wins + ½ draws) at each value, and its crossing."""

    ruleset: str
    scenario: str
    parameter: str
    player: str
    points: list[SweepPoint]
    crossing: Crossing | None

    def scores(self) -> list[Rate]:
        """`player`'s score at each value, with its interval."""
        return [p.summary.score(self.player) for p in self.points]

    def to_json(self) -> dict[str, Any]:
        """The sweep as JSON data."""
        cross = self.crossing
        return {
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "parameter": self.parameter,
            "player": self.player,
            "points": [
                {
                    "value": p.value,
                    "score": s.rate,
                    "low": s.low,
                    "high": s.high,
                    **p.summary.to_json(),
                }
                for p, s in zip(self.points, self.scores(), strict=True)
            ],
            "crossing": None if cross is None else cross.__dict__,
        }


def sweep(
    ruleset: Ruleset,
    scenario: dict[str, Any],
    parameter: str,
    values: Sequence[float],
    agents: tuple[tuple[str, str], ...],
    games: int,
    seed: int,
    *,
    player: str = "red",
    jobs: int = 1,
    backend: Backend = "local",
    progress: Callable[[int], None] | None = None,
) -> Sweep:
    """Play `games` games at each value (the same seeds at each: common random numbers)."""
    if player not in ruleset.players:
        raise ValueError(f"no player '{player}'; allowed: {', '.join(ruleset.players)}")
    variants = [ruleset.vary(scenario, parameter, v) for v in values]  # all checked first
    points = []
    for value, data in zip(values, variants, strict=True):
        results = run(Matchup(ruleset.id, data, agents), games, seed, jobs, backend, progress)
        points.append(SweepPoint(value, summarise(results, ruleset.players)))
    scores = [p.summary.score(player) for p in points]
    found = (
        crossing(values, [s.count for s in scores], [s.games for s in scores])
        if len(values) > 1
        else None
    )
    return Sweep(ruleset.id, str(scenario.get("id", "")), parameter, player, points, found)
