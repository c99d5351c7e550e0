"""What the server sends a seat or a spectator: its view, the table, its events, its options.

Everything here is built from the core contract only: `game.view(viewer)`, events'
`visible_to`, `legal_actions` of the seat that must decide, and the ruleset's `Scene`.
For a ruleset with hidden information the scene keeps only the pieces (and marks) that the
viewer's own view names, so the picture can never show more than `view` does.
"""

from __future__ import annotations

from typing import Any

import shapely
from shapely.geometry import Polygon

from warbench.core.events import Event
from warbench.core.game import Decision, Game, GameOver
from warbench.core.scene import Area, Figure, Scene

Json = dict[str, Any]


def _outlines(shapes: list[Polygon]) -> list[list[list[float]]]:
    """The exterior points of each polygon, to 3 decimals (one shapely call for them all)."""
    if not shapes:
        return []
    rings = shapely.get_exterior_ring(shapes)
    points, index = shapely.get_coordinates(rings, return_index=True)
    rounded: list[list[float]] = points.round(3).tolist()
    out: list[list[list[float]]] = [[] for _ in shapes]
    for at, point in zip(index.tolist(), rounded, strict=True):
        out[at].append(point)
    return out


def _areas(areas: list[Area], outlines: list[list[list[float]]]) -> list[Json]:
    return [
        {"kind": a.kind, "label": a.label, "points": points}
        for a, points in zip(areas, outlines, strict=True)
    ]


def words(data: object) -> set[str]:
    """Every text in JSON data (keys and values), and each word of it."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
            found.update(item.split())
    return found


def scene_json(scene: Scene, shown: set[str] | None = None) -> Json:
    """The scene as JSON; with `shown` (the words of the viewer's view) only the pieces and
    marks it names."""
    kept: list[tuple[Figure, str, list[str]]] = []
    unit = ""
    for figure in scene.figures:
        label = figure.label.split()
        unit = label[0] if label else unit  # unlabelled bases belong to the unit before
        if shown is not None and unit not in shown:
            continue
        kept.append((figure, unit, label))
    areas = [*scene.terrain, *scene.objectives, *scene.templates]
    outlines = _outlines([a.shape for a in areas] + [f.base for f, _, _ in kept])
    figures: list[Json] = []
    for (figure, unit, label), points in zip(kept, outlines[len(areas) :], strict=True):
        centre = figure.base.centroid
        figures.append(
            {
                "id": label[0] if label else "",
                "unit": unit,
                "label": figure.label,
                "side": figure.side,
                "points": points,
                "x": round(centre.x, 3),
                "y": round(centre.y, 3),
                "facing": figure.facing,
                "marks": [m for m in figure.marks if shown is None or m in shown],
            }
        )
    terrain, objectives = len(scene.terrain), len(scene.terrain) + len(scene.objectives)
    return {
        "title": scene.title,
        "width": scene.width,
        "height": scene.height,
        "unit": scene.unit,
        "grid": scene.grid,
        "terrain": _areas(scene.terrain, outlines[:terrain]),
        "objectives": _areas(scene.objectives, outlines[terrain:objectives]),
        "templates": _areas(scene.templates, outlines[objectives : len(areas)]),
        "figures": figures,
    }


def event_json(event: Event) -> Json:
    """One event with its roll explained: dice, faces, the number needed, each modifier."""
    data: Json = {"kind": event.kind, "text": event.text}
    if event.roll is not None:
        roll, request = event.roll, event.roll.request
        data["roll"] = {
            "label": request.label,
            "dice": request.dice_text,
            "faces": list(roll.faces),
            "read": str(request.read),
            "target": request.target,
            "modifiers": [[reason, value] for reason, value in request.modifiers],
            "total": roll.total,
            "success": roll.success,
            "successes": roll.successes,
            "forced": roll.forced,
        }
    return data


def pending_json(game: Game) -> tuple[Json | None, Json | None]:
    """The pending decision (player, kind, prompt) and the result, one of them None."""
    pending = game.pending
    if isinstance(pending, Decision):
        return {"player": pending.player, "kind": pending.kind, "prompt": pending.prompt}, None
    assert isinstance(pending, GameOver)
    result = {"winner": pending.winner, "reason": pending.reason, "score": pending.score}
    return None, result | {"line": pending.line()}


def step_events(game: Game) -> tuple[list[Event], list[list[Event]]]:
    """The set-up events and each step's events, split by the game's per-step counts."""
    setup = len(game.log) - sum(game.event_counts)
    out, at = [], setup
    for count in game.event_counts:
        out.append(game.log[at : at + count])
        at += count
    return game.log[:setup], out


def open_text(game: Game) -> bool:
    """Whether every viewer may read every step: nothing hidden in the ruleset, or the game
    is over."""
    return isinstance(game.pending, GameOver) or not game.ruleset.hidden_information


def step_shown(game: Game, number: int, events: list[Event], viewer: str | None) -> bool:
    """Whether step `number` (1-based, with its `events`) has an entry in `viewer`'s log and
    advances the version `viewer` is told. Left out, while information is hidden: another
    seat's step whose events all go to other eyes and after which the same seat decides
    again — a step taken behind a screen (one figure deployed unseen), so that how many of
    them a seat took tells the others nothing. The step that hands the decision on is
    shown, like every step with an event the viewer sees or with no events at all."""
    step = game.steps[number - 1]
    if open_text(game) or step.player == viewer or not events:
        return True
    after: str | None
    if number < len(game.steps):
        after = game.steps[number].player
    else:
        pending = game.pending
        after = pending.player if isinstance(pending, Decision) else None
    return after != step.player or any(e.seen_by(viewer) for e in events)


class StepsShown:
    """The steps in each viewer's log (`step_shown`), worked out once per step and kept: a
    step's place never changes once the next decision is known."""

    def __init__(self) -> None:
        self._game: Game | None = None
        self._numbers: dict[str | None, list[int]] = {}
        self._checked: dict[str | None, tuple[int, int]] = {}  # steps seen, events before

    def of(self, game: Game, viewer: str | None) -> list[int]:
        """The step numbers `viewer`'s log has, in order (all of them when text is open)."""
        if open_text(game):
            return list(range(1, len(game.steps) + 1))
        if game is not self._game:  # a new or reloaded game: start again
            self._game, self._numbers, self._checked = game, {}, {}
        numbers = self._numbers.setdefault(viewer, [])
        checked, at = self._checked.get(viewer, (0, len(game.log) - sum(game.event_counts)))
        for number in range(checked + 1, len(game.steps) + 1):
            count = game.event_counts[number - 1]
            if step_shown(game, number, game.log[at : at + count], viewer):
                numbers.append(number)
            at += count
        self._checked[viewer] = (len(game.steps), at)
        return numbers


def log_entries(
    game: Game, viewer: str | None, start: int = 0, shown: list[int] | None = None
) -> list[Json]:
    """The log as `viewer` may see it from its entry `start` (0 = the set-up) on.

    Entry 0 is the set-up; entry n is the n-th step shown to this viewer (`shown`, else
    worked out: every step when nothing is hidden, so entry n is step n). Another seat's
    action text is shown only when nothing is hidden in this ruleset or the game is over;
    its visible events always are."""
    setup, per_step = step_events(game)
    numbers = shown if shown is not None else StepsShown().of(game, viewer)
    open_all = open_text(game)
    entries: list[Json] = []
    if start == 0:
        entries.append(
            {
                "step": 0,
                "player": None,
                "action": "set-up",
                "events": [event_json(e) for e in setup if e.seen_by(viewer)],
            }
        )
    for entry in range(max(start, 1), len(numbers) + 1):
        number = numbers[entry - 1]
        step = game.steps[number - 1]
        mine = viewer is not None and step.player == viewer
        entries.append(
            {
                "step": entry,
                "player": step.player,
                "action": step.action if (open_all or mine) else None,
                "events": [event_json(e) for e in per_step[number - 1] if e.seen_by(viewer)],
            }
        )
    return entries


def table_message(
    game: Game, viewer: str | None, drawn: Json | None = None, version: int | None = None
) -> Json:
    """The viewer's whole current table: view, scene, pending decision, its legal actions,
    and its `version` (the steps shown to it, `step_shown`: worked out if not given).
    `drawn` is the scene as JSON of an open game, where every viewer gets the same, when the
    caller has it already. A game with hidden information is drawn for each viewer as its
    view shows it, and only the pieces that view names are kept (defence in depth)."""
    view = game.view(viewer)
    if game.ruleset.hidden_information:
        drawn = scene_json(game.ruleset.scene(game, viewer), words(view))
    elif drawn is None:
        drawn = scene_json(game.ruleset.scene(game))
    pending, result = pending_json(game)
    legal: list[str] = []
    if pending is not None and viewer is not None and viewer == pending["player"]:
        legal = [str(a) for a in game.legal_actions(viewer)]
    return {
        "version": len(StepsShown().of(game, viewer)) if version is None else version,
        "viewer": viewer,
        "pending": pending,
        "result": result,
        "view": view,
        "scene": drawn,
        "legal": legal,
        "forms": game.codec.forms(),
    }
