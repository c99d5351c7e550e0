"""WOUND EFFECTS and Groups & Wounds, with Tough(X), Deadly(X) and Fear(X).

Rulings (docs/rules/gff.md): in a group, a Tough(X) model is removed once it has taken X
wounds (GFF-R5); the wound-effects roll is not a test, so its modifiers always apply
(GFF-R6); Fear adds to the wounds counted for the check only (GFF-R7).
"""

from __future__ import annotations

from warbench.core.dice import RollRequest
from warbench.core.words import noun
from warbench.rulesets.gff.attacks import Hit
from warbench.rulesets.gff.quality import Referee
from warbench.rulesets.gff.state import Unit


def toughness(unit: Unit) -> int:
    """Wounds a model takes before it is removed from a group (1 unless Tough)."""
    return max(1, unit.profile.rating("Tough") or 1)


def take_wounds(ref: Referee, unit: Unit, wounds: list[Hit], *, fear: int = 0) -> str | None:
    """Apply wounds, Deadly first; returns "shaken", "knocked out" or None (no check).

    Each wound kills one model of a group until one model remains; the last model
    accumulates markers and rolls for wound effects. A Deadly(X) wound is X wounds on one
    model that do not carry over to another.
    """
    if not wounds or not unit.models:
        return None
    tough = toughness(unit)
    ordered = sorted(wounds, key=lambda w: w.deadly == 0)
    last_hit = False
    for wound in ordered:
        if not unit.models:
            break
        model = unit.models[-1]
        amount = max(1, wound.deadly)
        if len(unit.models) > 1:
            model.wounds += amount
            if model.wounds >= tough:
                unit.models.pop()
                ref.emit("casualty", f"{unit.name} loses model {model.id}")
        else:
            model.wounds += amount
            last_hit = True
    if not last_hit:
        return None
    return wound_effects(ref, unit, fear)


def wound_effects(ref: Referee, unit: Unit, fear: int = 0) -> str | None:
    """Roll one die + markers: 1–5 Shaken, 6+ Knocked Out (Tough(X): only from X markers,
    Knocked Out on 5+X); a Shaken unit gets +1."""
    model = unit.models[-1]
    rating = unit.profile.rating("Tough")
    counted = model.wounds + fear
    if rating and counted < rating:
        taken = f"{model.wounds} {noun(model.wounds, 'wound')}"
        ref.emit("wounds", f"{unit.name}: {taken}, Tough({rating}) holds")
        return None
    needed = 5 + rating if rating else 6
    mods: list[tuple[str, int]] = [("wound markers", model.wounds)]
    if fear:
        mods.append(("Fear", fear))
    if unit.shaken:
        mods.append(("Shaken", 1))
    roll = ref.roll(
        RollRequest(
            label=f"wound effects: {unit.name} (Knocked Out on {needed}+)",
            modifiers=tuple(mods),
        )
    )
    if roll.total >= needed:
        unit.models.pop()
        ref.emit("knocked out", f"{unit.name} is Knocked Out")
        return "knocked out"
    unit.shaken = True
    ref.emit("shaken", f"{unit.name} is Shaken")
    return "shaken"
