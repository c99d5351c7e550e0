"""The conformance suite: the game contract, checked on every registered ruleset and scenario.

Everything above the "Table Top Troopers specifics" line uses only the contract
(`warbench.core`), so a new ruleset is covered the moment it registers itself.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from warbench.core import registry
from warbench.core.actions import Action, MalformedAction
from warbench.core.dice import (
    DiceExhausted,
    DiceSource,
    RollRequest,
    ScriptedDice,
    SeededDice,
    exact_outcomes,
    resolve,
)
from warbench.core.events import Event
from warbench.core.game import Decision, Game, GameOver, IllegalAction
from warbench.core.ruleset import Agent, Ruleset

MAX_STEPS = 5000  # every shipped scenario must end well within this many actions
PLAYOUT_SEEDS = range(5)
SAMPLED_CHECKS = 12  # legal actions re-checked per decision
RESULT_LINE = re.compile(r"^result: (red|blue|draw) — .+")
SECRET_SEED = 987654321
MARKER = "ZQX-HIDDEN-MARKER-7731"

CASES = [
    pytest.param(ruleset.id, info.id, id=f"{ruleset.id}-{info.id}")
    for ruleset in registry.all_rulesets()
    for info in ruleset.scenarios()
]
RULESET_IDS = [ruleset.id for ruleset in registry.all_rulesets()]


def test_every_ruleset_ships_a_scenario() -> None:
    assert RULESET_IDS, "no ruleset registered"
    for ruleset in registry.all_rulesets():
        assert ruleset.scenarios(), f"{ruleset.id} ships no scenario"
        assert "random" in ruleset.agents()
        assert len(ruleset.players) >= 2
        assert registry.get(ruleset.id) is ruleset


# -- helpers -----------------------------------------------------------------------------


def _new_game(ruleset_id: str, scenario_id: str, seed: int) -> tuple[Ruleset, Game]:
    ruleset = registry.get(ruleset_id)
    return ruleset, ruleset.new_game(ruleset.load_scenario(scenario_id), seed)


def _agents(ruleset: Ruleset, seed: int) -> dict[str, Agent]:
    make = ruleset.agents()["random"]
    return {player: make(seed * 101 + i) for i, player in enumerate(ruleset.players)}


def _decisions(game: Game, agents: dict[str, Agent]) -> Iterator[tuple[Decision, Action]]:
    """Play to the end, yielding each decision and the agent's choice before applying it."""
    for _ in range(MAX_STEPS):
        pending = game.pending
        if isinstance(pending, GameOver):
            return
        action = agents[pending.player].choose(game, pending.player)
        yield pending, action
        game.apply(action, pending.player)
    raise AssertionError(f"no result after {MAX_STEPS} actions")


def _play(game: Game, agents: dict[str, Agent], steps: int | None = None) -> Game:
    """Play on with `agents` to the end, or until the game has `steps` steps."""
    for _ in range(MAX_STEPS):
        pending = game.pending
        if isinstance(pending, GameOver) or (steps is not None and len(game.steps) >= steps):
            return game
        game.apply(agents[pending.player].choose(game, pending.player), pending.player)
    raise AssertionError(f"no result after {MAX_STEPS} actions")


def _fingerprint(game: Game) -> tuple[str, int, int, object]:
    return game.state_hash(), len(game.steps), len(game.log), game.pending


def _assert_refused(game: Game, action: Action, player: str | None = None) -> str:
    """Applying `action` raises IllegalAction and changes nothing; returns the message."""
    before = _fingerprint(game)
    view = json.dumps(game.view(None), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        game.apply(action, player)
    assert _fingerprint(game) == before
    assert json.dumps(game.view(None), sort_keys=True) == view
    message = str(info.value)
    assert info.value.reason.strip(), f"empty reason for '{action}'"
    assert message.startswith(f"illegal action '{action}': ")
    assert game.check(action, player) == info.value.reason
    return message


# -- (a) random playouts with invariants after every action -----------------------------------


@pytest.mark.parametrize(("ruleset_id", "scenario_id"), CASES)
def test_random_playouts_keep_the_invariants(ruleset_id: str, scenario_id: str) -> None:
    for seed in PLAYOUT_SEEDS:
        ruleset, game = _new_game(ruleset_id, scenario_id, seed)
        agents = _agents(ruleset, seed)
        sampler = random.Random(seed)
        assert len(game.steps) == 0
        for number in range(MAX_STEPS):
            pending = game.pending
            if isinstance(pending, GameOver):
                break
            assert isinstance(pending, Decision)
            action = agents[pending.player].choose(game, pending.player)
            assert pending.player in ruleset.players
            assert pending.kind.strip()
            assert pending.prompt.strip()
            legal = game.legal_actions(pending.player)
            assert legal, f"{pending.player} has no legal action at {pending}"
            assert action in legal
            for other in ruleset.players:
                if other != pending.player:
                    assert game.legal_actions(other) == [], "only the pending player decides"
            for candidate in sampler.sample(legal, min(SAMPLED_CHECKS, len(legal))):
                assert game.check(candidate) is None, candidate
                assert game.check(candidate, pending.player) is None, candidate
                assert game.parse(str(candidate)) == candidate, "text form must round-trip"
            log_before = len(game.log)
            events = game.apply(action, pending.player)
            assert all(isinstance(e, Event) and e.text.strip() for e in events)
            assert game.log[log_before:] == events
            assert len(game.steps) == number + 1
            step = game.steps[-1]
            assert (step.player, step.action) == (pending.player, str(action))
            assert step.hash == game.state_hash()
            assert len(step.rolls) == sum(1 for e in events if e.roll is not None)
            assert isinstance(game.pending, Decision | GameOver)
        else:
            raise AssertionError(f"{scenario_id} seed {seed}: no result after {MAX_STEPS} actions")
        over = game.pending
        assert isinstance(over, GameOver)
        assert RESULT_LINE.match(over.line()), over.line()
        assert over.winner is None or over.winner in ruleset.players
        assert all(game.legal_actions(p) == [] for p in ruleset.players)
        assert game.record.result is not None


# -- (b) illegal and malformed actions change nothing ----------------------------------------


def _says_whose_turn(message: str, pending: Decision) -> bool:
    return pending.player in message


@pytest.mark.parametrize(("ruleset_id", "scenario_id"), CASES)
def test_illegal_and_malformed_actions_leave_the_state_unchanged(
    ruleset_id: str, scenario_id: str
) -> None:
    seed = 11
    ruleset, game = _new_game(ruleset_id, scenario_id, seed)
    agents = _agents(ruleset, seed)
    history: list[Action] = []
    stale_tried = wrong_player_tried = 0
    for pending, action in _decisions(game, agents):
        # the right action from the wrong player
        for other in ruleset.players:
            if other != pending.player:
                message = _assert_refused(game, action, other)
                assert _says_whose_turn(message, pending), message
                wrong_player_tried += 1
        # an action that was legal at an earlier decision and is not now
        for earlier in reversed(history[-8:]):
            if game.check(earlier) is not None:
                _assert_refused(game, earlier)
                _assert_refused(game, earlier, pending.player)
                stale_tried += 1
                break
        # text that spells no action
        before = _fingerprint(game)
        for garbage in ("", "xyzzy", "xyzzy plugh 12 ,,", f"{action} surplus-argument"):
            with pytest.raises(MalformedAction) as info:
                game.parse(garbage)
            assert str(info.value).strip()
        # the unknown verb's error names first the forms allowed now, the one chosen among them
        assert type(action) in game.allowed_now()
        with pytest.raises(MalformedAction, match=r"^unknown action 'xyzzy'; allowed now: "):
            game.parse("xyzzy")
        assert _fingerprint(game) == before
        history.append(action)

    assert wrong_player_tried > 0
    assert stale_tried > 0, "the playout never offered an action that had become illegal"
    over = game.pending
    assert isinstance(over, GameOver)
    for late in {*history[-3:], history[0]}:
        message = _assert_refused(game, late)
        assert "over" in message
        for player in ruleset.players:
            _assert_refused(game, late, player)


@dataclass(frozen=True)
class _Foreign(Action):
    """An action type no ruleset knows, spelled like a common verb."""

    verb = "pass"


def test_unknown_action_type_is_refused() -> None:
    for ruleset in registry.all_rulesets():
        info = ruleset.scenarios()[0]
        game = ruleset.new_game(ruleset.load_scenario(info.id), 3)
        message = _assert_refused(game, _Foreign())
        assert ruleset.id in message


# -- (c) save and load at a random mid-game decision ---------------------------------------------


@pytest.mark.parametrize(("ruleset_id", "scenario_id"), CASES)
def test_save_and_load_mid_game(ruleset_id: str, scenario_id: str, tmp_path: Path) -> None:
    seed = 5
    ruleset, full = _new_game(ruleset_id, scenario_id, seed)
    _play(full, _agents(ruleset, seed))
    length = len(full.steps)
    assert length >= 2
    stop = random.Random(scenario_id).randrange(1, length)

    _, game = _new_game(ruleset_id, scenario_id, seed)
    _play(game, _agents(ruleset, seed), steps=stop)
    pending = game.pending
    assert isinstance(pending, Decision)
    assert len(game.steps) == stop
    path = tmp_path / "mid.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.state_hash() == game.state_hash()
    assert loaded.pending == pending
    assert loaded.steps == game.steps
    for player in [*ruleset.players, None]:
        assert loaded.view(player) == game.view(player)
    for player in ruleset.players:
        assert loaded.legal_actions(player) == game.legal_actions(player)
    _play(game, _agents(ruleset, 77))
    _play(loaded, _agents(ruleset, 77))
    assert loaded.state_hash() == game.state_hash()
    assert loaded.record.to_json() == game.record.to_json()


@pytest.mark.parametrize(("ruleset_id", "scenario_id"), CASES)
def test_a_fork_plays_on_without_touching_its_game(ruleset_id: str, scenario_id: str) -> None:
    """What search agents rely on: a fork shares nothing mutable with the game it came from."""
    seed = 6
    ruleset, full = _new_game(ruleset_id, scenario_id, seed)
    halfway = len(_play(full, _agents(ruleset, seed)).steps) // 2
    _, game = _new_game(ruleset_id, scenario_id, seed)
    _, twin = _new_game(ruleset_id, scenario_id, seed)
    for played in (game, twin):
        _play(played, _agents(ruleset, seed), steps=halfway)
    assert isinstance(game.pending, Decision)
    before, view = _fingerprint(game), json.dumps(game.view(None), sort_keys=True)
    fork = game.fork(SeededDice(99))
    assert fork.state_hash() == game.state_hash()
    _play(fork, _agents(ruleset, 31), steps=5)
    assert fork.seed is None and len(fork.steps) == 5
    if isinstance(fork.pending, Decision):  # fill the fork's caches with its own position
        assert fork.legal_actions(fork.pending.player)
    assert _fingerprint(game) == before
    assert json.dumps(game.view(None), sort_keys=True) == view
    for player in ruleset.players:
        assert game.legal_actions(player) == twin.legal_actions(player)
    _play(fork, _agents(ruleset, 31))
    assert isinstance(fork.pending, GameOver)
    _play(game, _agents(ruleset, 77))
    _play(twin, _agents(ruleset, 77))
    assert game.record.to_json() == twin.record.to_json()


# -- (d) replay determinism ---------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset_id", "scenario_id"), CASES)
def test_replay_reproduces_the_game(ruleset_id: str, scenario_id: str) -> None:
    seed = 8
    ruleset, game = _new_game(ruleset_id, scenario_id, seed)
    _play(game, _agents(ruleset, seed))
    replayed = Game.replay(game.record)
    assert replayed.state_hash() == game.state_hash()
    assert [s.hash for s in replayed.steps] == [s.hash for s in game.steps]
    assert replayed.pending == game.pending
    assert [e.text for e in replayed.log] == [e.text for e in game.log]

    # the same seed and the same choices give the same game
    _, again = _new_game(ruleset_id, scenario_id, seed)
    _play(again, _agents(ruleset, seed))
    assert again.record.to_json() == game.record.to_json()

    # the recorded faces alone (no seed) reproduce it too
    rolls = [*game.setup_rolls, *(roll for step in game.steps for roll in step.rolls)]
    faces = [f for roll in rolls for f in roll]
    scripted = ruleset.new_game(ruleset.load_scenario(scenario_id), None, ScriptedDice(faces))
    for step in game.steps:
        scripted.apply(scripted.parse(step.action), step.player)
    assert scripted.state_hash() == game.state_hash()


# -- (e) views and events leak nothing --------------------------------------------------------


def _sent_to(game: Game, viewer: str | None, events: list[Event]) -> str:
    view = json.dumps(game.view(viewer), sort_keys=True)
    texts = [e.text for e in events if e.seen_by(viewer)]
    return view + "\n".join(texts)


@pytest.mark.parametrize(("ruleset_id", "scenario_id"), CASES)
def test_views_and_events_never_show_the_dice_seed(ruleset_id: str, scenario_id: str) -> None:
    ruleset, game = _new_game(ruleset_id, scenario_id, SECRET_SEED)
    viewers: list[str | None] = [*ruleset.players, None]
    secret = str(SECRET_SEED)
    for viewer in viewers:
        json.dumps(game.view(viewer))  # views are JSON data
    for pending, action in _decisions(game, _agents(ruleset, 1)):
        for viewer in viewers:
            assert secret not in _sent_to(game, viewer, [])
        other = next(p for p in ruleset.players if p != pending.player)
        with pytest.raises(IllegalAction) as info:
            game.apply(action, other)
        assert secret not in str(info.value)
    assert any(e.roll is not None for e in game.log), "the game must roll dice"
    for viewer in viewers:
        assert secret not in _sent_to(game, viewer, game.log)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_hidden_information_never_leaks(ruleset_id: str) -> None:
    """Plant a marker in one player's hidden data and look for it in everything others get.

    A ruleset with `hidden_information = True` implements `Ruleset.plant_hidden_marker`:
    the scenario with `marker` written into data only `owner` may see (a secret roster
    entry's name, a flanking force's label, an ambush marker). Then neither the other
    players' views, nor the spectator's, nor the events they are sent, nor any error text
    they receive may contain it, at any decision of a random playout.
    """
    ruleset = registry.get(ruleset_id)
    if not ruleset.hidden_information:
        pytest.skip(f"{ruleset_id} has no hidden information: every player sees everything")
    for info in ruleset.scenarios():
        scenario, owner = ruleset.plant_hidden_marker(ruleset.load_scenario(info.id), MARKER)
        game = ruleset.new_game(scenario, 21)
        others: list[str | None] = [p for p in ruleset.players if p != owner]
        others.append(None)
        for viewer in others:
            assert MARKER not in _sent_to(game, viewer, [])
        for pending, action in _decisions(game, _agents(ruleset, 21)):
            for viewer in others:
                assert MARKER not in _sent_to(game, viewer, [])
                if viewer is not None and viewer != pending.player:
                    # the error a player gets for acting out of turn tells nothing hidden
                    reason = game.check(action, viewer)
                    assert reason is not None
                    assert MARKER not in reason
        for viewer in others:
            assert MARKER not in _sent_to(game, viewer, game.log)


# -- (f) Table Top Troopers specifics: exact odds through the rules -------------------------------


class _AfterRecorded:
    """Replays the recorded faces of a game, then hands every further roll to `then`."""

    def __init__(self, faces: list[int], then: DiceSource) -> None:
        self._recorded = ScriptedDice(faces)
        self._then = then

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        if self._recorded.remaining:
            return self._recorded.faces(request)
        return self._then.faces(request)


def _to_hit(game: Game, attack: Action) -> RollRequest:
    """The to-hit roll request of a TTT attack, straight from the rules module."""
    from warbench.rulesets.ttt import attacking
    from warbench.rulesets.ttt.actions import Attack
    from warbench.rulesets.ttt.game import TTTGame

    assert isinstance(game, TTTGame)
    assert isinstance(attack, Attack)
    pieces = game.state.pieces
    return attacking.to_hit(game.table, pieces[attack.piece], pieces[attack.target])


def _ttt_attack_positions() -> list[tuple[Game, Action]]:
    """TTT games stopped at their first attack decision, with the attack that has the most
    modifiers (one position per scenario and seed)."""
    from warbench.rulesets.ttt.actions import Attack

    ruleset = registry.get("ttt")
    found: list[tuple[Game, Action]] = []
    for scenario_id in ("capture-the-crossing", "besiege-the-bunker", "sweep-the-settlement"):
        for seed in (1, 4):
            game = ruleset.new_game(ruleset.load_scenario(scenario_id), seed)
            for pending, _action in _decisions(game, _agents(ruleset, seed)):
                attacks = [a for a in game.legal_actions(pending.player) if isinstance(a, Attack)]
                if attacks:
                    best = max(attacks, key=lambda a: len(_to_hit(game, a).modifiers))
                    found.append((Game.replay(game.record), best))
                    break
    return found


def _hand_odds(request: RollRequest) -> Fraction:
    """TTT to hit: a 6 always hits, a 1 always misses, else d6 + modifiers > TBH."""
    assert request.target is not None
    hits = sum(
        1 for n in range(1, 7) if n == 6 or (n != 1 and n + request.modifier_total > request.target)
    )
    return Fraction(hits, 6)


def _request_odds(request: RollRequest) -> dict[bool | None, Fraction]:
    return exact_outcomes(lambda dice: resolve(request, dice.faces(request)).success)


def _engine_odds(game: Game, attack: Action) -> dict[bool, Fraction]:
    """Exact odds that `attack` takes its target out, run through the game itself: the game
    is rebuilt from its start with the recorded dice, then the attack is rolled exactly."""
    from warbench.rulesets.ttt.actions import Attack
    from warbench.rulesets.ttt.game import TTTGame

    assert isinstance(attack, Attack)
    record = game.record
    recorded = [f for step in record.steps for roll in step.rolls for f in roll]

    def attack_once(dice: DiceSource) -> bool:
        live = game.ruleset.new_game(record.scenario, record.seed, _AfterRecorded(recorded, dice))
        for step in record.steps:
            live.apply(live.parse(step.action), step.player)
        live.apply(attack)
        assert isinstance(live, TTTGame)
        return attack.target not in live.state.pieces

    return exact_outcomes(attack_once)


def test_ttt_attack_odds_exact_through_the_engine_and_by_monte_carlo() -> None:
    requests = []
    for game, attack in _ttt_attack_positions():
        request = _to_hit(game, attack)
        requests.append(request)
        odds = _request_odds(request)
        assert sum(odds.values()) == 1
        assert odds.get(True, Fraction(0)) == _hand_odds(request)
        assert _engine_odds(game, attack) == odds, str(attack)

        seeded = SeededDice(31337)
        trials = 20_000
        hits = sum(bool(resolve(request, seeded.faces(request)).success) for _ in range(trials))
        assert abs(hits / trials - float(odds.get(True, Fraction(0)))) < 0.02, str(attack)
    assert len(requests) >= 4
    assert len({r.label for r in requests}) > 1
    assert any(r.modifiers for r in requests), "some attack should carry a modifier"


def test_ttt_attack_whose_dice_run_out_changes_nothing() -> None:
    """A resolution that fails half way (the scripted dice run out at the to-hit roll) leaves
    the state, the log and the steps as they were, and the attack stays legal."""
    game, attack = _ttt_attack_positions()[0]
    record = game.record
    recorded = [f for step in record.steps for roll in step.rolls for f in roll]
    live = game.ruleset.new_game(
        record.scenario, record.seed, _AfterRecorded(recorded, ScriptedDice([]))
    )
    for step in record.steps:
        live.apply(live.parse(step.action), step.player)
    before = _fingerprint(live)
    with pytest.raises(DiceExhausted, match="to hit"):
        live.apply(attack)
    assert _fingerprint(live) == before
    assert live.check(attack) is None
    assert live.state_hash() == game.state_hash()


def test_ttt_illegal_messages_say_what_is_allowed() -> None:
    ruleset = registry.get("ttt")
    game = ruleset.new_game(ruleset.load_scenario("cap-the-capn"), 2)
    history: list[Action] = []
    seen: set[str] = set()
    helpful = re.compile(r"allowed|\bmay\b|\bcan\b|decision|your pieces in play")
    for _pending, action in _decisions(game, _agents(ruleset, 2)):
        for earlier in history[-8:]:
            reason = game.check(earlier)
            if reason is not None:
                seen.add(reason)
        history.append(action)
    assert len(seen) > 10
    unhelpful = sorted(r for r in seen if not helpful.search(r))
    assert unhelpful == [], unhelpful[:5]
