"""Spells that limit a unit's actions or moves (ours, docs/rules/gff.md GFF-R35).

- `only`: "may only use Hold or Advance actions next time it activates", "may not Rush or
  Charge until end of round": the unit may take only the actions the spell leaves it
  (staying idle is always allowed: it is no action the spell forbids), at its next
  activation (used up at the end of it, like any "next time they activate") or until the
  end of the round.
- `difficult`: "counts as being in difficult terrain next time it moves": the rulebook's
  difficult terrain, "can't move more than 6\" at a time in total", on every Advance, Rush
  and Charge until the spell ends (used up by its next move, or at the end of the round).
  Strider ("may ignore the effects of difficult terrain") and Flying ("ignores terrain
  effects") ignore it as they ignore the terrain.
"""

from __future__ import annotations

from warbench.core.actions import Action
from warbench.rulesets.gff.actions import Advance, Charge, Hold, Rush
from warbench.rulesets.gff.state import Unit

DIFFICULT_MOVE = 6.0
"""The most a unit moving through difficult terrain moves in total (TERRAIN)."""

_VERBS = {Hold: "hold", Advance: "advance", Rush: "rush", Charge: "charge"}


def only_problem(unit: Unit, action: Action) -> str | None:
    """Why an `only` spell on the unit forbids the activation `action`, naming what it
    allows; None when none does."""
    verb = _VERBS.get(type(action))
    for effect in unit.effects:
        if effect.kind == "only" and verb is not None and verb not in effect.rule.split(","):
            left = " or ".join(effect.rule.split(","))
            return (
                f"{unit.name} may only {left} this activation ({effect.spell} spell), "
                f"or stay idle (idle {unit.id})"
            )
    return None


def move_cap(unit: Unit, move: float) -> float:
    """The move of an action once a `difficult` spell on the unit caps it at 6"."""
    if not any(e.kind == "difficult" for e in unit.effects):
        return move
    if unit.all_have("Strider") or unit.all_have("Flying"):
        return move
    return min(move, DIFFICULT_MOVE)
