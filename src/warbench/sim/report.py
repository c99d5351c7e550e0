"""What a run of games comes to: outcomes with 95% Wilson intervals, game length, casualties
by unit type and each unit type's contribution; as JSON data and per-game CSV."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from warbench.sim.play import GameResult
from warbench.sim.stats import wilson


@dataclass(frozen=True)
class Rate:
    """How often something happened in `games` games, with its 95% Wilson interval."""

    count: float
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        """The observed proportion."""
        return self.count / self.games if self.games else 0.0


def rate(count: float, games: int) -> Rate:
    """`count` of `games` with its Wilson interval."""
    low, high = wilson(count, games)
    return Rate(count, games, low, high)


@dataclass(frozen=True)
class UnitLine:
    """One side's unit type over the run: mean fielded and lost per game, the share lost, and
    its contribution — the correlation of how many survive with its side's result (win 1,
    draw ½, loss 0); None when its survivors never vary."""

    side: str
    unit: str
    fielded: float
    lost: float
    lost_share: float
    contribution: float | None


@dataclass(frozen=True)
class AgentLine:
    """One agent over the run, on whichever side it sat: its score (wins + ½ draws) over the
    seats it took, and its CPU seconds per decision (`time.process_time`)."""

    agent: str
    score: Rate
    decisions: int
    seconds: float

    @property
    def per_decision(self) -> float:
        """Mean CPU seconds per decision."""
        return self.seconds / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Summary:
    """A run of games summed up."""

    games: int
    outcomes: dict[str, Rate]  # each player's wins, and "draw"
    length: dict[str, float]  # decisions per game: mean, median, min, max
    units: list[UnitLine]
    agents: list[AgentLine] = field(default_factory=list)

    def score(self, player: str) -> Rate:
        """`player`'s wins plus half the draws, with its interval."""
        draws = self.outcomes["draw"].count
        return rate(self.outcomes[player].count + draws / 2, self.games)

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON data."""
        return {
            "games": self.games,
            "outcomes": {k: {**asdict(v), "rate": v.rate} for k, v in self.outcomes.items()},
            "length": self.length,
            "units": [asdict(u) for u in self.units],
            "by_agent": [
                {**asdict(a), "score": {**asdict(a.score), "rate": a.score.rate}}
                | {"seconds_per_decision": a.per_decision}
                for a in self.agents
            ],
        }


def result_score(result: GameResult, side: str) -> float:
    """1 for a win of `side`, ½ for a draw, 0 for a loss."""
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == side else 0.0


def summarise(results: Sequence[GameResult], players: Sequence[str]) -> Summary:
    """The outcomes, lengths and unit lines of `results`."""
    games = len(results)
    outcomes = {p: rate(sum(r.winner == p for r in results), games) for p in players}
    outcomes["draw"] = rate(sum(r.winner is None for r in results), games)
    steps = np.array([r.steps for r in results] or [0], dtype=float)
    length = {
        "mean": float(steps.mean()),
        "median": float(np.median(steps)),
        "min": float(steps.min()),
        "max": float(steps.max()),
    }
    return Summary(games, outcomes, length, _unit_lines(results), _agent_lines(results))


def _agent_lines(results: Sequence[GameResult]) -> list[AgentLine]:
    """Each agent's score over the seats it took and its thinking time, in order of first seat."""
    score: dict[str, float] = {}
    seats: dict[str, int] = {}
    seconds: dict[str, float] = {}
    decisions: dict[str, int] = {}
    for r in results:
        for side, agent in r.seating:
            score[agent] = score.get(agent, 0.0) + result_score(r, side)
            seats[agent] = seats.get(agent, 0) + 1
            spent, taken = r.thinking.get(side, (0.0, 0))
            seconds[agent] = seconds.get(agent, 0.0) + spent
            decisions[agent] = decisions.get(agent, 0) + taken
    return [
        AgentLine(agent, rate(score[agent], seats[agent]), decisions[agent], seconds[agent])
        for agent in seats
    ]


def _unit_keys(results: Sequence[GameResult]) -> list[tuple[str, str]]:
    return sorted(
        {(side, unit) for r in results for side, units in r.census.items() for unit in units}
    )


def _unit_lines(results: Sequence[GameResult]) -> list[UnitLine]:
    keys = _unit_keys(results)
    lines = []
    for side, unit in keys:
        counts = np.array([r.census.get(side, {}).get(unit, (0, 0)) for r in results], dtype=float)
        fielded, standing = counts[:, 0], counts[:, 1]
        scores = np.array([result_score(r, side) for r in results])
        contribution = None
        if standing.std() > 0 and scores.std() > 0:
            contribution = float(np.corrcoef(standing, scores)[0, 1])
        total = fielded.sum()
        lost = fielded - standing
        lines.append(
            UnitLine(
                side,
                unit,
                float(fielded.mean()),
                float(lost.mean()),
                float(lost.sum() / total) if total else 0.0,
                contribution,
            )
        )
    return lines


def write_csv(results: Sequence[GameResult], path: Path) -> None:
    """One row per game: its index, seed, result, length, and each unit type's counts."""
    keys = _unit_keys(results)
    header = ["game", "seed", "winner", "reason", "steps"]
    header += [f"{side}:{unit}:{what}" for side, unit in keys for what in ("fielded", "standing")]
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for r in results:
            row: list[object] = [r.index, r.seed, r.winner or "draw", r.reason, r.steps]
            for side, unit in keys:
                row += list(r.census.get(side, {}).get(unit, (0, 0)))
            writer.writerow(row)
