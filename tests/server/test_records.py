"""Seed commitment and reveal, record export, the replay viewer's frames, hidden views."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.play import act, finish, new_game, play_turns, state
from warbench.core.game import Game
from warbench.core.record import Record
from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.ruleset import TableTopTroopers
from warbench.server.app import create_app

SEED = 2**100 + 271828  # a seed whose decimal text appears nowhere by chance


def test_the_seed_is_committed_at_the_start_and_revealed_only_at_the_end(db: Path) -> None:
    sent: list[str] = []
    with TestClient(create_app(db, seeds=lambda: SEED)) as client:
        reply = client.post(
            "/api/games",
            json={
                "ruleset": "ttt",
                "scenario": "cap-the-capn",
                "seats": {"red": "human", "blue": "human"},
            },
        )
        sent.append(reply.text)
        game = reply.json()["id"]
        tokens = {seat: v["token"] for seat, v in reply.json()["seats"].items()}
        assert reply.json()["seed_sha256"] == hashlib.sha256(str(SEED).encode()).hexdigest()
        with client.websocket_connect(f"/api/games/{game}/ws") as ws:
            ws.send_json({"type": "hello"})
            for _ in range(16):  # placing and the first moves: far from the end
                sent.append(json.dumps(ws.receive_json()))
                now = state(client, game)
                assert now["result"] is None
                seat = now["pending"]["player"]
                mine = state(client, game, seat, tokens[seat])
                sent.append(json.dumps(mine))
                sent.append(act(client, game, seat, tokens[seat], 0, "end").text)  # an error
                sent.append(
                    act(client, game, seat, tokens[seat], mine["version"], mine["legal"][-1]).text
                )
            sent.append(client.get("/api/games").text)
            sent.append(client.get(f"/api/games/{game}/record").text)
        assert not [text for text in sent if str(SEED) in text]
        end = play_turns(client, game, tokens, 3000)
    assert end["seed"] == str(SEED)
    assert hashlib.sha256(end["seed"].encode()).hexdigest() == end["seed_sha256"]


def test_an_unfinished_export_has_no_seed_and_still_replays(client: TestClient) -> None:
    game, tokens = new_game(client)
    now = play_turns(client, game, tokens, 8)
    data = client.get(f"/api/games/{game}/record").json()
    assert data["seed"] is None and data["result"] is None
    replayed = Game.replay(Record.from_json(data))
    assert len(replayed.steps) == now["version"] == 8


def test_a_finished_export_replays_verified_and_opens_in_the_viewer(client: TestClient) -> None:
    game, tokens = new_game(client, blue="ai")
    end = finish(client, game, "red", tokens["red"])
    data = client.get(f"/api/games/{game}/record").json()
    assert data["seed"] == int(end["seed"])
    replayed = Game.replay(Record.from_json(data))
    assert len(replayed.steps) == end["version"]
    assert data["result"]["winner"] == end["result"]["winner"]
    frames = client.get(f"/api/games/{game}/frames").json()["frames"]
    assert [f["step"] for f in frames] == list(range(end["version"] + 1))
    assert frames[-1]["result"] == end["result"]
    uploaded = client.post("/api/replay", content=json.dumps(data)).json()["frames"]
    assert uploaded == frames
    data["steps"][-1]["rolls"] = [[9, 9]]
    tampered = client.post("/api/replay", content=json.dumps(data))
    assert tampered.status_code == 400 and "cannot replay this record" in tampered.json()["detail"]
    not_text = client.post("/api/replay", content=b"\xff")
    assert not_text.status_code == 400
    assert not_text.json()["detail"].endswith("not a record: not UTF-8 text (byte 1)")
    not_json = client.post("/api/replay", content=b'{"seed": 1,\n oops}').json()["detail"]
    assert "not JSON (line 2, column 2:" in not_json
    assert "a record is the JSON file `warbench play --save FILE` writes" in not_json


def _own_pieces_only(self: TTTGame, player: str | None) -> dict[str, object]:
    """A view that hides the other side's pieces: the shape of a hidden-information view."""
    data = self.state_data()
    pieces = {k: v for k, v in data["pieces"].items() if player in (None, v["side"])}
    return {"viewer": player, "pieces": pieces}


def test_a_hidden_information_ruleset_shows_each_seat_only_its_view(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TableTopTroopers, "hidden_information", True)
    monkeypatch.setattr(TTTGame, "view", _own_pieces_only)
    game, tokens = new_game(client)
    play_turns(client, game, tokens, 6)
    red = state(client, game, "red", tokens["red"])
    assert {f["side"] for f in red["scene"]["figures"]} == {"red"}
    assert all(e["action"] is None for e in red["log"][1:] if e["player"] == "blue")
    assert all(e["action"] for e in red["log"][1:] if e["player"] == "red")
    refused = client.get(f"/api/games/{game}/record")
    assert refused.status_code == 409
    assert "its record is exported when the game ends" in refused.json()["detail"]
    assert client.get(f"/api/games/{game}/frames").status_code == 409
