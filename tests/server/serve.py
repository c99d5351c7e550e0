"""`warbench serve` as a child process on a free loopback port (the fault tests), or the same
app in a thread of the test process with fixed seeds (the browser tests, so that each game
the AI plays is the same on every run)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn

from warbench.server.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(port: int, method: str, path: str, body: object = None, token: str = "") -> Any:
    """One JSON request to the server on `port`; HTTPError for an error status."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        method=method,
        headers={"Content-Type": "application/json", "X-Warbench-Token": token},
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


class Server:
    """`warbench serve` as a child process on 127.0.0.1 (loopback only)."""

    def __init__(self, db: Path) -> None:
        self.port = free_port()
        warbench = Path(sys.executable).with_name("warbench")
        self.proc = subprocess.Popen(
            [str(warbench), "serve", "--port", str(self.port), "--db", str(db)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(600):
            try:
                self.call("GET", "/api/rulesets")
                return
            except OSError:
                time.sleep(0.05)
        self.proc.kill()
        raise AssertionError("warbench serve did not start")

    def call(self, method: str, path: str, body: object = None, token: str = "") -> Any:
        """One JSON request to the server; HTTPError for an error status."""
        return call(self.port, method, path, body, token)

    def kill9(self) -> None:
        """Kill the server at once, as a crash would (SIGKILL: no shutdown runs)."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    @property
    def url(self) -> str:
        """The server's base address."""
        return f"http://127.0.0.1:{self.port}"


class _Announcing(uvicorn.Server):
    """uvicorn that says when it listens (an event to wait on, not a flag to poll)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.listening = threading.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        self.listening.set()


class SeededServer:
    """The app on uvicorn in a thread on 127.0.0.1, every game's dice seeded `seed` (and its
    AI seats from the same number), so a browser test plays the same game every run."""

    def __init__(self, db: Path, seed: int) -> None:
        self.port = free_port()
        app = create_app(db, seeds=lambda: seed)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = _Announcing(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        if not self.server.listening.wait(timeout=60):
            raise AssertionError("the app did not start")

    def call(self, method: str, path: str, body: object = None, token: str = "") -> Any:
        """One JSON request to the server; HTTPError for an error status."""
        return call(self.port, method, path, body, token)

    def stop(self) -> None:
        """Let uvicorn shut down and wait for it."""
        self.server.should_exit = True
        self.thread.join(timeout=30)

    @property
    def url(self) -> str:
        """The server's base address."""
        return f"http://127.0.0.1:{self.port}"
