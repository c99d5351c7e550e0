"""Load on `warbench serve`: N concurrent games, both seats played by bots over websockets.

Run: `.venv/bin/python benchmarks/server_load.py [--games 50] [--actions 40] [--ruleset ttt]
[--opponent ai]`. Starts the server on a free 127.0.0.1 port (loopback only) over a fresh
store, opens a websocket per human seat, and each bot sends a seeded random legal action
whenever its seat must decide; with `--opponent KIND` blue is played by the server (its AI:
the AI seat's choice, commit and push are then part of the load) and red by a bot. The
round trip is from sending an action to its ack, which the server sends only
after the action is committed to disk. Every loop is bounded in actions and in time. Prints
p50/p99/max round trip, throughput, the server's CPU time per action (user + system, from
psutil: a figure a loaded machine skews less than the round trips) and its resident memory.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Annotated, Any

import psutil
import typer
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect

TIME_LIMIT = 300.0  # seconds: the whole run stops by then whatever happens


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: object) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


async def _seat(
    url: str, game: str, seat: str, token: str, budget: list[int], rng: random.Random, think: float
) -> list[float]:
    """One bot: play `seat` until the game ends or the game's action budget is spent."""
    trips: list[float] = []
    sent_at: float | None = None
    latest: dict[str, Any] | None = None  # the newest state or update
    acted = -1  # the version this bot last acted at
    deadline = time.monotonic() + TIME_LIMIT
    ws: ClientConnection
    async with connect(f"{url}/api/games/{game}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=5.0)
            except TimeoutError:
                if budget[0] <= 0:
                    break
                continue
            msg = json.loads(raw)
            if msg["type"] in ("state", "update"):
                latest = msg
            elif msg["type"] == "ack":
                trips.append(time.perf_counter() - sent_at if sent_at else 0.0)
                sent_at = None
            elif msg["type"] == "error":
                sent_at, acted = None, -1
                await ws.send(json.dumps({"type": "resync"}))
                continue
            if latest is None:
                continue
            if latest["result"] or budget[0] <= 0:
                break
            if sent_at is None and latest["legal"] and latest["version"] > acted:
                acted, budget[0] = latest["version"], budget[0] - 1
                action = rng.choice(latest["legal"])
                if think:  # a person looks at the table before acting
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                sent_at = time.perf_counter()
                body = {"type": "action", "version": acted, "action": action}
                await ws.send(json.dumps(body))
    return trips


async def _run(
    port: int, ruleset: str, games: int, actions: int, think: float, opponent: str = "human"
) -> list[float]:
    url = f"ws://127.0.0.1:{port}"
    created = [
        _post(
            f"http://127.0.0.1:{port}/api/games",
            {"ruleset": ruleset, "seats": {"red": "human", "blue": opponent}},
        )
        for _ in range(games)
    ]
    bots = []
    for number, game in enumerate(created):
        budget = [actions]
        for seat, info in game["seats"].items():
            if not info["token"]:
                continue  # played by the server
            rng = random.Random(number * 2 + (seat == "blue"))
            bots.append(_seat(url, game["id"], seat, info["token"], budget, rng, think))
    results = await asyncio.wait_for(asyncio.gather(*bots), timeout=TIME_LIMIT + 30)
    return [t for trips in results for t in trips]


def main(
    games: Annotated[int, typer.Option(help="concurrent games")] = 50,
    actions: Annotated[int, typer.Option(help="actions per game at most")] = 40,
    ruleset: Annotated[str, typer.Option(help="ruleset id")] = "ttt",
    think: Annotated[float, typer.Option(help="mean seconds a bot waits before acting")] = 0.0,
    opponent: Annotated[
        str, typer.Option(help="blue's player: human (a bot) or a server AI kind, e.g. ai")
    ] = "human",
    store_dir: Annotated[
        Path | None, typer.Option(help="directory for the store (e.g. /dev/shm: no disk)")
    ] = None,
) -> None:
    """Print the action round trip and the server's memory under N concurrent games."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(dir=store_dir) as tmp:
        warbench = Path(sys.executable).with_name("warbench")
        db = Path(tmp) / "load.sqlite"
        server = subprocess.Popen(
            [str(warbench), "serve", "--port", str(port), "--db", str(db)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(600):
                try:
                    urllib.request.urlopen(f"{url}/api/rulesets", timeout=5).close()
                    break
                except OSError:
                    time.sleep(0.05)
            proc = psutil.Process(server.pid)
            idle = proc.memory_info().rss
            cpu_before = sum(proc.cpu_times()[:2])
            start = time.perf_counter()
            trips = asyncio.run(_run(port, ruleset, games, actions, think, opponent))
            wall = time.perf_counter() - start
            busy = proc.memory_info().rss
            cpu = sum(proc.cpu_times()[:2]) - cpu_before
        finally:
            server.kill()
            server.wait(timeout=30)
    ms = sorted(t * 1000 for t in trips)
    table = Table("ruleset", "blue", "games", "think s", "actions", "p50 ms", "p99 ms", "max ms")
    table.add_column("actions/s")
    table.add_column("server CPU ms/action")
    table.add_column("server RSS idle → loaded (MiB)")
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    table.add_row(
        ruleset,
        opponent,
        str(games),
        f"{think:g}",
        str(len(ms)),
        f"{statistics.median(ms):.1f}",
        f"{p99:.1f}",
        f"{ms[-1]:.1f}",
        f"{len(ms) / wall:.0f}",
        f"{1000 * cpu / max(1, len(ms)):.1f}",
        f"{idle / 2**20:.0f} → {busy / 2**20:.0f}",
    )
    Console(width=160).print(table)


if __name__ == "__main__":
    typer.run(main)
