"""Scenarios: the two armies (a shipped faction list, an inline list, or an Army Forge
export), the points, the optional force organisation, and the battlefield."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from warbench.core.scenario_files import ScenarioFiles, read_yaml
from warbench.rulesets.gff import armies, army_forge
from warbench.rulesets.gff.force_org import check_force_org, check_points
from warbench.rulesets.gff.profiles import ArmyList

SIDES = ("red", "blue")


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ArmyChoice(_Strict):
    """One side's army: exactly one of a faction list, an Army Forge file, or inline units."""

    faction: str | None = None
    list: str | None = None
    army_forge: str | None = None
    army: ArmyList | None = None

    @model_validator(mode="after")
    def _one_source(self) -> ArmyChoice:
        given = [self.faction is not None, self.army_forge is not None, self.army is not None]
        if sum(given) != 1:
            raise ValueError("give exactly one of: faction (with list), army_forge, army")
        if self.faction is not None and self.list is None:
            raise ValueError("a faction army needs the name of one of its lists")
        return self


class TableSpec(_Strict):
    """A generated table (the rulebook's 4'x4' with 20+ pieces), or a smaller one."""

    width: float = Field(default=48, ge=24, le=96)
    depth: float = Field(default=48, ge=24, le=96)
    pieces: int = Field(default=22, ge=0, le=60)


class Scenario(_Strict):
    """One game of Grimdark Future Firefight."""

    id: str
    name: str
    summary: str
    points: int = Field(ge=50)
    armies: dict[str, ArmyChoice]
    force_org: bool = True
    table: TableSpec = TableSpec()
    terrain: tuple[dict[str, Any], ...] | None = None
    pushing: bool = False  # SPECIAL MOVES (optional): Pushing
    jumping: bool = False  # SPECIAL MOVES (optional): Jumping and Falling, terrain heights

    @model_validator(mode="after")
    def _both_sides(self) -> Scenario:
        if set(self.armies) != set(SIDES):
            raise ValueError(f"armies must name red and blue, not {sorted(self.armies)}")
        return self


class _Files(ScenarioFiles[Scenario]):
    """gff's scenario files: armies resolved inline, Army Forge paths relative to the file."""

    def validate(self, data: Any, source: str, base: Path | None = None) -> Scenario:
        """A checked scenario with both armies resolved inline (so records stand alone)."""
        return _resolved(super().validate(data, source), source, base)

    def read_file(self, path: Path) -> Scenario:
        """A scenario from YAML; Army Forge paths are relative to the file."""
        return self.validate(read_yaml(path), str(path), path.parent)


FILES = _Files(Scenario, __package__ or "")
validate, read_file, shipped = FILES.validate, FILES.read_file, FILES.shipped


def _resolved(spec: Scenario, source: str, base: Path | None) -> Scenario:
    resolved = {side: _resolve(choice, base) for side, choice in spec.armies.items()}
    problems = check_points(resolved["red"], resolved["blue"], spec.points)
    if spec.force_org:
        for side in SIDES:
            problems += [f"{side}: {p}" for p in check_force_org(resolved[side], spec.points)]
    if problems:
        raise ValueError(f"{source}: " + "; ".join(problems))
    armies_inline = {side: ArmyChoice(army=army) for side, army in resolved.items()}
    return spec.model_copy(update={"armies": armies_inline})


def _resolve(choice: ArmyChoice, base: Path | None) -> ArmyList:
    if choice.army is not None:
        return choice.army
    if choice.army_forge is not None:
        path = Path(choice.army_forge)
        if base is not None and not path.is_absolute():
            path = base / path
        return army_forge.import_army_forge_file(path)
    assert choice.faction is not None and choice.list is not None
    return armies.army(choice.faction, choice.list)
