"""Websocket push: a full state on hello, one update per committed step, resync on request."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.play import act, new_game, state


def test_watchers_get_each_committed_step_in_their_own_view(client: TestClient) -> None:
    game, tokens = new_game(client)
    with (
        client.websocket_connect(f"/api/games/{game}/ws") as spectator,
        client.websocket_connect(f"/api/games/{game}/ws") as red,
    ):
        spectator.send_json({"type": "hello"})
        red.send_json({"type": "hello", "seat": "red", "token": tokens["red"]})
        first, mine = spectator.receive_json(), red.receive_json()
        assert first["type"] == mine["type"] == "state"
        assert first["legal"] == [] and mine["legal"]
        assert first["seed"] is None and first["seed_sha256"]
        red.send_json({"type": "action", "version": 0, "action": mine["legal"][0], "key": "a"})
        pushed = {red.receive_json()["type"], red.receive_json()["type"]}
        update = spectator.receive_json()
    assert pushed == {"ack", "update"}
    assert update["type"] == "update" and update["version"] == 1
    assert [e["step"] for e in update["log"]] == [1]
    assert update["log"][0]["action"] == mine["legal"][0]
    assert state(client, game)["version"] == 1


def test_resync_and_bad_messages(client: TestClient) -> None:
    game, tokens = new_game(client)
    act(
        client, game, "red", tokens["red"], 0, state(client, game, "red", tokens["red"])["legal"][0]
    )
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["version"] == 1
        ws.send_text("not json")
        error = ws.receive_json()
        assert error == {"type": "error", "status": 400, "detail": error["detail"]}
        ws.send_json({"type": "action", "version": 1, "action": "end"})
        assert ws.receive_json()["detail"] == "a spectator cannot act; open your seat's link"
        ws.send_json({"type": "resync"})
        again = ws.receive_json()
    assert again["type"] == "state" and [e["step"] for e in again["log"]] == [0, 1]


def test_a_wrong_token_at_hello_closes_the_socket(client: TestClient) -> None:
    game, tokens = new_game(client)
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_json({"type": "hello", "seat": "red", "token": tokens["blue"]})
        assert ws.receive_json() == {
            "type": "error",
            "detail": "a valid token for seat red is needed",
        }


def test_updates_carry_only_the_changed_figures(client: TestClient) -> None:
    game, tokens = new_game(client)
    with client.websocket_connect(f"/api/games/{game}/ws") as spectator:
        spectator.send_json({"type": "hello"})
        figures = spectator.receive_json()["scene"]["figures"]
        for version in range(6):  # each update applied to the figures before it
            seat = state(client, game)["pending"]["player"]
            legal = state(client, game, seat, tokens[seat])["legal"]
            assert act(client, game, seat, tokens[seat], version, legal[0]).status_code == 200
            update = spectator.receive_json()
            scene = update["scene"]
            assert update["version"] == version + 1
            assert scene["figures"] is None and scene["terrain"] is None
            figures = figures[: scene["figure_count"]]
            for index, figure in scene["figures_changed"]:
                if index < len(figures):
                    figures[index] = figure
                else:
                    figures.append(figure)
            assert figures == state(client, game)["scene"]["figures"]
            assert len(scene["figures_changed"]) <= 1  # placing or moving one piece
