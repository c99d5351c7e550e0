"""The server decides: only the pending seat, with its token, at the current version, once."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient

from tests.server.play import act, finish, new_game, state
from warbench.server.store import StaleVersion, Store


def _unchanged(client: TestClient, game: str, before: dict[str, object]) -> None:
    after = state(client, game)
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]
    assert after["log"] == before["log"]


def test_a_seat_acts_only_at_its_own_decision(client: TestClient) -> None:
    game, tokens = new_game(client)
    before = state(client, game)
    assert before["pending"]["player"] == "red"
    legal = state(client, game, "red", tokens["red"])["legal"]
    reply = act(client, game, "blue", tokens["blue"], 0, legal[0])
    assert reply.status_code == 403
    assert "it is red's decision now" in reply.json()["detail"]
    _unchanged(client, game, before)


def test_forged_missing_or_borrowed_tokens_are_refused(client: TestClient) -> None:
    game, tokens = new_game(client)
    before = state(client, game)
    legal = state(client, game, "red", tokens["red"])["legal"]
    for token in ("", "x" * 43, tokens["blue"], tokens["red"][:-1]):
        reply = act(client, game, "red", token, 0, legal[0])
        assert reply.status_code == 403, token
        assert reply.json()["detail"] == "a valid token for seat red is needed"
    missing = client.post(
        f"/api/games/{game}/actions", json={"seat": "red", "version": 0, "action": legal[0]}
    )
    assert missing.status_code == 422
    assert client.get(f"/api/games/{game}", params={"seat": "red"}).status_code == 403
    _unchanged(client, game, before)


def test_the_ai_seat_has_no_token_to_act_with(client: TestClient) -> None:
    game, tokens = new_game(client, blue="ai")
    reply = act(client, game, "blue", tokens["red"], 0, "pass")
    assert reply.status_code == 403
    assert "played by the server's ai" in reply.json()["detail"]
    assert "blue" not in tokens


def test_a_stale_version_is_refused(client: TestClient) -> None:
    game, tokens = new_game(client)
    legal = state(client, game, "red", tokens["red"])["legal"]
    assert act(client, game, "red", tokens["red"], 0, legal[0]).status_code == 200
    before = state(client, game)
    reply = act(client, game, "red", tokens["red"], 0, legal[1])
    assert reply.status_code == 409
    assert reply.json()["detail"] == "stale version 0: the game is at version 1"
    _unchanged(client, game, before)


def test_illegal_and_malformed_actions_change_nothing(client: TestClient) -> None:
    game, tokens = new_game(client)
    before = state(client, game)
    illegal = act(client, game, "red", tokens["red"], 0, "place Recon H8")
    assert illegal.status_code == 400
    assert "illegal action 'place Recon H8'" in illegal.json()["detail"]
    malformed = act(client, game, "red", tokens["red"], 0, "fly r1 to the moon")
    assert malformed.status_code == 400
    assert "unknown action 'fly'; allowed now: place KIND TO (at" in malformed.json()["detail"]
    _unchanged(client, game, before)


def test_unknown_game_seat_and_ruleset_are_named(client: TestClient) -> None:
    assert client.get("/api/games/nope").json() == {"detail": "no game 'nope'"}
    game, tokens = new_game(client)
    reply = act(client, game, "green", tokens["red"], 0, "pass")
    assert reply.status_code == 404
    assert reply.json()["detail"] == "no seat 'green'; seats: red, blue"
    bad = client.post("/api/games", json={"ruleset": "chess", "seats": {}})
    assert bad.status_code == 400 and "no ruleset 'chess'" in bad.json()["detail"]
    path = client.post(
        "/api/games", json={"ruleset": "ttt", "scenario": "/etc/passwd.yaml", "seats": {}}
    )
    assert path.status_code == 400 and "shipped:" in path.json()["detail"]


def test_an_action_after_the_game_is_over_is_refused_everywhere(client: TestClient) -> None:
    game, tokens = new_game(client, blue="ai")
    end = finish(client, game, "red", tokens["red"])
    assert end["result"] is not None
    reply = act(client, game, "red", tokens["red"], end["version"], "end")
    assert reply.status_code == 409
    assert reply.json()["detail"].startswith("the game is over (result: ")
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_json({"type": "hello", "seat": "red", "token": tokens["red"]})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "action", "version": end["version"], "action": "end"})
        error = ws.receive_json()
    assert error["type"] == "error" and error["status"] == 409
    assert state(client, game)["version"] == end["version"]


def test_two_conflicting_actions_at_one_version_commit_once(client: TestClient) -> None:
    game, tokens = new_game(client)
    legal = state(client, game, "red", tokens["red"])["legal"]
    replies: list[int] = []

    def send(action: str) -> None:
        replies.append(act(client, game, "red", tokens["red"], 0, action).status_code)

    threads = [threading.Thread(target=send, args=(a,)) for a in (legal[0], legal[-1])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(replies) == [200, 409]
    assert state(client, game)["version"] == 1


def test_the_store_commits_one_action_per_version(client: TestClient, db: object) -> None:
    game, tokens = new_game(client)
    legal = state(client, game, "red", tokens["red"])["legal"]
    act(client, game, "red", tokens["red"], 0, legal[0])
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    assert isinstance(store, Store)
    first = store.steps(game)[0]
    try:
        store.append(game, 0, first.step, None, "x", None)
    except StaleVersion as err:
        assert str(err) == "the game is at version 1, not 0"
    else:
        raise AssertionError("a second action at version 0 was committed")
    assert len(store.steps(game)) == 1


def test_a_resent_action_with_the_same_key_applies_once(client: TestClient) -> None:
    game, tokens = new_game(client)
    legal = state(client, game, "red", tokens["red"])["legal"]
    first = act(client, game, "red", tokens["red"], 0, legal[0], key="k-1")
    again = act(client, game, "red", tokens["red"], 0, legal[0], key="k-1")
    assert first.status_code == again.status_code == 200
    assert first.json()["duplicate"] is False and again.json()["duplicate"] is True
    assert state(client, game)["version"] == 1
    other = act(client, game, "red", tokens["red"], 1, legal[-1], key="k-1")
    assert other.status_code == 409
    assert "already used for another action" in other.json()["detail"]
    assert state(client, game)["version"] == 1
