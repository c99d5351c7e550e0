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
- `in_dangerous`: "counts as being in dangerous terrain next time it moves | until end of
  round" (GFF-R37): the rulebook's dangerous terrain, "models moving across dangerous
  terrain, or that activate in it, must roll one die (or as many as their tough value)":
  until the end of the round the unit's models roll when it activates and when they move
  (the game's one roll per model per activation, GFF-R16, covers both); "next time it
  moves" when they next move (any move, a spell's move out of turn too), and is used up
  by it; "next time it activates" at the start of its next activation. Flying ignores it.
"""

from __future__ import annotations

from warbench.core.actions import Action
from warbench.rulesets.gff.actions import Advance, Charge, Hold, Rush
from warbench.rulesets.gff.state import SpellEffect, Unit

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


def in_dangerous(unit: Unit, event: str) -> str | None:
    """The spell by which the unit counts as in dangerous terrain at `event` (`activation`:
    its start; `move`: a move of its models), using up one lasting until its next move;
    None when no spell does or the unit flies."""
    if not unit.effects or unit.all_have("Flying"):
        return None
    found = [e for e in unit.effects if e.kind == "in_dangerous" and _counts(e, event)]
    if not found:
        return None
    if event == "move":
        unit.effects = tuple(e for e in unit.effects if not (e in found and e.trigger == "move"))
    return found[0].spell


def _counts(effect: SpellEffect, event: str) -> bool:
    """Whether a lasting dangerous terrain spell counts at `event`: "next time it moves" at
    a move, "next time it activates" at the start of one, "until end of round" at both."""
    if effect.trigger in ("move", "activation"):
        return effect.trigger == event
    return True
