"""The server's durable store: one SQLite file holding every game and every accepted action.

Written for crash safety (docs/server.md, "The store"): WAL journal, `synchronous=FULL` so a
commit is on disk before it returns, a busy timeout, and `BEGIN IMMEDIATE` for every write so
two writers never interleave. Actions appended at the same moment by several games share one
commit (group commit: one fsync for all of them), each still checked on its own. An action
is appended only at the version it was decided at (`number == steps so far`); a second
action at the same version fails with `StaleVersion`.
Seat tokens are stored only as SHA-256 digests.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warbench.core.record import Record, Step

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    ruleset_version TEXT NOT NULL,
    scenario_id TEXT NOT NULL,
    scenario TEXT NOT NULL,
    seed TEXT NOT NULL,
    seed_sha256 TEXT NOT NULL,
    initial_hash TEXT,
    setup_rolls TEXT NOT NULL,
    seats TEXT NOT NULL,
    agent_seed TEXT NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS tokens (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    token_sha256 TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS steps (
    game_id TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    player TEXT NOT NULL,
    action TEXT NOT NULL,
    rolls TEXT NOT NULL,
    hash TEXT,
    idem_key TEXT,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, number),
    UNIQUE (game_id, idem_key)
);
"""


class StaleVersion(RuntimeError):
    """Another action was committed at this version first."""


@dataclass(frozen=True)
class GameRow:
    """One stored game: what it is, who sits where, its seed, and how it stands."""

    id: str
    ruleset: str
    ruleset_version: str
    scenario_id: str
    scenario: dict[str, Any]
    seed: int
    seed_sha256: str
    initial_hash: str | None
    setup_rolls: tuple[tuple[int, ...], ...]
    seats: dict[str, str]
    agent_seed: int
    created: float
    status: str
    result: dict[str, Any] | None


@dataclass(eq=False)
class _Append:
    """One action waiting to be committed, and how its commit went."""

    game_id: str
    number: int
    step: Step
    key: str | None
    status: str
    result: dict[str, Any] | None
    done: bool = False
    error: BaseException | None = None


@dataclass(frozen=True)
class StoredStep:
    """One committed action with the idempotency key it came with."""

    number: int
    step: Step
    key: str | None


class Store:
    """The SQLite file; safe to call from several threads (one connection, one lock)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._waiting: list[_Append] = []  # appends not yet in a transaction
        self._turn = threading.Condition()  # guards `_waiting` and `_committing`
        self._committing = False  # a thread is committing a batch now
        self._db = sqlite3.connect(
            str(path), timeout=10.0, isolation_level=None, check_same_thread=False
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=10000")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the file (every commit is already on disk)."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create(self, row: GameRow, token_digests: dict[str, str]) -> None:
        """Store a new game and its seats' token digests in one transaction."""
        with self._write() as db:
            db.execute(
                "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    row.id,
                    row.ruleset,
                    row.ruleset_version,
                    row.scenario_id,
                    json.dumps(row.scenario),
                    str(row.seed),
                    row.seed_sha256,
                    row.initial_hash,
                    json.dumps(row.setup_rolls),
                    json.dumps(row.seats),
                    str(row.agent_seed),
                    row.created,
                    row.status,
                    None,
                ),
            )
            db.executemany(
                "INSERT INTO tokens VALUES (?,?,?)",
                [(row.id, seat, digest) for seat, digest in token_digests.items()],
            )

    def append(
        self,
        game_id: str,
        number: int,
        step: Step,
        key: str | None,
        status: str,
        result: dict[str, Any] | None,
    ) -> None:
        """Commit action `number` (0-based) of a game with the game's new status, durably.

        StaleVersion if the game does not have exactly `number` actions already. Appends made
        from several threads at once share one transaction and so one fsync (group commit):
        while one thread commits, the others wait; then one of them commits every append
        waiting by then, each in a savepoint of its own, so one that fails takes none of the
        others with it. Every caller returns once the commit holding its action is on disk."""
        mine = _Append(game_id, number, step, key, status, result)
        with self._turn:
            self._waiting.append(mine)
            while not mine.done and self._committing:
                self._turn.wait()
            if not mine.done:  # this thread commits everything waiting
                self._committing = True
                batch, self._waiting = self._waiting, []
        if not mine.done:
            try:
                with self._lock:
                    self._commit(batch)
            finally:
                with self._turn:
                    self._committing = False
                    self._turn.notify_all()
        if mine.error is not None:
            raise mine.error

    def _commit(self, batch: list[_Append]) -> None:
        """One transaction for `batch` (under the connection lock); marks each one done."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            for item in batch:
                db.execute("SAVEPOINT step")
                try:
                    self._insert(item)
                except (StaleVersion, sqlite3.Error) as err:
                    db.execute("ROLLBACK TO step")
                    item.error = err
                db.execute("RELEASE step")
            db.execute("COMMIT")
        except BaseException as err:
            if db.in_transaction:
                db.execute("ROLLBACK")
            for item in batch:
                item.error = item.error or err
            if not isinstance(err, Exception):
                raise
        finally:
            for item in batch:
                item.done = True

    def _insert(self, item: _Append) -> None:
        (count,) = self._db.execute(
            "SELECT COUNT(*) FROM steps WHERE game_id=?", (item.game_id,)
        ).fetchone()
        if count != item.number:
            raise StaleVersion(f"the game is at version {count}, not {item.number}")
        step = item.step
        self._db.execute(
            "INSERT INTO steps VALUES (?,?,?,?,?,?,?,?)",
            (
                item.game_id,
                item.number,
                step.player,
                step.action,
                json.dumps(step.rolls),
                step.hash,
                item.key,
                time.time(),
            ),
        )
        self._db.execute(
            "UPDATE games SET status=?, result=? WHERE id=?",
            (item.status, None if item.result is None else json.dumps(item.result), item.game_id),
        )

    def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def game(self, game_id: str) -> GameRow | None:
        """The stored game, or None."""
        rows = self._read("SELECT * FROM games WHERE id=?", (game_id,))
        return _game_row(rows[0]) if rows else None

    def games(self, limit: int = 200) -> list[GameRow]:
        """The most recent games, newest first."""
        rows = self._read("SELECT * FROM games ORDER BY created DESC LIMIT ?", (limit,))
        return [_game_row(r) for r in rows]

    def unfinished(self) -> list[str]:
        """Ids of every game not yet over."""
        return [r[0] for r in self._read("SELECT id FROM games WHERE result IS NULL")]

    def token_digests(self, game_id: str) -> dict[str, str]:
        """The SHA-256 digest of each human seat's token, by seat."""
        rows = self._read("SELECT seat, token_sha256 FROM tokens WHERE game_id=?", (game_id,))
        return {str(seat): str(d) for seat, d in rows}

    def steps(self, game_id: str) -> list[StoredStep]:
        """Every committed action of a game, in order."""
        rows = self._read(
            "SELECT number, player, action, rolls, hash, idem_key FROM steps "
            "WHERE game_id=? ORDER BY number",
            (game_id,),
        )
        return [
            StoredStep(
                number,
                Step(player, action, tuple(tuple(r) for r in json.loads(rolls)), digest),
                key,
            )
            for number, player, action, rolls, digest, key in rows
        ]

    def step_by_key(self, game_id: str, key: str) -> StoredStep | None:
        """The committed action that came with idempotency key `key`, if any."""
        rows = self._read(
            "SELECT number, player, action, rolls, hash, idem_key FROM steps "
            "WHERE game_id=? AND idem_key=?",
            (game_id, key),
        )
        if not rows:
            return None
        number, player, action, rolls, digest, stored_key = rows[0]
        step = Step(player, action, tuple(tuple(r) for r in json.loads(rolls)), digest)
        return StoredStep(number, step, stored_key)

    def record(self, row: GameRow) -> Record:
        """The full record of a stored game (with its seed: for the server's own replay)."""
        return Record(
            ruleset=row.ruleset,
            ruleset_version=row.ruleset_version,
            scenario=row.scenario,
            seed=row.seed,
            initial_hash=row.initial_hash,
            setup_rolls=row.setup_rolls,
            steps=[s.step for s in self.steps(row.id)],
            result=row.result,
        )


def _game_row(r: tuple[Any, ...]) -> GameRow:
    return GameRow(
        id=r[0],
        ruleset=r[1],
        ruleset_version=r[2],
        scenario_id=r[3],
        scenario=json.loads(r[4]),
        seed=int(r[5]),
        seed_sha256=r[6],
        initial_hash=r[7],
        setup_rolls=tuple(tuple(x) for x in json.loads(r[8])),
        seats=json.loads(r[9]),
        agent_seed=int(r[10]),
        created=float(r[11]),
        status=r[12],
        result=None if r[13] is None else json.loads(r[13]),
    )
