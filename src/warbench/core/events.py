"""Events: what happened, in words a player reads, and to whom it may be shown."""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.dice import Roll


@dataclass(frozen=True)
class Event:
    """One thing that happened. `visible_to` None means every player and spectators see it."""

    kind: str
    text: str
    visible_to: frozenset[str] | None = None
    roll: Roll | None = None

    def seen_by(self, player: str | None) -> bool:
        """Whether `player` (None = spectator) may be sent this event."""
        return self.visible_to is None or (player is not None and player in self.visible_to)
