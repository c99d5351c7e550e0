"""Hidden information never leaves the server: a marker planted in what only one player may
see appears in no byte sent to the other seat or to a spectator, in any message, log, error
or export. Runs for every registered ruleset with hidden information."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.play import act, state
from warbench.core import registry

MARKER = "ZZ-HIDDEN-MARKER-42"
HIDDEN = [rs.id for rs in registry.all_rulesets() if rs.hidden_information]


@pytest.mark.parametrize("ruleset_id", HIDDEN)
def test_a_planted_marker_reaches_only_its_owner(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, ruleset_id: str
) -> None:
    rs = registry.get(ruleset_id)
    scenario = rs.scenarios()[0].id
    planted, owner = rs.plant_hidden_marker(rs.load_scenario(scenario), MARKER)
    monkeypatch.setattr(rs, "load_scenario", lambda _: planted)
    seats = dict.fromkeys(rs.players, "human")
    created = client.post(
        "/api/games", json={"ruleset": rs.id, "scenario": scenario, "seats": seats}
    )
    game = created.json()["id"]
    tokens = {s: v["token"] for s, v in created.json()["seats"].items()}
    others: list[str | None] = [p for p in rs.players if p != owner] + [None]
    sent: list[str] = [json.dumps({k: v for k, v in created.json().items() if k != "seats"})]
    rng = random.Random(0)
    sockets: list[Any] = []
    with client.websocket_connect(f"/api/games/{game}/ws") as watcher:
        sockets.append(watcher)
        watcher.send_json({"type": "hello"})
        for _ in range(60):  # until the end, where the record and the seed are revealed
            sent.append(json.dumps(watcher.receive_json()))
            now = state(client, game)
            if now["result"]:
                break
            sent += [json.dumps(state(client, game, s, tokens[s] if s else "")) for s in others]
            sent.append(client.get(f"/api/games/{game}/record").text)
            seat = now["pending"]["player"]
            mine = state(client, game, seat, tokens[seat])  # its version: the steps it is shown
            legal = mine["legal"]
            choice = rng.choice(legal)
            if seat != owner:  # what the seat is shown before it confirms
                asks = [{"piece": a.split()[1]} for a in legal[:3] if len(a.split()) > 1]
                for ask in [*asks, {"action": choice}, {"path": choice}]:
                    body = {"seat": seat, "token": tokens[seat], "version": mine["version"]}
                    sent.append(client.post(f"/api/games/{game}/preview", json=body | ask).text)
            reply = act(client, game, seat, tokens[seat], mine["version"], choice)
            assert reply.status_code == 200, reply.text
            if seat != owner:
                sent.append(reply.text)
                wrong = act(client, game, seat, tokens[seat], mine["version"], "nonsense")
                sent.append(wrong.text)
        sent.append(client.get("/api/games").text)
    assert not [text for text in sent if MARKER in text]
