"""GAME STEPS before the first turn: dice for the attacker, the scenery in six zones with
at least one piece of 5 to 25 cm each (generated through the game's dice, or placed piece by
piece by the defender), and the figures of each force written down secretly."""

from __future__ import annotations

import typing
from collections import Counter

from warbench.core.dice import RollRequest
from warbench.rulesets.fftt.actions import PlacePiece
from warbench.rulesets.fftt.profiles import forces, tables
from warbench.rulesets.fftt.scenario import FigureSpec, ForceSpec
from warbench.rulesets.fftt.state import Fig, Flank
from warbench.rulesets.fftt.table import KINDS, Kind, Piece, Point, Table
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


def figure_id(side: str, number: int, flank: str | None = None) -> str:
    """A figure's id: its side's letter, then `fw` or `fe` for a flanking force by the west
    or east flank, then its number in its own force (R56: `r3`, `rfw1`, `bfe2`). Each
    flanking force is numbered apart, so no id tells the size of a force not yet seen."""
    return f"{side[0]}{'' if flank is None else 'f' + flank[0]}{number}"


def figures(
    written: dict[str, ForceSpec], flanks_before: int = 0
) -> tuple[dict[str, Fig], list[Flank]]:
    """Every figure of the forces written down (behind the screen or in hidden movement),
    red's first; the main force numbered from 1, each flanking force apart from 1 (R56);
    their flanking forces indexed on from `flanks_before`."""
    figs: dict[str, Fig] = {}
    flanks: list[Flank] = []
    for side in ("red", "blue"):
        force = written.get(side)
        if force is None:
            continue
        for n, f in enumerate(force.figures, start=1):
            fid = figure_id(side, n)
            figs[fid] = Fig(
                fid, side, force.race, f.profile, f.elite, xp=f.xp, ability=f.ability or 0
            )
        for flank in force.flanks:
            ids = []
            for n, f in enumerate(flank.figures, start=1):
                fid = figure_id(side, n, flank.flank)
                figs[fid] = Fig(
                    fid,
                    side,
                    force.race,
                    f.profile,
                    f.elite,
                    xp=f.xp,
                    ability=f.ability or 0,
                    where="flank",
                    flank=flanks_before + len(flanks),
                )
                ids.append(fid)
            flanks.append(Flank(side, flank.flank, flank.label, ids))
    return figs, flanks


def written_down(title: str, force: ForceSpec) -> str:
    """A force as its owner is told it once written: its title ("force 2"), race, figures
    with their marks (elite, the general, enemy FPs killed before) and flanking forces
    (R52, R57)."""
    table = forces()[force.race]
    general = force.general

    def name(n: int, f: FigureSpec, main: bool) -> str:
        marks = ["elite"] * f.elite
        if main and general is not None and general.figure == n:
            marks.append("general" + f" {general.name}" * (general.name != "General"))
        marks += [f"{f.xp} FP killed"] * bool(f.xp)
        return table[f.profile].name + (f" ({', '.join(marks)})" if marks else "")

    def names(figs: tuple[FigureSpec, ...], main: bool = False) -> str:
        counts = Counter(name(n, f, main) for n, f in enumerate(figs))
        return ", ".join(f"{n} {name}" if n > 1 else name for name, n in counts.items())

    flanks = "".join(
        f"; flanking force '{flank.label}' ({flank.flank}): {names(flank.figures)}"
        for flank in force.flanks
    )
    return f"{title}, {force.race} ({force.points()} FP): {names(force.figures, True)}{flanks}"


def zone_of(width: float, depth: float, p: Point) -> int:
    """The zone (1-6: three across, two deep, from the south-west) a point lies in."""
    col = min(2, int(p[0] // (width / 3)))
    row = min(1, int(p[1] // (depth / 2)))
    return row * 3 + col + 1


def empty_zones(table: Table) -> list[int]:
    """The zones with no piece of scenery yet (a piece is in the zone of its centre)."""
    full = {
        zone_of(table.width, table.depth, ((p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2))
        for p in table.pieces
    }
    return [z for z in range(1, 7) if z not in full]


def placed_piece(action: PlacePiece) -> Piece | str:
    """The piece a defender's `piece` action places, or why it is not a piece: a kind of
    scenery, each side 5 to 25 cm (a low wall 1 cm thick), a building's layout 1-6, else 0."""
    t = tables()
    if action.kind not in KINDS:
        return f"'{action.kind}' is not a kind of scenery; kinds: {', '.join(KINDS)}"
    kind = action.kind
    x0, x1 = sorted((action.corner[0], action.far[0]))
    y0, y1 = sorted((action.corner[1], action.far[1]))
    lo, hi = t.scenery_min, t.scenery_max
    sides = sorted((x1 - x0, y1 - y0))
    if kind == "wall":
        if abs(sides[0] - 1) > 1e-6 or not lo <= sides[1] <= hi:
            return f"a low wall is 1 cm thick and {lo:g} to {hi:g} cm long"
    elif not (lo <= sides[0] and sides[1] <= hi):
        return (
            f"each side of a piece is {lo:g} to {hi:g} cm; this one is {sides[0]:g} x {sides[1]:g}"
        )
    if kind == "building" and action.layout not in t.buildings:
        return f"a building's layout is one of {', '.join(map(str, t.buildings))} (buildings table)"
    if kind != "building" and action.layout != 0:
        return f"only buildings have a layout; give 0 for a {kind}"
    return piece(kind, (x0, y0, x1, y1), action.layout)


def place_problem(table: Table, action: PlacePiece) -> str | None:
    """Why the defender may not place this piece: not a valid piece, off the table, or over
    another piece ('The pieces of scenery can be in contact among them', not on each other)."""
    new = placed_piece(action)
    if isinstance(new, str):
        return new
    if new.x0 < 0 or new.y0 < 0 or new.x1 > table.width or new.y1 > table.depth:
        return f"the piece must lie on the {table.width:g} x {table.depth:g} cm table"
    for old in table.pieces:
        if new.x0 < old.x1 and old.x0 < new.x1 and new.y0 < old.y1 and old.y0 < new.y1:
            return (
                f"the piece would lie on the {old.kind} at {old.x0:g},{old.y0:g} to "
                f"{old.x1:g},{old.y1:g}; pieces may touch but not overlap"
            )
    return None


def placement_samples(table: Table) -> list[PlacePiece]:
    """Offered pieces for each zone still empty: a forest, hill, ruins, lake and each building
    layout of 10 x 10 cm at the zone's centre, and 5 cm rubble on a grid of the zone."""
    samples: list[PlacePiece] = []
    zone_w, zone_d = table.width / 3, table.depth / 2
    for zone in empty_zones(table):
        x0, y0 = ((zone - 1) % 3) * zone_w, ((zone - 1) // 3) * zone_d
        cx, cy = round(x0 + zone_w / 2, 1), round(y0 + zone_d / 2, 1)
        box = ((cx - 5, cy - 5), (cx + 5, cy + 5))
        for kind in ("forest", "hill", "ruins", "lake"):
            samples.append(PlacePiece(kind, *box, 0))
        samples += [PlacePiece("building", *box, n) for n in tables().buildings]
        for i in (1, 2, 3):
            for j in (1, 2, 3):
                px, py = round(x0 + zone_w * i / 4, 1), round(y0 + zone_d * j / 4, 1)
                samples.append(PlacePiece("rubble", (px - 2.5, py - 2.5), (px + 2.5, py + 2.5), 0))
    return samples
