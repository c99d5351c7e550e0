"""Scenarios: force points, each side's secret force (race, composition, flanking forces),
the turn limit and the optional victory conditions ("GAME STEPS", "Units in hidden
movement", "END OF THE GAME")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from warbench.core.scenario_files import ScenarioFiles
from warbench.rulesets.fftt.profiles import forces

SIDES = ("red", "blue")


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FigureSpec(_Strict):
    """One figure of a force: its profile key, whether it is an elite troop, and (OPTIONAL
    RULES, Experience, carried from earlier battles of a campaign) the enemy FPs it has killed
    and the ability its throw on the general's chart gave it."""

    profile: str
    elite: bool = False
    xp: int = Field(default=0, ge=0)
    ability: int | None = Field(default=None, ge=2, le=12)


class FlankSpec(_Strict):
    """A flanking force: the flank it enters by, a label its owner knows it by, its figures."""

    flank: Literal["west", "east"]
    label: str = "flanking force"
    figures: tuple[FigureSpec, ...] = Field(min_length=1)


class GeneralSpec(_Strict):
    """OPTIONAL RULES: the general, a figure of the force (by its place in `figures`), with a
    name and an ability of the 2D6 chart (rolled at the start when not given)."""

    figure: int = Field(default=0, ge=0)
    name: str = "General"
    ability: int | None = Field(default=None, ge=2, le=12)


class ForceSpec(_Strict):
    """One side's secret force."""

    race: Literal["marines", "machina", "insectoids"]
    general: GeneralSpec | None = None
    figures: tuple[FigureSpec, ...] = Field(min_length=1)
    flanks: tuple[FlankSpec, ...] = Field(default=(), max_length=2)

    def points(self) -> int:
        """The force points of the whole force, flanking forces included."""
        table = forces()[self.race]
        every = [*self.figures, *(f for flank in self.flanks for f in flank.figures)]
        return sum(table[f.profile].fp for f in every)


class Victory(_Strict):
    """END OF THE GAME's optional conditions, as settings."""

    turns: int = Field(
        default=10, ge=8, le=30
    )  # "finish the game in the determined number of turns"
    third_lost: bool = False  # "when one of the players looses one third of his forces"
    hqs_lost: bool = False  # "or looses all his headquarters"


class Optional(_Strict):
    """OPTIONAL RULES as switches: the general's special abilities chart, off-board artillery
    support and experience (FPs killed per figure, with its bonuses)."""

    generals: bool = False
    artillery: bool = False
    experience: bool = False


class Scenario(_Strict):
    """One FFTT battle."""

    id: str
    name: str
    summary: str
    force_points: int = Field(default=20, ge=15)
    scenery: Literal["generated", "placed"] = "generated"  # THE GAME TABLE: by the dice or by hand
    forces: dict[str, ForceSpec]
    victory: Victory = Victory()
    optional: Optional = Optional()

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if set(self.forces) != set(SIDES):
            raise ValueError(f"forces must be given for red and blue, not {sorted(self.forces)}")
        for side, force in self.forces.items():
            table = forces()[force.race]
            every = [*force.figures, *(f for flank in force.flanks for f in flank.figures)]
            for fig in every:
                if fig.profile not in table:
                    raise ValueError(
                        f"{side}: {force.race} have no '{fig.profile}'; "
                        f"they have: {', '.join(table)}"
                    )
            if force.points() > self.force_points:
                raise ValueError(
                    f"{side}: the force costs {force.points()} FP, over the {self.force_points} "
                    "agreed"
                )
            quarter = self.force_points // 4
            flanks = [f.flank for f in force.flanks]
            if len(set(flanks)) != len(flanks):
                raise ValueError(f"{side}: one flanking force per flank (west, east)")
            for flank in force.flanks:
                cost = sum(table[f.profile].fp for f in flank.figures)
                if cost > quarter:
                    raise ValueError(
                        f"{side}: the {flank.flank} flanking force costs {cost} FP; at most a "
                        f"quarter of the force, {quarter} FP"
                    )
            if not self.optional.experience and any(f.xp or f.ability for f in every):
                raise ValueError(
                    f"{side}: experience (xp) and the abilities it gives need the switch "
                    "optional.experience"
                )
            if force.general is not None and force.general.figure >= len(force.figures):
                raise ValueError(
                    f"{side}: the general is figure {force.general.figure}; the force has "
                    f"figures 0 to {len(force.figures) - 1}"
                )
            if force.race in ("marines", "machina") and not any(
                table[f.profile].hq for f in force.figures
            ):
                raise ValueError(f"{side}: {force.race} must have at least one HQ on the table")
        return self


FILES = ScenarioFiles(Scenario, __package__ or "")
validate, read_file, shipped = FILES.validate, FILES.read_file, FILES.shipped
