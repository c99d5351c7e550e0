"""Live games: the server's authority over who may act, when, and what each viewer is told.

One `LiveGame` per game in memory, rebuilt from the store by replaying its record. Every
change to a game happens under its lock: check the seat, its token and the version, apply
the action, commit it to the store, and only then tell the seats and spectators (each its
own view). AI seats play on the server, one committed action at a time.

Latency (docs/server.md, "Load"): an action's work — apply, commit, every viewer's update
built and encoded — runs in one worker thread, so the event loop only moves bytes. A live
game stays in memory for the server's life, so once it is built, and again after every
action, its objects are frozen out of the garbage collector's passes (`gc.freeze`, after a
collection of the youngest objects so that no fresh garbage is frozen): with fifty games in
memory those passes stopped the whole server for 0.3–0.6 s, and they were the slowest round
trips. The actions of all five rulesets leave no cyclic garbage, but the web side leaves a
little (about one object in three actions), and what was frozen and then died in a cycle is
never collected until it is unfrozen: so every `SWEEP_EVERY` actions everything is
unfrozen and collected once (one full pause instead of one every few seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import hmac
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from warbench.core import registry
from warbench.core.actions import MalformedAction
from warbench.core.events import Event
from warbench.core.game import Decision, Game, GameOver, IllegalAction
from warbench.core.ruleset import Agent, Ruleset
from warbench.server.messages import (
    Json,
    StepsShown,
    event_json,
    log_entries,
    open_text,
    pending_json,
    scene_json,
    table_message,
)
from warbench.server.preview import odds_preview, path_preview, piece_preview
from warbench.server.store import GameRow, StaleVersion, Store

log = logging.getLogger("warbench.server")
HUMAN = "human"
MAX_AI_STEPS = 100_000  # a bound on one driver's loop; every ruleset ends long before
BEHIND = 32  # a subscriber with this many unsent updates gets one full resync instead
SWEEP_EVERY = 10_000  # actions between full collections of everything (module doc)


class Refused(Exception):
    """A request the server will not carry out: an HTTP status and a message saying why."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def digest(token: str) -> str:
    """The SHA-256 of a seat token (only digests are stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def seed_digest(seed: int) -> str:
    """The commitment shown at the start: SHA-256 of the seed's decimal text."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


@dataclass(eq=False)
class Subscriber:
    """One websocket: who watches (a seat or None for a spectator) and its outgoing queue:
    messages, updates already encoded as JSON text, and None for a full resync."""

    viewer: str | None
    queue: asyncio.Queue[Json | str | None] = field(default_factory=asyncio.Queue)


@dataclass(frozen=True)
class Sent:
    """The scene a viewer was last sent, as JSON (bytes: nothing for the garbage collector
    to walk): the version, the terrain, and each figure."""

    version: int
    terrain: bytes
    figures: tuple[bytes, ...]


def _sent(version: int, scene: Json) -> Sent:
    return Sent(
        version, orjson.dumps(scene["terrain"]), tuple(orjson.dumps(f) for f in scene["figures"])
    )


def encode(message: Json) -> str:
    """A message as JSON text (orjson: several times quicker than `json` on the scenes)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(eq=False)
class LiveGame:
    """A game in memory with its stored row, agents, lock, watchers and AI driver."""

    row: GameRow
    game: Game
    agents: dict[str, Agent]
    tokens: dict[str, str]  # seat -> SHA-256 of its token, human seats only
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    sent: dict[str | None, Sent] = field(default_factory=dict)  # the last scene, by viewer
    shown: StepsShown = field(default_factory=StepsShown)  # the steps in each viewer's log

    @property
    def version(self) -> int:
        """How many actions have been committed."""
        return len(self.game.steps)

    def seen(self, viewer: str | None) -> int:
        """The version `viewer` is told: the steps shown to it (`step_shown`), which is every
        step committed unless a ruleset hides some behind a screen."""
        if open_text(self.game):
            return self.version
        return len(self.shown.of(self.game, viewer))

    def showing(self, viewer: str | None) -> bool:
        """Whether the newest step is shown to `viewer` (`step_shown`)."""
        if open_text(self.game):
            return True
        numbers = self.shown.of(self.game, viewer)
        return bool(numbers) and numbers[-1] == len(self.game.steps)


def _status(game: Game) -> tuple[str, dict[str, Any] | None]:
    pending, result = pending_json(game)
    if pending is not None:
        return f"{pending['player']} to decide: {pending['kind']}", None
    assert result is not None
    return result["line"], {k: result[k] for k in ("winner", "reason", "score")}


class Hub:
    """Every live game of one server, over one store."""

    def __init__(self, store: Store, seeds: Callable[[], int] | None = None) -> None:
        self.store = store
        self._seeds = seeds or (lambda: secrets.randbits(128))
        self._live: dict[str, LiveGame] = {}
        self._loading = asyncio.Lock()
        self._closing = False
        self._actions = itertools.count(1)  # actions applied, for the garbage collector

    # -- games -------------------------------------------------------------------------
    @staticmethod
    def ruleset(ruleset_id: str) -> Ruleset:
        """The ruleset by id; Refused names the ids there are."""
        try:
            return registry.get(ruleset_id)
        except KeyError as err:
            raise Refused(400, str(err.args[0])) from None

    async def create(
        self,
        ruleset_id: str,
        scenario_id: str | None,
        seats: dict[str, str],
        army_list: tuple[str, str, str] | None = None,
    ) -> tuple[GameRow, dict[str, str]]:
        """A new game with a fresh secret seed; returns its row and each human seat's token.
        `army_list` (side, file name, text) replaces that side's army by an uploaded list."""
        rs = self.ruleset(ruleset_id)
        shipped = rs.shipped_scenarios()
        scenario_id = scenario_id or next(iter(shipped))
        if scenario_id not in shipped:
            raise Refused(
                400,
                f"no {rs.name} {rs.scenario_word} '{scenario_id}'; shipped: {', '.join(shipped)}",
            )
        kinds = [HUMAN, *rs.agents()]
        if set(seats) != set(rs.players):
            raise Refused(400, f"seats must name each of {', '.join(rs.players)}")
        for seat, kind in seats.items():
            if kind not in kinds:
                raise Refused(
                    400, f"seat {seat}: '{kind}' is not a player kind; allowed: {', '.join(kinds)}"
                )
        data = rs.load_scenario(scenario_id)
        if army_list is not None:
            if rs.army_upload is None:
                raise Refused(400, f"{rs.name} takes no uploaded army lists")
            try:
                data = await asyncio.to_thread(rs.with_army_list, data, *army_list)
            except ValueError as err:
                raise Refused(400, f"the army list was not accepted: {err}") from None
        seed = self._seeds()
        game = await asyncio.to_thread(rs.new_game, data, seed)
        record = game.record
        row = GameRow(
            id=secrets.token_urlsafe(9),
            ruleset=rs.id,
            ruleset_version=rs.version,
            scenario_id=scenario_id,
            scenario=record.scenario,
            seed=seed,
            seed_sha256=seed_digest(seed),
            initial_hash=record.initial_hash,
            setup_rolls=record.setup_rolls,
            seats=dict(seats),
            agent_seed=self._seeds() % 2**63,  # secret too: how the AI seats will choose
            created=time.time(),
            status=_status(game)[0],
            result=None,
        )
        tokens = {seat: secrets.token_urlsafe(32) for seat, kind in seats.items() if kind == HUMAN}
        digests = {seat: digest(t) for seat, t in tokens.items()}
        await asyncio.to_thread(self.store.create, row, digests)
        live = LiveGame(row, game, self._agents(rs, row, 0), digests)
        self._live[row.id] = live
        gc.freeze()  # a live game stays: no full collection walks it (module doc)
        self._kick(live)
        return row, tokens

    @staticmethod
    def _agents(rs: Ruleset, row: GameRow, version: int) -> dict[str, Agent]:
        makers = rs.agents()
        return {
            seat: makers[kind](row.agent_seed + 7919 * number + version)
            for number, (seat, kind) in enumerate(sorted(row.seats.items()))
            if kind != HUMAN
        }

    async def live(self, game_id: str) -> LiveGame:
        """The game in memory, replayed from the store on first use; Refused 404 if none."""
        if game_id in self._live:
            return self._live[game_id]
        async with self._loading:
            if game_id not in self._live:
                row = await asyncio.to_thread(self.store.game, game_id)
                if row is None:
                    raise Refused(404, f"no game '{game_id}'")
                record = await asyncio.to_thread(self.store.record, row)
                game = await asyncio.to_thread(Game.replay, record)
                rs = self.ruleset(row.ruleset)
                digests = await asyncio.to_thread(self.store.token_digests, game_id)
                agents = self._agents(rs, row, len(game.steps))
                self._live[game_id] = LiveGame(row, game, agents, digests)
                gc.freeze()  # a live game stays: no full collection walks it (module doc)
        return self._live[game_id]

    async def resume(self) -> None:
        """After a (re)start: load every unfinished game with an AI seat and let it play on."""
        ids = await asyncio.to_thread(self.store.unfinished)
        for game_id in ids:
            live = await self.live(game_id)
            self._kick(live)

    async def close(self) -> None:
        """Stop the AI drivers (what they committed stays committed)."""
        self._closing = True
        tasks = [lv.driver for lv in self._live.values() if lv.driver and not lv.driver.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- authority ---------------------------------------------------------------------
    def check_seat(self, live: LiveGame, seat: str | None, token: str | None) -> str | None:
        """The viewer a request speaks for: None (spectator) without a seat, else the seat
        if `token` is that seat's token; Refused otherwise."""
        if seat is None:
            return None
        if seat not in live.row.seats:
            raise Refused(404, f"no seat '{seat}'; seats: {', '.join(live.row.seats)}")
        stored = live.tokens.get(seat)
        if stored is None:
            raise Refused(403, f"seat {seat} is played by the server's {live.row.seats[seat]}")
        if not token or not hmac.compare_digest(stored, digest(token)):
            raise Refused(403, f"a valid token for seat {seat} is needed")
        return seat

    async def act(
        self, game_id: str, seat: str, token: str, version: int, text: str, key: str | None
    ) -> Json:
        """Apply one action for `seat` if its token is right, the decision is its own, and
        `version` is the current version; committed before anyone hears of it."""
        live = await self.live(game_id)
        self.check_seat(live, seat, token)
        async with live.lock:
            game = live.game
            if key is not None:
                done = await asyncio.to_thread(self.store.step_by_key, game_id, key)
                if done is not None:
                    return self._duplicate(live, seat, text, done.step.player, done.step.action)
            self._check_turn(live, seat, version)
            try:
                action = game.parse(text)
            except MalformedAction as err:
                raise Refused(400, str(err)) from None
            viewers = {sub.viewer for sub in live.subscribers}
            events, updates = await asyncio.to_thread(
                self._apply_and_tell, live, str(action), seat, key, viewers
            )
            self._deliver(live, updates)
            self._kick(live)
            return {
                "version": live.seen(seat),
                "action": str(action),
                "events": [event_json(e) for e in events if e.seen_by(seat)],
                "duplicate": False,
            }

    async def preview(
        self,
        game_id: str,
        seat: str,
        token: str,
        version: int,
        piece: str | None,
        text: str | None,
        path: str | None = None,
    ) -> Json:
        """Before the seat confirms: a piece's reach, ranges and sight lines, the exact odds
        of a proposed action, or what a move (`path`) costs; only for the seat whose decision
        is pending, at the current version, from its own view. Changes nothing."""
        live = await self.live(game_id)
        self.check_seat(live, seat, token)
        async with live.lock:
            game = live.game
            self._check_turn(live, seat, version)
            if sum(x is not None for x in (piece, text, path)) != 1:
                raise Refused(400, "ask about one piece, one action or one path, and only one")
            try:
                if piece is not None:
                    return await asyncio.to_thread(piece_preview, game, seat, piece)
                action = game.parse(str(text or path))
                if path is not None:
                    return {
                        "version": live.seen(seat),
                        "action": str(action),
                    } | await asyncio.to_thread(path_preview, game, action, seat)
                odds = await asyncio.to_thread(odds_preview, game, action, seat)
                return {"version": live.seen(seat), "action": str(action)} | odds
            except (MalformedAction, ValueError) as err:
                raise Refused(400, str(err)) from None

    @staticmethod
    def _check_turn(live: LiveGame, seat: str, version: int) -> None:
        """Refuse unless the game goes on at `version` (as `seat` is told it, `LiveGame.seen`)
        and its pending decision is `seat`'s."""
        pending = live.game.pending
        if isinstance(pending, GameOver):
            raise Refused(409, f"the game is over ({pending.line()})")
        seen = live.seen(seat)
        if version != seen:
            raise Refused(409, f"stale version {version}: the game is at version {seen}")
        if pending.player != seat:
            raise Refused(
                403, f"it is {pending.player}'s decision now ({pending.prompt}), not {seat}'s"
            )

    def _duplicate(self, live: LiveGame, seat: str, text: str, player: str, action: str) -> Json:
        try:
            same = player == seat and str(live.game.parse(text)) == action
        except MalformedAction:
            same = False
        if not same:
            raise Refused(409, "this idempotency key was already used for another action")
        return {"version": live.seen(seat), "action": action, "events": [], "duplicate": True}

    def _apply(self, live: LiveGame, text: str, seat: str, key: str | None) -> list[Event]:
        """Apply and commit (in a worker thread, under the game's lock)."""
        game = live.game
        action = game.parse(text)
        try:
            events = game.apply(action, seat)
        except IllegalAction as err:
            raise Refused(400, str(err)) from None
        except Exception:
            log.exception("game %s: '%s' failed to resolve", live.row.id, text)
            raise Refused(
                400, f"'{text}' could not be resolved (an error, logged); nothing changed"
            ) from None
        status, result = _status(game)
        try:
            self.store.append(live.row.id, len(game.steps) - 1, game.steps[-1], key, status, result)
        except BaseException as err:
            self._reload(live)
            if isinstance(err, StaleVersion):  # the store's count would tell hidden steps
                raise Refused(409, "stale version: another action was committed first") from None
            raise
        return events

    def _apply_and_tell(
        self, live: LiveGame, text: str, seat: str, key: str | None, viewers: set[str | None]
    ) -> tuple[list[Event], dict[str | None, str]]:
        """Apply and commit, then each viewer's update as JSON text: all the heavy work of an
        action in one worker thread (under the game's lock), so the event loop only sends."""
        events = self._apply(live, text, seat, key)
        updates = self._updates(live, viewers)
        if next(self._actions) % SWEEP_EVERY == 0:  # what was frozen and has died since
            gc.unfreeze()
            gc.collect()
        else:
            gc.collect(0)  # the young garbage first, so that none of it is frozen
        gc.freeze()  # the game's new state lives on: no collection walks it (module doc)
        return events, updates

    def _reload(self, live: LiveGame) -> None:
        """Put the game back as the store has it (after a commit that did not happen)."""
        row = self.store.game(live.row.id)
        assert row is not None
        live.game = Game.replay(self.store.record(row))

    # -- AI seats ----------------------------------------------------------------------
    def _kick(self, live: LiveGame) -> None:
        pending = live.game.pending
        if self._closing or not isinstance(pending, Decision) or pending.player not in live.agents:
            return
        if live.driver is None or live.driver.done():
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveGame) -> None:
        """Let the AI seats play while the pending decision is theirs."""
        for _ in range(MAX_AI_STEPS):
            async with live.lock:
                pending = live.game.pending
                if not isinstance(pending, Decision) or pending.player not in live.agents:
                    return
                viewers = {sub.viewer for sub in live.subscribers}
                try:
                    updates = await asyncio.to_thread(self._ai_step, live, pending.player, viewers)
                except Exception:
                    log.exception("game %s: the %s AI failed", live.row.id, pending.player)
                    return
                self._deliver(live, updates)
            await asyncio.sleep(0)

    def _ai_step(
        self, live: LiveGame, seat: str, viewers: set[str | None]
    ) -> dict[str | None, str]:
        """The AI's choice, applied and committed, and the updates (in a worker thread)."""
        action = live.agents[seat].choose(live.game, seat)
        return self._apply_and_tell(live, str(action), seat, None, viewers)[1]

    # -- telling the viewers -----------------------------------------------------------
    def message(
        self, live: LiveGame, viewer: str | None, full: bool, drawn: Json | None = None
    ) -> Json:
        """A viewer's `state` (full, with the whole log) or `update` (the newest step);
        `drawn` is the current scene's JSON (of an open game) if already drawn."""
        row = live.row
        over = isinstance(live.game.pending, GameOver)
        shown = live.shown.of(live.game, viewer)
        start = 0 if full else len(shown)
        table = table_message(live.game, viewer, drawn, len(shown))
        if full:  # the scene this viewer now has: the next update is a change from it
            live.sent[viewer] = _sent(len(shown), table["scene"])
        return {
            "type": "state" if full else "update",
            "game": row.id,
            "ruleset": row.ruleset,
            "scenario": row.scenario_id,
            "seats": row.seats,
            "seed_sha256": row.seed_sha256,
            "seed": str(row.seed) if over else None,
            "log": log_entries(live.game, viewer, start, shown),
        } | table

    def _updates(self, live: LiveGame, viewers: set[str | None]) -> dict[str | None, str]:
        """The newest step as each viewer's `update`, encoded (in a worker thread, under the
        lock); "" for a viewer the step is not shown to (`step_shown`): it is sent nothing.
        The scene is sent as a change from the one this viewer was sent at the version
        before: `terrain` None when unchanged, and `figures` None with `figures_changed`
        ([index, figure] pairs) and `figure_count` instead of the whole list."""
        built: dict[str | None, str] = {}
        drawn: Json | None = None
        shared: Sent | None = None  # an open game's scene is every viewer's: encoded once
        if viewers and not live.game.ruleset.hidden_information:
            drawn = scene_json(live.game.ruleset.scene(live.game))
            shared = _sent(live.version, drawn)
        for viewer in viewers:
            if not live.showing(viewer):
                built[viewer] = ""
                continue
            version = live.seen(viewer)
            message = self.message(live, viewer, full=False, drawn=drawn)
            scene = message["scene"]
            before = live.sent.get(viewer)
            now = shared or _sent(version, scene)
            live.sent[viewer] = now
            if before is not None and before.version == version - 1:
                changed = [
                    [i, scene["figures"][i]]
                    for i, fig in enumerate(now.figures)
                    if i >= len(before.figures) or before.figures[i] != fig
                ]
                message["scene"] = scene | {
                    "terrain": None if now.terrain == before.terrain else scene["terrain"],
                    "figures": None,
                    "figures_changed": changed,
                    "figure_count": len(now.figures),
                }
            built[viewer] = encode(message)
        return built

    def _deliver(self, live: LiveGame, updates: dict[str | None, str]) -> None:
        """Queue the encoded updates for every watcher (none for a step it is not shown);
        one that joined while they were being built, or that is too far behind, gets a full
        resync instead."""
        for sub in live.subscribers:
            if updates.get(sub.viewer) == "":  # a step not shown to this viewer
                continue
            if sub.queue.qsize() >= BEHIND:
                while not sub.queue.empty():
                    sub.queue.get_nowait()
                sub.queue.put_nowait(None)
            else:
                sub.queue.put_nowait(updates.get(sub.viewer))

    def subscribe(self, live: LiveGame, viewer: str | None) -> Subscriber:
        """A new watcher, first sent a full resync."""
        sub = Subscriber(viewer)
        sub.queue.put_nowait(None)
        live.subscribers.add(sub)
        return sub
