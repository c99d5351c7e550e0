"""GAME STEPS, "Write secretly the race and composition of your force as well as flanking
forces if any" (R54): at the `force` step a player may write a list with its flanking forces
by the other flanks (`force-swap`) or, where the scenario allows (`behind-the-screen`), a
force of its own (`compose`): its race, its figures by profile within the agreed force
points, flanking forces of at most a quarter a flank, an HQ for marines and machina. Bad
ones are refused naming what is wrong and what is allowed, changing nothing; a written
force is kept by the record and its reload, and nothing the other player or a spectator
gets tells it, whatever its size, before the screen comes down."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.fftt.test_secret_forces import (
    RULESET,
    SCREEN,
    _game,
    _play,
    _seen_until_revealed,
)
from warbench.core.actions import Action
from warbench.core.game import Decision, Game, IllegalAction
from warbench.core.ruleset import Agent
from warbench.rulesets.fftt.actions import Compose, Deploy, WriteForce, WriteForceSwapped
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.game import FFTTGame

OWN = Compose("marines", "hq,engineer,grunt*6", "Alpha:grunt*3,grenadier", "-")


class _Composes(Agent):
    """The AI, but writing down `action` for its side at the `force` step."""

    def __init__(self, seed: int, action: Action) -> None:
        self._ai = TacticsAI(seed)
        self._action = action

    def choose(self, game: Game, player: str) -> Any:
        if game.pending.kind == "force":  # type: ignore[union-attr]
            return self._action
        return self._ai.choose(game, player)


def _at_force(seed: int, data: dict[str, Any] | None = None) -> FFTTGame:
    """A game at its first `force` step, the AI having chosen the table, scenery and side."""
    agents = {p: TacticsAI(1) for p in ("red", "blue")}
    return _play(_game(seed, data), agents, lambda g: g.state.stage == "force")


def test_a_player_writes_a_force_of_its_own_and_fights_with_it() -> None:
    g = _at_force(5)  # red attacks and writes first
    assert g.pending.player == "red"  # type: ignore[union-attr]
    assert OWN not in g.legal_actions("red")  # typed, like an exact point: the AI keeps lists
    help_ = g.view("red")["compose"]
    assert help_["force_points"] == 20 and help_["flank_most"] == 5
    assert help_["profiles"]["marines"]["engineer"] == 3 and set(help_["profiles"]) == {
        "marines",
        "machina",
        "insectoids",
    }
    assert "compose" not in g.view("blue") and "compose" not in g.view(None)
    board = RULESET.board_text(g)  # the prompt's `board` shows what a composition may hold
    assert "or your own, compose RACE FIGURES WEST EAST (20 FP, at most 5 a flank)" in board
    assert g.parse(str(OWN)) == OWN
    g.apply(OWN, "red")
    red = [f for f in g.state.figs.values() if f.side == "red"]
    assert [f.key for f in red if f.flank is None] == ["hq", "engineer", *["grunt"] * 6]
    (flank,) = [f for f in g.state.flanks if f.side == "red"]
    assert (flank.flank, flank.label) == ("west", "Alpha")
    assert [g.state.figs[i].key for i in flank.figures] == ["grunt"] * 3 + ["grenadier"]
    told = [e.text for e in g.log if e.visible_to == frozenset({"red"})]
    assert told[-1] == (
        "you write down a force of your own, marines (15 FP): HQ, Engineer, 6 Grunt; "
        "flanking force 'Alpha' (west): 3 Grunt, Grenadier"
    )
    assert g.log[-2].text == "red writes down a force secretly" and g.log[-2].visible_to is None
    agents = {"red": TacticsAI(3), "blue": TacticsAI(4)}
    _play(g, agents, lambda g: False)
    assert not isinstance(g.pending, Decision)  # fought to the end
    entered = [g.state.figs[i].where for i in flank.figures]
    assert all(w in ("table", "dead") for w in entered)


def test_insectoids_need_no_hq_and_a_flank_may_be_east_only() -> None:
    g = _at_force(5)
    g.apply(Compose("insectoids", "queen,stinger*4", "-", "drone*2,bomb_bug*3"), "red")
    assert g.state.races["red"] == "insectoids"
    (flank,) = [f for f in g.state.flanks if f.side == "red"]
    assert (flank.flank, flank.label, len(flank.figures)) == ("east", "flanking force", 5)


def test_a_list_with_its_flanking_force_sent_by_the_other_flank() -> None:
    g = _at_force(5)
    g.apply(WriteForceSwapped(2, "machina"), "red")
    (flank,) = [f for f in g.state.flanks if f.side == "red"]
    listed = g.spec.lists("red")[1].flanks[0]
    assert (flank.flank, flank.label) == ("east", listed.label) and listed.flank == "west"
    assert [g.state.figs[i].key for i in flank.figures] == [f.profile for f in listed.figures]
    told = [e.text for e in g.log if e.visible_to == frozenset({"red"})][-1]
    assert told.startswith("you write down force 2 with its flanking forces swapped, machina")
    assert "'Hunter pack' (east)" in told
    assert g.log[-2].text == "red writes down a force secretly"


BAD = [
    (Compose("orks", "hq", "-", "-"), "'orks' is not a race you may write; yours: marines, "),
    (
        Compose("marines", "hq,tank", "-", "-"),
        "FIGURES: 'tank' is not a profile of the marines; they have: hq (1 FP), engineer (3 FP)",
    ),
    (Compose("marines", "hq,grunt*0", "-", "-"), "'grunt*0': write PROFILE or PROFILE*COUNT"),
    (Compose("marines", "hq,grunt*x", "-", "-"), "COUNT from 1 to 20"),
    (Compose("marines", "hq,grunt*999999", "-", "-"), "COUNT from 1 to 20"),
    (Compose("marines", "hq,engineer*7", "-", "-"), "the force costs 22 FP, over the 20 agreed"),
    (
        Compose("marines", "hq,grunt", "grunt*6", "-"),
        "the west flanking force costs 6 FP; at most a quarter of the force, 5 FP",
    ),
    (
        Compose("marines", "hq,grunt", "-", "sniper*3"),
        "the east flanking force costs 6 FP; at most a quarter of the force, 5 FP",
    ),
    (Compose("machina", "tank,terminator", "-", "-"), "machina must have at least one HQ"),
    (Compose("marines", "grunt*4", "hq", "-"), "marines must have at least one HQ on the table"),
    (Compose("marines", "hq", "bad!label:grunt", "-"), "WEST: a flanking force's label is 1 to 40"),
    (Compose("marines", "hq", "Alpha:", "-"), "WEST: '' is not a profile of the marines; they"),
    (Compose("marines", "hq", "Alpha:tank", "-"), "grenadier (2 FP) (or - for no flanking force)"),
    (WriteForceSwapped(4, "marines"), "not one of your lists; write one of: force 1 marines"),
    (WriteForceSwapped(1, "machina"), "not one of your lists"),
]


@pytest.mark.parametrize(("action", "message"), BAD)
def test_a_bad_force_is_refused_naming_what_is_wrong_and_changes_nothing(
    action: Action, message: str
) -> None:
    g = _at_force(5)
    before, events = g.state_hash(), len(g.log)
    with pytest.raises(IllegalAction) as refused:
        g.apply(action, "red")
    assert message in str(refused.value)
    assert g.state_hash() == before and len(g.log) == events
    assert g.pending.kind == "force"  # type: ignore[union-attr]


def test_compositions_need_the_scenario_and_keep_a_matchups_race() -> None:
    data = RULESET.load_scenario(SCREEN)
    data["compose"] = False
    g = _at_force(5, data)
    with pytest.raises(IllegalAction, match="the scenario allows no composition of your own"):
        g.apply(OWN, "red")
    assert "compose" not in g.view("red")
    data["alternatives"]["red"][0]["flanks"] = []  # red's machina list: no flanking force
    g = _at_force(5, data)
    with pytest.raises(IllegalAction, match="force 2 has no flanking force to send by the other"):
        g.apply(WriteForceSwapped(2, "machina"), "red")
    matchup = RULESET.load_scenario("marines-vs-machina")
    matchup["compose"] = True  # a public race (R48): each side writes at the step, of its race
    g = _at_force(5, matchup)
    player = g.pending.player  # type: ignore[union-attr]
    race = g.spec.lists(player)[0].race
    assert g.state.races == {"red": "", "blue": ""}
    refused = f"'insectoids' is not a race you may write; yours: {race}$"
    with pytest.raises(IllegalAction, match=refused):
        g.apply(Compose("insectoids", "queen", "-", "-"), player)
    assert g.legal_actions(player)[0] == WriteForce(1, race)


def test_a_composition_replays_and_reloads(tmp_path: Any) -> None:
    g = _game(5)
    agents = {"red": _Composes(1, OWN), "blue": TacticsAI(2)}
    _play(g, agents, lambda g: g.state.turn == 2)
    path = tmp_path / "game.json"
    g.save(path)
    again = Game.load(path)
    assert again.state_hash() == g.state_hash()
    assert str(OWN) in [s.action for s in again.steps if s.player == "red"]
    assert Game.replay(g.record).state_hash() == g.state_hash()


COMPOSED = [
    Compose("marines", "hq,grunt*7", "MARKER-west-1:grunt*3,grenadier", "-"),
    Compose("marines", "hq,engineer,medic,grunt*11", "-", "MARKER-east-2:grunt*4"),
    Compose("insectoids", "queen,razor_dog*3", "MARKER-west-3:drone*5", "MARKER-east-3:stinger"),
]


@pytest.mark.parametrize("viewer", ["blue", None])
def test_whatever_red_composes_blue_and_spectators_get_the_same(viewer: str | None) -> None:
    """Games alike but for red's composition — 8, 14 and 4 figures in its main force, of two
    races, with planted labels: blue's views, scenes, events, legal actions and errors are
    the same until the screen comes down, and no label is in them."""
    for seed in (0, 5):  # red defends, then red attacks (and writes first)
        runs = []
        for action in COMPOSED:
            g = _game(seed)
            agents: dict[str, Agent] = {"red": _Composes(7, action), "blue": TacticsAI(8)}
            tries = (WriteForce(3, "machina"), Deploy("r1", (5.0, 5.0)))
            seen = _seen_until_revealed(g, agents, viewer, tries)
            assert g.state.races["red"] == action.race
            assert not [t for t in seen if "marker" in t]
            runs.append(seen)
        assert len(runs[0]) > 3
        assert runs[0] == runs[1] == runs[2]
