"""Exact odds of one ATTACKING roll: any piece of the squad sheet at any piece on any square
of an operation's boards, aimed or not.

The roll is `attacking.to_hit`, the request the game rolls in play, read by the core's
`resolve` exactly as `TTTGame._attack` reads it (a success bags the target). One d6: the
exact source enumerates its six faces; no reading is needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from warbench.core.dice import DiceSource, resolve
from warbench.core.grid import Square
from warbench.core.odds import OddsReport, Options, OutcomeTable, Query, Stages
from warbench.rulesets.ttt import attacking
from warbench.rulesets.ttt import scenario as scenarios
from warbench.rulesets.ttt.state import Piece
from warbench.rulesets.ttt.table import Table
from warbench.rulesets.ttt.terrain import terrain_table

OPTIONS: dict[str, str] = {
    "operation": "operation whose boards and squad sheet are used (default: the first shipped)",
    "attacker": "attacking piece, a squad-sheet name (default M-Gunner)",
    "target": "target piece, a squad-sheet name (default Recon)",
    "at": "target's square, like C4 (default: a square of the given terrain)",
    "terrain": "target's terrain when no square is given: plain, woods, rocky, ... (default plain)",
    "from": "attacker's square, like A1: checks range and sight (optional)",
    "aimed": "yes if the attacker AIMed at the target last move (default no)",
}
ATTACK = "attack"
OUTCOME = {True: "hit: target bagged", False: "miss"}


def query(options: Mapping[str, str]) -> Query:
    """The attack `options` describe."""
    opts = Options(options, OPTIONS)
    shipped = scenarios.shipped()
    operation = opts.choice("operation", list(shipped), next(iter(shipped)))
    table = Table.build(shipped[operation])
    kinds = list(table.sheet)
    attacker_kind = opts.choice("attacker", kinds, "M-Gunner")
    target_kind = opts.choice("target", kinds, "Recon")
    field = table.battlefield
    terrain_kind = opts.choice("terrain", list(terrain_table()), "plain")
    at_text = opts.text("at", "")
    if at_text:
        at = Square.parse(at_text)
        if at not in field.terrain:
            raise ValueError(f"at={at_text} is not on the boards of {operation}")
    else:
        found = sorted(field.of_kind(terrain_kind))
        if not found:
            present = sorted(set(field.terrain.values()))
            raise ValueError(
                f"terrain={terrain_kind}: no such square in {operation}; it has "
                f"{', '.join(present)}"
            )
        at = found[0]
    if not terrain_table()[field.terrain[at]].passable:
        raise ValueError(f"at={at}: a {field.terrain[at]} square cannot hold a piece")
    from_text = opts.text("from", "")
    origin = Square.parse(from_text) if from_text else at
    target = Piece("b1", "blue", target_kind, at)
    attacker = Piece("r1", "red", attacker_kind, origin, aim="b1" if opts.flag("aimed") else None)
    situation = {
        "operation": operation,
        "attacker": f"{attacker_kind}" + (f" at {origin}" if from_text else ""),
        "target": f"{target_kind} at {at} ({field.terrain[at]})",
        "aimed": "yes" if attacker.aim else "no",
    }
    if from_text:
        if origin not in field.terrain:
            raise ValueError(f"from={from_text} is not on the boards of {operation}")
        if not attacking.can_attack_from(table, attacker):
            raise ValueError(f"from={origin}: a piece on {field.terrain[origin]} may not attack")
        reach = table.profile(attacker_kind).range
        if not attacking.in_range(table, attacker, target):
            raise ValueError(
                f"from={origin}: {at} is not within {attacker_kind}'s Range {reach} "
                f"(no diagonals) with line of sight"
            )
    request = attacking.to_hit(table, attacker, target)

    def attack(dice: DiceSource) -> bool:
        return bool(resolve(request, dice.faces(request)).success)

    def tables(dist: Mapping[bool, Fraction]) -> list[OutcomeTable]:
        return [OutcomeTable.of(ATTACK, dist, [True, False], name=lambda hit: OUTCOME[hit])]

    return Query(
        "ttt", f"{attacker_kind} attacks {target_kind}", situation, Stages(attack), None, tables
    )


def odds(options: Mapping[str, str]) -> OddsReport:
    """P(hit) and P(miss) of one attack."""
    return query(options).report()
