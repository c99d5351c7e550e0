"""Artillery: one 2" template per three units, an attack on every stand wholly or partly
under it, and the effects table; Suppression.

"6: Infantry in the open is destroyed. Tanks, IFVs and infantry in difficult terrain make a
quality check. If the quality check is passed, the stand is suppressed. 4-5: Infantry in the
open makes a quality check. If the quality check is passes, the infantry is suppressed.
Tanks, IFVs and infantry in difficult terrain are suppressed. 1-3: No effect."
"""

from __future__ import annotations

import math

from warbench.core.dice import RollRequest
from warbench.rulesets.fft3.profiles import tables
from warbench.rulesets.fft3.referee import Referee
from warbench.rulesets.fft3.state import Point, Stand, Template


def templates_for(units: int) -> int:
    """ "For every 3 units on a side, the owning player gets 1 artillery template"."""
    return units // tables().artillery.units_per_template


def radius() -> float:
    """The template's radius (a 2" diameter circle)."""
    return tables().artillery.template_diameter / 2


def under(template: Template | Point, stand: Stand) -> bool:
    """Whether `stand` is wholly or partially within the template (touching counts)."""
    at = template.at if isinstance(template, Template) else template
    return math.dist(at, stand.at) <= radius() + stand.radius + 1e-9


def artillery_effect(ref: Referee, stand: Stand, *, in_difficult: bool) -> str:
    """Roll one die for the stand and read the table: `destroyed`, `check-then-suppressed`,
    `suppressed` or `no-effect`."""
    exposed = stand.profile.kind == "infantry" and not in_difficult
    where = (
        "infantry in the open"
        if exposed
        else ("infantry in difficult terrain" if stand.profile.kind == "infantry" else "vehicle")
    )
    face = ref.roll(RollRequest(f"artillery: {stand.name} ({where})")).total
    table = tables().artillery
    effect = table.effect(face, exposed=exposed)
    bands = effect_bands(table.exposed if exposed else table.protected)
    ref.emit("artillery", f"{stand.name}: {face}, {_words(effect)} ({where}: {bands})")
    return effect


def _words(effect: str) -> str:
    return effect.replace("-", " ")


def effect_bands(rows: dict[int, str]) -> str:
    """The effects table's rows for the log, highest first, so a referee sees what each
    face does: `6 destroyed, 4-5 check then suppressed, 1-3 no effect`."""
    parts, top = [], 6
    for least in sorted(rows, reverse=True):
        parts.append(f"{least if least == top else f'{least}-{top}'} {_words(rows[least])}")
        top = least - 1
    if top >= 1:
        parts.append(f"{1 if top == 1 else f'1-{top}'} no effect")
    return ", ".join(parts)
