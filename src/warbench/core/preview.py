"""What a player is shown before confirming an action (ARCHITECTURE.md, "Dice": the odds of
an attack come from the very code that resolves it): the exact odds of the action in the
game as it stands, the area a piece can reach, and the ranges it fires at.

Everything here asks only the game contract, so every ruleset gets it:

- `action_odds` plays the action on a copy of the game built from what the player may see
  (`Ruleset.determinise`) with the exact dice, once per distinct outcome of every roll, and
  reports how the pieces on the player's own table (`Ruleset.scene`) stand afterwards,
  unit by unit. A ruleset may say how its rules read dice (`Ruleset.dice_reading`) and which
  action carries out a declared one (`Ruleset.follow_up`: fft3 resolves declared fire).
- `reach` asks the rules' own legality test (`Game.check`) where a move of a piece may end:
  on a grid, every square a legal move names; on a continuous table, the region of every
  legal end point (`region`: the check asked at the centre of each cell of a grid over the
  move's farthest reach, the cells at its edge split into quarters twice). A ruleset that
  prices moves says what a move costs (`PathCost`, from its own movement code).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import shapely
from shapely import affinity
from shapely.geometry import MultiPolygon, Polygon, box

from warbench.core.actions import Action
from warbench.core.dice import DiceSource, RollRequest, SeededDice
from warbench.core.game import Game
from warbench.core.grid import Square
from warbench.core.odds import Enumerator, OddsReport, OutcomeTable
from warbench.core.scene import Scene

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset

MAX_WALKS = 2000  # distinct roll outcomes enumerated at most for one action's odds
MAX_SECONDS = 3.0  # wall time one action's odds may take (a page waits on it)
BEARINGS = 32  # bearings scanned for a move's farthest reach when the ruleset does not say
REGION_CELLS = 800  # cells of a reach region's grid inside the disk of its farthest reach
REGION_SPLITS = 2  # times the cells at a region's edge are split into quarters
Point = tuple[float, float]
OUTCOME = "outcome"


class TooManyOutcomes(ValueError):
    """An action whose rolls have more distinct outcomes than `MAX_WALKS`, or take longer
    than `MAX_SECONDS` to enumerate."""


def units_of(scene: Scene) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Each unit on the table (the first word of its first figure's label) with how many
    figures it has and the marks they carry."""
    units: dict[str, tuple[int, tuple[str, ...]]] = {}
    unit = ""
    for figure in scene.figures:
        words = figure.label.split()
        unit = words[0] if words else unit
        count, marks = units.get(unit, (0, ()))
        units[unit] = (count + 1, marks + tuple(m for m in figure.marks if m not in marks))
    return units


def changes(
    before: dict[str, tuple[int, tuple[str, ...]]], after: dict[str, tuple[int, tuple[str, ...]]]
) -> str:
    """What happened to the units, in words: removed, figures lost, marks gained or lost."""
    said: list[str] = []
    for unit, (count, marks) in before.items():
        if unit not in after:
            said.append(f"{unit} removed")
            continue
        now, now_marks = after[unit]
        parts = [f"loses {count - now} of {count}"] if now < count else []
        parts += [f"+{m}" for m in now_marks if m not in marks]
        parts += [f"−{m}" for m in marks if m not in now_marks]
        if parts:
            said.append(f"{unit} {' '.join(parts)}")
    return "; ".join(said) or "no change on the table"


class _Timed:
    """The enumerator's dice, refusing once the odds have taken `MAX_SECONDS`: also stops a
    walk whose rules roll again until the dice differ (a roll-off's ties), which the exact
    source, reading its first face each time, would repeat for ever."""

    def __init__(self, dice: DiceSource, deadline: float, action: str) -> None:
        self._dice, self._deadline, self._action = dice, deadline, action

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        if time.monotonic() > self._deadline:
            raise TooManyOutcomes(
                f"'{self._action}' rolls too many outcomes to work out in {MAX_SECONDS:g} s"
            )
        return self._dice.faces(request)


def action_odds(ruleset: Ruleset, game: Game, action: Action, player: str) -> OddsReport:
    """The exact odds of `action` by `player` now, from what `player` may see.

    ValueError if the action is illegal, the ruleset cannot build the player's own copy of
    the game (hidden information it cannot sample), or the rolls have too many outcomes."""
    reason = game.check(action, player)
    if reason is not None:
        raise ValueError(reason)
    try:
        base = ruleset.determinise(game, player, SeededDice(0))
    except NotImplementedError as err:
        raise ValueError(f"no odds in play for {ruleset.name}: {err}") from None
    follow = ruleset.follow_up(base, action)
    before = units_of(ruleset.scene(base, player))
    walks = [0]
    deadline = time.monotonic() + MAX_SECONDS

    def experiment(dice: DiceSource) -> str:
        walks[0] += 1
        if walks[0] > MAX_WALKS:
            raise TooManyOutcomes(
                f"'{action}' rolls more than {MAX_WALKS} distinct outcomes: too many to list"
            )
        fork = base.fork(_Timed(dice, deadline, str(action)))
        fork.apply(action, player)
        if follow is not None and fork.check(follow, player) is None:
            fork.apply(follow, player)
        return changes(before, units_of(ruleset.scene(fork, player)))

    enumerator = Enumerator(ruleset.dice_reading())
    dist = enumerator.outcomes(experiment)
    order = sorted(dist, key=lambda o: (-dist[o], o))
    situation = [("action", str(action)), ("as seen by", player)]
    if follow is not None:
        situation.append(("carried out by", str(follow)))
    return OddsReport(
        ruleset.id,
        str(action),
        tuple(situation),
        tuple(enumerator.requested.values()),
        (OutcomeTable.of(OUTCOME, dist, order),),
    )


@dataclass(frozen=True)
class PathCost:
    """What a move costs by the ruleset's own movement rules: `cost` (infinite where no
    way leads there) of `allowance` (None when unlimited) in `unit` (MP, inches, cm,
    squares), and how it adds up, in words."""

    cost: float
    allowance: float | None
    unit: str
    detail: str = ""

    def to_json(self) -> dict[str, object]:
        """As the client shows it."""
        return {
            "cost": round(self.cost, 2) if math.isfinite(self.cost) else None,
            "allowance": self.allowance,
            "unit": self.unit,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Reach:
    """Where a move of `piece` (by `verb`) may end: squares with their cost (a grid, cost
    None where the ruleset does not price them) or a region round `origin`: polygons, each
    its outer ring then its holes, sampled on cells of side `cell`."""

    piece: str
    verb: str
    origin: Point | None = None
    squares: tuple[tuple[str, float | None], ...] = ()
    area: tuple[tuple[tuple[Point, ...], ...], ...] = ()
    cell: float | None = None
    allowance: float | None = None  # the move's allowance in the ruleset's unit, if known

    def to_json(self) -> dict[str, object]:
        """As the client draws it."""
        return {
            "piece": self.piece,
            "verb": self.verb,
            "origin": self.origin,
            "squares": [list(s) for s in self.squares],
            "area": [
                [[[round(x, 2), round(y, 2)] for x, y in ring] for ring in p] for p in self.area
            ],
            "cell": self.cell,
            "allowance": self.allowance,
        }


def moves_of(game: Game, player: str, piece: str) -> list[Action]:
    """The player's legal actions that move `piece` to a square or a point."""
    found = []
    for action in game.legal_actions(player):
        fields = dataclasses.fields(action)
        if not fields or str(getattr(action, fields[0].name)) != piece:
            continue
        if any(isinstance(getattr(action, f.name), Square | tuple) for f in fields[1:]):
            found.append(action)
    return found


def _point_field(action: Action) -> str | None:
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if isinstance(value, tuple) and len(value) == 2:
            return f.name
    return None


def reach(
    game: Game,
    player: str,
    piece: str,
    origin: Point | None,
    limits: Mapping[str, float] | None = None,
) -> list[Reach]:
    """Every way `piece` may move now, one `Reach` per verb (generic: the rules' check).
    `limits` gives a verb's farthest straight move, where the ruleset knows it; otherwise it
    is found by scanning bearings."""
    by_verb: dict[str, list[Action]] = {}
    for action in moves_of(game, player, piece):
        by_verb.setdefault(action.verb, []).append(action)
    out: list[Reach] = []
    for verb, actions in by_verb.items():
        field = _point_field(actions[0])
        if field is None:
            squares = sorted({str(getattr(a, f.name)) for a in actions for f in _squares(a)})
            out.append(Reach(piece, verb, origin, tuple((s, None) for s in squares)))
        elif origin is not None:
            legal = _legal_at(game, player, actions[0], field, origin)
            far = (limits or {}).get(verb) or farthest(origin, legal)
            if far <= 0:
                continue
            cell = far * math.sqrt(math.pi / REGION_CELLS)
            shape = region(origin, legal, far, cell)
            out.append(Reach(piece, verb, origin, area=rings(shape), cell=cell / 2**REGION_SPLITS))
    return out


def _squares(action: Action) -> list[dataclasses.Field[object]]:
    return [f for f in dataclasses.fields(action) if isinstance(getattr(action, f.name), Square)]


def _legal_at(
    game: Game, player: str, template: Action, field: str, origin: Point
) -> Callable[[Point], bool]:
    facing = [f.name for f in dataclasses.fields(template) if f.name == "facing"]

    def legal(point: Point) -> bool:
        changes: dict[str, object] = {field: (round(point[0], 2), round(point[1], 2))}
        if facing:  # facing the way it moves: a turn at the end only costs more
            bearing = math.degrees(math.atan2(point[0] - origin[0], point[1] - origin[1]))
            changes[facing[0]] = float(round(bearing) % 360)
        return game.check(dataclasses.replace(template, **changes), player) is None

    return legal


def farthest(
    origin: Point, legal: Callable[[Point], bool], step: float = 0.5, far: float = 48.0
) -> float:
    """The farthest legal point found along `BEARINGS` compass bearings from `origin`,
    stepping `step` out to `far` (a few illegal steps in a row end a bearing)."""
    best = 0.0
    for index in range(BEARINGS):
        rad = math.radians(360.0 * index / BEARINGS)
        d, misses = step, 0
        while d <= far and misses < 6:
            if legal((origin[0] + d * math.sin(rad), origin[1] + d * math.cos(rad))):
                best, misses = max(best, d), 0
            else:
                misses += 1
            d += step
    return best + step if best else 0.0


def region(
    origin: Point, legal: Callable[[Point], bool], far: float, cell: float
) -> Polygon | MultiPolygon:
    """Every legal point within `far` of `origin`: the check asked at the centre of each
    cell of side `cell` (the grid offset half a cell, so no centre is the origin itself),
    then each cell whose verdict differs from a neighbour's split into four and asked
    again, `REGION_SPLITS` times. The legal cells, merged."""
    n = math.ceil(far / cell) + 1
    cells: dict[tuple[int, int], bool] = {}
    for i in range(-n, n):
        for j in range(-n, n):
            x, y = origin[0] + (i + 0.5) * cell, origin[1] + (j + 0.5) * cell
            if math.hypot(x - origin[0], y - origin[1]) <= far + cell:
                cells[(i, j)] = legal((x, y))
    size, corner = cell, (origin[0], origin[1])
    levels = [cells]  # the verdicts at each level of splitting; a cell not split is in one

    def verdict(level: int, key: tuple[int, int]) -> bool:
        for up in range(level, -1, -1):
            found = levels[up].get((key[0] >> (level - up), key[1] >> (level - up)))
            if found is not None:
                return found
        return False

    boxes: list[Polygon] = []  # in units of the finest cells, so that they meet exactly
    for level in range(REGION_SPLITS):
        edge = {
            k
            for k, ok in cells.items()
            if any(verdict(level, (k[0] + a, k[1] + b)) != ok for a, b in _SIDES)
        }
        inside = {k for k, ok in cells.items() if ok and k not in edge}
        boxes += _boxes(inside, 2 ** (REGION_SPLITS - level))
        size /= 2
        cells = {
            (2 * i + a, 2 * j + b): legal(
                (corner[0] + (2 * i + a + 0.5) * size, corner[1] + (2 * j + b + 0.5) * size)
            )
            for i, j in edge
            for a in (0, 1)
            for b in (0, 1)
        }
        levels.append(cells)
    boxes += _boxes({k for k, ok in cells.items() if ok}, 1)
    merged = shapely.union_all(boxes) if boxes else Polygon()
    placed = affinity.affine_transform(merged, [size, 0, 0, size, corner[0], corner[1]])
    simple = placed.simplify(size / 4)
    return simple if isinstance(simple, Polygon | MultiPolygon) else Polygon()


_SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _boxes(keep: set[tuple[int, int]], scale: int) -> list[Polygon]:
    """The cells `keep` (grid indices of cells `scale` units wide), each row's runs of
    neighbouring cells as one box."""
    rows: dict[int, list[int]] = {}
    for i, j in keep:
        rows.setdefault(j, []).append(i)
    out: list[Polygon] = []
    for j, row in rows.items():
        row.sort()
        runs: list[list[int]] = []
        for i in row:
            if runs and runs[-1][1] == i - 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        out += [box(a * scale, j * scale, (b + 1) * scale, (j + 1) * scale) for a, b in runs]
    return out


def rings(shape: Polygon | MultiPolygon) -> tuple[tuple[tuple[Point, ...], ...], ...]:
    """Each polygon of `shape` as its outer ring and then its holes."""
    polygons = list(shape.geoms) if isinstance(shape, MultiPolygon) else [shape]
    return tuple(
        tuple(
            tuple((float(x), float(y)) for x, y in ring.coords)
            for ring in (p.exterior, *p.interiors)
        )
        for p in polygons
        if not p.is_empty
    )


def sight_lines(scene: Scene, piece: str, targets: Sequence[str]) -> list[dict[str, object]]:
    """From `piece` to each target: both centres and the distance base edge to base edge."""
    shapes: dict[str, Polygon] = {}
    unit = ""
    for figure in scene.figures:
        words = figure.label.split()
        unit = words[0] if words else unit
        shapes.setdefault(unit, figure.base)
    if piece not in shapes:
        return []
    source = shapes[piece]
    lines: list[dict[str, object]] = []
    for target in targets:
        if target not in shapes:
            continue
        shape = shapes[target]
        lines.append(
            {
                "target": target,
                "from": [round(source.centroid.x, 2), round(source.centroid.y, 2)],
                "to": [round(shape.centroid.x, 2), round(shape.centroid.y, 2)],
                "distance": round(float(source.distance(shape)), 2),
            }
        )
    return lines
