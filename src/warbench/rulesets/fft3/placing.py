"""The fft3 AI's scoring of a stand's candidate places, compiled with numba: which foes are
near enough at each place for a sight line to matter (`TowsAI._look`) and each place's score
(`TowsAI._score`), for all the places of one move at once.

Every number is worked out by the same operations in the same order as the Python it
replaces, so the scores are the same to the last bit: `dist` is CPython 3.11's `math.dist`
(`vector_norm` in Modules/mathmodule.c, step for step), `bearing` and `arc_front` are
`core.geometry.bearing` and `facing.arc_of_fire`. `tests/rulesets/fft3/test_placing.py`
compares them and the scores with the Python code on many cases.

The chances of shots come from `Chances`, a table of `ai._odds`'s answers by everything its
memo's key holds; an entry not yet known is reported back (`score_places` returns how many),
the caller works it out with `_odds` itself and scores again.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from warbench.core.compiled import compiled
from warbench.core.hypot import hypot

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]
Flags = npt.NDArray[np.bool_]

_RAD_TO_DEG = 180.0 / math.pi
"""CPython's `math.degrees` factor."""
FRONT_HALF = 60.0
"""Half the 120° front arc (`facing.FRONT_ARC / 2`)."""

BANDS = ("close", "effective", "long", "single", None)
"""The range bands of `fire.band_of`, by their index in the chances table."""
WEAPONS = ("gun", "ai", "law", "missile")
ARMOURS = 16
"""Armour values the chances table holds (0 to 15; the data lines go up to 12)."""
PROFILES = 8
"""Stand profiles the chances table holds (the data lines have 6)."""


@compiled
def dist(ax: float, ay: float, bx: float, by: float) -> float:
    """`math.dist((ax, ay), (bx, by))` as CPython 3.11 works it out, to the last bit: its
    `vector_norm` of the differences, which is `math.hypot`'s (`warbench.core.hypot`)."""
    found: float = hypot(ax - bx, ay - by)
    return found


@compiled
def bearing(fx: float, fy: float, tx: float, ty: float) -> float:
    """`core.geometry.bearing((fx, fy), (tx, ty))`."""
    degrees = (math.atan2(tx - fx, ty - fy) * _RAD_TO_DEG) % 360.0
    return 0.0 if degrees == 360.0 else degrees


@compiled
def arc_front(tx: float, ty: float, facing: float, fx: float, fy: float, radius: float) -> bool:
    """Whether `facing.arc_of_fire((tx, ty), facing, (fx, fy), radius)` is "front"."""
    d = dist(tx, ty, fx, fy)
    if d <= radius:
        return True
    spread = math.asin(radius / d) * _RAD_TO_DEG
    turn: float = abs(facing - bearing(tx, ty, fx, fy)) % 360.0
    off = min(turn, 360.0 - turn)
    return off <= FRONT_HALF + spread + 1e-9


@compiled
def near_pairs(
    px: Floats, py: Floats, radius: float, fx: Floats, fy: Floats, fr: Floats, reach: Floats
) -> tuple[Ints, Ints, Floats]:
    """`TowsAI._look`'s first step: the (place, foe) pairs, place by place and foe by foe,
    whose centres are `d` apart with `d - foe's radius - radius <= reach`, and their `d`."""
    n, m = len(px), len(fx)
    places = np.empty(n * m, dtype=np.intp)
    foes = np.empty(n * m, dtype=np.intp)
    ds = np.empty(n * m)
    c = 0
    for i in range(n):
        for j in range(m):
            d = dist(px[i], py[i], fx[j], fy[j])
            if d - fr[j] - radius <= reach[j]:
                places[c], foes[c], ds[c] = i, j, d
                c += 1
    return places[:c], foes[:c], ds[:c]


@compiled
def _band(distance: float, banded: bool, close: float, effective: float, far: float) -> int:
    """`fire.band_of` as an index into `BANDS`: `close`, `effective` and `far` are the band
    limits of a gun or anti-infantry fire (`banded`), `far` alone a launcher's range + 1e-9."""
    if not banded:
        return 3 if distance <= far else 4
    if distance <= close:
        return 0
    if distance <= effective:
        return 1
    if distance <= far:
        return 2
    return 4


@compiled
def _miss(
    misses: Floats, row: int, at: int, i: int, j: int, arm: int, gap: float, struck: int
) -> None:
    """Write a chance the table lacks to row `row` of `misses`."""
    misses[row, 0], misses[row, 1], misses[row, 2] = at, i, j
    misses[row, 3], misses[row, 4], misses[row, 5] = arm, gap, struck


@compiled
def score_places(
    px: Floats,
    py: Floats,
    strategic: Flags,
    covered: Flags,
    missile_ok: Flags,
    stand: Floats,
    goal: Floats,
    mates: Floats,
    friends: Floats,
    foes: Floats,
    arms: Floats,
    seen_start: Ints,
    seen_foe: Ints,
    seen_d: Floats,
    table: Floats,
    scores: Floats,
    misses: Floats,
) -> int:
    """`TowsAI._score` of every place (`px`, `py`; `seen_*` the foes each sees, as
    `_look` gives them) into `scores`; returns how many chances the table lacked, each
    written to a row of `misses` (table index, place, foe, arm, gap, armour struck), and
    then the scores are not to be used.

    `stand`: x, y, radius, facing, armoured, front, flank armour, movement (at least 1),
    worth, turns left, shelled, cohesion limit, crowd reach, and the score's weights
    ADVANCE, URGENT, COHESION, CROWDING, DANGER, STRATEGIC_DANGER. `goal`: x, y.
    `mates`: rows x, y, radius; `friends`: rows x, y. `foes`: rows x, y, radius, facing, armoured,
    front, flank, value, covered, first arm, arms of theirs, arms of mine (and the reach
    `near_pairs` reads). `arms`: rows reach (+1e-6), table row, banded, close, effective,
    far limits, missile. `misses` has a row for each arm of each seen foe."""
    sx, sy, r, facing0 = stand[0], stand[1], stand[2], stand[3]
    armoured, front, flank, mov, worth = stand[4] > 0, stand[5], stand[6], stand[7], stand[8]
    turns_left, shelled, limit, crowd_reach = stand[9], stand[10] > 0, stand[11], stand[12]
    advance, urgent_w, cohesion, crowding = stand[13], stand[14], stand[15], stand[16]
    danger_w, strategic_w = stand[17], stand[18]
    missed = 0
    for i in range(len(px)):
        ax, ay = px[i], py[i]
        distance = max(0.0, dist(ax, ay, goal[0], goal[1]) - 2.0)
        urgent = distance / mov >= turns_left - 1
        score = -(urgent_w if urgent else advance) * distance
        if distance == 0.0:
            score += 1.0 + (2.0 if turns_left <= 2 else 0.0)
        if covered[i]:
            score += 1.0
        near = len(mates) == 0
        for k in range(len(mates)):
            if dist(ax, ay, mates[k, 0], mates[k, 1]) - r - mates[k, 2] <= limit:
                near = True
                break
        if not near:
            score -= cohesion
        if shelled:
            crowd = 0
            for k in range(len(friends)):
                if dist(friends[k, 0], friends[k, 1], ax, ay) <= crowd_reach:
                    crowd += 1
            score -= crowding * max(0, crowd - 1)
        facing = facing0 if (ax == sx and ay == sy) else bearing(sx, sy, ax, ay)
        threat = 1.0
        best_shot = 0.0
        for s in range(seen_start[i], seen_start[i + 1]):
            j, d = seen_foe[s], seen_d[s]
            ex, ey, er, efacing = foes[j, 0], foes[j, 1], foes[j, 2], foes[j, 3]
            first, theirs, mine = int(foes[j, 9]), int(foes[j, 10]), int(foes[j, 11])
            gap = d - er - r
            if theirs:
                struck = 0
                if armoured:
                    struck = int(front if arc_front(ax, ay, facing, ex, ey, er) else flank)
                for a in range(first, first + theirs):
                    if gap <= arms[a, 0]:
                        band = _band(
                            max(0.0, gap), arms[a, 2] > 0, arms[a, 3], arms[a, 4], arms[a, 5]
                        )
                        at = (((int(arms[a, 1]) * 5 + band) * ARMOURS + struck) * 2) + int(
                            covered[i]
                        )
                        p = table[at]
                        if math.isnan(p):
                            _miss(misses, missed, at, i, j, a, gap, struck)
                            missed += 1
                            p = 0.0
                        threat *= 1 - p
            if strategic[i] or not mine:
                continue
            aim = d - r - er
            struck = -1
            for a in range(first + theirs, first + theirs + mine):
                far = arms[a, 0]
                if gap <= far and (arms[a, 6] == 0 or missile_ok[i]) and aim <= far:
                    if struck < 0:
                        struck = 0
                        if foes[j, 4] > 0:
                            front_hit = arc_front(ex, ey, efacing, ax, ay, r)
                            struck = int(foes[j, 5] if front_hit else foes[j, 6])
                    band = _band(max(0.0, aim), arms[a, 2] > 0, arms[a, 3], arms[a, 4], arms[a, 5])
                    at = (((int(arms[a, 1]) * 5 + band) * ARMOURS + struck) * 2) + int(foes[j, 8])
                    p = table[at]
                    if math.isnan(p):
                        _miss(misses, missed, at, i, j, a, aim, struck)
                        missed += 1
                        p = 0.0
                    best_shot = max(best_shot, p * foes[j, 7])
        danger = (1 - threat) * worth
        scores[i] = score + best_shot - (strategic_w if strategic[i] else danger_w) * danger
    return missed


class Chances:
    """`ai._odds`'s answers by its memo's key, as a flat table the compiled scoring reads:
    a row per (firer's profile, weapon, target's profile, firer suppressed, target checked
    from fire), then the band, the armour struck and the target in difficult terrain; NaN
    where not yet known."""

    def __init__(self) -> None:
        self.table = np.full(
            PROFILES * len(WEAPONS) * PROFILES * 4 * len(BANDS) * ARMOURS * 2, np.nan
        )
        self._profiles: dict[str, int] = {}

    def _profile(self, name: str) -> int:
        found = self._profiles.get(name)
        if found is None:
            if len(self._profiles) >= PROFILES:
                raise ValueError(f"the chances table holds {PROFILES} profiles; {name} is one more")
            found = self._profiles[name] = len(self._profiles)
        return found

    def row(self, firer: str, weapon: str, target: str, suppressed: bool, checked: bool) -> int:
        """The row of a firer's profile, weapon, target's profile, whether the firer is
        suppressed and whether the target has taken its check from fire."""
        w = WEAPONS.index(weapon)
        return (
            ((self._profile(firer) * len(WEAPONS) + w) * PROFILES + self._profile(target)) * 2
            + suppressed
        ) * 2 + checked
