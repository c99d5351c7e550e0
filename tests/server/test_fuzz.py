"""Malformed input, fuzzed: never a server error, never a change of state."""

from __future__ import annotations

import json
import math

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.server.play import new_game, state

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner),
    max_leaves=6,
)
fields = st.fixed_dictionaries(
    {},
    optional={
        "seat": st.one_of(st.sampled_from(["red", "blue", ""]), values),
        "token": values,
        "version": st.one_of(st.integers(-3, 3), values),
        "action": st.one_of(st.sampled_from(["end", "move r1 A1", "place", " "]), values),
        "key": values,
    },
)
bodies = st.one_of(fields, values)
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(body=bodies)
def test_fuzzed_action_bodies(client: TestClient, body: object) -> None:
    game, _ = new_game(client, scenario="cap-the-capn")
    before = state(client, game)
    reply = client.post(f"/api/games/{game}/actions", content=json.dumps(body))
    assert 400 <= reply.status_code < 500, reply.text
    assert isinstance(reply.json()["detail"], str | list)
    assert state(client, game) == before


@SETTINGS
@given(text=st.one_of(st.text(max_size=60), bodies.map(json.dumps)))
def test_fuzzed_action_text_from_the_right_seat(client: TestClient, text: str) -> None:
    game, tokens = new_game(client, scenario="cap-the-capn")
    before = state(client, game)
    body = {"seat": "red", "token": tokens["red"], "version": 0, "action": text}
    reply = client.post(f"/api/games/{game}/actions", json=body)
    if reply.status_code == 200:  # the fuzz spelled a legal action: it applied exactly once
        assert state(client, game)["version"] == 1
    else:
        assert 400 <= reply.status_code < 500, reply.text
        assert state(client, game) == before


@SETTINGS
@given(messages=st.lists(st.one_of(st.text(max_size=40), bodies.map(json.dumps)), max_size=4))
def test_fuzzed_websocket_messages(client: TestClient, messages: list[str]) -> None:
    game, tokens = new_game(client, scenario="cap-the-capn")
    before = state(client, game)
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_json({"type": "hello", "seat": "blue", "token": tokens["blue"]})
        assert ws.receive_json()["type"] == "state"
        for text in messages:
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] in ("error", "state"), reply
    assert state(client, game) == before


@SETTINGS
@given(
    ask=st.one_of(
        st.fixed_dictionaries({"piece": st.one_of(st.text(max_size=45), values)}),
        st.fixed_dictionaries({"action": st.one_of(st.text(max_size=60), values)}),
        st.fixed_dictionaries({"path": st.one_of(st.text(max_size=60), values)}),
        values,
    )
)
@example(ask=math.inf)  # not JSON: sent as `Infinity`, which the server must refuse cleanly
def test_fuzzed_previews_from_the_right_seat(client: TestClient, ask: object) -> None:
    game, tokens = new_game(client, scenario="cap-the-capn")
    before = state(client, game)
    body = {"seat": "red", "token": tokens["red"], "version": 0}
    sent = body | ask if isinstance(ask, dict) else ask
    reply = client.post(f"/api/games/{game}/preview", content=json.dumps(sent))  # Infinity too
    assert reply.status_code < 500, reply.text
    assert state(client, game) == before
