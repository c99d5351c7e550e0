"""Events: what happened, in words a player reads, and to whom it may be shown."""

from __future__ import annotations

from typing import Any

from warbench.core.dice import Roll


class Event:
    """One thing that happened. `visible_to` None means every player and spectators see it.

    A roll's event may be given no text: it is then its roll's `Roll.explain`, worked out
    when first read (a simulated game, whose log nobody reads, never words its rolls).
    Events are values: equal when kind, text, viewers and roll are.
    """

    __slots__ = ("_text", "kind", "roll", "visible_to")

    def __init__(
        self,
        kind: str,
        text: str | None,
        visible_to: frozenset[str] | None = None,
        roll: Roll | None = None,
    ) -> None:
        if text is None and roll is None:
            raise ValueError(f"a {kind} event needs a text or a roll to explain")
        self.kind = kind
        self._text = text
        self.visible_to = visible_to
        self.roll = roll

    @property
    def text(self) -> str:
        """What happened, in words."""
        if self._text is None:
            assert self.roll is not None  # __init__ requires one of them
            self._text = self.roll.explain()
        return self._text

    def seen_by(self, player: str | None) -> bool:
        """Whether `player` (None = spectator) may be sent this event."""
        return self.visible_to is None or (player is not None and player in self.visible_to)

    def _key(self) -> tuple[Any, ...]:
        return (self.kind, self.text, self.visible_to, self.roll)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Event(kind={self.kind!r}, text={self.text!r}, "
            f"visible_to={self.visible_to!r}, roll={self.roll!r})"
        )
