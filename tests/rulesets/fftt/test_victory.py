"""END OF THE GAME: surrender by either player, and the optional victory settings of the
scenario (turn limit, a third lost, all HQs lost)."""

from __future__ import annotations

from tests.rulesets.fftt.position import fig, game, state
from warbench.core import registry
from warbench.core.dice import SeededDice
from warbench.core.game import Decision, GameOver
from warbench.rulesets.fftt.actions import Done, Hold, Move, Surrender
from warbench.rulesets.fftt.game import FFTTGame


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
    assert not any(isinstance(a, Surrender) for a in g.legal_actions("red"))  # never offered
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
