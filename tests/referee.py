"""A referee for calling rule functions directly: scripted (or given) dice; every roll and
event kept for the test to read."""

from __future__ import annotations

from collections.abc import Sequence

from warbench.core.dice import DiceSource, Roll, RollRequest, ScriptedDice, resolve


class Ref:
    """Rolls through `dice` (default: the scripted `faces`), keeping rolls and events."""

    def __init__(self, faces: Sequence[int] = (), dice: DiceSource | None = None) -> None:
        self.script = ScriptedDice(faces)
        self.dice: DiceSource = dice or self.script
        self.rolls: list[Roll] = []
        self.events: list[tuple[str, str]] = []

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        """Resolve the request on the next faces and keep the roll."""
        result = resolve(request, self.dice.faces(request))
        self.rolls.append(result)
        return result

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Keep the event."""
        self.events.append((kind, text))
