"""What the gff odds queries share: the units of the shipped catalogues stood in a line, the
state the rules hand from one stage to the next, and how gff reads its dice.

Reading: every gff pool is counted in any order; a die is read only through its success and
whether it is an unmodified 6 (to hit: Rending, Surge, Relentless; Defense: only under
Bane, which re-rolls them; Regeneration: never); the wound-effects roll is read by its
total.
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.dice import Read, Reading, ReadingPolicy, RollRequest
from warbench.rulesets.gff.armies import factions
from warbench.rulesets.gff.profiles import UnitProfile
from warbench.rulesets.gff.spell_rerolls import ONES
from warbench.rulesets.gff.state import Model, Unit

DESTROYED, SHAKEN, STEADY = "destroyed (last model Knocked Out)", "Shaken", "not Shaken"
SIX = 6
DEFENSE = "Defense:"  # the label `attacks.roll_blocks` gives its requests
REGENERATION = "Regeneration:"  # and `attacks.regenerate`


@dataclass(frozen=True)
class Target:
    """What the rules leave of the target between weapons: its models, the wound markers
    on its last model, Shaken; and the wounds dealt so far."""

    models: int
    marked: int
    shaken: bool
    wounds: int = 0


def reading(bane: bool) -> ReadingPolicy:
    """How gff reads the dice of the shooting (module docstring): unmodified 6s matter to
    the to-hit pool, and to Defense pools only under Bane (`attacks.roll_blocks`)."""

    def read(request: RollRequest) -> Reading:
        if request.read is Read.TOTAL:
            return Reading.unordered(request.sides)
        if ONES in request.label:  # a spell re-rolls its 1s (GFF-R37): 1s read apart
            kept = Reading.by_success(request, keep=frozenset({SIX})).classes
            return Reading.keyed(request.sides, lambda face: "1" if face == 1 else kept[face - 1])
        if request.label.startswith(REGENERATION) or (
            request.label.startswith(DEFENSE) and not bane
        ):
            return Reading.by_success(request)
        return Reading.by_success(request, keep=frozenset({SIX}))

    return read


def catalogue_units() -> dict[str, UnitProfile]:
    return {u.name: u for f in factions().values() for u in f.units}


def unit_of(uid: str, side: str, profile: UnitProfile, count: int, y: float) -> Unit:
    """The first `count` models of the unit, each with the equipment of its place in the
    unit (ruling GFF-R3), all standing at (24, y)."""
    models = [
        Model(
            f"{uid}.{n}",
            24.0,
            y,
            tuple(item.weapon for item in profile.equipment if n <= item.count),
        )
        for n in range(1, count + 1)
    ]
    return Unit(uid, side, profile, models, deployed=True)


def as_unit(target: Unit, state: Target) -> Unit:
    """A fresh copy of the target unit in `state`."""
    models = [Model(m.id, m.x, m.y, m.weapons) for m in target.models[: state.models]]
    if models:
        models[-1].wounds = state.marked
    return Unit(
        target.id,
        target.side,
        target.profile,
        models,
        deployed=True,
        shaken=state.shaken,
        shield=target.shield,
        effects=target.effects,
    )
