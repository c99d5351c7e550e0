"""THE GAME TABLE: its size, the six zones of scenery, deployment zones, and what the
scenery does to movement, sight and cover. Scenery pieces are rectangles (cm); buildings have
walls with doors, double doors and windows, and some a second floor (OURS, as data); a vehicle
wreck is a piece figures get in and out of."""

from __future__ import annotations

import math
import typing
from dataclasses import dataclass, field
from itertools import chain
from typing import Literal

import numpy as np
import numpy.typing as npt

Kind = Literal[
    "forest", "building", "ruins", "rubble", "hill", "pool", "lake", "river", "wall", "vehicle"
]
KINDS: tuple[Kind, ...] = typing.get_args(Kind)
Wall = Literal["south", "north", "west", "east"]
Opening = Literal["door", "double", "window"]
# "half of its movement when crossing forests, rivers or pools, ruins, rubble or buildings";
# a lake is read as a large pool (ruling R39)
SLOW = frozenset({"forest", "building", "ruins", "rubble", "pool", "lake", "river"})
SCREENING = frozenset({"forest", "building", "vehicle"})  # shoot in or out only at the border
COVER = frozenset({"forest", "building", "ruins", "rubble", "wall", "vehicle"})
WALLED = frozenset({"building", "vehicle"})  # crossed only through openings (or getting in)
BORDER = 2.0  # OURS: "in the border" of a building or forest = within 2 cm of its edge
INSIDE_SIGHT = 5.0  # "at a maximum distance of 5 cm. if both ... are inside"
Point = tuple[float, float]
Points = npt.NDArray[np.float64]  # points as rows x, y
KEPT = 50_000  # answers of one kind a table remembers (a battle asks for some 20,000 costs)


@dataclass(frozen=True)
class Piece:
    """A piece of scenery: an axis-aligned rectangle of a kind. A building has `openings`
    (a door, double door or window centred on a wall, at most one a wall) and `floors`."""

    kind: Kind
    x0: float
    y0: float
    x1: float
    y1: float
    openings: tuple[tuple[Wall, Opening], ...] = ()
    floors: int = 1

    def wall_at(self, p: Point) -> Wall:
        """The wall nearest to `p`, a point of the outline."""
        gaps: dict[Wall, float] = {
            "west": abs(p[0] - self.x0),
            "east": abs(self.x1 - p[0]),
            "south": abs(p[1] - self.y0),
            "north": abs(self.y1 - p[1]),
        }
        return min(gaps, key=lambda w: gaps[w])

    def opening_at(self, p: Point, widths: dict[str, float]) -> Opening | None:
        """The opening the outline point `p` passes through, if any."""
        for kind, (x0, y0, x1, y1) in self.opening_boxes(widths):
            if x0 - 1e-9 <= p[0] <= x1 + 1e-9 and y0 - 1e-9 <= p[1] <= y1 + 1e-9:
                return kind
        return None

    def opening_boxes(
        self, widths: dict[str, float]
    ) -> list[tuple[Opening, tuple[float, float, float, float]]]:
        """Each opening as a box 1 cm thick across its wall: `widths[kind]` cm wide (no wider
        than the wall), centred on the wall."""
        boxes: list[tuple[Opening, tuple[float, float, float, float]]] = []
        cx, cy = (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2
        for wall, kind in self.openings:
            if wall in ("south", "north"):
                half = min(widths[kind], self.x1 - self.x0) / 2
                y = self.y0 if wall == "south" else self.y1
                boxes.append((kind, (cx - half, y - 0.5, cx + half, y + 0.5)))
            else:
                half = min(widths[kind], self.y1 - self.y0) / 2
                x = self.x0 if wall == "west" else self.x1
                boxes.append((kind, (x - 0.5, cy - half, x + 0.5, cy + half)))
        return boxes

    def outline_crossings(self, a: Point, b: Point) -> list[Point]:
        """Where the segment a→b crosses the outline, going in or out (none if it stays
        inside or outside)."""
        span = self.clip(a, b)
        if span is None:
            return []
        found: list[Point] = []
        for t, end in ((span[0], a), (span[1], b)):
            if not self.contains(end):
                found.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        return found

    def portals(self) -> list[Point]:
        """Points 1.5 cm either side of the centre of each opening (a vehicle: its centre and
        a point off each side), for movers to aim at."""
        cx, cy = (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2
        if self.kind == "vehicle":
            walls: list[Wall] = ["south", "north", "west", "east"]
            return [(cx, cy)] + [p for w in walls for p in self._either_side(w, cx, cy)[1:]]
        return [p for w, _ in self.openings for p in self._either_side(w, cx, cy)]

    def _either_side(self, wall: Wall, cx: float, cy: float) -> tuple[Point, Point]:
        step = 1.5
        if wall == "south":
            return (cx, self.y0 + step), (cx, self.y0 - step)
        if wall == "north":
            return (cx, self.y1 - step), (cx, self.y1 + step)
        if wall == "west":
            return (self.x0 + step, cy), (self.x0 - step, cy)
        return (self.x1 - step, cy), (self.x1 + step, cy)

    def contains(self, p: Point) -> bool:
        """Whether `p` lies inside (edges included)."""
        return self.x0 <= p[0] <= self.x1 and self.y0 <= p[1] <= self.y1

    def near_edge(self, p: Point) -> bool:
        """Whether `p` is inside and within BORDER of an edge."""
        return (
            self.contains(p)
            and min(p[0] - self.x0, self.x1 - p[0], p[1] - self.y0, self.y1 - p[1]) <= BORDER
        )

    def clip(self, a: Point, b: Point) -> tuple[float, float] | None:
        """The part of segment a→b inside, as parameters (t0, t1) in [0, 1] (Liang-Barsky)."""
        if (
            max(a[0], b[0]) < self.x0
            or min(a[0], b[0]) > self.x1
            or max(a[1], b[1]) < self.y0
            or min(a[1], b[1]) > self.y1
        ):
            return None
        t0, t1 = 0.0, 1.0
        dx, dy = b[0] - a[0], b[1] - a[1]
        for p, q in (
            (-dx, a[0] - self.x0),
            (dx, self.x1 - a[0]),
            (-dy, a[1] - self.y0),
            (dy, self.y1 - a[1]),
        ):
            if p == 0:
                if q < 0:
                    return None
                continue
            r = q / p
            if p < 0:
                if r > t0:  # max(t0, r), without the call
                    t0 = r
            elif r < t1:  # min(t1, r)
                t1 = r
            if t0 > t1:
                return None
        return t0, t1

    def crossed(self, a: Point, b: Point) -> bool:
        """Whether segment a→b passes through the piece."""
        return self.clip(a, b) is not None

    def as_list(self) -> list[object]:
        """JSON form; a building adds its openings and floors."""
        shape: list[object] = [self.kind, self.x0, self.y0, self.x1, self.y1]
        if self.kind == "building":
            shape += [[list(o) for o in self.openings], self.floors]
        return shape


def rows(points: typing.Sequence[Point]) -> Points:
    """Points as rows x, y: the floats of `np.array(points)`, read one by one rather than
    by numpy's discovery of a nested list's shape (twice as fast for a figure's 40 points)."""
    flat = np.fromiter(chain.from_iterable(points), dtype=float, count=2 * len(points))
    return flat.reshape(-1, 2)


def _boxes(pieces: typing.Iterable[Piece]) -> Points:
    """Pieces as rows x0, y0, x1, y1."""
    return np.array([(p.x0, p.y0, p.x1, p.y1) for p in pieces], dtype=float).reshape(-1, 4)


def _inside(points: Points, boxes: Points) -> npt.NDArray[np.bool_]:
    """Whether each point (row) lies in each box (column), edges included (`Piece.contains`)."""
    x, y = points[:, :1], points[:, 1:]
    return (boxes[:, 0] <= x) & (x <= boxes[:, 2]) & (boxes[:, 1] <= y) & (y <= boxes[:, 3])


dist = math.dist  # the distance between two points: the same float as `math.hypot` of the gaps
_SCALES = (1.0, 10.0, 100.0)  # 10 ** digits
EXACT = 2.0**51  # below it a half way point n + 0.5 is a float
SPLIT = 2.0**27 + 1  # Veltkamp's splitter: a float into two halves of 26 bits


def rounded(v: float, digits: int) -> float:
    """`round(v, digits)` for 0 to 2 digits, the same float, without the decimal string and
    `snprintf` that `round` goes through (some 5% of a battle's instructions). With
    y = v·10^digits (rounded) in [1, 2**51) and not half way between integers n and n + 1,
    the exact product lies on y's side of n + 0.5 (a float: rounding is monotone), so it
    rounds to the same integer, and that integer over 10^digits is the correctly rounded
    decimal `round` reads back. Half way (a tenth of a move's half often is), the side is
    the sign of the product's rounding error, exact by Dekker's product (v split by
    Veltkamp, 10^digits needing no split); none: an exact tie, to even, as `round`.
    Negative values are rounded as their opposite (`round` is symmetric); the rest by
    `round`."""
    scale = _SCALES[digits]
    y = v * scale
    if 1.0 <= y < EXACT:
        n = int(y)
        f = y - n  # exact (Sterbenz: n <= y < 2n)
        if f < 0.5:
            return n / scale
        if f > 0.5:
            return (n + 1) / scale
        c = SPLIT * v
        high = c - (c - v)
        error = (high * scale - y) + (v - high) * scale  # v·scale - y, exactly
        if error > 0 or (error == 0 and n % 2):
            return (n + 1) / scale
        return n / scale
    if -EXACT < y <= -1.0:
        return -rounded(-v, digits)
    return round(v, digits)


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from `p` to the segment a→b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


@dataclass(frozen=True)
class Table:
    """The table: width (x, west to east) and depth (y, south to north) in cm, and scenery."""

    width: float
    depth: float
    pieces: tuple[Piece, ...]
    # worked out once from the pieces (`__post_init__`)
    hills: tuple[Piece, ...] = field(init=False, repr=False, compare=False)
    slow_pieces: tuple[Piece, ...] = field(init=False, repr=False, compare=False)  # halve moves
    walls: tuple[Piece, ...] = field(init=False, repr=False, compare=False)  # the low walls
    # the pieces sight looks at: those that screen (`screened`), those that block (`blockers`)
    screening: tuple[Piece, ...] = field(init=False, repr=False, compare=False)
    sight_blocking: tuple[Piece, ...] = field(init=False, repr=False, compare=False)
    # the buildings and vehicle wrecks: crossed only through openings or getting in
    walled: tuple[Piece, ...] = field(init=False, repr=False, compare=False)
    # points either side of every opening and about every wreck, for movers to aim at
    portals: tuple[Point, ...] = field(init=False, repr=False, compare=False)
    portal_rows: Points = field(init=False, repr=False, compare=False)  # the same, as rows x, y
    # for the compiled `routes.scenery_answers`: width and depth, and as rows x0, y0, x1, y1
    # the walled pieces, the slowing ones and the low walls
    route_rows: tuple[Points, Points, Points, Points] = field(init=False, repr=False, compare=False)
    _building_pieces: tuple[Piece, ...] = field(init=False, repr=False, compare=False)
    _buildings: tuple[Points, npt.NDArray[np.bool_]] = field(init=False, repr=False, compare=False)
    _cover_boxes: Points = field(init=False, repr=False, compare=False)
    _numbers: dict[int, int] = field(init=False, repr=False, compare=False)
    # answers remembered on this (immutable) table: legality, the AI and the move itself
    # ask for the same moves, lines and points again and again
    _covered: dict[Point, bool] = field(init=False, repr=False, compare=False)
    _costs: dict[tuple[Point, Point, bool], float] = field(init=False, repr=False, compare=False)
    # whether a move is open as far as the scenery goes, per mover's place and destination,
    # filled by `movement.py`: figures stand still while others move, and their moves are
    # asked for again at every decision
    routes: dict[tuple[object, ...], dict[Point, bool]] = field(
        init=False, repr=False, compare=False
    )
    _crossings: dict[tuple[Point, Point], tuple[tuple[Piece, Point], ...]] = field(
        init=False, repr=False, compare=False
    )
    _sight: dict[tuple[Point, Point, tuple[int, int]], tuple[float, ...] | None] = field(
        init=False, repr=False, compare=False
    )
    _cover: dict[tuple[Point, Point], bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """The kept parts and memories set as plain attributes, not cached properties: one
        of those writes into the instance's `__dict__`, and CPython 3.11 then reads every
        attribute of the table more slowly (some 17,000 reads a battle)."""
        pieces = self.pieces
        walled = tuple(p for p in pieces if p.kind in WALLED)
        houses = tuple(p for p in walled if p.kind == "building")
        portals = tuple(p for piece in walled for p in piece.portals())
        kept: dict[str, object] = {
            "hills": tuple(p for p in pieces if p.kind == "hill"),
            "slow_pieces": tuple(p for p in pieces if p.kind in SLOW),
            "walls": tuple(p for p in pieces if p.kind == "wall"),
            "screening": tuple(p for p in pieces if p.kind in SCREENING),
            "sight_blocking": tuple(p for p in pieces if p.kind in SCREENING or p.kind == "hill"),
            "walled": walled,
            "portals": portals,
            "portal_rows": np.array(portals, dtype=float).reshape(-1, 2),
            "route_rows": (
                np.array([self.width, self.depth], dtype=float),
                _boxes(walled),
                _boxes(p for p in pieces if p.kind in SLOW),
                _boxes(p for p in pieces if p.kind == "wall"),
            ),
            "_building_pieces": houses,
            "_buildings": (_boxes(houses), np.array([p.floors > 1 for p in houses], dtype=bool)),
            "_cover_boxes": _boxes(p for p in pieces if p.kind in COVER),
            "_numbers": {id(p): n for n, p in enumerate(pieces)},
        }
        for name in ("_covered", "_costs", "routes", "_crossings", "_sight", "_cover"):
            kept[name] = {}
        for name, value in kept.items():
            object.__setattr__(self, name, value)

    @property
    def zone_depth(self) -> float:
        """Deployment zone: 10 cm on an 80 cm table (between the two sides), else 20 cm."""
        return 10.0 if self.depth <= 80 else 20.0

    def in_zone(self, p: Point, edge: str) -> bool:
        """Whether `p` is in the deployment zone along `edge` (south or north)."""
        return p[1] <= self.zone_depth if edge == "south" else p[1] >= self.depth - self.zone_depth

    def on_table(self, p: Point, radius: float) -> bool:
        """Whether a base of `radius` at `p` lies on the table."""
        return radius <= p[0] <= self.width - radius and radius <= p[1] <= self.depth - radius

    def pieces_at(self, p: Point) -> list[Piece]:
        """The pieces `p` lies in."""
        return [piece for piece in self.pieces if piece.contains(p)]

    def covered(self, p: Point) -> bool:
        """Whether `p` lies in a piece that gives cover (remembered, as `move_cost`)."""
        kept = self._covered
        found = kept.get(p)
        if found is None:
            if len(kept) >= KEPT:
                kept.clear()
            found = kept[p] = any(piece.kind in COVER for piece in self.pieces_at(p))
        return found

    @property
    def cover_boxes(self) -> Points:
        """The pieces that give cover, as rows x0, y0, x1, y1 (`covered`)."""
        return self._cover_boxes

    @property
    def houses(self) -> tuple[Points, npt.NDArray[np.bool_]]:
        """The buildings, as rows x0, y0, x1, y1, and whether each has an upper floor."""
        return self._buildings

    def covered_at(self, points: Points) -> npt.NDArray[np.bool_]:
        """`covered` of each of many points at once."""
        return np.asarray(_inside(points, self._cover_boxes).any(axis=1), dtype=bool)

    def upper_floor_at(self, points: Points) -> npt.NDArray[np.bool_]:
        """Of each of many points, whether it is at the border (within BORDER of an edge)
        of the building it lies in (`building_at`), and that building has an upper floor."""
        boxes, upper = self._buildings
        if not len(boxes):
            return np.zeros(len(points), dtype=bool)
        inside = _inside(points, boxes)
        first = inside.argmax(axis=1)  # building_at: the first building holding the point
        box = boxes[first]
        gap = np.minimum(
            np.minimum(points[:, 0] - box[:, 0], box[:, 2] - points[:, 0]),
            np.minimum(points[:, 1] - box[:, 1], box[:, 3] - points[:, 1]),
        )
        found: npt.NDArray[np.bool_] = inside.any(axis=1) & upper[first] & (gap <= BORDER)
        return found

    def height(self, p: Point) -> int:
        """1 on a hill, else 0."""
        return 1 if any(h.contains(p) for h in self.hills) else 0

    def move_cost(self, a: Point, b: Point, ignores_terrain: bool) -> float:
        """MOVEMENT: cm of allowance a straight move uses; double through slowing terrain."""
        key = (a, b, ignores_terrain)
        costs = self._costs
        cost = costs.get(key)
        if cost is None:
            if len(costs) >= KEPT:
                costs.clear()
            cost = costs[key] = self._move_cost(a, b, ignores_terrain)
        return cost

    def _move_cost(self, a: Point, b: Point, ignores_terrain: bool) -> float:
        total = dist(a, b)
        if ignores_terrain or total == 0:
            return total
        slow: list[tuple[float, float]] = []
        lox, hix = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
        loy, hiy = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
        for piece in self.slow_pieces:
            if piece.x1 < lox or piece.x0 > hix or piece.y1 < loy or piece.y0 > hiy:
                continue
            span = piece.clip(a, b)
            if span is not None:
                slow.append(span)
        covered, end = 0.0, 0.0
        for t0, t1 in sorted(slow):  # union of the slow spans, each counted once
            t0 = max(t0, end)
            if t1 > t0:
                covered += t1 - t0
                end = t1
        return total * (1 + covered)

    def crosses_wall(self, a: Point, b: Point) -> bool:
        """Whether a move a→b goes over a low wall."""
        return any(p.crossed(a, b) for p in self.walls)

    def building_at(self, p: Point) -> Piece | None:
        """The building `p` lies in, if any (the first listed)."""
        x, y = p
        for pc in self._building_pieces:
            if pc.x0 <= x <= pc.x1 and pc.y0 <= y <= pc.y1:  # `Piece.contains`
                return pc
        return None

    def number(self, piece: Piece) -> int:
        """The place of `piece` among the table's pieces: a door is known by it and its wall
        (R40)."""
        return self._numbers[id(piece)]

    def crossings(self, a: Point, b: Point) -> tuple[tuple[Piece, Point], ...]:
        """Each wall of a building or side of a wreck the segment a→b crosses, and where
        (remembered, as `move_cost`)."""
        kept = self._crossings
        found = kept.get((a, b))
        if found is None:
            if len(kept) >= KEPT:
                kept.clear()
            lox, hix = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
            loy, hiy = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
            found = kept[a, b] = tuple(
                (pc, p)
                for pc in self.walled
                if not (pc.x1 < lox or pc.x0 > hix or pc.y1 < loy or pc.y0 > hiy)
                for p in pc.outline_crossings(a, b)
            )
        return found

    def sight(self, a: Point, b: Point, floors: tuple[int, int]) -> tuple[float, ...] | None:
        """What the scenery does to a line of sight a→b between figures on `floors`: None if
        `screened`, else its `blockers` (remembered, as `move_cost`)."""
        key = (a, b, floors)
        kept = self._sight
        if key in kept:
            return kept[key]
        if len(kept) >= KEPT:
            kept.clear()
        found = kept[key] = None if self.screened(a, b, floors) else tuple(self.blockers(a, b))
        return found

    def screened(self, a: Point, b: Point, floors: tuple[int, int] = (0, 0)) -> bool:
        """SHOOTING: 'When inside buildings and forests, figures can shoot outside or be shot
        from outside if they are in the border; or at a maximum distance of 5 cm. if both ...
        are inside' (on the same floor: a floor hides one from the other). `floors`: the
        floor each stands on. Height never lifts this rule."""
        lox, hix = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
        loy, hiy = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
        for piece in self.screening:
            if piece.x1 < lox or piece.x0 > hix or piece.y1 < loy or piece.y0 > hiy:
                continue  # holds neither end
            in_a, in_b = piece.contains(a), piece.contains(b)
            if in_a and in_b:
                if floors[0] != floors[1] or dist(a, b) > INSIDE_SIGHT:
                    return True
            elif (in_a or in_b) and not piece.near_edge(a if in_a else b):
                return True
        return False

    def blockers(self, a: Point, b: Point) -> list[float]:
        """Where along a→b (0 at a, 1 at b) scenery that neither end stands in blocks sight:
        buildings, wrecks and forests it passes through, hills between figures off them. Low
        walls never block ('a wall lower than a man do not'); water is flat."""
        found: list[float] = []
        lox, hix = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
        loy, hiy = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
        for piece in self.sight_blocking:
            if piece.x1 < lox or piece.x0 > hix or piece.y1 < loy or piece.y0 > hiy:
                continue  # off the line's box: `clip` finds no span
            if piece.contains(a) or piece.contains(b):
                continue
            span = piece.clip(a, b)
            if span is not None:
                found.append((span[0] + span[1]) / 2)
        return found

    def in_cover(self, shooter: Point, target: Point) -> bool:
        """Cover: the target is in (or partly behind) cover — inside a covering piece, or a
        low wall or covering piece crosses the line within 3 cm of it (OURS). Remembered,
        as `move_cost`."""
        kept = self._cover
        found = kept.get((shooter, target))
        if found is None:
            if len(kept) >= KEPT:
                kept.clear()
            found = kept[shooter, target] = self._in_cover(shooter, target)
        return found

    def _in_cover(self, shooter: Point, target: Point) -> bool:
        if self.covered(target):
            return True
        d = dist(shooter, target)
        if d == 0:
            return False
        for piece in self.pieces:
            if piece.kind in COVER and not piece.contains(shooter):
                span = piece.clip(shooter, target)
                if span is not None and (1 - span[1]) * d <= 3.0:
                    return True
        return False

    def as_data(self) -> dict[str, object]:
        """JSON form."""
        return {
            "width": self.width,
            "depth": self.depth,
            "pieces": [p.as_list() for p in self.pieces],
        }
