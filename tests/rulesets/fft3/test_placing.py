"""The compiled scoring of candidate places (placing.py) gives, to the last bit, what the
plain-Python code gives: `math.dist`, `bearing`, `arc_of_fire` on many random and awkward
cases, and `TowsAI._scores` against `_look` and `_score` at every move of seeded AI games,
with the chances table filled as it goes and already full."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from warbench.core import registry
from warbench.core.geometry import bearing
from warbench.rulesets.fft3 import ai, placing
from warbench.rulesets.fft3.ai import Setting, TowsAI
from warbench.rulesets.fft3.facing import arc_of_fire
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.state import Point, Stand
from warbench.sim.play import playout


def _points(rng: random.Random, count: int) -> list[tuple[float, float, float, float]]:
    """Pairs of points as the game makes them (table coordinates, rounded to 0.01 or not),
    tiny and huge ones, and points on one line."""
    out = []
    for n in range(count):
        scale = (72.0, 1e-3, 1e6, 1.0)[n % 4]
        ax, ay, bx, by = (rng.uniform(-scale, scale) for _ in range(4))
        if n % 5 == 0:
            ax, ay, bx, by = (round(v, 2) for v in (ax, ay, bx, by))
        if n % 7 == 0:
            by = ay
        if n % 11 == 0:
            bx = ax
        out.append((ax, ay, bx, by))
    out += [(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 1.0), (0.0, 0.0, 3.0, 4.0), (-0.0, 2.5, 0.0, 0)]
    return out


def test_dist_is_pythons_to_the_last_bit() -> None:
    rng = random.Random(3)
    for ax, ay, bx, by in _points(rng, 200_000):
        assert placing.dist(ax, ay, bx, by) == math.dist((ax, ay), (bx, by)), (ax, ay, bx, by)


def test_bearing_and_arcs_are_the_python_ones() -> None:
    rng = random.Random(5)
    for ax, ay, bx, by in _points(rng, 100_000):
        if (ax, ay) != (bx, by):
            assert placing.bearing(ax, ay, bx, by) == bearing((ax, ay), (bx, by))
        facing = rng.choice([0.0, 90.0, 180.0, 359.99, rng.uniform(0, 360)])
        radius = rng.choice([0.0, 0.375, 0.625, 1.0])
        want = arc_of_fire((ax, ay), facing, (bx, by), radius) == "front"
        assert placing.arc_front(ax, ay, facing, bx, by, radius) == want


@pytest.mark.parametrize("facing", [0.0, 45.0, 90.0, 180.0, 270.0])
def test_arcs_on_the_edge_of_the_front_arc(facing: float) -> None:
    """Firers right on and around the 60° line (bases touching it) judge as the Python does."""
    for off in (59.999999, 60.0, 60.000001, 62.0, 65.0, 300.0, 299.99):
        for d in (0.5, 1.0, 3.0, 24.0):
            for radius in (0.0, 0.375, 0.625):
                angle = math.radians(facing + off)
                firer = (10 + d * math.sin(angle), 10 + d * math.cos(angle))
                want = arc_of_fire((10.0, 10.0), facing, firer, radius) == "front"
                got = placing.arc_front(10.0, 10.0, facing, firer[0], firer[1], radius)
                assert got == want, (facing, off, d, radius)


def _checked_scores(checks: list[int]) -> Any:
    """`TowsAI._scores` that also works the scores out the plain-Python way (`_look` then
    `_score`, moving normally and strategically) and asserts they are the same."""
    compiled = TowsAI._scores

    def scores(
        self: TowsAI,
        game: FFT3Game,
        stand: Stand,
        places: list[Point],
        strategic: list[bool],
        setting: Setting,
    ) -> list[float]:
        got: list[float] = compiled(self, game, stand, places, strategic, setting)
        seen = self._look(game, stand, places, setting.foes)
        for how in (strategic, [True] * len(places), [False] * len(places)):
            want = [
                self._score(game, stand, at, setting, sees, strategic=s)
                for at, sees, s in zip(places, seen, how, strict=True)
            ]
            mine = got if how is strategic else compiled(self, game, stand, places, how, setting)
            assert mine == want, (stand.id, places)
            checks[0] += len(places)
        return got

    return scores


@pytest.mark.parametrize("fresh", [True, False])
@pytest.mark.parametrize("scenario", ["meeting-engagement", "deliberate-attack-even"])
def test_scores_are_the_python_ones_in_play(
    scenario: str, fresh: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every move's scores in seeded AI games, with a chances table that starts empty (each
    chance is first found missing and worked out by `_odds`) or one filled by earlier games."""
    if fresh:
        monkeypatch.setattr(ai, "CHANCES", placing.Chances())
        monkeypatch.setattr(ai, "_ARMS", {})
    checks = [0]
    monkeypatch.setattr(TowsAI, "_scores", _checked_scores(checks))
    rs = registry.get("fft3")
    data = rs.load_scenario(scenario)
    for seed in range(2):
        playout(rs, data, "ai", seed)
    assert checks[0] > 1000


def test_the_chances_table_holds_so_many_profiles() -> None:
    table = placing.Chances()
    for n in range(placing.PROFILES):
        table.row(f"p{n}", "gun", "p0", False, False)
    with pytest.raises(ValueError, match="holds 8 profiles"):
        table.row("one more", "gun", "p0", False, False)
