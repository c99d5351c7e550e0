"""The game contract every ruleset implements (ARCHITECTURE.md, "The game contract").

`Game` holds what is common: the dice, the log, the record, legality checked in one place,
state left untouched by an illegal or failed action (a failed one only while `rollback` is
on, as it is but in sims), state hashes and replay. A ruleset
subclass supplies the rules: `pending`, `legal_actions`, `_illegal`, `_resolve`,
`state_data`, `view`, `_snapshot` and `_restore`.
"""

from __future__ import annotations

import copy
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from warbench.core import registry
from warbench.core.actions import Action, ActionCodec
from warbench.core.dice import (
    DiceSource,
    ReplayedDice,
    Roll,
    RollRequest,
    SeededDice,
    fresh_seed,
    resolve,
)
from warbench.core.events import Event
from warbench.core.record import Record, RecordError, Step

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset


@dataclass(frozen=True)
class Decision:
    """What the game waits for: which player must choose, what kind of choice, and why."""

    player: str
    kind: str
    prompt: str


@dataclass(frozen=True)
class GameOver:
    """The end: the winner (None for a draw), the reason, and any score."""

    winner: str | None
    reason: str
    score: dict[str, float] = field(default_factory=dict)

    def line(self) -> str:
        """The one result line every ruleset prints: `result: red|blue|draw — reason`."""
        return f"result: {self.winner or 'draw'} — {self.reason}"


Pending = Decision | GameOver


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says what is wrong and what is allowed."""

    def __init__(self, action: Action | str, reason: str) -> None:
        super().__init__(f"illegal action '{action}': {reason}")
        self.action = action
        self.reason = reason


class ReplayMismatch(RecordError):
    """A replayed step produced different dice or a different state than recorded."""


_HASHED: ContextVar[bool] = ContextVar("hashed", default=True)


@contextmanager
def unhashed() -> Iterator[None]:
    """Games made inside start with state hashing off (`Game.track_hashes`), their initial
    state unhashed too: what simulations play, where no record is kept or replayed."""
    token = _HASHED.set(False)
    try:
        yield
    finally:
        _HASHED.reset(token)


class Game(ABC):
    """One game in progress under one ruleset."""

    codec: ClassVar[ActionCodec]

    def __init__(
        self,
        ruleset: Ruleset,
        scenario: dict[str, Any],
        seed: int | None,
        dice: DiceSource | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.scenario = scenario
        if dice is None:
            seed = fresh_seed() if seed is None else seed
            dice = SeededDice(seed)
        self.seed = seed
        self.dice: DiceSource = dice
        self.log: list[Event] = []
        self.steps: list[Step] = []
        self.event_counts: list[int] = []
        self.track_hashes = _HASHED.get()
        self.rollback = True
        self._events: list[Event] = []
        self._rolls: list[tuple[int, ...]] = []
        self._initial_hash: str | None = None
        self._passed: tuple[Action, str] | None = None
        self.setup_rolls: tuple[tuple[int, ...], ...] = ()

    # -- what a ruleset supplies -------------------------------------------------------
    @property
    @abstractmethod
    def pending(self) -> Pending:
        """The decision the game waits for, or GameOver."""

    @abstractmethod
    def legal_actions(self, player: str) -> list[Action]:
        """Every legal action of `player` now (empty when it is not theirs to decide)."""

    @abstractmethod
    def _illegal(self, action: Action, player: str) -> str | None:
        """Why `player` may not take `action` now, or None if they may."""

    @abstractmethod
    def _resolve(self, action: Action, player: str) -> None:
        """Carry out a legal action, calling `emit` and `roll`."""

    @abstractmethod
    def state_data(self) -> dict[str, Any]:
        """The whole state as JSON data (everything the hash covers; no dice)."""

    @abstractmethod
    def view(self, player: str | None) -> dict[str, Any]:
        """What `player` (None = spectator) may see, as JSON data."""

    @abstractmethod
    def _snapshot(self) -> object:
        """A copy of the state to restore if resolution fails."""

    @abstractmethod
    def _restore(self, snapshot: object) -> None:
        """Put back a snapshot taken by `_snapshot`."""

    # -- the contract ------------------------------------------------------------------
    def start(self) -> None:
        """Called by the ruleset once the initial state is built (its set-up rolls made, such
        as generating the battlefield): keeps those rolls and events, fixes the initial hash
        (none when the game was made `unhashed`)."""
        self.setup_rolls = tuple(self._rolls)
        self.log.extend(self._events)
        self._events, self._rolls = [], []
        self._initial_hash = self.state_hash() if self.track_hashes else None

    def check(self, action: Action, player: str | None = None) -> str | None:
        """Why `action` is illegal now (for `player`, if given), or None. The one legality test.
        An action that passes it as the latest one tested is kept, so that in a sim `apply` of
        that very action before any other test or step need not test it again."""
        self._passed = None
        pending = self.pending
        if isinstance(pending, GameOver):
            return f"the game is over ({pending.line()})"
        if not self.codec.knows(action):
            return f"'{action}' is not an action of {self.ruleset.id}"
        if player is not None and player != pending.player:
            return f"it is {pending.player}'s decision now ({pending.prompt})"
        reason = self._illegal(action, pending.player)
        if reason is None:
            self._passed = (action, pending.player)
        return reason

    def allowed_now(self) -> tuple[type[Action], ...]:
        """The action types the pending decision takes (asked only while one is pending);
        by default every one of the codec's. Rulesets name each step's own."""
        return self.codec.classes

    def parse(self, text: str) -> Action:
        """The action `text` spells (MalformedAction if it spells none, naming the forms
        allowed now first)."""
        return self.codec.parse(
            text, lambda: self.allowed_now() if isinstance(self.pending, Decision) else ()
        )

    def apply(self, action: Action, player: str | None = None) -> list[Event]:
        """Carry out `action`; IllegalAction leaves the state exactly as it was, and so does
        a resolution that fails (a copy of the state taken before it is put back) while
        `rollback` is on. Sims turn it off, as they turn off hashing: a game whose
        resolution fails there is given up, its error raised, so the copy taken before
        every step would never be read. There too an action `check` has just passed (the
        latest test, nothing applied since) is not tested again: a sim's game is changed only
        by `apply`. With `rollback` on (play, the server, tests and tools, which may set the
        state directly between a test and a step) every action is tested."""
        passed = None if self.rollback else self._passed
        if passed is None or passed[0] is not action or player not in (None, passed[1]):
            reason = self.check(action, player)
            if reason is not None:
                raise IllegalAction(action, reason)
        self._passed = None
        pending = self.pending
        assert isinstance(pending, Decision)
        snapshot = self._snapshot() if self.rollback else None
        self._events, self._rolls = [], []
        try:
            self._resolve(action, pending.player)
        except BaseException:
            if snapshot is not None:
                self._restore(snapshot)
                self._events, self._rolls = [], []
            raise
        finally:
            self._passed = None  # a test made while resolving is of a state now gone
        events = self._events
        self.log.extend(events)
        self.event_counts.append(len(events))
        digest = self.state_hash() if self.track_hashes else None
        self.steps.append(Step(pending.player, str(action), tuple(self._rolls), digest))
        return events

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Record an event of the action being resolved."""
        self._events.append(Event(kind, text, visible_to))

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        """Roll through the game's dice; the roll is logged with its full explanation."""
        result = resolve(request, self.dice.faces(request))
        self._rolls.append(result.faces)
        self._events.append(Event("roll", None, visible_to, result))  # worded when read
        return result

    def fork(self, dice: DiceSource) -> Game:
        """A copy of this game to look ahead in: the same state, its own dice, no log, record
        or hashing. Search agents play forks forward; this game is left untouched."""
        clone = copy.copy(self)
        clone._restore(self._snapshot())
        clone._detach()
        clone.dice = dice
        clone.seed = None
        clone.log, clone.steps, clone.event_counts = [], [], []
        clone._events, clone._rolls = [], []
        clone.track_hashes = False
        clone._passed = None
        return clone

    def _detach(self) -> None:  # noqa: B027 (a hook: most rulesets keep nothing outside)
        """Give a fork its own copy of any mutable data kept outside `_snapshot` (caches,
        scratch sets of the action being resolved). Rulesets that keep such data override it."""

    def state_hash(self) -> str:
        """SHA-256 of the canonical JSON of the state."""
        text = json.dumps(self.state_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def record(self) -> Record:
        """Ruleset, scenario, seed, every action and every roll."""
        pending = self.pending
        result = None
        if isinstance(pending, GameOver):
            result = {"winner": pending.winner, "reason": pending.reason, "score": pending.score}
        return Record(
            ruleset=self.ruleset.id,
            ruleset_version=self.ruleset.version,
            scenario=self.scenario,
            seed=self.seed,
            initial_hash=self._initial_hash,
            setup_rolls=self.setup_rolls,
            steps=list(self.steps),
            result=result,
        )

    def save(self, path: Path) -> None:
        """Write the record as JSON; `Game.load` brings the game back to this decision."""
        self.record.write(path)

    @classmethod
    def load(cls, path: Path) -> Game:
        """Replay a saved record into a live game at its last decision."""
        return cls.replay(Record.read(path))

    @classmethod
    def replay(cls, record: Record, *, upto: int | None = None) -> Game:
        """Rebuild the game from `record`, checking every roll and state hash on the way.

        With a seed the dice are re-rolled from it (and must match the recorded faces), so a
        loaded game goes on with the same dice; without one the recorded faces are replayed
        and fresh unguessable dice take over after them.
        """
        try:
            ruleset = registry.get(record.ruleset)
        except KeyError as err:
            raise RecordError(str(err.args[0])) from None
        if record.ruleset_version != ruleset.version:
            raise RecordError(
                f"record is for {ruleset.id} rules version {record.ruleset_version}; "
                f"this warbench plays version {ruleset.version} and will not misread it"
            )
        rolls = [*record.setup_rolls, *(roll for step in record.steps for roll in step.rolls)]
        faces = [f for roll in rolls for f in roll]
        dice = SeededDice(record.seed) if record.seed is not None else ReplayedDice(faces)
        game = ruleset.new_game(ruleset.scenario_from_data(record.scenario), record.seed, dice)
        if game.setup_rolls != record.setup_rolls:
            raise ReplayMismatch(
                f"set-up dice {list(game.setup_rolls)} differ from the record's "
                f"{list(record.setup_rolls)}"
            )
        if record.initial_hash and game._initial_hash != record.initial_hash:
            raise ReplayMismatch("the initial state differs from the record's")
        for number, step in enumerate(record.steps[:upto], start=1):
            try:
                game.apply(game.parse(step.action), step.player)
            except ValueError as err:
                raise ReplayMismatch(f"step {number} '{step.action}': {err}") from None
            done = game.steps[-1]
            if done.rolls != step.rolls:
                raise ReplayMismatch(
                    f"step {number} '{step.action}': dice {list(done.rolls)} differ from "
                    f"the record's {list(step.rolls)}"
                )
            if step.hash and done.hash != step.hash:
                raise ReplayMismatch(f"step {number} '{step.action}': state hash differs")
        return game


class CopyableState(Protocol):
    """A ruleset's state object that can copy itself deeply."""

    def copy(self) -> Any:
        """A deep copy."""
        ...


class OpenGame(Game):
    """A game without hidden information whose whole state is `self.state`: every player
    and spectator sees all of it, and a failed resolution restores a copy of it."""

    state: CopyableState

    def view(self, player: str | None) -> dict[str, Any]:
        """Nothing is hidden: the whole state and the pending decision."""
        pending = self.pending
        shown = (
            {"player": pending.player, "kind": pending.kind, "prompt": pending.prompt}
            if isinstance(pending, Decision)
            else {"result": pending.line()}
        )
        return {
            "ruleset": self.ruleset.id,
            "viewer": player,
            "state": self.state_data(),
            "pending": shown,
        }

    def _snapshot(self) -> object:
        return self.state.copy()

    def _restore(self, snapshot: object) -> None:
        self.state = snapshot  # type: ignore[assignment]
