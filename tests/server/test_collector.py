"""The garbage collector and the live games (hub.py's docstring, docs/server.md "Load"):
after each action what lives is frozen out of the collector's passes, and every
`SWEEP_EVERY` actions what was frozen and has died since is collected."""

from __future__ import annotations

import gc
import weakref

import pytest
from fastapi.testclient import TestClient

from tests.server.play import act, new_game, state
from warbench.server import hub


class Node:
    """An object that refers to itself: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


def play_one(client: TestClient, game: str, tokens: dict[str, str]) -> None:
    now = state(client, game)
    seat = now["pending"]["player"]
    legal = state(client, game, seat, tokens[seat])["legal"]
    assert act(client, game, seat, tokens[seat], now["version"], legal[0]).status_code == 200


def test_an_action_freezes_what_lives(client: TestClient) -> None:
    game, tokens = new_game(client)
    gc.unfreeze()
    play_one(client, game, tokens)
    assert gc.get_freeze_count() > 0


def test_the_sweep_collects_cycles_that_died_frozen(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, tokens = new_game(client)
    node = Node()
    ref = weakref.ref(node)
    gc.freeze()
    del node
    gc.collect()
    assert ref() is not None  # frozen: no pass looks at it
    monkeypatch.setattr(hub, "SWEEP_EVERY", 1)
    play_one(client, game, tokens)
    assert ref() is None
