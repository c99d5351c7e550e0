"""A stand's candidate moves worked out by compiled code (`moves.move_ends`, through
`FFT3Game.move_points`) are, to the last bit, those of the plain Python they replaced (kept
here): stands of every kind anywhere on generated tables, at the table's edges, having spent
some of their MP, suppressed, moving normally and strategically."""

from __future__ import annotations

import math
import random
from typing import Any

from warbench.core import registry
from warbench.rulesets.fft3.game import FFT3Game, _directions
from warbench.rulesets.fft3.movement import point_along
from warbench.rulesets.fft3.state import Point, Stand


def _python_move_points(game: FFT3Game, stand: Stand, count: int) -> list[tuple[bool, Point]]:
    """`_move_points` as it was written in Python."""
    legs: list[tuple[bool, Point]] = []
    mps: list[float] = []
    moved = stand.mp_spent > 0
    for strategic, scale in ((False, 1.0), (False, 0.5), (True, 2.0)):
        if moved and strategic != stand.strategic:
            continue
        mp = stand.profile.mov * (2 if strategic else 1) - stand.mp_spent - stand.mp_lost
        reach = stand.profile.mov * scale
        for sin, cos in _directions(count, scale == 0.5):
            to = (stand.x + reach * sin, stand.y + reach * cos)
            to = (
                min(max(to[0], stand.radius), game.field.width - stand.radius),
                min(max(to[1], stand.radius), game.field.depth - stand.radius),
            )
            legs.append((strategic, to))
            mps.append(max(mp, 0.0))
    ends = [to for _, to in legs]
    gots = game.field.reach_all(stand.at, ends, mps, vehicle=stand.profile.vehicle)
    out: list[tuple[bool, Point]] = []
    for (strategic, to), got in zip(legs, gots, strict=True):
        end = point_along(stand.at, to, got * 0.999)
        end = (round(end[0], 2), round(end[1], 2))
        if end != stand.at:
            out.append((strategic, end))
    return out


def test_candidate_moves_are_the_pythons_to_the_bit() -> None:
    rs = registry.get("fft3")
    rng = random.Random(11)
    cases = 0
    for seed in range(6):
        game = rs.new_game(dict(rs.load_scenario("meeting-engagement")), seed)
        assert isinstance(game, FFT3Game)
        stands = list(game.state.stands.values())
        corners = [(x, y) for p in game.field.pieces for x, y in p.area.exterior.coords]
        for _ in range(250):
            stand = rng.choice(stands)
            pick = rng.random()
            if pick < 0.2:
                stand.x, stand.y = rng.choice(corners)
            elif pick < 0.3:
                stand.x, stand.y = rng.choice([(0.7, rng.uniform(0, 48)), (71.5, 47.9)])
            else:
                stand.x, stand.y = rng.uniform(0, 72), round(rng.uniform(0, 48), 2)
            stand.mp_spent = rng.choice([0.0, 0.0, 1.5, math.pi, 30.0])
            stand.mp_lost = rng.choice([0.0, 0.0, 2.0])
            stand.strategic = rng.random() < 0.3
            for count in (8, 5):
                want: Any = _python_move_points(game, stand, count)
                assert game._move_points(stand, count) == want
                normal = [(False, to) for strategic, to in want if not strategic]
                assert game._move_points(stand, count, strategic_too=False) == normal
                cases += 1
    assert cases == 3000
