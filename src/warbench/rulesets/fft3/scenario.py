"""Scenarios: the two forces (units checked against the Units organisations), the table, the
objectives and the victory conditions (ours: docs/rules/fft3.md, ruling R10)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from warbench.core.scenario_files import ScenarioFiles
from warbench.rulesets.fft3.profiles import Side, forces

PLAYERS = ("red", "blue")

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class UnitSpec(BaseModel):
    """One unit: its id, its organisation, and how many tanks and IFVs (each IFV carrying
    an infantry stand)."""

    model_config = _FROZEN
    id: str = Field(pattern=r"^[a-z][a-z0-9]{0,5}$")
    organisation: str
    tanks: int = Field(ge=0)
    ifvs: int = Field(ge=0)


class Force(BaseModel):
    """One player's force: its side (NATO or Soviet), its deployment strip and its units."""

    model_config = _FROZEN
    side: Side
    zone: tuple[float, float]  # the strip of the table (y from, y to) it deploys in
    units: tuple[UnitSpec, ...] = Field(min_length=1)


class Table(BaseModel):
    """The table: its size; terrain generated unless the scenario lists it."""

    model_config = _FROZEN
    width: float = Field(default=72.0, ge=24, le=144)
    depth: float = Field(default=48.0, ge=24, le=96)
    terrain: tuple[dict[str, Any], ...] | None = None


class Scenario(BaseModel):
    """One game of A Fistful of TOWs 3."""

    model_config = _FROZEN
    id: str
    name: str
    summary: str
    victory: Literal["meeting", "attack"]
    attacker: Literal["red", "blue"] | None = None  # plays first; None: roll off
    turns: int = Field(default=8, ge=1, le=30)
    table: Table = Table()
    objectives: tuple[tuple[float, float], ...] = Field(min_length=1)
    forces: dict[str, Force]

    @model_validator(mode="after")
    def _check(self) -> Scenario:
        if set(self.forces) != set(PLAYERS):
            raise ValueError(f"forces must name red and blue, not {sorted(self.forces)}")
        if self.victory == "attack" and self.attacker is None:
            raise ValueError("an attack scenario names its attacker (red or blue)")
        problems: list[str] = []
        ids: set[str] = set()
        for player, force in self.forces.items():
            low, high = force.zone
            if not 0 <= low < high <= self.table.depth:
                problems.append(f"{player}: zone {force.zone} is not a strip of the table")
            for unit in force.units:
                if unit.id in ids:
                    problems.append(f"{player}: unit id {unit.id} is used twice")
                ids.add(unit.id)
                problems += [f"{player}: {p}" for p in organisation_problems(force.side, unit)]
        for x, y in self.objectives:
            if not (0 <= x <= self.table.width and 0 <= y <= self.table.depth):
                problems.append(f"objective {x:g},{y:g} is off the table")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def organisation_problems(side: Side, unit: UnitSpec) -> list[str]:
    """Units: why `unit` is not a legal organisation for `side` (empty when it is)."""
    allowed = {k: o for k, o in forces().organisations.items() if o.side == side}
    org = allowed.get(unit.organisation)
    if org is None:
        return [
            f"unit {unit.id}: '{unit.organisation}' is not a {side} organisation; "
            f"allowed: {', '.join(sorted(allowed))}"
        ]
    problems = []
    for what, count, (low, high) in (
        ("tanks", unit.tanks, org.tanks),
        ("IFVs", unit.ifvs, org.ifvs),
    ):
        if not low <= count <= high:
            problems.append(f"unit {unit.id}: a {org.name} has {low}-{high} {what}, not {count}")
    if org.vehicles is not None:
        low, high = org.vehicles
        total = unit.tanks + unit.ifvs
        if not low <= total <= high:
            problems.append(
                f"unit {unit.id}: a {org.name} has {low}-{high} tanks and IFVs in all, not {total}"
            )
    return problems


FILES = ScenarioFiles(Scenario, __package__ or "")
validate, read_file, shipped = FILES.validate, FILES.read_file, FILES.shipped
