"""Helpers that play a game through the server's HTTP API, as a client would."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

Json = dict[str, Any]


def new_game(
    client: TestClient, ruleset: str = "ttt", scenario: str = "besiege-the-bunker", **seats: str
) -> tuple[str, dict[str, str]]:
    """Create a game (red and blue human unless given); its id and the human seats' tokens."""
    body = {
        "ruleset": ruleset,
        "scenario": scenario,
        "seats": {"red": "human", "blue": "human"} | seats,
    }
    reply = client.post("/api/games", json=body)
    assert reply.status_code == 201, reply.text
    data = reply.json()
    tokens = {s: v["token"] for s, v in data["seats"].items() if v["token"]}
    return str(data["id"]), tokens


def state(client: TestClient, game: str, seat: str | None = None, token: str = "") -> Json:
    """The full state as a seat (with its token) or a spectator sees it."""
    params = {"seat": seat} if seat else {}
    reply = client.get(f"/api/games/{game}", params=params, headers={"X-Warbench-Token": token})
    assert reply.status_code == 200, reply.text
    data: Json = reply.json()
    return data


def act(
    client: TestClient, game: str, seat: str, token: str, version: int, action: str, key: Any = None
) -> Any:
    """POST one action; the raw reply."""
    body = {"seat": seat, "token": token, "version": version, "action": action, "key": key}
    return client.post(f"/api/games/{game}/actions", json=body)


def wait_for(client: TestClient, game: str, seat: str, token: str, rounds: int = 3000) -> Json:
    """Poll until the game waits for `seat` or is over (the AI seats play on the server)."""
    for _ in range(rounds):
        now = state(client, game, seat, token)
        if now["result"] or now["pending"]["player"] == seat:
            return now
        time.sleep(0.02)
    raise AssertionError(f"game {game} never came back to {seat}")


def play_turns(client: TestClient, game: str, tokens: dict[str, str], actions: int) -> Json:
    """Play up to `actions` actions for whichever human seat must decide, choosing the last
    legal action each time (in ttt that ends a turn soonest); the state after them."""
    now = state(client, game)
    for _ in range(actions):
        if now["result"]:
            break
        seat = now["pending"]["player"]
        now = wait_for(client, game, seat, tokens[seat]) if seat in tokens else now
        if now["result"]:
            break
        reply = act(client, game, seat, tokens[seat], now["version"], now["legal"][-1])
        assert reply.status_code == 200, reply.text
        now = state(client, game)
    return now


def finish(client: TestClient, game: str, seat: str, token: str, rounds: int = 2000) -> Json:
    """Play `seat` to the end against the server's AI; the final state."""
    for _ in range(rounds):
        now = wait_for(client, game, seat, token)
        if now["result"]:
            return now
        reply = act(client, game, seat, token, now["version"], now["legal"][-1])
        assert reply.status_code == 200, reply.text
    raise AssertionError(f"game {game} did not end in {rounds} actions")
