"""A body of the wrong shape gets 422 with a `detail` that is one line of text naming each
broken field (docs/server.md: every error is `{"detail": "..."}`); nothing changes. The
browser showed pydantic's list of objects as raw JSON."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.play import new_game, state


def test_wrong_shapes_are_named_in_one_line_and_change_nothing(client: TestClient) -> None:
    game, tokens = new_game(client, blue="ai")
    before = state(client, game, "red", tokens["red"])
    url = f"/api/games/{game}/actions"
    cases = [
        ({"seat": "red"}, ["token: Field required", "version: Field required"]),
        (
            {"seat": "red", "token": tokens["red"], "version": "abc", "action": "pass"},
            ["version: Input should be a valid integer"],
        ),
        ({"seat": "red", "token": tokens["red"], "version": 0, "action": ""}, ["action: "]),
    ]
    for body, parts in cases:
        reply = client.post(url, json=body)
        assert reply.status_code == 422
        detail = reply.json()["detail"]
        assert isinstance(detail, str)
        for part in parts:
            assert part in detail
    broken = client.post(url, content=b"{oops", headers={"content-type": "application/json"})
    assert broken.status_code == 422
    assert broken.json()["detail"].startswith("the body is not JSON (")
    after = state(client, game, "red", tokens["red"])
    assert (after["version"], after["view"], after["log"]) == (
        before["version"],
        before["view"],
        before["log"],
    )
