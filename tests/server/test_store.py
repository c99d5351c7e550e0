"""The store's group commit: appends from many threads at once share commits, and each is
still checked on its own — a stale one fails alone, two at one version: exactly one commits."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from warbench.core.record import Step
from warbench.server.store import GameRow, StaleVersion, Store


def row(game_id: str) -> GameRow:
    """A stored game with nothing in it but its id."""
    return GameRow(game_id, "ttt", "1", "s", {}, 1, "h", None, (), {}, 2, 0.0, "new", None)


def test_concurrent_appends_each_commit_or_fail_on_their_own(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    games = [f"g{i}" for i in range(12)]
    for game in games:
        store.create(row(game), {})
    # each game once at version 0; g0 a second time at 0 and g1 at a version it is not at
    appends = [(game, 0) for game in games] + [("g0", 0), ("g1", 5)]
    start = threading.Barrier(len(appends))
    outcomes: dict[int, str] = {}

    def append(index: int, game: str, number: int) -> None:
        start.wait()
        try:
            store.append(game, number, Step("red", f"pass {index}", (), None), None, "s", None)
            outcomes[index] = "committed"
        except StaleVersion:
            outcomes[index] = "stale"

    threads = [threading.Thread(target=append, args=(i, *a)) for i, a in enumerate(appends)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.close()
    again = Store(tmp_path / "games.sqlite")  # what is on disk
    assert all(len(again.steps(game)) == 1 for game in games)
    assert outcomes[len(games) + 1] == "stale"
    g0 = [outcomes[0], outcomes[len(games)]]
    assert sorted(g0) == ["committed", "stale"]
    assert list(outcomes.values()).count("committed") == len(games)
    again.close()


def test_a_stale_append_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    store.create(row("g"), {})
    with pytest.raises(StaleVersion, match="at version 0, not 3"):
        store.append("g", 3, Step("red", "pass", (), None), None, "s", None)
    assert store.steps("g") == []
    store.close()
