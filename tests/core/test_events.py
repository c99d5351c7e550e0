"""Events: a roll's words worked out when first read, events as values, unhashed games."""

from __future__ import annotations

import pickle

import pytest

from warbench.core import registry
from warbench.core.dice import Read, RollRequest, resolve
from warbench.core.events import Event
from warbench.core.game import unhashed

REQUEST = RollRequest("to hit", target=4, read=Read.AT_LEAST, modifiers=(("cover", -1),))


def test_a_roll_event_without_text_reads_as_its_roll_explained() -> None:
    roll = resolve(REQUEST, (5,))
    event = Event("roll", None, None, roll)
    worded = "to hit: d6 rolled 5 -1 cover = 4, needs 4 or more: success"
    assert event.text == roll.explain() == worded


def test_events_are_values_whether_worded_now_or_later() -> None:
    roll = resolve(REQUEST, (2,))
    later, now = Event("roll", None, None, roll), Event("roll", roll.explain(), None, roll)
    assert later == now and hash(later) == hash(now)
    assert later != Event("roll", roll.explain(), frozenset({"red"}), roll)
    assert pickle.loads(pickle.dumps(later)) == now
    assert "needs 4 or more: failure" in repr(later)


def test_an_event_needs_words_or_a_roll() -> None:
    with pytest.raises(ValueError, match="needs a text or a roll"):
        Event("move", None)


def test_a_game_logs_every_roll_with_its_explanation() -> None:
    rs = registry.get("gff")  # its set-up rolls the table, the objectives and the roll-off
    game = rs.new_game(rs.load_scenario(rs.scenarios()[0].id), 3)
    worded = [(e.text, e.roll.explain()) for e in game.log if e.roll is not None]
    assert len(worded) > 100 and all(text == explained for text, explained in worded)


def test_unhashed_games_keep_no_hashes_and_play_the_same_dice() -> None:
    rs = registry.get("tftww2")
    data = rs.load_scenario(rs.scenarios()[0].id)
    hashed = rs.new_game(dict(data), 7)
    with unhashed():
        quiet = rs.new_game(dict(data), 7)
    again = rs.new_game(dict(data), 7)  # the switch ends with the block
    assert hashed.track_hashes and again.track_hashes and not quiet.track_hashes
    assert quiet.record.initial_hash is None and hashed.record.initial_hash
    assert quiet.setup_rolls == hashed.setup_rolls
    assert quiet.state_hash() == hashed.state_hash()
