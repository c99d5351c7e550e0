"""The compiled scenery part of a figure's moves (`routes.scenery_answers`) against the
Python it stands for (`movement._scenery_open`): on made-up tables of every kind of piece,
figures of every profile on the ground, and every destination, where it answers; and the
route testers of seeded battles, which it fills (for few tests or many), against
`route_problem`."""

from __future__ import annotations

import random

import numpy as np

from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.fftt import movement
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.routes import scenery_answers
from warbench.rulesets.fftt.state import Fig
from warbench.rulesets.fftt.table import Piece, Table


def _answers(g: FFTTGame, fig: Fig, points: list[tuple[float, float]]) -> list[int]:
    size, walled, slow, walls = g.state.table.route_rows
    prof = fig.prof
    mover = np.array(
        [fig.x, fig.y, fig.pace * fig.ap + 1e-6, prof.ignores_terrain, prof.over_walls, fig.radius]
    )
    found: list[int] = scenery_answers(
        np.array(points, dtype=float).reshape(-1, 2), mover, size, walled, slow, walls
    ).tolist()
    return found


def test_the_answers_on_made_up_tables_are_pythons() -> None:
    ruleset = registry.get("fftt")
    g = ruleset.new_game(ruleset.load_scenario("machina-vs-insectoids"), 0)
    assert isinstance(g, FFTTGame)
    kinds = ["forest", "ruins", "rubble", "river", "pool", "lake", "hill", "wall", "building"]
    figs = list({(f.race, f.key): f for f in g.state.figs.values()}.values())
    rng = random.Random(4)
    answered = {0: 0, 1: 0}
    unsure = 0
    for _ in range(300):
        pieces = []
        for _ in range(rng.randint(0, 9)):
            kind = rng.choice(kinds)
            x0, y0 = round(rng.uniform(-5, 95), 1), round(rng.uniform(-5, 75), 1)
            w = 1.0 if kind == "wall" else round(rng.uniform(3, 25), 1)
            d = round(rng.uniform(3, 25), 1)
            openings = (("south", "door"),) if kind == "building" else ()
            pieces.append(Piece(kind, x0, y0, x0 + w, y0 + d, openings))  # type: ignore[arg-type]
        g.state.table = Table(100.0, 80.0, tuple(pieces))
        for _ in range(5):
            fig = rng.choice(figs)
            fig.x, fig.y = round(rng.uniform(0, 100), 1), round(rng.uniform(0, 80), 1)
            fig.ap, fig.level = rng.randint(1, 3), 0
            reach = fig.pace * fig.ap * 1.3
            points = [
                (
                    round(fig.x + rng.uniform(-reach, reach), 1),
                    round(fig.y + rng.uniform(-reach, reach), 1),
                )
                for _ in range(30)
            ]
            for to, answer in zip(points, _answers(g, fig, points), strict=True):
                if answer < 0:
                    unsure += 1
                    continue
                assert answer == movement._scenery_open(g.state, fig, to), (fig.key, to)
                answered[answer] += 1
    assert answered[0] > 5_000 and answered[1] > 5_000
    assert unsure < (answered[0] + answered[1]) // 3


def test_the_filled_route_testers_of_battles_are_route_problem() -> None:
    ruleset = registry.get("fftt")
    compared = 0
    for scenario in ("marines-vs-machina", "behind-the-screen"):
        g = ruleset.new_game(ruleset.load_scenario(scenario), 6)
        assert isinstance(g, FFTTGame)
        agents = {p: ruleset.agents()["ai"](n) for n, p in enumerate(ruleset.players)}
        while isinstance(g.pending, Decision) and compared < 20_000:
            s = g.state
            if s.stage == "move":
                for fig in s.side_figs(s.player):
                    if movement.mover_problem(s, fig) is not None:
                        continue
                    few, many = g.move_tester(fig, few=True), g.move_tester(fig)
                    reach = g._reach(fig)
                    for to in reach.tos + reach.halfway(fig):
                        legal = movement.route_problem(s, fig, to) is None
                        assert few(to) == legal and many(to) == legal
                        compared += 1
            player = g.pending.player
            g.apply(agents[player].choose(g, player), player)
    assert compared >= 5_000
