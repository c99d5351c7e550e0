"""Build A Fistful of TOWs 3 positions for rule tests.

`position(...)` makes a real `FFT3Game` on an explicit table (open unless `terrain` is
given, so no generation rolls), red Soviet playing first (no roll-off), then overwrites the
state: the listed stands placed where the test says, every other stand taken out of the game
(units keep only the listed stands, so nothing counts as lost), turn 1, the phase and player
the test asks for. The dice are scripted from `faces`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from warbench.core.actions import Action
from warbench.core.dice import ScriptedDice
from warbench.core.events import Event
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.movement import in_cohesion
from warbench.rulesets.fft3.ruleset import FistfulOfTows3
from warbench.rulesets.fft3.state import Stand

Point = tuple[float, float]


@dataclass(frozen=True)
class At:
    """Where a stand stands: its id (`s1t1`, `n1v2`, ...), centre and facing."""

    id: str
    x: float
    y: float
    facing: float = 0.0


SCENARIO: dict[str, Any] = {
    "id": "test",
    "name": "test",
    "summary": "a position for a rule test",
    "victory": "meeting",
    "attacker": "red",
    "turns": 8,
    "table": {"width": 72, "depth": 48, "terrain": []},
    "objectives": [[36, 24]],
    "forces": {
        "red": {
            "side": "soviet",
            "zone": [0, 8],
            "units": [
                {"id": "s1", "organisation": "tank-battalion", "tanks": 6, "ifvs": 3},
                {"id": "s2", "organisation": "motor-rifle-battalion", "tanks": 3, "ifvs": 9},
            ],
        },
        "blue": {
            "side": "nato",
            "zone": [40, 48],
            "units": [
                {"id": "n1", "organisation": "company", "tanks": 3, "ifvs": 1},
                {"id": "n2", "organisation": "company", "tanks": 1, "ifvs": 3},
            ],
        },
    },
}


BYSTANDERS = {"red": At("s2t3", 2, 2), "blue": At("n2t1", 70, 46)}
"""A side the test places nothing of gets one stand far off in a corner, so that it is not
wiped out (which ends the game at once)."""


def scenario(terrain: Sequence[dict[str, Any]] = (), **changes: Any) -> dict[str, Any]:
    """The test scenario with `terrain` and any top-level field changed."""
    data = copy.deepcopy(SCENARIO)
    data["table"] = {**SCENARIO["table"], "terrain": list(terrain)}
    data.update(changes)
    return data


def position(
    stands: Sequence[At],
    *,
    faces: Sequence[int] = (),
    terrain: Sequence[dict[str, Any]] = (),
    phase: str = "fire",
    mover: str = "red",
    carried: dict[str, str] | None = None,
    suppressed: Sequence[str] = (),
    changes: dict[str, Any] | None = None,
) -> FFT3Game:
    """A game with only `stands` on the table; `carried` maps infantry → the IFV it rides;
    `suppressed` stands are suppressed by the enemy. A movement phase is begun properly (MP
    reset, suppression's 2 MP taken, cohesion noted). `changes` alter scenario fields."""
    data = scenario(terrain, **(changes or {}))
    game = FistfulOfTows3().new_game(data, seed=None, dice=ScriptedDice(faces))
    assert isinstance(game, FFT3Game)
    s = game.state
    placed = {a.id: a for a in stands}
    for player, bystander in BYSTANDERS.items():
        if not any(s.stands[i].player == player for i in [*placed, *(carried or {})]):
            placed[bystander.id] = bystander
    carried = carried or {}
    for sid in [i for i in s.stands if i not in placed and i not in carried]:
        del s.stands[sid]
    for unit in s.units.values():
        unit.stands = [i for i in unit.stands if i in s.stands]
    for stand in s.stands.values():
        stand.carried_by = stand.carrying = None
        a = placed.get(stand.id)
        stand.deployed = True
        if a is not None:
            stand.x, stand.y, stand.facing = a.x, a.y, a.facing
    for inf, ifv in carried.items():
        s.stands[inf].carried_by, s.stands[ifv].carrying = ifv, inf
        s.stands[inf].x, s.stands[inf].y = s.stands[ifv].x, s.stands[ifv].y
    s.turn, s.half = 1, 0 if mover == "red" else 1
    s.phase, s.player = phase, mover
    for stand in s.stands.values():
        stand.cohesive = stand.began_in_cohesion = in_cohesion(s, stand)
    for sid in suppressed:
        s.stands[sid].suppressed_by = s.enemy(s.stands[sid].player)
    if phase == "movement":
        game._start_movement()
    game._initial_hash = game.state_hash()
    return game


def play(game: FFT3Game, *actions: str) -> list[Event]:
    """Apply each action text as the pending player; all the events."""
    events: list[Event] = []
    for text in actions:
        events += game.apply(game.parse(text))
    return events


def texts(events: Sequence[Event]) -> list[str]:
    """The event texts."""
    return [e.text for e in events]


def stand(game: FFT3Game, stand_id: str) -> Stand:
    """A stand of the game."""
    return game.state.stands[stand_id]


def legal(game: FFT3Game, action: Action | str) -> str | None:
    """Why the action is illegal now (None if legal)."""
    return game.check(game.parse(action) if isinstance(action, str) else action)
