"""Steps behind a screen (docs/server.md, "Steps behind a screen"): the number of the other
seat's hidden steps reaches no one. Two fftt battles alike but for how many figures red
writes down (a composition of its own with planted labels) and so deploys, one step a
figure, behind the screen: until the screen comes down, blue and a spectator get the very
same pushes (views, scenes, events, log, versions), full states, replies and errors, and no
label; each push is one version on (no resync needed); red's own log has all its steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.play import act, new_game, state
from warbench.server.app import create_app

Json = dict[str, Any]
COMPOSED = (  # 8 and 14 figures in red's main force
    "compose marines hq,grunt*7 MARKER-west-1:grunt*3,grenadier -",
    "compose marines hq,engineer,medic,grunt*11 - MARKER-east-2:grunt*4",
)


def _pushes(ws: Any) -> list[Json]:
    """Every message on `ws` up to the full state a resync asks for (the first one too)."""
    ws.send_json({"type": "resync"})
    got = [ws.receive_json()]
    while True:
        message = ws.receive_json()
        got.append(message)
        if message["type"] == "state":
            return got


def _hidden(message: Json) -> bool:
    """Whether `message` is from before the screen comes down."""
    events = message.get("events", [])
    return not message.get("view", {}).get("revealed") and "reveal" not in str(events)


def _without_id(message: Json) -> str:
    return json.dumps({k: v for k, v in message.items() if k != "game"}, sort_keys=True)


def _battle(db: Path, seed: int, composed: str) -> tuple[dict[str, list[Json]], int]:
    """What blue and a spectator get until the screen comes down, red writing `composed`;
    and how many steps red took."""
    with TestClient(create_app(db, seeds=lambda: seed)) as client:
        game, tokens = new_game(client, "fftt", "behind-the-screen")
        got: dict[str, list[Json]] = {"blue": [], "spectator": [], "replies": []}
        ws = f"/api/games/{game}/ws"
        with client.websocket_connect(ws) as blue, client.websocket_connect(ws) as watcher:
            blue.send_json({"type": "hello", "seat": "blue", "token": tokens["blue"]})
            watcher.send_json({"type": "hello"})
            while not (spectator := state(client, game))["view"]["revealed"]:
                seat = spectator["pending"]["player"]
                mine = state(client, game, seat, tokens[seat])
                fulls = {"spectator": spectator, "blue": mine}
                if seat != "blue":
                    fulls["blue"] = state(client, game, "blue", tokens["blue"])
                for viewer, full in fulls.items():
                    if not got[viewer] or got[viewer][-1] != full:
                        got[viewer].append(full)
                kind, legal = mine["pending"]["kind"], mine["legal"]
                choice = {"table": "table 120 120", "force": legal[0]}.get(kind, legal[0])
                if seat == "red" and kind == "force":
                    choice = composed
                if seat == "blue":  # a stale version is refused with blue's own version
                    stale = act(client, game, "blue", tokens["blue"], mine["version"] + 1, choice)
                    got["replies"].append(stale.json())
                reply = act(client, game, seat, tokens[seat], mine["version"], choice)
                assert reply.status_code == 200, reply.text
                if seat == "blue":
                    got["replies"].append(reply.json())
            got["blue pushes"] = _pushes(blue)
            got["spectator pushes"] = _pushes(watcher)
        red = state(client, game, "red", tokens["red"])
        steps = len([e for e in red["log"] if e["player"] == "red"])
        assert red["version"] == len(red["log"]) - 1
    return got, steps


@pytest.mark.parametrize("seed", [1002, 1003])  # red attacks, then red defends
def test_the_other_seats_hidden_steps_are_not_counted(tmp_path: Path, seed: int) -> None:
    runs = [_battle(tmp_path / f"{n}.sqlite", seed, c) for n, c in enumerate(COMPOSED)]
    (one, red_steps), (two, more_steps) = runs
    assert more_steps == red_steps + 6  # red deployed six figures more in the second
    for key in ("blue", "spectator", "replies", "blue pushes", "spectator pushes"):
        shown, also = [m for m in one[key] if _hidden(m)], [m for m in two[key] if _hidden(m)]
        assert [_without_id(m) for m in shown] == [_without_id(m) for m in also], key
        assert "MARKER" not in json.dumps(one[key]) + json.dumps(two[key])
    for key in ("blue pushes", "spectator pushes"):
        versions = [m["version"] for m in one[key] if m["type"] == "update"]
        assert versions == list(range(versions[0], versions[0] + len(versions)))
        first = one[key][0]["version"]
        assert versions[0] == first + 1
        # the screen comes down at the same version, whatever red wrote
        (revealed,) = [m["version"] for m in one[key] if m["type"] == "update"][-1:]
        assert revealed == [m["version"] for m in two[key] if m["type"] == "update"][-1]
    stale = one["replies"][0]
    assert stale["detail"].startswith("stale version") and "version" in stale["detail"]


def test_every_step_is_shown_once_the_game_is_over(client: TestClient) -> None:
    """Blue (the attacker with the fixture's first seed) deploys its twelve figures behind
    the screen: red's log has one entry for them, the step that hands red the decision. Red
    surrenders: every step is shown to everyone, with its action text."""
    game, tokens = new_game(client, "fftt", "behind-the-screen")
    while True:
        seat = state(client, game)["pending"]["player"]
        mine = state(client, game, seat, tokens[seat])
        if seat == "red" and mine["pending"]["kind"] == "deploy":
            break
        legal = mine["legal"]
        choice = "table 120 120" if mine["pending"]["kind"] == "table" else legal[0]
        assert act(client, game, seat, tokens[seat], mine["version"], choice).status_code == 200
    blue = state(client, game, "blue", tokens["blue"])
    deploys = [e for e in blue["log"] if (e["action"] or "").startswith("deploy ")]
    assert len(deploys) == 12 and blue["version"] == len(blue["log"]) - 1
    hidden = [e for e in mine["log"] if e["player"] == "blue" and e["action"] is None]
    assert len(hidden) == 4  # the table, the side, its force, and its twelfth figure
    assert mine["version"] == blue["version"] - 11
    reply = act(client, game, "red", tokens["red"], mine["version"], "surrender")
    assert reply.json()["version"] == blue["version"] + 1  # every step, now it is over
    for viewer in ("red", "blue", None):
        over = state(client, game, viewer, tokens[viewer] if viewer else "")
        assert over["version"] == blue["version"] + 1 == len(over["log"]) - 1
        assert all(e["action"] for e in over["log"])
