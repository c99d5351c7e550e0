"""The fft3 speed-ups' short cuts give exactly the answers of the code they stand in for:
`Areas.sees_one` those of the compiled batch, `Battlefield.in_difficult_all` and
`in_difficult` (compiled where no rounding can matter) those of shapely, and `fire.suits`,
`fire.band_of` and `Battlefield.sees_any` together whether `fire.plan` gives an attack (as
`_overwatched` asks them); on generated tables, at the terrain's corners, on its edges and
half an inch off them."""

from __future__ import annotations

import math
import random

import numpy as np

from warbench.core import registry
from warbench.core.dice import SeededDice
from warbench.core.terrain import Trait
from warbench.rulesets.fft3.battlefield import COVER_DOUBT, Battlefield, Point, generate
from warbench.rulesets.fft3.fire import band_of, plan, suits
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.movement import point_along
from warbench.rulesets.fft3.stretches import covered


def _places(field: Battlefield, rng: random.Random, count: int) -> list[Point]:
    """Corners of the terrain, points on its edges, half an inch off corners, anywhere."""
    corners = [(x, y) for p in field.pieces for x, y in p.area.exterior.coords]
    places: list[Point] = []
    for _ in range(count):
        pick = rng.random()
        (x, y), (u, v) = rng.choice(corners), rng.choice(corners)
        if pick < 0.15:
            places.append((x, y))
        elif pick < 0.3:
            places.append((round((x + u) / 2, 2), round((y + v) / 2, 2)))
        elif pick < 0.45:
            places.append((x + rng.choice((-0.5, 0.5)), y))
        else:
            places.append((round(rng.uniform(0, 72), 2), round(rng.uniform(0, 48), 2)))
    return places


def test_one_pair_gets_the_batch_verdict() -> None:
    rng = random.Random(5)
    for seed in range(4):
        field = generate(SeededDice(seed))
        places = _places(field, rng, 120)
        rows = [
            (*rng.choice(places), rng.choice((0.0, 0.375, 0.625)), *rng.choice(places), 0.625)
            for _ in range(800)
        ]
        areas = field._sight_arrays
        batch = areas.sees(np.array(rows), 2 + 1e-9).tolist()
        assert [areas.sees_one(*row, 2 + 1e-9) for row in rows] == batch
        assert set(batch) == {-1, 0, 1}  # clear, blocked and unsure lines all met


def test_places_in_difficult_terrain_at_once() -> None:
    rng = random.Random(6)
    for seed in range(6):
        field = generate(SeededDice(seed))
        places = _places(field, rng, 2000)
        xs, ys = np.array([p[0] for p in places]), np.array([p[1] for p in places])
        exact = [field._covered(Trait.DIFFICULT, p) for p in places]  # shapely
        assert field.in_difficult_all(xs, ys).tolist() == exact
        assert [field.in_difficult(p) for p in places] == exact
        assert any(exact) and not all(exact)
        sure = covered(xs, ys, *field._difficult.arrays, COVER_DOUBT)
        assert set(sure.tolist()) == {-1, 0, 1}  # corners and edges are left to shapely


def test_suits_band_and_sight_are_whether_plan_gives_an_attack() -> None:
    """Every stand of two AI games' positions at each enemy stand with each weapon, from
    where it stands and at points along a leg, with and without overwatch."""
    rs = registry.get("fft3")
    rng = random.Random(7)
    seen = set()
    for seed in range(2):
        game = rs.new_game(dict(rs.load_scenario("meeting-engagement")), seed)
        assert isinstance(game, FFT3Game)
        agents = {p: rs.agents()["ai"](seed * 2 + n) for n, p in enumerate(rs.players)}
        for _ in range(160):
            s = game.state
            if s.phase == "over":
                break
            stands = [x for x in s.stands.values() if x.on_table]
            for _ in range(20 if len(stands) > 1 else 0):
                firer, target = rng.choice(stands), rng.choice(stands)
                at = point_along(target.at, (rng.uniform(0, 72), rng.uniform(0, 48)), 3.0)
                for weapon in ("gun", "ai", "law", "missile"):
                    for overwatch in (False, True):
                        for where in (None, at):
                            want = not isinstance(
                                plan(
                                    game.field,
                                    firer,
                                    weapon,
                                    target,
                                    target_at=where,
                                    overwatch=overwatch,
                                ),
                                str,
                            )
                            there = where or target.at
                            distance = math.dist(firer.at, there) - firer.radius - target.radius
                            got = (
                                suits(firer, weapon, target, overwatch=overwatch)
                                and band_of(firer.profile, weapon, max(0.0, distance)) is not None
                                and game.field.sees_any(
                                    firer.at, firer.radius, [there], target.radius
                                )
                            )
                            assert got == want
                            seen.add(want)
            player = game.pending.player  # type: ignore[union-attr]
            game.apply(agents[player].choose(game, player), player)
    assert seen == {True, False}
