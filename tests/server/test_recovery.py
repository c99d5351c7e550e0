"""Restart: every game resumes from the store exactly where its last commit left it."""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
import time
import urllib.error
from pathlib import Path

from fastapi.testclient import TestClient

from tests.server.play import new_game, play_turns, state
from tests.server.serve import Server
from warbench.core.game import Game
from warbench.core.record import Record
from warbench.server.app import create_app


def _app(db: Path) -> TestClient:
    seeds = itertools.count(5)
    return TestClient(create_app(db, seeds=lambda: next(seeds)))


def test_a_restarted_server_resumes_every_game(db: Path) -> None:
    with _app(db) as client:
        game, tokens = new_game(client)
        before = play_turns(client, game, tokens, 7)
        watched = state(client, game, "red", tokens["red"])
    with _app(db) as client:
        after = state(client, game, "red", tokens["red"])
        assert after == watched
        assert after["version"] == before["version"] == 7
        later = play_turns(client, game, tokens, 5)
    assert later["version"] == 12


def test_ai_games_play_on_after_a_restart(db: Path) -> None:
    with _app(db) as client:
        reply = client.post(
            "/api/games", json={"ruleset": "ttt", "seats": {"red": "ai", "blue": "random"}}
        )
        game = reply.json()["id"]
    with _app(db) as client:
        for _ in range(3000):
            if state(client, game)["result"]:
                break
            time.sleep(0.02)
        end = state(client, game)
        data = client.get(f"/api/games/{game}/record").json()
    assert end["result"] is not None
    assert len(Game.replay(Record.from_json(data)).steps) == end["version"]


def _play(server: Server, game: str, token: str, actions: int) -> list[str]:
    """Play red against the server's AI for up to `actions` actions; the actions acked."""
    acked: list[str] = []
    for _ in range(actions * 50):
        now = server.call("GET", f"/api/games/{game}?seat=red", token=token)
        if now["result"] or len(acked) == actions:
            break
        if now["pending"]["player"] != "red":
            time.sleep(0.02)
            continue
        body = {
            "seat": "red",
            "token": token,
            "version": now["version"],
            "action": now["legal"][-1],
        }
        try:
            acked.append(server.call("POST", f"/api/games/{game}/actions", body)["action"])
        except urllib.error.HTTPError as err:  # the AI moved in between: a stale version
            assert err.code == 409, err.read()
    return acked


def test_kill_9_and_restart_loses_no_committed_action(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    server = Server(db)
    try:
        created = server.call(
            "POST", "/api/games", {"ruleset": "ttt", "seats": {"red": "human", "blue": "ai"}}
        )
        game, token = created["id"], created["seats"]["red"]["token"]
        for _ in range(3):  # killed three times at different points of the game
            _play(server, game, token, 4)
            committed = server.call("GET", f"/api/games/{game}/record")["steps"]
            server.kill9()
            server = Server(db)
            resumed = server.call("GET", f"/api/games/{game}/record")["steps"]
            assert resumed[: len(committed)] == committed
        _play(server, game, token, 10_000)
        final = server.call("GET", f"/api/games/{game}/record")
    finally:
        server.kill9()
    assert final["result"] is not None and final["seed"] is not None
    assert hashlib.sha256(str(final["seed"]).encode()).hexdigest() == created["seed_sha256"]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(final))
    warbench = Path(sys.executable).with_name("warbench")
    verify = subprocess.run(
        [str(warbench), "replay", str(path), "--verify"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "every roll and state hash matches" in verify.stdout
