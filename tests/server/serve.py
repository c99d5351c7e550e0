"""`warbench serve` as a child process on a free loopback port, for the fault and browser tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=data,
            method=method,
            headers={"Content-Type": "application/json", "X-Warbench-Token": token},
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read())

    def kill9(self) -> None:
        """Kill the server at once, as a crash would (SIGKILL: no shutdown runs)."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    @property
    def url(self) -> str:
        """The server's base address."""
        return f"http://127.0.0.1:{self.port}"
