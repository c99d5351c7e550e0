"""The quick ways of listing legal actions give the answers of the plain rules tests: a move's
remembered and sorted test against `route_problem`, an agent's listing of some figures'
actions against `legal_actions`, the remembered opportunity-fire options after the figures
change, the table's remembered sight against its own tests."""

from __future__ import annotations

import random

import pytest

from tests.rulesets.fftt.position import fig, game, state
from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.game import Decision
from warbench.rulesets.fftt import movement
from warbench.rulesets.fftt.actions import (
    Charge,
    Deploy,
    Eat,
    Explode,
    Heal,
    Lay,
    Move,
    OpportunityFire,
)
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.table import Piece

SCENARIOS = ["marines-vs-machina", "marines-vs-insectoids", "machina-vs-insectoids"]


def _battle(scenario: str, seed: int) -> FFTTGame:
    g = registry.get("fftt").new_game(registry.get("fftt").load_scenario(scenario), seed)
    assert isinstance(g, FFTTGame)
    return g


def _actor(a: Action) -> str:
    return str(
        getattr(a, "figure", None)
        or getattr(a, "healer", None)
        or getattr(a, "queen", None)
        or getattr(a, "bug", None)
    )


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_remembered_move_test_agrees_with_route_problem(scenario: str) -> None:
    g = _battle(scenario, 3)
    rng = random.Random(3)
    agents = {"red": TacticsAI(6), "blue": TacticsAI(7)}
    checked = 0
    while isinstance(g.pending, Decision) and checked < 3000:
        s = g.state
        if s.stage == "move":
            for f in s.side_figs(s.player):
                if movement.mover_problem(s, f) is not None:
                    continue
                clear = movement.route_tester(s, f)
                for _ in range(12):
                    to = (
                        round(f.x + rng.uniform(-35, 35), 1),
                        round(f.y + rng.uniform(-35, 35), 1),
                    )
                    assert clear(to) == (movement.route_problem(s, f, to) is None), (f.id, to)
                    checked += 1
        player = g.pending.player
        g.apply(agents[player].choose(g, player), player)
    assert checked >= 3000


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_an_agents_listing_of_some_figures_is_legal_actions_filtered(scenario: str) -> None:
    g = _battle(scenario, 5)
    agents = {"red": TacticsAI(10), "blue": TacticsAI(11)}
    kinds_tried = [(Move,), (Heal, Eat, Lay, Explode, Charge), (Deploy,)]
    compared = 0
    while isinstance(g.pending, Decision) and compared < 120:
        s = g.state
        player = g.pending.player
        if s.stage in ("move", "deploy"):
            legal = g.legal_actions(player)
            ids = sorted({_actor(a) for a in legal if _actor(a) != "None"})
            some = ids[::2]
            for kinds in kinds_tried:
                want = [a for a in legal if isinstance(a, kinds) and _actor(a) in some]
                assert g.figure_options(some, kinds) == want
            compared += 1
        g.apply(agents[player].choose(g, player), player)
    assert compared >= 60


def test_remembered_opportunity_fire_options_follow_the_figures() -> None:
    runner = fig("r1", "grunt", 20, 50, facing=90)
    watcher = fig("b1", "terminator", 26, 65)
    g = game(state(runner, watcher, stage="move"), [1, 1])
    g.apply(Move("r1", (30.0, 50.0)), "red")
    assert {k for _, k in g.opfire_options()} == {0, 1, 2, 3, 4}
    g.state.figs["b1"].facing = 0.0  # now looking away from the runner's path
    assert g.opfire_options() == []
    assert g.check(OpportunityFire("b1", 2)) is not None
    g.state.figs["b1"].facing = 180.0
    g.state.figs["b1"].ap = 1  # opportunity fire costs 2 actions
    assert g.opfire_options() == []
    g.state.figs["b1"].ap = 2
    assert g.check(OpportunityFire("b1", 2)) is None


def test_the_tables_remembered_sight_is_its_own_tests() -> None:
    forest = Piece("forest", 40, 40, 60, 60)
    house = Piece("building", 10, 70, 30, 90, (("south", "door"),))
    s = state(fig("r1", "grunt", 5, 5), pieces=[forest, house])
    rng = random.Random(1)
    for _ in range(500):
        a = (round(rng.uniform(0, 100), 1), round(rng.uniform(0, 100), 1))
        b = (round(rng.uniform(0, 100), 1), round(rng.uniform(0, 100), 1))
        floors = (rng.randint(0, 1), rng.randint(0, 1))
        seen = s.table.sight(a, b, floors)
        if s.table.screened(a, b, floors):
            assert seen is None
        else:
            assert seen == tuple(s.table.blockers(a, b))
        assert s.table.covered(b) == any(
            p.kind in ("forest", "building") for p in s.table.pieces_at(b)
        )
