"""Where a selected piece may move and what a move costs (docs/server.md, "Before you
confirm"): the reach region is where the rules' own check allows the move, and the cost
shown is the rules' own movement cost, turns and terrain included, for every ruleset on a
continuous table; on ttt's grid each reachable square with its cost."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.game import Decision, Game
from warbench.core.preview import Reach
from warbench.core.ruleset import Ruleset
from warbench.rulesets.fft3.actions import Move
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fftt.actions import Move as FFTTMove
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.tftww2.actions import Drive, Walk
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.ttt.game import TTTGame
from warbench.server.preview import own_copy, path_preview

CASES = [
    ("fft3", "meeting-engagement", "move"),
    ("fft3", "meeting-engagement", "strategic"),
    ("gff", "skirmish", "advance"),
    ("gff", "skirmish", "rush"),
    ("tftww2", "combined-arms", "walk"),
    ("tftww2", "combined-arms", "drive"),
    ("fftt", "marines-vs-machina", "move"),
]


def at_move(
    ruleset: str, scenario: str, verb: str, seed: int = 1
) -> tuple[Ruleset, Game, str, Action]:
    """A seeded game played at random (ending nothing early) until a move `verb` is legal."""
    rs = registry.get(ruleset)
    game = rs.new_game(rs.load_scenario(scenario), seed)
    rng = random.Random(seed)
    for _ in range(800):
        pending = game.pending
        assert isinstance(pending, Decision)
        legal = game.legal_actions(pending.player)
        moves = [a for a in legal if a.verb == verb]
        if moves:
            return rs, game, pending.player, moves[0]
        busy = [a for a in legal if a.verb not in ("end", "pass", "done", "surrender")]
        game.apply(rng.choice(busy or legal), pending.player)
    raise AssertionError(f"no '{verb}' came up")


def piece_of(action: Action) -> str:
    return str(getattr(action, dataclasses.fields(action)[0].name))


def moved_to(action: Action, origin: tuple[float, float], x: float, y: float) -> Action:
    """`action` to the point (x, y), facing the way it moves."""
    changes: dict[str, object] = {"to": (round(x, 2), round(y, 2))}
    if any(f.name == "facing" for f in dataclasses.fields(action)):
        bearing = math.degrees(math.atan2(x - origin[0], y - origin[1]))
        changes["facing"] = float(round(bearing) % 360)
    return dataclasses.replace(action, **changes)


def shape_of(reach: Reach) -> Polygon:
    return unary_union([Polygon(rings[0], rings[1:]) for rings in reach.area])


@pytest.mark.parametrize(("ruleset", "scenario", "verb"), CASES)
def test_the_region_is_where_the_rules_allow_the_move(
    ruleset: str, scenario: str, verb: str
) -> None:
    """Every point well inside the region is a legal end of the move and every point well
    outside it (within twice the move's reach) is refused, by the rules' own check."""
    rs, game, player, action = at_move(ruleset, scenario, verb)
    mine = own_copy(game, player)
    piece = piece_of(action)
    (reach,) = [r for r in rs.reach(mine, player, piece) if r.verb == verb]
    assert reach.origin is not None and reach.cell is not None
    shape = shape_of(reach)
    assert shape.area > 0
    coarse = reach.cell * 4  # the grid's cells before they are split at the edge
    inside, outside = shape.buffer(-coarse), shape.buffer(coarse)
    ox, oy = reach.origin
    far = math.dist(reach.origin, (shape.bounds[2], shape.bounds[3])) * 1.5
    counted = {True: 0, False: 0}
    for i in range(-12, 13):
        for j in range(-12, 13):
            x, y = ox + far * (i + 0.37) / 12, oy + far * (j + 0.21) / 12
            where = Point(x, y)
            if inside.contains(where):
                assert mine.check(moved_to(action, reach.origin, x, y), player) is None, (x, y)
                counted[True] += 1
            elif not outside.contains(where):
                assert mine.check(moved_to(action, reach.origin, x, y), player), (x, y)
                counted[False] += 1
    assert counted[True] >= 5 and counted[False] >= 20, counted


@pytest.mark.parametrize(("ruleset", "scenario", "verb"), CASES)
def test_a_move_that_costs_more_than_its_allowance_is_refused(
    ruleset: str, scenario: str, verb: str
) -> None:
    """The cost shown comes from the rules' movement code: along every bearing, a point
    whose cost is over the allowance is refused and the cost grows with the distance."""
    rs, game, player, action = at_move(ruleset, scenario, verb)
    mine = own_copy(game, player)
    (reach,) = [r for r in rs.reach(mine, player, piece_of(action)) if r.verb == verb]
    assert reach.origin is not None
    ox, oy = reach.origin
    over = 0
    for k in range(16):
        rad = math.radians(360 * k / 16 + 3)
        costs = []
        for step in range(1, 40):
            d = step * 0.8 if rs.unit == "inch" else step * 2.0
            move = moved_to(action, reach.origin, ox + d * math.sin(rad), oy + d * math.cos(rad))
            cost = rs.path_cost(mine, player, move)
            assert cost is not None and cost.allowance is not None
            costs.append(cost.cost)
            if cost.cost > cost.allowance + 1e-6:
                assert mine.check(move, player), move
                over += 1
        assert costs == sorted(costs), costs  # straight on costs more, never less
    assert over > 0
    shown = path_preview(game, action, player)
    cost = rs.path_cost(mine, player, action)
    assert cost is not None and shown["path"] == cost.to_json() and shown["reason"] is None


def test_fft3_prices_a_leg_by_the_ground_under_it() -> None:
    rs, game, player, action = at_move("fft3", "meeting-engagement", "move")
    assert isinstance(game, FFT3Game)
    stand = game.state.stands[piece_of(action)]
    to = (stand.x + 3.0, stand.y)
    cost = rs.path_cost(game, player, Move(stand.id, to))
    assert cost is not None and cost.unit == "MP"
    assert cost.cost == game.field.leg_cost(stand.at, to, vehicle=stand.profile.vehicle)


def test_tftww2_charges_for_turns_on_foot_and_in_a_vehicle() -> None:
    """3.0: each 90° of turn costs 1 (part of 90° counts whole); 8.1: a tracked AFV pays 2
    for each 60° it turns before it drives."""
    rs, game, player, walk = at_move("tftww2", "combined-arms", "walk")
    assert isinstance(game, TFTGame)
    man = game.state.men[piece_of(walk)]
    ahead, behind = man.facing, man.facing + 180
    costs = {}
    for name, heading in (("ahead", ahead), ("behind", behind)):
        rad = math.radians(heading)
        to = (man.x + 2 * math.sin(rad), man.y + 2 * math.cos(rad))
        cost = rs.path_cost(game, player, Walk(man.id, to, float(round(heading) % 360)))
        assert cost is not None
        costs[name] = cost.cost
    assert costs["behind"] - costs["ahead"] == pytest.approx(2.0, abs=0.02)
    rs, game, player, drive = at_move("tftww2", "combined-arms", "drive")
    assert isinstance(game, TFTGame)
    tank = game.state.tanks[piece_of(drive)]
    for turn, extra in ((0, 0), (90, 4), (180, 6)):
        rad = math.radians(tank.facing + turn)
        to = (tank.x + math.sin(rad), tank.y + math.cos(rad))
        cost = rs.path_cost(game, player, Drive(tank.id, to))
        assert cost is not None
        assert 1 + extra - 1e-6 <= cost.cost <= 4 + extra + 1e-6  # 1" of ground: 1 to 4 MP


def test_fftt_prices_a_move_in_cm_and_actions() -> None:
    rs, game, player, action = at_move("fftt", "marines-vs-machina", "move")
    assert isinstance(game, FFTTGame) and isinstance(action, FFTTMove)
    cost = rs.path_cost(own_copy(game, player), player, action)
    fig = game.state.figs[piece_of(action)]
    assert cost is not None and cost.unit == "cm"
    assert cost.cost == game.state.table.move_cost(fig.pos, action.to, fig.prof.ignores_terrain)
    assert f"of {fig.ap} actions" in cost.detail


def test_ttt_prices_each_reachable_square() -> None:
    rs, game, player, action = at_move("ttt", "besiege-the-bunker", "move")
    assert isinstance(game, TTTGame)
    (reach,) = rs.reach(game, player, piece_of(action))
    for name, price in reach.squares:
        cost = rs.path_cost(game, player, game.parse(f"move {piece_of(action)} {name}"))
        assert cost is not None and cost.cost == price and cost.unit == "squares"


def test_tftww2_afvs_have_the_range_bands_of_their_machine_guns() -> None:
    """4.1 for the MG's kind (LMG and HMG: 60"), short range as for men; an AFV whose MGs
    are out of action has none."""
    rs, game, _, drive = at_move("tftww2", "combined-arms", "drive")
    assert isinstance(game, TFTGame)
    tank = game.state.tanks[piece_of(drive)]
    bands = dict(rs.ranges(game, tank.id))
    assert bands["short"] > 0 and any(k.endswith("effective") and v == 60 for k, v in bands.items())
    tank.mgs_out = True
    assert rs.ranges(game, tank.id) == []
