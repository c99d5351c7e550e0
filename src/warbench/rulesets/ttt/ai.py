"""A Table Top Troopers opponent: looks one action ahead with the rulebook's own odds.

It moves toward the operation's objective and into cover, aims when that is worth more
than moving, and focuses fire on the likeliest, most valuable hits. Ties are broken by its
own seeded generator so games replay exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from warbench.core.actions import Action
from warbench.core.dice import exact_outcomes, resolve
from warbench.core.game import Game
from warbench.core.grid import Square
from warbench.core.ruleset import Agent
from warbench.rulesets.ttt import attacking
from warbench.rulesets.ttt.actions import Aim, Attack, End, Move, Pass, Place
from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.state import Piece, State
from warbench.rulesets.ttt.table import Table
from warbench.rulesets.ttt.terrain import terrain_table
from warbench.rulesets.ttt.winning import other

PREFERRED = ("M-Gunner", "Recon", "Guard", "Shot-Gun", "Sniper", "Berserker")
_HIT_ODDS: dict[tuple[int, int, int], float] = {}


def hit_chance(table: Table, attacker: Piece, target: Piece) -> float:
    """P(hit) of attacker on target now, exactly, from the attack's own roll request."""
    request = attacking.to_hit(table, attacker, target)
    key = (request.modifier_total, request.target or 0, 0)
    if key not in _HIT_ODDS:
        odds = exact_outcomes(lambda dice: resolve(request, dice.faces(request)).success)
        _HIT_ODDS[key] = float(odds.get(True, Fraction(0)))
    return _HIT_ODDS[key]


class TrooperAI(Agent):
    """Greedy one-action look-ahead over the legal actions."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: str) -> Action:
        """The best-scoring legal action for `player`."""
        actions, value = self._scored(game, player)
        return max(actions, key=value)

    def ranked(self, game: Game, player: str) -> list[Action]:
        """Every legal action, best first (the first is what `choose` would take): the
        search agent's candidates."""
        actions, value = self._scored(game, player)
        return sorted(actions, key=value, reverse=True)

    def _scored(self, game: Game, player: str) -> tuple[list[Action], Callable[[Action], float]]:
        """The legal actions, shuffled for ties, and how this AI scores one."""
        assert isinstance(game, TTTGame)
        actions = game.legal_actions(player)
        self._rng.shuffle(actions)
        if game.state.phase == "attack":
            return actions, lambda a: self._attack_value(game, a)
        if game.state.phase == "placement":
            return actions, lambda a: self._place_value(game, player, a)
        return actions, lambda a: self._after(game, player, a)

    # -- attacking: focus fire ---------------------------------------------------------
    def _attack_value(self, game: TTTGame, action: Action) -> float:
        if isinstance(action, End):
            return 0.0
        assert isinstance(action, Attack)
        s = game.state
        attacker, target = s.pieces[action.piece], s.pieces[action.target]
        return hit_chance(game.table, attacker, target) * _value(game.table, target)

    # -- set-up ------------------------------------------------------------------------
    def _place_value(self, game: TTTGame, player: str, action: Action) -> float:
        assert isinstance(action, Place)
        preference = PREFERRED.index(action.kind) if action.kind in PREFERRED else len(PREFERRED)
        cover = terrain_table()[game.table.battlefield.terrain[action.to]].tbh
        goal = _goal_distance(game.table, game.state, player, action.to)
        return -10.0 * preference + cover - 0.1 * goal

    # -- movement: one step of look-ahead ---------------------------------------------
    def _after(self, game: TTTGame, player: str, action: Action) -> float:
        s = game.state.copy()
        if isinstance(action, Move):
            piece = s.pieces[action.piece]
            piece.square, piece.aim = action.to, None
            if action.to in game.table.homes.get(other(player), frozenset()):
                return 1e6
        elif isinstance(action, Aim):
            s.pieces[action.piece].aim = action.target
        elif isinstance(action, Pass):
            pass
        return position_value(game.table, s, player)


def _value(table: Table, piece: Piece) -> float:
    """Captains in Cap the Cap'n, and raiders a move from our bunker, matter most."""
    objective = table.scenario.objective.kind
    if objective == "take_out_captain" and piece.kind == "Captain":
        return 10.0
    if objective == "enter_bunker":
        home = table.homes[other(piece.side)]
        reach = table.profile(piece.kind).move
        if min(piece.square.distance(sq) for sq in home) <= reach:
            return 5.0
    return 1.0


def _goal_distance(table: Table, state: State, side: str, square: Square) -> float:
    """Steps (around buildings, through pieces) from `square` to the nearest goal square."""
    objective = table.scenario.objective.kind
    goals: frozenset[Square]
    if objective == "enter_bunker":
        goals = table.homes[other(side)]
    elif objective == "hold_bridge":
        goals = table.bridge
    else:
        enemies = state.side_pieces(other(side))
        if objective == "take_out_captain":
            enemies = [p for p in enemies if p.kind == "Captain"] or enemies
        goals = frozenset(p.square for p in enemies)
    return float(_distance_field(table, goals).get(square, 2 * len(table.battlefield.terrain)))


# Keyed by the table's id; each entry holds the table itself so that id is not reused.
_FIELDS: dict[tuple[int, frozenset[Square]], tuple[Table, dict[Square, int]]] = {}


def _distance_field(table: Table, goals: frozenset[Square]) -> dict[Square, int]:
    """Breadth-first steps from the goals over passable squares (kept for a few goal sets)."""
    key = (id(table), goals)
    if key in _FIELDS:
        return _FIELDS[key][1]
    if len(_FIELDS) > 256:
        _FIELDS.clear()
    links = table.battlefield.links
    found = dict.fromkeys(goals, 0)
    frontier = list(goals)
    while frontier:
        reached = []
        for sq in frontier:
            for nxt in links[sq]:
                if nxt not in found:
                    found[nxt] = found[sq] + 1
                    reached.append(nxt)
        frontier = reached
    _FIELDS[key] = (table, found)
    return found


def position_value(table: Table, s: State, side: str) -> float:
    """Expected hits we can make now, minus expected losses next turn, plus objective."""
    mine, theirs = s.side_pieces(side), s.side_pieces(other(side))
    offense = 0.0
    for enemy in theirs:
        best = max(
            (
                hit_chance(table, m, enemy)
                for m in mine
                if m.id not in s.attacked
                and attacking.can_attack_from(table, m)
                and attacking.in_range(table, m, enemy)
            ),
            default=0.0,
        )
        offense += best * _value(table, enemy)
    danger = 0.0
    for piece in mine:
        survive = 1.0
        for enemy in theirs:
            profile = table.profile(enemy.kind)
            if enemy.square.distance(piece.square) <= profile.range + profile.move:
                survive *= 1.0 - hit_chance(table, enemy, piece)
        danger += (1.0 - survive) * _value(table, piece)
    objective = table.scenario.objective.kind
    progress = 0.0
    urgency = 1.0 + s.turn / 40  # a stalemate is no result: press on as the turns go by
    for piece in mine:
        weight = 0.05 if piece.kind == "Captain" and objective == "take_out_captain" else 0.4
        progress -= urgency * weight * _goal_distance(table, s, side, piece.square)
    if objective == "hold_bridge" and any(p.square in table.bridge for p in mine):
        progress += 3.0
    return 2.0 * offense - 0.5 * danger + progress
