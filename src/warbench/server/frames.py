"""Records for the outside: the export a game may show now, and replay-viewer frames.

An unfinished game's export carries no seed (its steps replay from the recorded faces) and
is refused for a ruleset with hidden information: its scenario and actions hold secrets.
"""

from __future__ import annotations

from typing import Any

from warbench.core.game import Game, GameOver
from warbench.core.record import Record
from warbench.server.messages import Json, event_json, pending_json, scene_json, step_events

MAX_FRAMES = 5000  # a replay-viewer upload longer than this is refused


def export(game: Game, full: Record) -> Record:
    """What anyone may download now: the whole record once the game is over; before that,
    the record without its seed (None if the ruleset hides information)."""
    if isinstance(game.pending, GameOver):
        return full
    if game.ruleset.hidden_information:
        raise PermissionError(
            f"{game.ruleset.name} hides information: its record is exported when the game ends"
        )
    return Record(
        ruleset=full.ruleset,
        ruleset_version=full.ruleset_version,
        scenario=full.scenario,
        seed=None,
        initial_hash=full.initial_hash,
        setup_rolls=full.setup_rolls,
        steps=full.steps,
        result=None,
    )


def frames(record: Record) -> list[Json]:
    """Every state of a record for the step slider: the table and that step's events.

    The record is verified first (every roll and state hash); ValueError says what differs."""
    if len(record.steps) > MAX_FRAMES:
        raise ValueError(f"the record has {len(record.steps)} steps; at most {MAX_FRAMES}")
    Game.replay(record)  # verify before showing
    game = Game.replay(record, upto=0)
    setup, _ = step_events(game)
    out = [_frame(game, 0, None, "set-up", [event_json(e) for e in setup])]
    for number, step in enumerate(record.steps, start=1):
        events = game.apply(game.parse(step.action), step.player)
        out.append(_frame(game, number, step.player, step.action, [event_json(e) for e in events]))
    return out


def _frame(
    game: Game, step: int, player: str | None, action: str, events: list[Json]
) -> dict[str, Any]:
    pending, result = pending_json(game)
    return {
        "step": step,
        "player": player,
        "action": action,
        "events": events,
        "pending": pending,
        "result": result,
        "scene": scene_json(game.ruleset.scene(game)),
    }
