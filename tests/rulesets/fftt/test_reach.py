"""The compiled destinations of a figure's moves (`reach.reach_points`) against the Python
they stand for: `tenths` against `table.rounded(v, 1)` bit for bit, the points against
`FFTTGame._reach_tos` and `Reach.halfway` on made-up figures and tables with openings and
wrecks, and every reach of seeded battles against the Python's."""

from __future__ import annotations

import math
import random
import struct

import pytest

from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.fftt.game import WAY_ROWS, FFTTGame, Reach
from warbench.rulesets.fftt.reach import reach_points, tenths
from warbench.rulesets.fftt.state import Fig
from warbench.rulesets.fftt.table import Piece, Table, rounded


def _bits(v: float) -> bytes:
    return struct.pack("<d", v)


def test_tenths_is_rounded_bit_for_bit_or_leaves_it_to_python() -> None:
    rng = random.Random(5)
    left = 0
    for _ in range(60_000):
        tie = (rng.randint(0, 20_000) + 0.5) / 10
        for v in (
            rng.uniform(-50.0, 250.0),
            round(rng.uniform(-20.0, 200.0), 1) / 2,  # a half of a tenth: often a tie
            tie,
            -tie,
            math.nextafter(tie, 0.0),
            math.nextafter(tie, math.inf),
            rng.uniform(-0.15, 0.15),  # near nought: `round`'s
        ):
            got = tenths(v)
            if math.isnan(got):
                assert abs(v * 10.0) < 1.0, v
                left += 1
            else:
                assert _bits(got) == _bits(rounded(v, 1)), v
    assert left > 1_000  # the values near nought are left to Python


def _python_points(g: FFTTGame, fig: Fig) -> list[tuple[float, float]]:
    tos = g._reach_tos(fig)
    return tos + Reach(fig.id, tos).halfway(fig)


def test_the_points_on_made_up_tables_are_pythons() -> None:
    """Tables with buildings (openings on three walls) and wrecks, figures anywhere (off the
    table's west and south edges too), of each pace of a battle and one to four actions."""
    ruleset = registry.get("fftt")
    g = ruleset.new_game(ruleset.load_scenario("marines-vs-machina"), 0)
    assert isinstance(g, FFTTGame)
    paces = {f.pace: f for f in g.state.figs.values()}  # a figure of each pace
    assert len(paces) >= 2
    rng = random.Random(8)
    compared = left = 0
    for _ in range(400):
        pieces = []
        for _ in range(rng.randint(0, 6)):
            x0, y0 = round(rng.uniform(0, 90), 1), round(rng.uniform(0, 70), 1)
            if rng.random() < 0.5:
                openings = (("south", "door"), ("north", "double"), ("west", "window"))
                pieces.append(Piece("building", x0, y0, x0 + 10, y0 + 10, openings))  # type: ignore[arg-type]
            else:
                pieces.append(Piece("vehicle", x0, y0, x0 + 5, y0 + 10))
        g.state.table = Table(100.0, 80.0, tuple(pieces))
        for _ in range(10):
            fig = rng.choice(list(paces.values()))
            fig.x = round(rng.uniform(-5, 100), rng.choice([1, 2]))
            fig.y = round(rng.uniform(-5, 80), rng.choice([1, 2]))
            fig.ap = rng.randint(1, 4)
            got = reach_points(fig.x, fig.y, fig.pace, fig.ap, g.state.table.portal_rows, WAY_ROWS)
            want = _python_points(g, fig)
            if got is None:
                left += 1
                continue
            assert [(_bits(x), _bits(y)) for x, y in got.tolist()] == [
                (_bits(x), _bits(y)) for x, y in want
            ]
            compared += 1
    assert compared > 3_000
    assert left > 10  # figures at the table's edge, whose points come near nought


@pytest.mark.parametrize("scenario", ["marines-vs-machina-relay", "behind-the-screen"])
def test_every_reach_of_a_battle_is_pythons(scenario: str) -> None:
    ruleset = registry.get("fftt")
    g = ruleset.new_game(ruleset.load_scenario(scenario), 3)
    assert isinstance(g, FFTTGame)
    agents = {p: ruleset.agents()["ai"](n) for n, p in enumerate(ruleset.players)}
    compared = compiled = 0
    while isinstance(g.pending, Decision) and compared < 3_000:
        s = g.state
        if s.stage == "move":
            for fig in s.side_figs(s.player):
                reach = g._reach(fig)
                want = _python_points(g, fig)
                assert reach.tos + reach.halfway(fig) == want
                assert reach.spots(fig).tolist() == [list(p) for p in want]
                compared += 1
                rows = s.table.portal_rows
                compiled += reach_points(fig.x, fig.y, fig.pace, fig.ap, rows, WAY_ROWS) is not None
        player = g.pending.player
        g.apply(agents[player].choose(g, player), player)
    assert compared >= 500
    assert compiled >= 0.95 * compared
