"""The compiled stretches of a line inside areas (stretches.py) are exactly, to the last bit,
those of the plain-Python loop they replaced (kept here as the reference): on generated
tables and touching pieces, for lines anywhere, from and to corners, along edges and of no
length."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import pairwise

from shapely.geometry import Polygon

from warbench.core.dice import SeededDice
from warbench.core.geometry import EPS
from warbench.core.terrain import Trait
from warbench.rulesets.fft3.battlefield import Battlefield, Point, from_data, generate
from warbench.rulesets.fft3.stretches import Stretches

_PARALLEL = 1e-12
_BOX_MARGIN = 1e-6


class _Edges:
    """The plain-Python loop `stretches` replaced, kept as the reference."""

    def __init__(self, areas: Sequence[Polygon]) -> None:
        self.areas = [
            (
                area.bounds,
                [
                    (x1, y1, x2 - x1, y2 - y1, math.hypot(x2 - x1, y2 - y1))
                    for (x1, y1), (x2, y2) in pairwise(area.exterior.coords)
                    if (x1, y1) != (x2, y2)
                ],
            )
            for area in areas
        ]

    def runs(self, a: Point, b: Point) -> list[tuple[float, float]]:
        """The stretches of a→b inside the areas, as fractions 0..1 of it, in order, with
        adjoining ones merged. A stretch along an edge is not inside; where the line starts is
        judged at the middle of its first stretch."""
        (ax, ay), (bx, by) = a, b
        lo_x, hi_x, lo_y, hi_y = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        if length == 0:
            return []
        found: list[tuple[float, float]] = []
        parallel = _PARALLEL * length
        for (x0, y0, x9, y9), edges in self.areas:
            if x0 > hi_x or x9 < lo_x or y0 > hi_y or y9 < lo_y:
                continue
            if _misses_box(ax, ay, dx, dy, (x0, y0, x9, y9)):
                continue
            cuts = [0.0, 1.0]
            along = False
            for x1, y1, ex, ey, size in edges:
                denom = dx * ey - dy * ex
                wx, wy = x1 - ax, y1 - ay
                if abs(denom) <= parallel * size:
                    if abs(wx * dy - wy * dx) <= EPS * length:  # along the line: its ends cut
                        along = True
                        cuts += [
                            (wx * dx + wy * dy) / length**2,
                            ((wx + ex) * dx + (wy + ey) * dy) / length**2,
                        ]
                    continue
                t = (wx * ey - wy * ex) / denom
                if 0 < t < 1:
                    u = (wx * dy - wy * dx) / denom
                    if -_PARALLEL <= u <= 1 + _PARALLEL:
                        cuts.append(t)
            kept = [0.0]
            tol = EPS / length
            for t in sorted(c for c in cuts if 0 <= c <= 1):
                if t > kept[-1] + tol and t < 1 - tol:
                    kept.append(t)
            kept.append(1.0)
            inside = None
            for lo, hi in pairwise(kept):
                if inside is None or along:  # else each crossing turns inside and out
                    mid = (lo + hi) / 2
                    px, py = ax + mid * dx, ay + mid * dy
                    inside = x0 <= px <= x9 and y0 <= py <= y9 and _contains(edges, px, py)
                else:
                    inside = not inside
                if inside:
                    found.append((lo, hi))
        found.sort()
        merged: list[tuple[float, float]] = []
        for lo, hi in found:
            if merged and lo <= merged[-1][1] + EPS / length:
                merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
            else:
                merged.append((lo, hi))
        return merged


def _misses_box(
    ax: float, ay: float, dx: float, dy: float, box: tuple[float, float, float, float]
) -> bool:
    """Whether the segment from (ax, ay) by (dx, dy) passes wide of the box (clipped the
    Liang-Barsky way against the box grown by _BOX_MARGIN): then it meets no edge inside."""
    low, high = 0.0, 1.0
    x0, y0, x9, y9 = box
    for p, q in (
        (-dx, ax - x0 + _BOX_MARGIN),
        (dx, x9 + _BOX_MARGIN - ax),
        (-dy, ay - y0 + _BOX_MARGIN),
        (dy, y9 + _BOX_MARGIN - ay),
    ):
        if p == 0:
            if q < 0:
                return True
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
        if low > high:
            return True
    return False


def _contains(edges: list[tuple[float, float, float, float, float]], x: float, y: float) -> bool:
    """Whether (x, y) is strictly inside the outline (even-odd rule; on an edge is not)."""
    inside = False
    for x1, y1, ex, ey, size in edges:
        if abs(ex * (y - y1) - ey * (x - x1)) <= EPS * size and (
            min(x1, x1 + ex) - EPS <= x <= max(x1, x1 + ex) + EPS
            and min(y1, y1 + ey) - EPS <= y <= max(y1, y1 + ey) + EPS
        ):
            return False
        if (y1 > y) != (y1 + ey > y) and x < x1 + (y - y1) * ex / ey:
            inside = not inside
    return inside


TOUCHING = [
    {"kind": "woods", "polygon": [[10, 10], [20, 10], [20, 20], [10, 20]]},
    {"kind": "town", "polygon": [[20, 12], [24, 12], [24, 18], [20, 18]]},  # shares an edge
    {"kind": "rough", "polygon": [[40, 10], [46, 16], [40, 22], [34, 16]]},
    {"kind": "road", "line": [[0, 15], [72, 15]]},
]


def _lines(corners: list[Point], rng: random.Random) -> list[tuple[Point, Point]]:
    """Lines anywhere, between corners, half an inch off them, along edges, of no length."""
    places: list[Point] = []
    for _ in range(200):
        pick = rng.random()
        x, y = rng.choice(corners)
        if pick < 0.2:
            places.append((x, y))
        elif pick < 0.35:
            places.append((x + rng.choice((-0.5, 0.5)), y))
        else:
            places.append((round(rng.uniform(0, 72), 2), round(rng.uniform(0, 48), 2)))
    lines = [(rng.choice(places), rng.choice(places)) for _ in range(2000)]
    lines += list(pairwise(corners))  # along the outlines
    lines += [(p, p) for p in places[:20]]
    return lines


def test_compiled_stretches_are_the_plain_loops_to_the_bit() -> None:
    rng = random.Random(5)
    fields = [generate(SeededDice(seed)) for seed in range(6)] + [from_data(TOUCHING, 72, 48)]
    compared = crossing = 0
    for field in fields:
        for trait in (Trait.DIFFICULT, Trait.ROAD):
            areas = [p.area for p in field.pieces if p.has(trait)]
            corners = [(x, y) for area in areas for x, y in area.exterior.coords]
            compiled, plain = Stretches(areas), _Edges(areas)
            for a, b in _lines(corners, rng) if corners else []:
                got = compiled.runs(a, b)
                assert got == plain.runs(a, b), (a, b)
                compared += 1
                crossing += bool(got)
    assert compared > 20_000 and crossing > 5_000


def _reach(field: Battlefield, a: Point, b: Point, mp: float, vehicle: bool) -> float:
    """The plain-Python reach the compiled one replaced: `_legs`'s parts paid in turn."""
    length = math.dist(a, b)
    left = max(mp, 0.0)
    gone = 0.0
    for part, rate in field._legs(a, b, vehicle):
        if part * rate > left + EPS:
            return min(gone + left / rate, length)
        left -= part * rate
        gone += part
    return length


def test_compiled_reaches_and_costs_are_the_plain_loops_to_the_bit() -> None:
    """`reach_all` and `leg_costs` against `_legs` read in Python: legs anywhere, from and
    to corners, along edges (roads and rough), of no length, with MP from none to more than
    enough, for vehicles and infantry."""
    rng = random.Random(7)
    fields = [generate(SeededDice(seed)) for seed in range(4)] + [from_data(TOUCHING, 72, 48)]
    compared = short = 0
    for field in fields:
        corners = [(x, y) for p in field.pieces for x, y in p.area.exterior.coords]
        for vehicle in (True, False):
            lines = _lines(corners, rng)[:1200]
            for start in range(0, len(lines), 24):
                batch = lines[start : start + 24]
                a = batch[0][0]
                ends = [b for _, b in batch]
                mps = [rng.choice((0.0, -1.0, 3.5, rng.uniform(0, 30), 100.0)) for _ in batch]
                got = field.reach_all(a, ends, mps, vehicle=vehicle)
                want = [_reach(field, a, b, mp, vehicle) for b, mp in zip(ends, mps, strict=True)]
                assert got == want, (a, ends, mps)
                paid = [field.leg_cost(a, b, vehicle=vehicle) for b in ends]
                assert field.leg_costs(a, ends, vehicle=vehicle) == paid, (a, ends)
                compared += len(batch)
                short += sum(g < math.dist(a, b) for g, b in zip(got, ends, strict=True))
    assert compared > 10_000 and short > 2_000
