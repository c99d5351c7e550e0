"""The web server: JSON API, websocket push and the browser client (docs/server.md).

`create_app(db)` builds a FastAPI app over one SQLite store; `warbench serve` runs it on
uvicorn. Every error is a JSON `{"detail": ...}` saying what was wrong and what is allowed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Literal

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError

from warbench.core import registry
from warbench.core.record import Record, RecordError
from warbench.core.render import SIDE_COLOURS, TERRAIN_COLOURS
from warbench.core.scenario_files import problem_text
from warbench.server import frames as replay
from warbench.server.hub import HUMAN, Hub, LiveGame, Refused, Subscriber
from warbench.server.messages import Json
from warbench.server.store import Store

STATIC = Path(__file__).with_name("static")
MAX_MESSAGE = 4096  # bytes of one websocket message from a client
MAX_RECORD = 5_000_000  # bytes of a record uploaded to the replay viewer
WORKERS = 16  # worker threads for actions, AI moves and commits
MAX_ARMY_LIST = 1_000_000  # characters of an uploaded army list file

Text = Annotated[str, Field(min_length=1, max_length=200)]
Key = Annotated[str, Field(min_length=1, max_length=64)]


class ArmyListIn(BaseModel):
    """An uploaded army list file for one side (the ruleset's `army_upload`)."""

    side: Annotated[str, Field(max_length=20)]
    name: Annotated[str, Field(min_length=1, max_length=200)]
    text: Annotated[str, Field(min_length=1, max_length=MAX_ARMY_LIST)]


class NewGame(BaseModel):
    """POST /api/games: the ruleset, a shipped scenario, each seat's player kind, and
    optionally one side's army from an uploaded army list file."""

    ruleset: Annotated[str, Field(max_length=40)]
    scenario: Annotated[str, Field(max_length=80)] | None = None
    seats: dict[Annotated[str, Field(max_length=20)], Annotated[str, Field(max_length=20)]]
    army_list: ArmyListIn | None = None


class ActionIn(BaseModel):
    """An action from a seat: its token, the version it was decided at, an idempotency key."""

    seat: Annotated[str, Field(max_length=20)]
    token: Annotated[str, Field(max_length=100)]
    version: Annotated[int, Field(ge=0)]
    action: Text
    key: Key | None = None


class PreviewIn(BaseModel):
    """Before confirming: a piece to show the reach, ranges and sight lines of, an action
    to show the exact odds of, or a move (`path`) to show the cost of; for the seat whose
    decision it is, at the current version."""

    seat: Annotated[str, Field(max_length=20)]
    token: Annotated[str, Field(max_length=100)]
    version: Annotated[int, Field(ge=0)]
    piece: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    action: Text | None = None
    path: Text | None = None


class WsAction(BaseModel):
    """An action sent over the websocket (the seat and token were given at hello)."""

    type: Literal["action"]
    version: Annotated[int, Field(ge=0)]
    action: Text
    key: Key | None = None


class WsHello(BaseModel):
    """The first websocket message: which seat (None = spectator) and its token."""

    type: Literal["hello"]
    seat: Annotated[str, Field(max_length=20)] | None = None
    token: Annotated[str, Field(max_length=100)] | None = None


def create_app(db: Path, seeds: Callable[[], int] | None = None) -> FastAPI:
    """The app over the store at `db` (created if missing); games resume at start-up.
    `seeds` draws each new game's dice seed (default: 128 bits from `secrets`)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # the actions' work and commits run in worker threads; enough that commits of many
        # games wait for the disk together (one group commit) while others apply actions
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(WORKERS))
        store = Store(db)
        hub = Hub(store, seeds)
        app.state.hub = hub
        await hub.resume()
        gc.freeze()  # what start-up made lives as long as the server (hub.py's docstring)
        try:
            yield
        finally:
            await hub.close()
            store.close()

    app = FastAPI(title="warbench", lifespan=lifespan)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub = request.app.state.hub
        assert isinstance(hub, Hub)
        return hub

    @app.exception_handler(Refused)
    async def refused(_: Request, err: Refused) -> JSONResponse:
        return JSONResponse({"detail": err.detail}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _shape_problems(err)}, status_code=422)

    @app.get("/", include_in_schema=False)
    async def index() -> RedirectResponse:
        return RedirectResponse("/static/index.html")

    @app.get("/api/rulesets")
    async def rulesets() -> Json:
        """Every ruleset with its scenarios and the player kinds a seat may have."""
        return {
            "rulesets": [
                {
                    "id": rs.id,
                    "name": rs.name,
                    "unit": rs.unit,
                    "players": list(rs.players),
                    "hidden_information": rs.hidden_information,
                    "scenario_word": rs.scenario_word,
                    "scenarios": [vars(s) for s in rs.scenarios()],
                    "seat_kinds": [HUMAN, *rs.agents()],
                    "army_upload": rs.army_upload,
                }
                for rs in registry.all_rulesets()
            ],
            "terrain_colours": TERRAIN_COLOURS,
            "side_colours": SIDE_COLOURS,
        }

    @app.post("/api/games", status_code=201)
    async def create(body: NewGame, request: Request) -> Json:
        """A new game: its id, the seed's SHA-256, each human seat's private link."""
        upload = body.army_list
        row, tokens = await hub_of(request).create(
            body.ruleset,
            body.scenario,
            body.seats,
            None if upload is None else (upload.side, upload.name, upload.text),
        )
        base = f"/static/play.html?game={row.id}"
        return {
            "id": row.id,
            "seed_sha256": row.seed_sha256,
            "seats": {
                seat: {"kind": kind, "token": tokens.get(seat)}
                | ({"link": f"{base}&seat={seat}#token={tokens[seat]}"} if seat in tokens else {})
                for seat, kind in row.seats.items()
            },
            "spectator_link": base,
        }

    @app.get("/api/games")
    async def lobby(request: Request) -> Json:
        """The newest games with their state (no secrets)."""
        rows = await asyncio.to_thread(hub_of(request).store.games)
        return {
            "games": [
                {
                    "id": r.id,
                    "ruleset": r.ruleset,
                    "scenario": r.scenario_id,
                    "seats": r.seats,
                    "status": r.status,
                    "over": r.result is not None,
                    "created": r.created,
                }
                for r in rows
            ]
        }

    @app.get("/api/games/{game_id}")
    async def state(
        game_id: str,
        request: Request,
        seat: str | None = None,
        x_warbench_token: Annotated[str | None, Header()] = None,
    ) -> Json:
        """The full state as `seat` (with its token in X-Warbench-Token) or a spectator sees it."""
        hub = hub_of(request)
        live = await hub.live(game_id)
        viewer = hub.check_seat(live, seat, x_warbench_token)
        async with live.lock:
            return hub.message(live, viewer, full=True)

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: ActionIn, request: Request) -> Json:
        """Apply one action of the seat whose decision is pending."""
        return await hub_of(request).act(
            game_id, body.seat, body.token, body.version, body.action, body.key
        )

    @app.post("/api/games/{game_id}/preview")
    async def preview(game_id: str, body: PreviewIn, request: Request) -> Json:
        """A piece's reach, ranges and sight lines, a proposed action's exact odds, or a
        move's cost."""
        return await hub_of(request).preview(
            game_id, body.seat, body.token, body.version, body.piece, body.action, body.path
        )

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> Json:
        """The record as anyone may have it now (finished: all of it, with the seed)."""
        hub = hub_of(request)
        live = await hub.live(game_id)
        async with live.lock:
            try:
                return replay.export(live.game, live.game.record).to_json()
            except PermissionError as err:
                raise Refused(409, str(err)) from None

    @app.get("/api/games/{game_id}/frames")
    async def game_frames(game_id: str, request: Request) -> Json:
        """The replay viewer's frames of a game (what its export shows)."""
        hub = hub_of(request)
        live = await hub.live(game_id)
        async with live.lock:
            try:
                shown = replay.export(live.game, live.game.record)
            except PermissionError as err:
                raise Refused(409, str(err)) from None
        return {"frames": await asyncio.to_thread(replay.frames, shown)}

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> Json:
        """The replay viewer's frames of an uploaded record (verified first)."""
        body = await request.body()
        if len(body) > MAX_RECORD:
            raise Refused(413, f"a record of at most {MAX_RECORD} bytes, please")
        try:
            rec = Record.loads(body)
            return {"frames": await asyncio.to_thread(replay.frames, rec)}
        except (RecordError, KeyError, ValueError) as err:
            raise Refused(400, f"cannot replay this record: {err}") from None

    @app.websocket("/api/games/{game_id}/ws")
    async def websocket(game_id: str, ws: WebSocket) -> None:
        """Hello first ({seat, token} or nothing for a spectator), then pushes and actions."""
        await ws.accept()
        hub = hub_of(ws)
        try:
            live = await hub.live(game_id)
            hello = WsHello.model_validate_json(await _receive(ws))
            viewer = hub.check_seat(live, hello.seat, hello.token)
        except (Refused, ValidationError, ValueError) as err:
            detail = err.detail if isinstance(err, Refused) else f"bad hello: {err}"
            await ws.send_json({"type": "error", "detail": detail})
            await ws.close(code=4403)
            return
        except WebSocketDisconnect:
            return
        sub = hub.subscribe(live, viewer)
        sender = asyncio.create_task(_send(hub, live, sub, ws))
        try:
            while True:
                await _client_message(hub, live, viewer, hello.token, ws, sub)
        except WebSocketDisconnect:
            pass
        finally:
            live.subscribers.discard(sub)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


async def _receive(ws: WebSocket) -> str:
    text = await ws.receive_text()
    if len(text) > MAX_MESSAGE:
        raise ValueError(f"a message of at most {MAX_MESSAGE} bytes, please")
    return text


async def _send(hub: Hub, live: LiveGame, sub: Subscriber, ws: WebSocket) -> None:
    """Forward queued messages (updates come encoded); a None in the queue is a full resync."""
    while True:
        item = await sub.queue.get()
        if item is None:
            async with live.lock:
                item = hub.message(live, sub.viewer, full=True)
        if isinstance(item, str):
            await ws.send_text(item)
        else:
            await ws.send_json(item)


async def _client_message(
    hub: Hub, live: LiveGame, viewer: str | None, token: str | None, ws: WebSocket, sub: Subscriber
) -> None:
    """One message from the client: `resync`, or an `action` for its seat."""
    try:
        text = await _receive(ws)
        kind = json.loads(text).get("type") if text.startswith("{") else None
        if kind == "resync":
            sub.queue.put_nowait(None)
            return
        if kind != "action":
            raise ValueError("send {type: 'action', version, action, key} or {type: 'resync'}")
        msg = WsAction.model_validate_json(text)
        if viewer is None or token is None:
            raise Refused(403, "a spectator cannot act; open your seat's link")
        done = await hub.act(live.row.id, viewer, token, msg.version, msg.action, msg.key)
        sub.queue.put_nowait({"type": "ack", "key": msg.key} | done)
    except Refused as err:
        sub.queue.put_nowait({"type": "error", "status": err.status, "detail": err.detail})
    except (ValidationError, ValueError, AttributeError, KeyError, TypeError) as err:
        sub.queue.put_nowait({"type": "error", "status": 400, "detail": f"bad message: {err}"})


def _shape_problems(err: RequestValidationError) -> str:
    """A body of the wrong shape in one line, each broken field by name (docs/server.md:
    every error's `detail` is text), instead of pydantic's list of objects."""
    problems = []
    for e in err.errors():
        if e["type"] == "json_invalid":
            problems.append(f"the body is not JSON ({e.get('ctx', {}).get('error', e['msg'])})")
            continue
        where = ".".join(str(p) for p in e["loc"][1:]) or "the body"
        problems.append(f"{where}: {problem_text(e)}")
    return "; ".join(problems)
