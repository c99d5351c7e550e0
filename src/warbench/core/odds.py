"""Exact odds of one attack, from the very rules code that resolves it in play.

A ruleset's odds query builds the position, then runs its own rule functions with the
exact dice source (`warbench.core.dice.exact_outcomes`): every outcome of every roll
request, with rational probabilities. Two things keep a query fast without a second
implementation of any rule:

- readings (`warbench.core.dice.Reading`): a ruleset says how its rules read a request's
  faces (in any order, as successes, by the total), and the source enumerates weighted
  classes of rolls instead of every ordered roll;
- stages (`advance`): where the rules hand a small value from one rule function to the
  next (the hits a to-hit roll made, the state a target is left in), each stage is
  enumerated once per distinct value instead of once per roll of the earlier stages.

The report holds the situation, the modifier breakdown of every request the rules made,
and the outcome distributions as Fractions and percentages.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from warbench.core.dice import (
    DiceSource,
    Read,
    Reading,
    ReadingPolicy,
    Roll,
    RollRequest,
    resolve,
)
from warbench.core.dice import exact_outcomes as _exact
from warbench.core.words import noun

S = TypeVar("S", bound=Hashable)
T = TypeVar("T", bound=Hashable)


class DiceReferee:
    """What rule functions need of a game (its dice and its log) for an odds experiment:
    rolls through the given dice exactly as `Game.roll` does; events are not kept."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        """Resolve the request on the faces the dice give."""
        return resolve(request, self.dice.faces(request))

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Events do not change the odds."""


@dataclass(frozen=True)
class Requested:
    """One kind of roll the rules asked for: what it needs and its (reason, value)
    modifiers, as the first request of its kind was labelled."""

    label: str
    needs: str
    modifiers: tuple[tuple[str, int], ...]


def needs_text(request: RollRequest) -> str:
    """What the roll needs, in the log's words."""
    dice, target = request.dice_text, request.target
    if request.read is Read.COUNT_AT_LEAST:
        return f"each d{request.sides} {target}+"
    if request.read is Read.OVER:
        return f"{dice} more than {target}"
    if request.read is Read.AT_LEAST:
        return f"{dice} {target}+"
    if request.read is Read.AT_MOST:
        return f"{dice} {target} or less"
    return f"{dice} total"


@dataclass
class Enumerator:
    """Runs experiments with the exact dice under one reading policy, and keeps every kind
    of request the rules made (for the modifier breakdown)."""

    reading: ReadingPolicy | None = None
    requested: dict[tuple[object, ...], Requested] = field(default_factory=dict)
    _readings: dict[RollRequest, Reading | None] = field(default_factory=dict)

    def _read(self, request: RollRequest) -> Reading | None:
        if request in self._readings:
            return self._readings[request]
        key = (request.read, request.target, request.modifiers, request.sides)
        if key not in self.requested:
            self.requested[key] = Requested(request.label, needs_text(request), request.modifiers)
        how = self.reading(request) if self.reading is not None else None
        self._readings[request] = how
        return how

    def outcomes(self, experiment: Callable[[DiceSource], T]) -> dict[T, Fraction]:
        """Every outcome of `experiment` with its exact probability."""
        return _exact(experiment, self._read)

    def advance(
        self, states: Mapping[S, Fraction], step: Callable[[S, DiceSource], T]
    ) -> dict[T, Fraction]:
        """One more stage: `step` from each state (enumerated once per distinct state, or
        once per distinct part of it for a `Local` step), weighted by its probability."""
        result: dict[T, Fraction] = {}
        parts: dict[Hashable, dict[Hashable, Fraction]] = {}
        for state, p in states.items():
            found: dict[T, Fraction]
            if isinstance(step, Local):
                part = step.part(state)
                if part not in parts:
                    parts[part] = self.outcomes(_bound(step.step, part))
                found = {step.join(state, r): q for r, q in parts[part].items()}
            else:
                found = self.outcomes(_bound(step, state))
            for outcome, q in found.items():
                result[outcome] = result.get(outcome, Fraction(0)) + p * q
        return result


@dataclass(frozen=True)
class Local:
    """A stage whose rule function reads only part of the state handed to it: `step`
    receives `part(state)`, and `join(state, result)` is the state handed on. It is
    enumerated once per distinct part (a wound roll once per wounds taken, whatever else
    the state holds), and played as `join(state, step(part(state), dice))`."""

    part: Callable[[Any], Hashable]
    step: Callable[[Any, DiceSource], Hashable]
    join: Callable[[Any, Any], Any]

    def __call__(self, state: Any, dice: DiceSource) -> Any:
        return self.join(state, self.step(self.part(state), dice))


def _bound(step: Callable[[S, DiceSource], T], state: S) -> Callable[[DiceSource], T]:
    return lambda dice: step(state, dice)


def marginal(dist: Mapping[S, Fraction], key: Callable[[S], T]) -> dict[T, Fraction]:
    """The distribution of `key` of the outcomes."""
    result: dict[T, Fraction] = {}
    for outcome, p in dist.items():
        k = key(outcome)
        result[k] = result.get(k, Fraction(0)) + p
    return result


@dataclass(frozen=True)
class Outcome:
    """One outcome and its exact probability."""

    name: str
    probability: Fraction

    @property
    def percent(self) -> float:
        """The probability in percent."""
        return float(self.probability) * 100


@dataclass(frozen=True)
class OutcomeTable:
    """One distribution: a title and its outcomes (probabilities sum to 1)."""

    title: str
    rows: tuple[Outcome, ...]

    @classmethod
    def of(
        cls,
        title: str,
        dist: Mapping[T, Fraction],
        order: Sequence[T] | None = None,
        name: Callable[[T], str] = str,
    ) -> OutcomeTable:
        """A table of `dist`: in `order` (every listed outcome, zero if absent), else sorted."""
        keys: Iterable[T] = order if order is not None else sorted(dist)  # type: ignore[type-var]
        listed = list(keys)
        missing = [k for k in dist if k not in listed]
        if missing:
            raise ValueError(f"{title}: outcomes {missing} are not in the order {listed}")
        return cls(title, tuple(Outcome(name(k), dist.get(k, Fraction(0))) for k in listed))


@dataclass(frozen=True)
class OddsReport:
    """The answer to one odds query."""

    ruleset: str
    title: str
    situation: tuple[tuple[str, str], ...]
    requested: tuple[Requested, ...]
    tables: tuple[OutcomeTable, ...]

    def table(self, title: str) -> OutcomeTable:
        """The outcome table titled `title`."""
        for t in self.tables:
            if t.title == title:
                return t
        raise KeyError(f"no table '{title}'; tables: {', '.join(t.title for t in self.tables)}")

    def probability(self, title: str, outcome: str) -> Fraction:
        """P(`outcome`) in the table `title`."""
        for row in self.table(title).rows:
            if row.name == outcome:
                return row.probability
        raise KeyError(f"'{title}' has no outcome '{outcome}'")

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data; probabilities as exact "n/d" strings and floats."""
        return {
            "ruleset": self.ruleset,
            "title": self.title,
            "situation": dict(self.situation),
            "rolls": [
                {
                    "label": r.label,
                    "needs": r.needs,
                    "modifiers": [{"reason": m, "value": v} for m, v in r.modifiers],
                }
                for r in self.requested
            ],
            "outcomes": {
                t.title: [
                    {
                        "outcome": row.name,
                        "probability": str(row.probability),
                        "float": float(row.probability),
                        "percent": row.percent,
                    }
                    for row in t.rows
                ]
                for t in self.tables
            },
        }


Step = Callable[[Any, DiceSource], Hashable]


@dataclass(frozen=True)
class Stages:
    """An attack as the rules resolve it: `first` rolls from nothing, then each of `then`
    takes what the stage before handed on. `exact` enumerates each stage once per distinct
    value handed to it; `sample` plays the stages once, one after the other, on any dice
    (the Monte Carlo check)."""

    first: Callable[[DiceSource], Hashable]
    then: tuple[Step, ...] = ()

    def exact(self, enumerator: Enumerator) -> dict[Hashable, Fraction]:
        """Every final outcome with its exact probability."""
        dist = enumerator.outcomes(self.first)
        for step in self.then:
            dist = enumerator.advance(dist, step)
        return dist

    def sample(self, dice: DiceSource) -> Hashable:
        """One play of the stages on `dice`."""
        value = self.first(dice)
        for step in self.then:
            value = step(value, dice)
        return value


Tables = Callable[[Mapping[Any, Fraction]], list[OutcomeTable]]


@dataclass(frozen=True)
class Query:
    """One odds query of a ruleset: the situation, the stages, how the rules read their
    dice (None: face by face), and the outcome tables made from the final distribution."""

    ruleset: str
    title: str
    situation: Mapping[str, str]
    stages: Stages
    reading: ReadingPolicy | None
    tables: Tables

    def exact(self) -> tuple[dict[Hashable, Fraction], Enumerator]:
        """The final distribution, and the enumerator that saw the requests."""
        enumerator = Enumerator(self.reading)
        return self.stages.exact(enumerator), enumerator

    def report(self) -> OddsReport:
        """The report of this query."""
        dist, enumerator = self.exact()
        return OddsReport(
            self.ruleset,
            self.title,
            tuple(self.situation.items()),
            tuple(enumerator.requested.values()),
            tuple(self.tables(dist)),
        )


YES = ("yes", "true", "1", "y", "on")
NO = ("no", "false", "0", "n", "off")


class Options:
    """The `key=value` options of one odds query, read with clear errors: each names the
    key, what was given and what is allowed; a key the query does not know is rejected."""

    def __init__(self, given: Mapping[str, str], known: Mapping[str, str]) -> None:
        self._given = dict(given)
        self._known = dict(known)
        unknown = [k for k in self._given if k not in self._known]
        if unknown:
            raise ValueError(
                f"unknown {noun(len(unknown), 'option')} {', '.join(unknown)};"
                f" allowed: {', '.join(self._known)}"
            )

    def text(self, key: str, default: str) -> str:
        """The option as given, or `default`."""
        return self._given.get(key, default)

    def choice(self, key: str, allowed: Sequence[str], default: str) -> str:
        """One of `allowed` (case-insensitive)."""
        value = self._given.get(key, default)
        by_lower = {a.lower(): a for a in allowed}
        if value.lower() not in by_lower:
            given = f"{key}={value} is not allowed" if value else f"{key}= has no value"
            raise ValueError(f"{given}; {key} takes: {', '.join(allowed)}")
        return by_lower[value.lower()]

    def flag(self, key: str, default: bool = False) -> bool:
        """yes/no."""
        value = self._given.get(key)
        if value is None:
            return default
        if value.lower() in YES:
            return True
        if value.lower() in NO:
            return False
        raise ValueError(f"{key}={value} is not allowed; {key} takes yes or no")

    def number(self, key: str, default: float, low: float, high: float) -> float:
        """A number from `low` to `high`."""
        value = self._given.get(key)
        if value is None:
            return default
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if math.isnan(number):
            raise ValueError(f"{key}={value} is not a number; {key} takes {low:g} to {high:g}")
        if not low <= number <= high:
            raise ValueError(f"{key}={value} is out of range; {key} takes {low:g} to {high:g}")
        return number

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        """A whole number from `low` to `high`."""
        number = self.number(key, default, low, high)
        if number != int(number):
            raise ValueError(f"{key}={self._given[key]} is not a whole number")
        return int(number)


def by_attack(kinds: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """The options of a ruleset's kinds of attack in one list: a key several kinds share
    says what it takes under each (`attack=KIND: ...`)."""
    takes: dict[str, dict[str, str]] = {}
    for kind, options in kinds.items():
        for key, text in options.items():
            takes.setdefault(key, {})[kind] = text
    return {
        key: next(iter(texts.values()))
        if len(texts) == 1
        else "; ".join(f"attack={kind}: {text}" for kind, text in texts.items())
        for key, texts in takes.items()
    }


def choose_attack(
    options: Mapping[str, str], kinds: Mapping[str, Mapping[str, str]], default: str
) -> tuple[str, dict[str, str]]:
    """The kind of attack `options` ask for (`attack=KIND`, else `default`) and the options
    left for it; ValueError names an option that belongs to another kind of attack."""
    given = dict(options)
    attack = Options(given, {"attack": "", **by_attack(kinds)}).choice(
        "attack", list(kinds), default
    )
    given.pop("attack", None)
    for key in given:
        if key not in kinds[attack]:
            owners = " or ".join(f"attack={k}" for k, known in kinds.items() if key in known)
            chosen = f"attack={attack}" + ("" if "attack" in options else " (the default)")
            raise ValueError(f"{key} is an option of {owners}, not of {chosen}")
    return attack, given


def parse_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """`key=value` words as a dict; ValueError names a word without `=` or a repeated key."""
    given: dict[str, str] = {}
    for word in pairs:
        key, sep, value = word.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise ValueError(f"'{word}' is not key=value")
        if key in given:
            raise ValueError(f"option {key} is given twice")
        given[key] = value.strip()
    return given
