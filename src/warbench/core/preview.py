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
  on a grid, every square a legal move names; on a continuous table, the farthest legal
  point along each bearing (an outline, not the exact region: a point behind an obstacle
  may be legal and outside it).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shapely.geometry import Polygon

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
BEARINGS = 32  # bearings of a continuous reach outline
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
class Reach:
    """Where a move of `piece` (by `verb`) may end: squares with their cost (a grid, cost
    None where the ruleset does not price them) or an outline of points round `origin`."""

    piece: str
    verb: str
    origin: Point | None = None
    squares: tuple[tuple[str, float | None], ...] = ()
    outline: tuple[Point, ...] = ()
    allowance: float | None = None  # the move's allowance in the ruleset's unit, if known

    def to_json(self) -> dict[str, object]:
        """As the client draws it."""
        return {
            "piece": self.piece,
            "verb": self.verb,
            "origin": self.origin,
            "squares": [list(s) for s in self.squares],
            "outline": [[round(x, 2), round(y, 2)] for x, y in self.outline],
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


def reach(game: Game, player: str, piece: str, origin: Point | None) -> list[Reach]:
    """Every way `piece` may move now, one `Reach` per verb (generic: the rules' check)."""
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
            legal = _legal_at(game, player, actions[0], field)
            out.append(Reach(piece, verb, origin, outline=outline(origin, legal)))
    return out


def _squares(action: Action) -> list[dataclasses.Field[object]]:
    return [f for f in dataclasses.fields(action) if isinstance(getattr(action, f.name), Square)]


def _legal_at(
    game: Game, player: str, template: Action, field: str
) -> Callable[[Point, float], bool]:
    facing = [f.name for f in dataclasses.fields(template) if f.name == "facing"]

    def legal(point: Point, bearing: float) -> bool:
        changes: dict[str, object] = {field: (round(point[0], 2), round(point[1], 2))}
        if facing:
            changes[facing[0]] = float(round(bearing) % 360)
        return game.check(dataclasses.replace(template, **changes), player) is None

    return legal


def outline(
    origin: Point, legal: Callable[[Point, float], bool], step: float = 0.5, far: float = 48.0
) -> tuple[Point, ...]:
    """The farthest legal point along each of `BEARINGS` compass bearings from `origin`,
    stepping `step` out to `far` and then halving the last step twice."""
    points: list[Point] = []
    for index in range(BEARINGS):
        bearing = 360.0 * index / BEARINGS
        dx, dy = math.sin(math.radians(bearing)), math.cos(math.radians(bearing))

        def at(d: float, dx: float = dx, dy: float = dy) -> Point:
            return (origin[0] + d * dx, origin[1] + d * dy)

        best, d, misses = 0.0, step, 0
        while d <= far and misses < 6:  # a few illegal steps in a row end the ray
            if legal(at(d), bearing):
                best, misses = d, 0
            else:
                misses += 1
            d += step
        half = step / 2
        for _ in range(2):
            if legal(at(best + half), bearing):
                best += half
            half /= 2
        points.append(at(best))
    return tuple(points)


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
