"""Scenarios: force points, each side's secret force (race, composition, flanking forces),
the turn limit and the optional victory conditions ("GAME STEPS", "Units in hidden
movement", "END OF THE GAME")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from warbench.core.scenario_files import ScenarioFiles
from warbench.rulesets.fftt.profiles import forces

SIDES = ("red", "blue")
TURN_SECONDS = 10  # "Each turn is about ten seconds approximately"
FIRST_SECONDS = 71  # a time limit ends no sooner than the end of turn 8's first phase (R49)
MOST_DEEP = 0.8  # a key position lies outside the enemy zone on every table (R49)


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
        return self.cost([*self.figures, *(f for flank in self.flanks for f in flank.figures)])

    def cost(self, figures: Iterable[FigureSpec]) -> int:
        """The force points of `figures` of this force: their profiles', 1 more for each
        elite troop (R57)."""
        table = forces()[self.race]
        return sum(table[f.profile].worth(f.elite) for f in figures)


class KeyPosition(_Strict):
    """END OF THE GAME, "or looses ... a key position" (R49): a point its holder (the
    attacker or the defender, diced at the start) loses if, at the end of a turn, an enemy
    fighting figure stands within `radius` cm of it and none of the holder's. `at` is where it
    lies whatever the table: across as a fraction of the width from the west edge, deep as a
    fraction of the depth from the holder's own edge."""

    name: str = Field(min_length=1, max_length=40)
    holder: Literal["attacker", "defender"]
    at: tuple[float, float]
    radius: float = Field(default=5.0, ge=2.0, le=20.0)

    @model_validator(mode="after")
    def _on_the_table(self) -> KeyPosition:
        across, deep = self.at
        if not (0.0 <= across <= 1.0 and 0.0 <= deep <= 1.0):
            raise ValueError(
                f"key position '{self.name}': at must be two fractions from 0 to 1 (across "
                f"from the west edge, deep from the holder's edge), not {list(self.at)}"
            )
        if deep > MOST_DEEP:
            raise ValueError(
                f"key position '{self.name}': deep {deep:g} lies in the enemy's deployment zone "
                f"on a 100 cm deep table (its last 20 cm); at most {MOST_DEEP:g}"
            )
        return self


class Victory(_Strict):
    """END OF THE GAME's optional conditions, as settings: "finish the game in the
    determined number of turns or of time, or when one of the players looses one third of
    his forces, or looses all his headquarters, or a key position"."""

    turns: int = Field(default=10, ge=8, le=30)
    # R49: battle time, ten seconds a turn ("Each turn is about ten seconds"), checked at
    # the end of every phase
    seconds: int | None = Field(default=None, ge=FIRST_SECONDS, le=300)
    third_lost: bool = False
    hqs_lost: bool = False
    key_positions: tuple[KeyPosition, ...] = Field(default=(), max_length=6)

    @model_validator(mode="after")
    def _reachable(self) -> Victory:
        if self.seconds is not None and self.seconds > self.turns * TURN_SECONDS:
            raise ValueError(
                f"victory.seconds {self.seconds} is after the turn limit ({self.turns} turns "
                f"= {self.turns * TURN_SECONDS} s); lower seconds or raise turns"
            )
        names = [k.name for k in self.key_positions]
        if len(set(names)) != len(names):
            raise ValueError(f"key positions need different names, not {names}")
        return self


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
    # R48, R52: other forces a side may write down; it chooses one of them all secretly
    alternatives: dict[str, tuple[ForceSpec, ...]] = {}
    # R54: each player may instead write a force of its own, of a race of its lists
    compose: bool = False
    victory: Victory = Victory()
    optional: Optional = Optional()

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if set(self.forces) != set(SIDES):
            raise ValueError(f"forces must be given for red and blue, not {sorted(self.forces)}")
        if not set(self.alternatives) <= set(SIDES):
            raise ValueError(
                f"alternatives may be given for red and blue, not {sorted(self.alternatives)}"
            )
        for side, force in self.forces.items():
            self.check_force(side, force)
            for n, alternative in enumerate(self.alternatives.get(side, ()), start=2):
                self.check_force(f"{side} (force {n})", alternative)
        return self

    def check_force(self, side: str, force: ForceSpec) -> None:
        """ValueError, naming `side` and what is allowed, unless `force` keeps the rules of a
        force: its race's profiles, the agreed force points, a quarter of them a flank, one
        force a flank, experience only with its switch, the general one of its figures, an HQ
        on the table for marines and machina ("It is compulsory for marines and machina to
        have at least one HQ")."""
        table = forces()[force.race]
        every = [*force.figures, *(f for flank in force.flanks for f in flank.figures)]
        for fig in every:
            if fig.profile not in table:
                raise ValueError(
                    f"{side}: {force.race} have no '{fig.profile}'; they have: {', '.join(table)}"
                )
        elite = " (an elite troop 1 FP more)" if any(f.elite for f in every) else ""
        if force.points() > self.force_points:
            raise ValueError(
                f"{side}: the force costs {force.points()} FP{elite}, over the "
                f"{self.force_points} agreed"
            )
        quarter = self.force_points // 4
        flanks = [f.flank for f in force.flanks]
        if len(set(flanks)) != len(flanks):
            raise ValueError(f"{side}: one flanking force per flank (west, east)")
        for flank in force.flanks:
            cost = force.cost(flank.figures)
            if cost > quarter:
                raise ValueError(
                    f"{side}: the {flank.flank} flanking force costs {cost} FP{elite}; at most "
                    f"a quarter of the force, {quarter} FP"
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
            raise ValueError(
                f"{side}: {force.race} must have at least one HQ on the table (in the main "
                "force, not a flanking force)"
            )

    def lists(self, side: str) -> tuple[ForceSpec, ...]:
        """The forces `side` may write down (R52): `forces` first, then its `alternatives`;
        a side with one list has nothing to choose."""
        return (self.forces[side], *self.alternatives.get(side, ()))


FILES = ScenarioFiles(Scenario, __package__ or "")
validate, read_file, shipped = FILES.validate, FILES.read_file, FILES.shipped
