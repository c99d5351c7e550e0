"""END OF THE GAME: surrender by either player (listed, never drawn by the random agent, the
AI only when hopeless), and the optional victory settings of the scenario (turn limit, time
limit, a third lost, all HQs lost, key positions)."""

from __future__ import annotations

import pytest

from tests.rulesets.fftt.position import fig, game, state
from warbench.core import registry
from warbench.core.dice import SeededDice
from warbench.core.game import Decision, GameOver
from warbench.rulesets.fftt.actions import Done, Hold, Move, Surrender
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.random_agent import RandomAgent
from warbench.rulesets.fftt.scenario import KeyPosition, validate


def _with_victory(g: FFTTGame, **settings: object) -> None:
    g.spec = g.spec.model_copy(update={"victory": g.spec.victory.model_copy(update=settings)})


def _end_of_turn(*figs: object, turn: int = 1) -> FFTTGame:
    """A game at blue's part of the general firing of phase 3: `done` ends the turn."""
    s = state(*figs)  # type: ignore[arg-type]
    s.stage, s.phase, s.part, s.player, s.turn = "general", 3, 1, "blue", turn
    return game(s, [6, 6, 1, 1])  # initiative dice of the next turn, if it comes


def test_surrender_ends_the_game_at_once_for_either_player() -> None:
    s = state(fig("r1", "grunt", 50, 40), fig("b1", "terminator", 50, 80), stage="move")
    g = game(s)
    assert g.legal_actions("red")[-1] == Surrender()  # offered last, at every decision
    assert g.legal_actions("blue") == []
    assert (g.check(Surrender(), "blue") or "").startswith("it is red's decision")
    assert g.check(Surrender(), "red") is None
    events = g.apply(Surrender(), "red")
    over = g.pending
    assert isinstance(over, GameOver)
    assert (over.winner, over.reason) == ("blue", "red surrenders in turn 1")
    assert over.score == {"red": 1.0, "blue": 1.0}
    assert [e.kind for e in events] == ["end"]
    # the other player surrenders at its own decision (an opportunity-fire choice)
    s = state(fig("r1", "grunt", 20, 50, facing=90), fig("b1", "terminator", 26, 65))
    s.stage = "move"
    g = game(s)
    g.apply(Move("r1", (30.0, 50.0)), "red")
    pending = g.pending
    assert isinstance(pending, Decision) and pending.player == "blue"
    g.apply(Surrender(), "blue")
    over = g.pending
    assert isinstance(over, GameOver) and over.winner == "red"
    assert g.state.moving == {}


def test_the_random_agent_never_surrenders_and_plays_as_before() -> None:
    """R47: `surrender` is listed but the random agent leaves it out; otherwise it draws as
    the core random agent did from the list without it (the same seeded games)."""
    ruleset = registry.get("fftt")
    assert ruleset.agents()["random"] is RandomAgent
    g = ruleset.new_game(ruleset.load_scenario("marines-vs-machina"), 5)
    agents = {side: RandomAgent(seed) for side, seed in (("red", 1), ("blue", 2))}
    steps = 0
    while isinstance(g.pending, Decision):
        player = g.pending.player
        assert Surrender() in g.legal_actions(player)
        action = agents[player].choose(g, player)
        assert action != Surrender()
        g.apply(action, player)
        steps += 1
    over = g.pending
    assert isinstance(over, GameOver) and "surrenders" not in over.reason
    assert steps > 100  # a whole battle, not a give-up


def test_the_ai_surrenders_only_when_hopeless() -> None:
    """R47: a quarter or less of the enemy's fighting FPs in sight, after turn 1."""
    figs = [fig("r1", "grunt", 50, 10), fig("r2", "hq", 40, 10)]
    figs += [fig(f"b{i}", "terminator", 10 * i, 90) for i in range(1, 5)]
    s = state(*figs, stage="move")
    s.turn = 2
    g = game(s)
    assert TacticsAI.hopeless(g, "red") and not TacticsAI.hopeless(g, "blue")
    assert TacticsAI(0).choose(g, "red") == Surrender()
    s.turn = 1
    assert not TacticsAI.hopeless(g, "red")  # never in the first turn
    s.turn = 2
    g.state.figs["b4"].where = "dead"  # 1 FP against 3: it fights on
    assert not TacticsAI.hopeless(g, "red")
    assert TacticsAI(0).choose(g, "red") != Surrender()


def test_surrender_behind_the_screen_tells_no_score() -> None:
    ruleset = registry.get("fftt")
    g = ruleset.new_game(ruleset.load_scenario("marines-vs-machina"), None, SeededDice(3))
    pending = g.pending
    assert isinstance(pending, Decision)
    g.apply(Surrender(), pending.player)
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.reason == f"{pending.player} surrenders before the battle"
    assert over.score == {}


def test_wrong_step_error_names_surrender_among_the_allowed() -> None:
    g = game(state(fig("r1", "grunt", 50, 40), fig("b1", "terminator", 50, 80)))
    reason = g.check(Hold(), "red") or ""
    assert reason.startswith("now is the general step; allowed:") and "surrender" in reason


def test_all_hqs_lost_is_a_defeat_when_set() -> None:
    figs = (fig("r1", "grunt", 50, 10), fig("b1", "hq", 50, 90), fig("b2", "terminator", 60, 90))
    g = _end_of_turn(*figs)
    g.apply(Done(), "blue")
    assert isinstance(g.pending, Decision)  # off: red fights on without an HQ
    g = _end_of_turn(*figs)
    _with_victory(g, hqs_lost=True)
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.winner == "blue"
    assert over.reason == "red lost all its headquarters at the end of turn 1"


def test_a_third_lost_counts_the_fps_killed_of_all_fielded() -> None:
    """R58: an HQ and five grunts (6 FP) lose a third when 2 FP are killed, not when the
    first grunt dies (the HQ, counted dead for "without figures", is not lost here); an
    out-of-ammo figure is not lost."""
    hq, grunts = fig("r1", "hq", 50, 10), [fig(f"r{n}", "grunt", 10 * n, 15) for n in range(2, 7)]
    grunts[0].where = "dead"
    grunts[1].out_of_ammo = True
    g = _end_of_turn(hq, *grunts, fig("b1", "tank", 50, 90))
    _with_victory(g, third_lost=True)
    g.apply(Done(), "blue")
    assert isinstance(g.pending, Decision)  # 1 of 6 FP killed: the battle goes on
    hq, grunts = fig("r1", "hq", 50, 10), [fig(f"r{n}", "grunt", 10 * n, 15) for n in range(2, 7)]
    hq.where = grunts[0].where = "dead"
    g = _end_of_turn(hq, *grunts, fig("b1", "tank", 50, 90))
    _with_victory(g, third_lost=True)
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver) and over.winner == "blue"
    assert over.reason.startswith("red lost a third of its forces")


def test_insectoids_never_lose_by_their_headquarters() -> None:
    bug = fig("r1", "stinger", 50, 10, race="insectoids")
    g = _end_of_turn(bug, fig("b1", "hq", 50, 90), fig("b2", "terminator", 60, 90))
    _with_victory(g, hqs_lost=True)
    g.apply(Done(), "blue")
    assert isinstance(g.pending, Decision)  # the game goes on: insectoids have no HQs


def test_the_turn_limit_gives_the_battle_to_more_fps_standing_or_a_draw() -> None:
    g = _end_of_turn(
        fig("r1", "engineer", 50, 10), fig("r2", "hq", 40, 10), fig("b1", "tank", 50, 90), turn=8
    )
    _with_victory(g, turns=8)
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.winner == "blue"  # a 4 FP tank against a 3 FP engineer (HQs count as dead)
    assert over.reason == "turn 8 ends the battle: 3 FP red, 4 FP blue standing"
    g = _end_of_turn(fig("r1", "grunt", 50, 10), fig("b1", "terminator", 50, 90), turn=8)
    _with_victory(g, turns=8)
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver) and over.winner is None


def _end_of_phase(*figs: object, turn: int, phase: int) -> FFTTGame:
    """A game at blue's part of the general firing of `phase`: `done` ends the phase."""
    g = _end_of_turn(*figs, turn=turn)
    g.state.phase = phase
    return g


def test_the_time_limit_ends_the_battle_at_the_end_of_a_phase() -> None:
    """R49: ten seconds a turn, so 75 s is over at the end of turn 8's second phase (76.7 s):
    more fighting FPs standing wins."""
    figs = (fig("r1", "engineer", 50, 10), fig("r2", "hq", 40, 10), fig("b1", "tank", 50, 90))
    g = _end_of_phase(*figs, turn=8, phase=1)  # 73.3 s: on to phase 2
    _with_victory(g, seconds=75)
    g.apply(Done(), "blue")
    assert isinstance(g.pending, Decision) and g.state.phase == 2
    g = _end_of_phase(*figs, turn=8, phase=2)
    _with_victory(g, seconds=75)
    events = g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.winner == "blue"
    assert over.reason == (
        "the time limit of 75 s ends the battle after turn 8 phase 2: 3 FP red, 4 FP blue standing"
    )
    assert over.score == {"red": 3.0, "blue": 4.0}
    assert events[-1].kind == "end"
    g = _end_of_phase(fig("r1", "grunt", 50, 10), fig("b1", "terminator", 50, 90), turn=9, phase=3)
    _with_victory(g, turns=10, seconds=90)  # at the end of a turn too; equal FPs: a draw
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver) and over.winner is None
    assert over.reason.startswith("the time limit of 90 s ends the battle after turn 9 phase 3")


def test_time_limits_are_checked_against_the_flanks_and_the_turn_limit() -> None:
    data = registry.get("fftt").load_scenario("marines-vs-machina")
    data["victory"] = {"turns": 8, "seconds": 70}
    with pytest.raises(ValueError, match=r"victory\.seconds") as early:
        validate(data, "test")
    assert "greater than or equal to 71" in str(early.value)
    data["victory"] = {"turns": 8, "seconds": 85}
    with pytest.raises(ValueError) as late:
        validate(data, "test")
    assert "victory.seconds 85 is after the turn limit (8 turns = 80 s)" in str(late.value)
    data["victory"] = {"turns": 9, "seconds": 85}
    assert validate(data, "test").victory.seconds == 85


RELAY = {"name": "Relay", "holder": "defender", "at": [0.5, 0.3], "radius": 5}


def test_a_key_position_is_lost_to_an_enemy_standing_on_it_alone() -> None:
    """R49: red attacks, so blue (the defender, deploying north on this table) holds the
    relay 30% of the depth out from the north edge: (50, 70) on 100 x 100 cm."""
    relay = KeyPosition.model_validate(RELAY)
    enemy_on_it = (fig("r1", "grunt", 52, 68), fig("b1", "terminator", 50, 90))
    g = _end_of_turn(*enemy_on_it)
    g.state.south = "red"
    _with_victory(g, key_positions=(relay,))
    assert g.key_positions() == [
        {"name": "Relay", "holder": "blue", "at": [50.0, 70.0], "radius": 5.0}
    ]
    assert "key position Relay of blue at 50,70 (5 cm)" in registry.get("fftt").board_text(g)
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.winner == "red"
    assert over.reason == "blue lost the key position Relay at the end of turn 1"
    # one of the holder's own figures on it keeps it
    g = _end_of_turn(*enemy_on_it, fig("b2", "terminator", 48, 72))
    _with_victory(g, key_positions=(relay,))
    g.apply(Done(), "blue")
    assert isinstance(g.pending, Decision)
    # HQs and scanners do not take it (they count as dead)
    g = _end_of_turn(fig("r1", "hq", 50, 70), fig("r2", "grunt", 5, 5), fig("b1", "hq", 90, 90))
    g.state.figs["b2"] = fig("b2", "terminator", 90, 95)
    _with_victory(g, key_positions=(relay,))
    g.apply(Done(), "blue")
    assert isinstance(g.pending, Decision)


def test_key_positions_are_measured_from_the_holders_edge() -> None:
    g = _end_of_turn(fig("r1", "grunt", 50, 10), fig("b1", "terminator", 50, 90))
    _with_victory(g, key_positions=(KeyPosition.model_validate(RELAY),))
    g.state.south = "blue"  # the defender deploys south now
    assert g.key_positions()[0]["at"] == [50.0, 30.0]
    g.state.attacker = "blue"  # and blue attacks: red holds it, from the north
    assert g.key_positions()[0]["holder"] == "red"
    assert g.key_positions()[0]["at"] == [50.0, 70.0]


def test_bad_key_positions_are_refused_with_the_reason() -> None:
    data = registry.get("fftt").load_scenario("marines-vs-machina")
    for at, reason in (
        ([1.5, 0.3], "at must be two fractions from 0 to 1"),
        ([0.5, 0.9], "deep 0.9 lies in the enemy's deployment zone"),
    ):
        data["victory"] = {"key_positions": [{**RELAY, "at": at}]}
        with pytest.raises(ValueError, match=reason):
            validate(data, "test")
    data["victory"] = {"key_positions": [RELAY, RELAY]}
    with pytest.raises(ValueError, match="key positions need different names"):
        validate(data, "test")
    data["victory"] = {"key_positions": [{**RELAY, "holder": "red"}]}
    with pytest.raises(ValueError, match="holder"):
        validate(data, "test")


def test_the_shipped_key_position_and_time_scenarios_use_them() -> None:
    ruleset = registry.get("fftt")
    relay = validate(ruleset.load_scenario("marines-vs-machina-relay"), "relay").victory
    assert [k.name for k in relay.key_positions] == ["Relay station"]
    assert validate(ruleset.load_scenario("behind-the-screen"), "screen").victory.seconds == 75
