"""The search agent in fftt: `determinise` never peeks at what the player's view does not
show (the enemy's secret force behind the screen, its flanking forces), `evaluate` reads a
position, and search plays a whole battle."""

from __future__ import annotations

import copy
from typing import Any

from warbench.ai.search import Budget, SearchAgent
from warbench.core import registry
from warbench.core.dice import SeededDice
from warbench.core.game import Decision, Game, GameOver
from warbench.rulesets.fftt.game import FFTTGame

RULESET = registry.get("fftt")
SECRET = "MARKER-of-the-hidden-flank"


def _other_flank(scenario: dict[str, Any]) -> dict[str, Any]:
    """The same battle but for blue's flanking force: other figures, flank and label."""
    data = copy.deepcopy(scenario)
    data["forces"]["blue"]["flanks"] = [
        {
            "flank": "west",
            "label": SECRET,
            "figures": [{"profile": "tank", "elite": True}],  # 5 FP: an elite 1 more (R57)
        }
    ]
    return data


def _to_red(game: Game, moves: int, seed: int) -> Game:
    """Play the AIs until red's decision after `moves` of red's decisions."""
    agents = {p: RULESET.agents()["ai"](seed + n) for n, p in enumerate(RULESET.players)}
    seen = 0
    while True:
        pending = game.pending
        assert isinstance(pending, Decision)
        if pending.player == "red":
            if seen == moves:
                return game
            seen += 1
        game.apply(agents[pending.player].choose(game, pending.player), pending.player)


def _twins(scenario: dict[str, Any], other: dict[str, Any], seed: int, moves: int) -> list[Game]:
    games = [_to_red(RULESET.new_game(s, seed), moves, 1) for s in (scenario, other)]
    assert games[0].view("red") == games[1].view("red")  # the same battle, as red sees it
    assert games[0].state_data() != games[1].state_data()  # but not the same hidden truth
    return games


def _determinised(game: Game) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The look-ahead game's state and forces (the scenarios' names are the players' own
    business: the shipped ones name the matchup)."""
    sim = RULESET.determinise(game, "red", SeededDice(17))
    assert sim.view("red") == game.view("red")  # consistent with everything red sees
    assert SECRET not in str(sim.state_data()) + str(sim.scenario)
    return sim.state_hash(), sim.state_data(), sim.scenario["forces"]


def test_determinise_after_the_screen_comes_down_ignores_the_hidden_flanks() -> None:
    scenario = RULESET.load_scenario("marines-vs-machina")
    games = _twins(scenario, _other_flank(scenario), 3, 30)
    assert games[0].state.revealed  # type: ignore[attr-defined]
    assert _determinised(games[0]) == _determinised(games[1])
    sim = RULESET.determinise(games[0], "red", SeededDice(17))
    sampled = [f for f in sim.state.flanks if f.side == "blue"]  # type: ignore[attr-defined]
    assert sampled  # each sampled flanking force numbered apart, by its flank (R56)
    for flank in sampled:
        assert flank.figures == [f"bf{flank.flank[0]}{n}" for n in range(1, len(flank.figures) + 1)]


def _other_force(scenario: dict[str, Any]) -> dict[str, Any]:
    """The same matchup but for blue's secret composition (its race the scenario's, R48)."""
    data = copy.deepcopy(scenario)
    data["forces"]["blue"]["figures"] = [
        {"profile": "hq"},
        {"profile": "tank", "elite": True},
        *[{"profile": "sentinel"} for _ in range(6)],
    ]
    return data


def test_determinise_behind_the_screen_ignores_the_enemys_whole_force() -> None:
    """Red deploys first (seed 5: red attacks): blue's force and flanks are secret, its race
    the one the matchup names (`test_secret_forces.py` for a secret race)."""
    machina = RULESET.load_scenario("marines-vs-machina")
    games = _twins(machina, _other_force(machina), 5, 3)
    assert games[0].pending.kind == "deploy"  # type: ignore[union-attr]
    assert _determinised(games[0]) == _determinised(games[1])
    sim = RULESET.determinise(games[0], "red", SeededDice(17))
    assert sim.state.races["blue"] == "machina"  # type: ignore[attr-defined]


def test_determinise_while_blue_waits_behind_the_screen_places_a_sampled_force() -> None:
    """Blue deploys second: red's figures are on the table, but where and which is secret;
    the sample stands them in red's zone."""
    game = RULESET.new_game(RULESET.load_scenario("marines-vs-machina"), 0)
    assert game.state.attacker == "blue"  # type: ignore[attr-defined]
    _to_red(game, 0, 1)
    while game.pending.kind != "deploy":  # type: ignore[union-attr]
        _to_red(game, 1, 1)  # red's next decision
    sim = RULESET.determinise(game, "red", SeededDice(2))
    assert isinstance(sim, FFTTGame)
    blue = [f for f in sim.state.figs.values() if f.side == "blue" and f.where == "table"]
    assert blue
    assert all(sim.state.table.in_zone(f.pos, sim.state.edge("blue")) for f in blue)
    other = RULESET.determinise(game, "red", SeededDice(3))
    assert other.state_data() != sim.state_data()  # different dice, a different sample


def test_evaluate_weighs_what_each_side_has_left() -> None:
    game = _to_red(RULESET.new_game(RULESET.load_scenario("marines-vs-insectoids"), 2), 60, 2)
    red, blue = RULESET.evaluate(game, "red"), RULESET.evaluate(game, "blue")
    assert -1.0 < red < 1.0 and red == -blue


def test_search_plays_a_full_battle() -> None:
    game = RULESET.new_game(RULESET.load_scenario("marines-vs-machina"), 6)
    game.track_hashes = False
    agents = {
        "red": SearchAgent(4, Budget(lookaheads=2, horizon=3, candidates=2)),
        "blue": RULESET.agents()["ai"](5),
    }
    while isinstance(game.pending, Decision):
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    assert isinstance(game.pending, GameOver)
    assert len(game.steps) > 50
