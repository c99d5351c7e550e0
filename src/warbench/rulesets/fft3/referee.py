"""What the rules code needs of a game: its dice and its log (the game itself, or a test's
scripted referee)."""

from __future__ import annotations

from typing import Protocol

from warbench.core.dice import Roll, RollRequest


class Referee(Protocol):
    """Rolls through the game's dice and logs events."""

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        """Roll through the game's dice, logged."""
        ...

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Log an event."""
        ...
