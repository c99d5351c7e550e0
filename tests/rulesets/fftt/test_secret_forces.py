"""GAME STEPS, "write secretly the race and composition of your force as well as flanking
forces" (R48): in `behind-the-screen` each player chooses one of its lists at the `force`
step (after the table, the scenery and the side, as the rulebook orders them), and nothing
the other player or a spectator gets (the lobby's listing, views, the scene, events, errors,
legal actions) tells which before the screen comes down. The planted markers are flanking
force labels written into every list, and the chosen race's own words."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from warbench.ai.search import Budget, SearchAgent
from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.dice import SeededDice
from warbench.core.game import Decision, Game, IllegalAction
from warbench.core.ruleset import Agent
from warbench.rulesets.fftt.actions import (
    Charge,
    ChooseTable,
    Deploy,
    Shoot,
    Surrender,
    WriteForce,
)
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.profiles import forces
from warbench.rulesets.fftt.random_agent import RandomAgent
from warbench.rulesets.fftt.scenario import validate
from warbench.rulesets.fftt.state import other

RULESET = registry.get("fftt")
SCREEN = "behind-the-screen"
RACES = ("marines", "machina", "insectoids")
SETUP = ("table", "scenery", "side")


def _game(seed: int, scenario: dict[str, Any] | None = None) -> FFTTGame:
    g = RULESET.new_game(scenario or RULESET.load_scenario(SCREEN), seed)
    assert isinstance(g, FFTTGame)
    return g


def _markers(race: str, against: str) -> set[str]:
    """Words that name `race` and not `against`: its name and its own profiles' names."""
    own = {p.name.lower() for p in forces()[race].values()}
    theirs = {p.name.lower() for p in forces()[against].values()} if against else set()
    return {race} | {name for name in own - theirs if len(name) > 2}  # "mt" is in words


def _sent_to(game: Game, viewer: str | None, *, lists: bool = True) -> str:
    """Everything `viewer` gets now: the view, the scene, the events, its legal actions;
    without its own lists to write from if not `lists` (they name every race)."""
    scene = RULESET.scene(game, viewer)
    view = game.view(viewer)
    actions = game.legal_actions(viewer) if viewer is not None else []
    if not lists:
        view.pop("lists", None)
        view.pop("compose", None)
        actions = [a for a in actions if not isinstance(a, WriteForce)]
    return "\n".join(
        [
            json.dumps(view),
            scene.title,
            *(f.label for f in scene.figures),
            *(e.text for e in game.log if e.seen_by(viewer)),
            *map(str, actions),
        ]
    ).lower()


class _Writes(Agent):
    """The AI, but writing down the given list for its side."""

    def __init__(self, seed: int, number: int) -> None:
        self._ai = TacticsAI(seed)
        self._number = number

    def choose(self, game: Game, player: str) -> Any:
        if game.pending.kind == "force":  # type: ignore[union-attr]
            (chosen,) = [
                a
                for a in game.legal_actions(player)
                if isinstance(a, WriteForce) and a.number == self._number
            ]
            return chosen
        return self._ai.choose(game, player)


def _play(
    game: FFTTGame, agents: Mapping[str, Agent], until: Callable[[FFTTGame], bool]
) -> FFTTGame:
    while isinstance(game.pending, Decision) and not until(game):
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    return game


def test_the_lobby_names_no_race_for_the_secret_battle() -> None:
    (info,) = [i for i in RULESET.scenarios() if i.id == SCREEN]
    listed = f"{info.id} {info.name} {info.summary}".lower()
    assert not [race for race in RACES if race in listed]
    # the matchup scenarios name theirs: the players agree the matchup (R48)
    matchup = next(i for i in RULESET.scenarios() if i.id == "marines-vs-machina")
    assert "marines" in matchup.id and "Machina" in matchup.summary


@pytest.mark.parametrize("seed", [0, 5])
def test_each_player_writes_one_of_its_lists_after_the_side_is_chosen(seed: int) -> None:
    g = _game(seed)
    attacker = g.state.attacker
    assert not [f for f in g.state.figs.values()]  # nothing written before the game steps
    kinds: list[tuple[str, str]] = []
    agents: dict[str, Agent] = {"red": _Writes(1, 2), "blue": _Writes(2, 3)}
    while g.state.stage != "deploy":
        pending = g.pending
        assert isinstance(pending, Decision)
        kinds.append((pending.kind, pending.player))
        if pending.kind == "force":
            mine = g.spec.lists(pending.player)
            offered = [WriteForce(n, f.race) for n, f in enumerate(mine, start=1)]
            assert g.legal_actions(pending.player) == [*offered, Surrender()]
            assert {str(a).split()[-1] for a in offered} == set(RACES)  # "force 2 machina"
            assert [d["force"] for d in g.view(pending.player)["lists"]] == [1, 2, 3]
            assert "lists" not in g.view(other(pending.player)) and "lists" not in g.view(None)
        g.apply(agents[pending.player].choose(g, pending.player), pending.player)
    defender = other(attacker)
    assert [k for k, _ in kinds] == [*SETUP, "force", "force"]
    assert kinds[3:] == [("force", attacker), ("force", defender)]
    assert g.state.races == {"red": "machina", "blue": "machina"}  # red's 2nd, blue's 3rd
    for side in ("red", "blue"):
        figs = [f for f in g.state.figs.values() if f.side == side]
        assert {f.race for f in figs} == {"machina"} and all(f.where != "table" for f in figs)
        (told,) = [e for e in g.log if e.kind == "setup" and e.visible_to == frozenset({side})]
        assert told.text.startswith("you write down force ")
        assert f"{side} writes down a force secretly" in [e.text for e in g.log if e.seen_by(None)]
    assert [f.side for f in g.state.figs.values()] == sorted(
        (f.side for f in g.state.figs.values()), key=("red", "blue").index
    )
    assert (g.pending.kind, g.pending.player) == ("deploy", attacker)  # type: ignore[union-attr]


def test_a_list_not_offered_is_refused_with_the_lists_and_changes_nothing() -> None:
    g = _play(
        _game(3), {p: TacticsAI(1) for p in ("red", "blue")}, lambda g: g.state.stage == "force"
    )
    player = g.pending.player  # type: ignore[union-attr]
    before = g.state_hash()
    for wrong in (WriteForce(4, "marines"), WriteForce(0, "marines"), WriteForce(1, "machina")):
        with pytest.raises(IllegalAction, match="not one of your lists; write one of: force 1 "):
            g.apply(wrong, player)
    allowed = "force NUMBER RACE, force-swap NUMBER RACE, compose RACE FIGURES WEST EAST"
    with pytest.raises(IllegalAction, match=f"allowed: {allowed}, surrender"):
        g.apply(Deploy(f"{player[0]}1", (50.0, 10.0)), player)
    with pytest.raises(IllegalAction, match=f"it is {player}'s decision now"):
        g.apply(WriteForce(1, g.spec.lists(other(player))[0].race), other(player))
    assert g.state_hash() == before
    assert g.parse("force 2 marines") == WriteForce(2, "marines")


def test_the_written_forces_replay_and_reload(tmp_path: Any) -> None:
    g = _play(
        _game(5), {"red": RandomAgent(1), "blue": RandomAgent(2)}, lambda g: g.state.turn == 2
    )
    path = tmp_path / "game.json"
    g.save(path)
    again = Game.load(path)
    assert again.state_hash() == g.state_hash()
    assert [s.action for s in again.steps if s.action.startswith("force ")] == [
        s.action for s in g.steps if s.action.startswith("force ")
    ]
    assert len([s for s in g.steps if s.action.startswith("force ")]) == 2


def test_the_ai_picks_its_table_before_any_race_then_writes_its_strongest_list() -> None:
    """R52: the AI's table is chosen before anything is written, so it cannot tell its race;
    then it writes the list of the race strongest against an unknown enemy, whatever the
    table: machina, or marines where it has no machina list."""
    tables: set[ChooseTable] = set()
    written: set[tuple[str, str]] = set()
    for seed in range(8):
        g = _game(seed)
        agents = {"red": TacticsAI(seed), "blue": TacticsAI(seed + 100)}
        assert g.state.stage == "table" and g.state.races == {"red": "", "blue": ""}
        attacker = g.state.attacker
        choice = agents[attacker].choose(g, attacker)
        assert isinstance(choice, ChooseTable)
        tables.add(choice)
        _play(g, agents, lambda g: g.state.stage == "deploy")
        written |= set(g.state.races.items())
    assert len(tables) == 1
    assert written == {("red", "machina"), ("blue", "machina")}
    data = RULESET.load_scenario(SCREEN)
    data["alternatives"]["red"] = data["alternatives"]["red"][1:]  # red: marines, insectoids
    g = _play(
        _game(0, data), {"red": TacticsAI(1), "blue": TacticsAI(2)}, lambda g: g.state.turn > 0
    )
    assert g.state.races == {"red": "marines", "blue": "machina"}


def _planted(scenario: dict[str, Any]) -> dict[str, Any]:
    """Every list of red's with its own marker as its flanking force's label."""
    data = copy.deepcopy(scenario)
    for n, force in enumerate([data["forces"]["red"], *data["alternatives"]["red"]], start=1):
        force["flanks"][0]["label"] = f"MARKER-red-list-{n}"
    return data


@pytest.mark.parametrize("seed", [0, 1, 5, 6])
def test_the_hidden_race_never_leaks_before_the_screen_comes_down(seed: int) -> None:
    g = _game(seed, _planted(RULESET.load_scenario(SCREEN)))
    agents = {"red": RandomAgent(seed), "blue": RandomAgent(seed + 1)}
    checked = 0
    while isinstance(g.pending, Decision) and not g.state.revealed:
        player = g.pending.player
        for viewer in ("blue", None):
            assert "marker-red-list" not in _sent_to(g, viewer)
        races = dict(g.state.races)
        for owner in ("red", "blue"):
            enemy = other(owner)
            if not races[owner] or races[owner] == races[enemy]:
                continue  # nothing written, or the same race on both sides: nothing to hide
            words = _markers(races[owner], races[enemy])
            for viewer in (enemy, None):
                # its own lists name every race: those are the enemy's own, not the secret
                sent = _sent_to(g, viewer, lists=False)
                assert not [w for w in words if w in sent], (owner, viewer, g.state.stage)
            # the errors the enemy gets, for acting out of turn or naming hidden figures
            hidden = next(f.id for f in g.state.figs.values() if f.side == owner)
            mine = next((f.id for f in g.state.figs.values() if f.side == enemy), "x1")
            tries: tuple[Action, ...] = (
                Deploy(hidden, (50.0, 50.0)),
                Shoot(mine, hidden),
                Charge(mine, hidden),
            )
            if player != enemy:  # writing out of turn (its own lists, in turn, name all races)
                tries += (WriteForce(2, races[owner]),)
            for action in tries:
                reason = (g.check(action, enemy) or "").lower()
                assert not [w for w in words if w in reason] and "marker" not in reason, reason
                checked += 1
        g.apply(agents[player].choose(g, player), player)
    assert g.state.revealed and checked
    for viewer in ("red", "blue", None):
        assert g.view(viewer)["races"] == g.state.races  # the screen is down: both are told


def _enemy_gets(game: FFTTGame, viewer: str | None, number: int) -> list[str]:
    """What `viewer` is sent at every step up to the screen coming down, red writing its list
    `number`; a repeat of the step before is left out (red's steps behind the screen change
    nothing the others see)."""
    agents: dict[str, Agent] = {"red": _Writes(7, number), "blue": TacticsAI(8)}
    tries = (WriteForce(3, "machina"), Deploy("r1", (5.0, 5.0)))
    return _seen_until_revealed(game, agents, viewer, tries)


def _seen_until_revealed(
    g: FFTTGame, agents: dict[str, Agent], viewer: str | None, tries: Sequence[Action] = ()
) -> list[str]:
    """Play `g` until the screen comes down, keeping each change in what `viewer` is sent
    (and, for a player, what checking `tries` tells it)."""
    seen: list[str] = []
    while isinstance(g.pending, Decision) and not g.state.revealed:
        text = _sent_to(g, viewer)
        if viewer is not None:
            text += "\n".join(g.check(a, viewer) or "" for a in tries)
        if not seen or seen[-1] != text:
            seen.append(text)
        player = g.pending.player
        g.apply(agents[player].choose(g, player), player)
    return seen


@pytest.mark.parametrize("viewer", ["blue", None])
def test_whichever_list_red_writes_blue_and_spectators_get_the_same(viewer: str | None) -> None:
    """Three games alike but for red's list: blue's views, scenes, events, legal actions and
    errors are the same in all of them until the screen comes down."""
    for seed in (0, 5):  # red defends, then red attacks (and writes first)
        games = [_game(seed) for _ in range(3)]
        runs = [_enemy_gets(g, viewer, number) for number, g in enumerate(games, start=1)]
        assert len(runs[0]) > 3
        assert runs[0] == runs[1] == runs[2]
        # the server counts every step: each list deploys twelve figures behind the screen
        assert len({len(g.steps) for g in games}) == 1


def test_alternatives_are_checked_like_the_forces() -> None:
    data = RULESET.load_scenario(SCREEN)
    data["alternatives"]["red"][0]["figures"].append({"profile": "grunt"})
    with pytest.raises(ValueError, match=r"red \(force 2\): machina have no 'grunt'"):
        validate(data, "test")
    data = RULESET.load_scenario(SCREEN)
    data["alternatives"]["green"] = data["alternatives"].pop("red")
    with pytest.raises(ValueError, match="alternatives may be given for red and blue"):
        validate(data, "test")


def test_a_side_with_one_list_writes_nothing_at_the_step() -> None:
    """The matchups have one list a side: no `force` step, the figures there from the start."""
    g = _game(4, RULESET.load_scenario("marines-vs-machina"))
    assert g.state.races == {"red": "marines", "blue": "machina"}
    _play(g, {p: TacticsAI(1) for p in ("red", "blue")}, lambda g: g.state.stage == "deploy")
    assert not [s for s in g.steps if s.action.startswith("force")]
    data = RULESET.load_scenario(SCREEN)
    del data["alternatives"]["blue"]
    data["compose"] = False  # with compose on, blue would write too (R54)
    one = _play(
        _game(3, data),
        {p: TacticsAI(1) for p in ("red", "blue")},
        lambda g: g.state.stage == "deploy",
    )
    assert [s.player for s in one.steps if s.action.startswith("force")] == ["red"]
    assert one.state.races["blue"] == "insectoids"


def test_determinise_samples_a_race_of_the_enemys_lists_never_the_written_one() -> None:
    data = RULESET.load_scenario(SCREEN)
    data["alternatives"]["red"] = data["alternatives"]["red"][:1]  # marines or machina
    sampled: set[str] = set()
    for number in (1, 2):
        g = _game(3, data)  # blue attacks: red writes second, then blue deploys
        agents: dict[str, Agent] = {"red": _Writes(1, number), "blue": TacticsAI(2)}
        _play(g, agents, lambda g: g.state.stage == "deploy")
        looks = []
        for dice in range(10):
            sim = RULESET.determinise(g, "blue", SeededDice(dice))
            assert isinstance(sim, FFTTGame)
            assert sim.view("blue") == g.view("blue")
            looks.append(sim.state_hash())
            sampled.add(sim.state.races["red"])
        if number == 1:
            first = looks
        else:
            assert looks == first  # red's true list changes nothing in blue's look-aheads
    assert sampled == {"marines", "machina"}


def test_determinise_before_the_enemy_writes_leaves_it_to_write() -> None:
    g = _game(5)  # red attacks: red writes first, blue not yet
    _play(g, {p: TacticsAI(1) for p in ("red", "blue")}, lambda g: g.state.stage == "force")
    assert g.pending.player == "red"  # type: ignore[union-attr]
    sim = RULESET.determinise(g, "red", SeededDice(4))
    assert isinstance(sim, FFTTGame)
    assert sim.state.races["blue"] == "" and not [f for f in sim.state.figs.values()]
    _play(sim, {p: TacticsAI(3) for p in ("red", "blue")}, lambda g: g.state.stage == "deploy")
    assert sim.state.races["blue"] in RACES


def test_the_search_agent_keeps_the_ais_list_as_nothing_is_fought_behind_the_screen() -> None:
    """Before the screen comes down every position is even (`evaluation.py`): a look-ahead
    cannot weigh lists by the HQs and scanners they hold, so search keeps the AI's list."""
    for seed in (0, 5):
        g = _game(seed)
        budget = Budget(lookaheads=4, horizon=6, candidates=3)
        agents = {"red": SearchAgent(1, budget), "blue": SearchAgent(2, budget)}
        _play(g, agents, lambda g: g.state.stage == "deploy")
        assert g.state.races == {"red": "machina", "blue": "machina"}
        assert RULESET.evaluate(g, "red") == RULESET.evaluate(g, "blue") == 0.0
