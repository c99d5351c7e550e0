"""GAME STEPS before the first turn: dice for the attacker, the scenery in six zones with
at least one piece of 5 to 25 cm each (generated through the game's dice), and the figures of
each secret force."""

from __future__ import annotations

import typing

from warbench.core.dice import RollRequest
from warbench.rulesets.fftt.profiles import tables
from warbench.rulesets.fftt.scenario import Scenario
from warbench.rulesets.fftt.state import Fig, Flank
from warbench.rulesets.fftt.table import Kind, Piece
from warbench.rulesets.fftt.wounds import Referee


def attacker(ref: Referee) -> str:
    """'Dice to see who is the attacker': 1D6 each, the higher attacks; ties roll again."""
    while True:
        red = ref.roll(RollRequest("attacker: red")).total
        blue = ref.roll(RollRequest("attacker: blue")).total
        if red != blue:
            return "red" if red > blue else "blue"


def piece(kind: Kind, box: tuple[float, float, float, float], layout: int = 0) -> Piece:
    """A piece of scenery; a building gets the doors, windows and floors of `layout` on the
    buildings table (OURS)."""
    x0, y0, x1, y1 = (round(v, 1) for v in box)
    if kind != "building":
        return Piece(kind, x0, y0, x1, y1)
    plan = tables().buildings[layout]
    return Piece(kind, x0, y0, x1, y1, plan.openings, plan.floors)


def scenery(ref: Referee, width: float, depth: float) -> tuple[Piece, ...]:
    """Six equal zones (three across, two deep), each with one piece (a second on 5-6) of 5 to
    25 cm a side, kind by 1D6 (a 6 again on the other table), size and place by the dice, a
    building's doors, windows and floors by 1D6; a low wall on a 6 (OURS)."""
    t = tables()
    lo, hi = t.scenery_min, t.scenery_max
    zone_w, zone_d = width / 3, depth / 2
    pieces: list[Piece] = []

    def d6(label: str) -> int:
        return ref.roll(RollRequest(label)).total

    for row in range(2):
        for col in range(3):
            x0, y0 = col * zone_w, row * zone_d
            zone = f"zone {row * 3 + col + 1}"
            count = 2 if d6(f"scenery {zone}: pieces (5-6: two)") >= 5 else 1
            for n in range(count):
                name = t.scenery_kinds[d6(f"scenery {zone}: kind of piece {n + 1}")]
                if name == "other":
                    name = t.scenery_other[d6(f"scenery {zone}: kind of piece {n + 1} (other)")]
                kind = typing.cast(Kind, name)
                wide = d6(f"scenery {zone}: width")
                w = lo + (hi - lo) * (wide - 1) / 5
                d = lo + (hi - lo) * (d6(f"scenery {zone}: depth") - 1) / 5
                if kind == "river":
                    d = t.river_width
                elif kind == "vehicle":
                    w, d = t.wreck if wide % 2 else t.wreck[::-1]
                w, d = min(w, zone_w), min(d, zone_d)
                px = x0 + (zone_w - w) * (d6(f"scenery {zone}: across") - 1) / 5
                py = y0 + (zone_d - d) * (d6(f"scenery {zone}: along") - 1) / 5
                layout = d6(f"scenery {zone}: doors and floors") if kind == "building" else 0
                pieces.append(piece(kind, (px, py, px + w, py + d), layout))
            if d6(f"scenery {zone}: a low wall on 6") == 6:
                length = lo + (hi - lo) * (d6(f"scenery {zone}: wall length") - 1) / 5
                length = min(length, zone_w - 2)
                wx = x0 + 1 + (zone_w - 2 - length) * (d6(f"scenery {zone}: wall across") - 1) / 5
                wy = y0 + zone_d * d6(f"scenery {zone}: wall along") / 7
                pieces.append(piece("wall", (wx, wy, wx + length, wy + 1)))
    return tuple(pieces)


def figures(spec: Scenario) -> tuple[dict[str, Fig], list[Flank]]:
    """Every figure of both forces (behind the screen or in hidden movement)."""
    figs: dict[str, Fig] = {}
    flanks: list[Flank] = []
    for side in ("red", "blue"):
        force = spec.forces[side]
        count = 0
        for f in force.figures:
            count += 1
            fid = f"{side[0]}{count}"
            figs[fid] = Fig(
                fid, side, force.race, f.profile, f.elite, xp=f.xp, ability=f.ability or 0
            )
        for flank in force.flanks:
            ids = []
            for f in flank.figures:
                count += 1
                fid = f"{side[0]}{count}"
                figs[fid] = Fig(
                    fid,
                    side,
                    force.race,
                    f.profile,
                    f.elite,
                    xp=f.xp,
                    ability=f.ability or 0,
                    where="flank",
                    flank=len(flanks),
                )
                ids.append(fid)
            flanks.append(Flank(side, flank.flank, flank.label, ids))
    return figs, flanks
