"""Records: JSON round trip, refusing what cannot be read, replay, and save/load mid-game."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from warbench.core import registry
from warbench.core.dice import RollRequest
from warbench.core.game import Decision, Game, GameOver, ReplayMismatch
from warbench.core.record import FORMAT, READABLE_VERSIONS, Record, RecordError, Step
from warbench.core.ruleset import Agent, Ruleset

SCENARIO = "capture-the-crossing"


def _ttt() -> Ruleset:
    return registry.get("ttt")


def _agents(ruleset: Ruleset, seed: int) -> dict[str, Agent]:
    make = ruleset.agents()["random"]
    return {player: make(seed * 10 + i) for i, player in enumerate(ruleset.players)}


def _step(game: Game, agents: dict[str, Agent]) -> None:
    pending = game.pending
    assert isinstance(pending, Decision)
    game.apply(agents[pending.player].choose(game, pending.player), pending.player)


def _play(
    game: Game, agents: dict[str, Agent], until: Callable[[Game], bool] | None = None
) -> Game:
    """Play with `agents` until `until(game)` holds or the game ends."""
    for _ in range(5000):
        if isinstance(game.pending, GameOver) or (until is not None and until(game)):
            return game
        _step(game, agents)
    raise AssertionError("game did not end in 5000 steps")


def _new(seed: int, scenario: str = SCENARIO) -> Game:
    ruleset = _ttt()
    return ruleset.new_game(ruleset.load_scenario(scenario), seed)


def _finished(seed: int = 4) -> Game:
    return _play(_new(seed), _agents(_ttt(), seed))


# -- JSON ---------------------------------------------------------------------------------


def _sample_record() -> Record:
    return Record(
        ruleset="ttt",
        ruleset_version="1",
        scenario={"id": "x", "nested": {"a": [1, 2]}},
        seed=42,
        initial_hash="abc",
        steps=[
            Step("red", "place Recon A1"),
            Step("blue", "attack b1 r1", ((4,),), "h1"),
            Step("red", "roll", ((1, 2), (6,)), None),
        ],
        result={"winner": "red", "reason": "r", "score": {}},
    )


def test_record_json_round_trip() -> None:
    record = _sample_record()
    data = record.to_json()
    assert data["format"] == FORMAT
    assert data["format_version"] in READABLE_VERSIONS
    assert Record.from_json(json.loads(json.dumps(data))) == record


def test_record_of_a_real_game_round_trips(tmp_path: Path) -> None:
    record = _finished().record
    assert record.result is not None
    assert any(step.rolls for step in record.steps)
    assert Record.from_json(json.loads(json.dumps(record.to_json()))) == record
    path = tmp_path / "game.json"
    record.write(path)
    assert Record.read(path) == record


@pytest.mark.parametrize("data", [None, [], "record", 3, {}, {"format": "chess-pgn"}])
def test_refuses_what_is_not_a_record(data: object) -> None:
    with pytest.raises(RecordError, match="not a warbench record"):
        Record.from_json(data)


@pytest.mark.parametrize("version", [0, 2, 99, "1", None])
def test_refuses_unknown_format_versions(version: object) -> None:
    data = _sample_record().to_json() | {"format_version": version}
    with pytest.raises(RecordError) as info:
        Record.from_json(data)
    message = str(info.value)
    assert repr(version) in message
    assert "cannot be read" in message
    assert "reads version " + ", ".join(str(v) for v in READABLE_VERSIONS) in message


def _damaged(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = _sample_record().to_json()
    change(data)
    return data


@pytest.mark.parametrize(
    "data",
    [
        _damaged(lambda d: d.pop("steps")),
        _damaged(lambda d: d.pop("ruleset")),
        _damaged(lambda d: d.pop("scenario")),
        _damaged(lambda d: d.update(steps=[{"player": "red"}])),
        _damaged(lambda d: d.update(steps=[{"player": "red", "action": "pass", "rolls": [["x"]]}])),
        _damaged(lambda d: d.update(steps=[{"player": "red", "action": "pass", "rolls": None}])),
        _damaged(lambda d: d.update(steps=None)),
        _damaged(lambda d: d.update(scenario=5)),
        _damaged(lambda d: d.update(seed="lucky")),
    ],
)
def test_refuses_damaged_records(data: dict[str, Any]) -> None:
    with pytest.raises(RecordError, match="damaged"):
        Record.from_json(data)


def test_read_refuses_files_that_are_not_json(tmp_path: Path) -> None:
    """It said "cannot read PATH: [Errno 2] No such file or directory: 'PATH'", and the CLI
    put the path before that once more."""
    path = tmp_path / "bad.json"
    path.write_text("{ not json")
    with pytest.raises(RecordError) as info:
        Record.read(path)
    assert str(info.value) == (
        "not a record: not JSON (line 1, column 3: Expecting property name enclosed in double "
        "quotes); a record is the JSON file `warbench play --save FILE` writes"
    )
    with pytest.raises(RecordError) as info:
        Record.read(tmp_path / "missing.json")
    assert str(info.value) == "cannot read the record: No such file or directory"
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(RecordError, match=r"^not a record: not UTF-8 text \(byte 8\)$"):
        Record.read(path)


# -- replay -------------------------------------------------------------------------------


def test_replay_reproduces_every_state_hash() -> None:
    game = _finished()
    record = game.record
    assert all(step.hash for step in record.steps)
    replayed = Game.replay(record)
    assert [s.hash for s in replayed.steps] == [s.hash for s in record.steps]
    assert replayed.steps == game.steps
    assert replayed.state_hash() == game.state_hash()
    assert isinstance(replayed.pending, GameOver)
    assert replayed.pending == game.pending
    for upto in (0, 1, len(record.steps) // 2):
        partial = Game.replay(record, upto=upto)
        assert len(partial.steps) == upto
        assert partial.steps == game.steps[:upto]


def test_replay_of_recorded_faces_without_seed() -> None:
    """A record without a seed replays its recorded faces."""
    record = dataclasses.replace(_finished().record, seed=None)
    replayed = Game.replay(record)
    assert [s.hash for s in replayed.steps] == [s.hash for s in record.steps]


def _first_roll(record: Record) -> int:
    return next(i for i, step in enumerate(record.steps) if step.rolls)


def _tampered(record: Record, index: int, step: Step) -> Record:
    steps = list(record.steps)
    steps[index] = step
    return dataclasses.replace(record, steps=steps)


def test_tampered_rolls_raise_replay_mismatch_naming_the_step() -> None:
    record = _finished().record
    index = _first_roll(record)
    step = record.steps[index]
    face = step.rolls[0][0]
    bad = (((face % 6) + 1, *step.rolls[0][1:]), *step.rolls[1:])
    with pytest.raises(
        ReplayMismatch, match=re.escape(f"step {index + 1} '{step.action}'")
    ) as info:
        Game.replay(_tampered(record, index, dataclasses.replace(step, rolls=bad)))
    assert "dice" in str(info.value)
    assert "differ" in str(info.value)


def test_tampered_action_raises_replay_mismatch_naming_the_step() -> None:
    record = _finished().record
    index = 3
    step = record.steps[index]
    bad = dataclasses.replace(step, action="move nobody A1")
    with pytest.raises(ReplayMismatch, match=f"step {index + 1} 'move nobody A1'"):
        Game.replay(_tampered(record, index, bad))
    garbage = dataclasses.replace(step, action="teleport r1")
    with pytest.raises(ReplayMismatch, match=f"step {index + 1} 'teleport r1'"):
        Game.replay(_tampered(record, index, garbage))


def test_tampered_hash_raises_replay_mismatch() -> None:
    record = _finished().record
    step = record.steps[5]
    with pytest.raises(ReplayMismatch, match=r"step 6 .*state hash differs"):
        Game.replay(_tampered(record, 5, dataclasses.replace(step, hash="0" * 64)))
    with pytest.raises(ReplayMismatch, match="initial state"):
        Game.replay(dataclasses.replace(record, initial_hash="0" * 64))


def test_different_seed_is_caught_at_the_first_roll() -> None:
    record = _finished().record
    with pytest.raises(ReplayMismatch, match=f"step {_first_roll(record) + 1} "):
        Game.replay(dataclasses.replace(record, seed=(record.seed or 0) + 1))


def test_other_ruleset_version_is_refused() -> None:
    record = dataclasses.replace(_finished().record, ruleset_version="0-old")
    with pytest.raises(RecordError) as info:
        Game.replay(record)
    message = str(info.value)
    assert "version 0-old" in message
    assert f"version {_ttt().version}" in message
    assert "ttt" in message


def test_unknown_ruleset_is_refused_naming_the_known_ones() -> None:
    record = dataclasses.replace(_finished().record, ruleset="no-such-rules")
    with pytest.raises((RecordError, KeyError), match="no-such-rules") as info:
        Game.replay(record)
    assert "ttt" in str(info.value)


# -- save and load in the middle of a game ----------------------------------------------------


def _kind(kind: str) -> Callable[[Game], bool]:
    def at(game: Game) -> bool:
        pending = game.pending
        return isinstance(pending, Decision) and pending.kind == kind and len(game.steps) > 0

    return at


def _after_some_attacks(game: Game) -> bool:
    rolled = sum(1 for step in game.steps if step.rolls)
    return _kind("attack")(game) and rolled >= 2


@pytest.mark.parametrize(
    ("scenario", "seed", "where"),
    [
        (SCENARIO, 4, _kind("place")),
        (SCENARIO, 4, _kind("move")),
        (SCENARIO, 4, _kind("attack")),
        (SCENARIO, 4, _after_some_attacks),
        ("besiege-the-bunker", 1, _after_some_attacks),
        ("cap-the-capn", 2, _kind("move")),
    ],
    ids=["placement", "move", "attack", "attack-after-rolls", "bunker-attack", "capn-move"],
)
def test_save_and_load_mid_game(
    tmp_path: Path, scenario: str, seed: int, where: Callable[[Game], bool]
) -> None:
    ruleset = _ttt()
    game = _play(_new(seed, scenario), _agents(ruleset, seed), until=where)
    pending = game.pending
    assert isinstance(pending, Decision), "the scripted game must reach the decision"
    assert where(game)
    path = tmp_path / "save.json"
    game.save(path)
    loaded = Game.load(path)

    assert loaded.state_hash() == game.state_hash()
    assert loaded.pending == pending
    assert loaded.steps == game.steps
    for player in ruleset.players:
        assert loaded.legal_actions(player) == game.legal_actions(player)
    assert loaded.view(pending.player) == game.view(pending.player)

    # both go on with the same choices; the dice continue the seeded sequence in both
    _play(game, _agents(ruleset, 99))
    _play(loaded, _agents(ruleset, 99))
    final: object = loaded.pending
    assert isinstance(final, GameOver)
    assert final == game.pending
    assert loaded.state_hash() == game.state_hash()
    assert loaded.record.to_json() == game.record.to_json()
    assert any(step.rolls for step in loaded.steps[len(Record.read(path).steps) :])


def test_loaded_game_rolls_the_same_dice_as_the_original() -> None:
    """The seeded dice of a loaded game are where the original's are, not back at the start."""
    ruleset = _ttt()
    game = _play(_new(4), _agents(ruleset, 4), until=_after_some_attacks)
    loaded = Game.replay(game.record)
    probe = RollRequest("probe", dice=20)
    assert loaded.dice.faces(probe) == game.dice.faces(probe)


def test_unseeded_game_can_be_saved_loaded_and_played_on(tmp_path: Path) -> None:
    ruleset = _ttt()
    game = ruleset.new_game(ruleset.load_scenario(SCENARIO), None)
    _play(game, _agents(ruleset, 4), until=_after_some_attacks)
    path = tmp_path / "unseeded.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.state_hash() == game.state_hash()
    _play(loaded, _agents(ruleset, 99))
    assert isinstance(loaded.pending, GameOver)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_damaged(lambda d: d.update(scenario="skirmish")), "scenario is not a mapping of fields"),
        (_damaged(lambda d: d.pop("scenario")), "scenario is not a mapping of fields"),
        (_damaged(lambda d: d.update(steps=[{"player": "red"}])), "the field 'action' is missing"),
        (_damaged(lambda d: d.pop("ruleset")), "the field 'ruleset' is missing"),
        (
            _damaged(lambda d: d.update(steps=[{"player": "red", "action": "x", "rolls": 5}])),
            "steps are {player, action, rolls} with every roll a list of whole numbers"
            " ('int' object is not iterable)",
        ),
    ],
)
def test_damage_is_named_in_words(data: dict[str, Any], message: str) -> None:
    """Python's reprs (`KeyError('rolls')`, "dictionary update sequence element #0") were
    what a user who hand-edited a record was told."""
    with pytest.raises(RecordError) as info:
        Record.from_json(data)
    assert str(info.value) == f"record is damaged: {message}"
