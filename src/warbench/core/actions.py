"""Typed immutable actions with a stable text form (`move r1 C4`, `attack r2 b3`).

Each ruleset declares its actions as frozen dataclasses deriving from `Action`, with a
`verb`; the text form is the verb then the fields in order. `ActionCodec` parses that
text back, so the log, the CLI, the tests and the web client share one spelling.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from warbench.core.grid import Square
from warbench.core.words import counted


class MalformedAction(ValueError):
    """Text that is not any action of the ruleset; the message lists the allowed forms."""


@dataclass(frozen=True)
class Action:
    """Base of every action: `verb` plus typed fields, immutable and hashable."""

    verb: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    def __str__(self) -> str:
        names = _FIELD_NAMES.get(type(self))
        if names is None:  # `dataclasses.fields` once per class: every step's text uses them
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in dataclasses.fields(self))
        parts = [self.verb]
        parts += [_format(getattr(self, name)) for name in names]
        return " ".join(parts)


_FIELD_NAMES: dict[type[Action], tuple[str, ...]] = {}  # each action class's fields, in order


def _format(value: object) -> str:
    if isinstance(value, float):
        # the shortest text that reads back to the very same float; whole numbers bare
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, Square):
        return str(value)
    if isinstance(value, tuple):
        return ",".join(_format(v) for v in value)
    return str(value)


def _finite(text: str) -> float | None:
    """`text` as a finite number, or None (`nan` and `inf` would slip past range checks)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _parse_float(text: str) -> float:
    value = _finite(text)
    if value is None:
        raise ValueError(f"'{text}' is not a number; write one like 12.5")
    return value


def _parse_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a whole number; write one like 3") from None


def _parse_point(text: str) -> tuple[float, float]:
    parts = [_finite(part) for part in text.split(",")]
    if len(parts) != 2 or parts[0] is None or parts[1] is None:
        raise ValueError(f"'{text}' is not a point; write x,y like 12.5,30")
    return parts[0], parts[1]


_PARSERS: dict[object, Callable[[str], Any]] = {
    str: str,
    int: _parse_int,
    float: _parse_float,
    Square: Square.parse,
    tuple[float, float]: _parse_point,
}


class ActionCodec:
    """Parses the text form of a ruleset's actions back into typed values."""

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self._classes = {cls.verb: cls for cls in classes}

    def knows(self, action: Action) -> bool:
        """Whether `action` is one of this codec's action types."""
        return self._classes.get(action.verb) is type(action)

    @property
    def classes(self) -> tuple[type[Action], ...]:
        """Every action type of the ruleset, in the codec's order."""
        return tuple(self._classes.values())

    def forms(self) -> list[str]:
        """Every action's text form with its field names, e.g. `move PIECE TO`."""
        return [self.form(cls) for cls in self._classes.values()]

    @staticmethod
    def form(cls: type[Action]) -> str:
        """One action class's text form with upper-case field names."""
        names = [f.name.upper() for f in dataclasses.fields(cls)]
        return " ".join([cls.verb, *names])

    def parse(self, text: str, now: Callable[[], Sequence[type[Action]]] | None = None) -> Action:
        """The action `text` spells; MalformedAction says what was wrong and what is allowed
        (first the forms `now` returns, if given: those the pending decision takes; it is
        asked only then)."""
        words = text.split()
        cls = self._classes.get(words[0].lower()) if words else None
        if cls is None:
            what = f"unknown action '{words[0]}'" if words else "empty action"
            raise MalformedAction(f"{what}; {self._allowed(None if now is None else now())}")
        fields = dataclasses.fields(cls)
        if len(words) - 1 != len(fields):
            want, got = len(fields), len(words) - 1
            raise MalformedAction(
                f"'{text}' gives {counted(got, 'argument') if got else 'no argument'}, "
                f"{words[0]} takes {want or 'none'}; "
                f"write: {self.form(cls)}"
            )
        hints = typing.get_type_hints(cls)
        values = []
        for field, word in zip(fields, words[1:], strict=True):
            parser = _PARSERS[hints[field.name]]
            try:
                values.append(parser(word))
            except ValueError as err:
                raise MalformedAction(f"{field.name.upper()} in '{text}': {err}") from None
        return cls(*values)

    def _allowed(self, now: Sequence[type[Action]] | None) -> str:
        """The forms allowed `now`, then the verbs of other decisions (all forms if `now` is
        not known)."""
        if now is None:
            return f"allowed: {'; '.join(self.forms())}"
        if not now:
            return "no action is allowed now"
        later = [cls.verb for cls in self._classes.values() if cls not in now]
        also = f" (at other decisions: {', '.join(later)})" if later else ""
        return f"allowed now: {'; '.join(self.form(cls) for cls in now)}{also}"
