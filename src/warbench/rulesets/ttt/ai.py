"""A Table Top Troopers opponent: looks one action ahead with the rulebook's own odds.

It moves toward the operation's objective and into cover, aims when that is worth more
than moving, and focuses fire on the likeliest, most valuable hits. Ties are broken by its
own seeded generator so games replay exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction

from warbench.core.actions import Action
from warbench.core.dice import exact_outcomes, resolve
from warbench.core.game import Game
from warbench.core.ruleset import Agent
from warbench.rulesets.ttt import attacking
from warbench.rulesets.ttt.actions import Aim, Attack, End, Move, Pass, Place
from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.state import Piece, State
from warbench.rulesets.ttt.table import Table
from warbench.rulesets.ttt.terrain import terrain_table
from warbench.rulesets.ttt.winning import other

PREFERRED = ("M-Gunner", "Guard", "Sniper", "Shot-Gun", "Recon", "Berserker")
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
        assert isinstance(game, TTTGame)
        actions = game.legal_actions(player)
        self._rng.shuffle(actions)
        if game.state.phase == "attack":
            return max(actions, key=lambda a: self._attack_value(game, a))
        if game.state.phase == "placement":
            return max(actions, key=lambda a: self._place_value(game, player, a))
        return max(actions, key=lambda a: self._after(game, player, a))

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
        return _evaluate(game.table, s, player)


def _value(table: Table, piece: Piece) -> float:
    if table.scenario.objective.kind == "take_out_captain" and piece.kind == "Captain":
        return 10.0
    return 1.0


def _goal_distance(table: Table, state: State, side: str, square: object) -> float:
    from warbench.core.grid import Square

    assert isinstance(square, Square)
    objective = table.scenario.objective.kind
    goals: list[Square]
    if objective == "enter_bunker":
        goals = list(table.homes[other(side)])
    elif objective == "hold_bridge":
        goals = list(table.bridge)
    else:
        enemies = state.side_pieces(other(side))
        if objective == "take_out_captain":
            enemies = [p for p in enemies if p.kind == "Captain"] or enemies
        goals = [p.square for p in enemies]
    return float(min((square.distance(g) for g in goals), default=0))


def _evaluate(table: Table, s: State, side: str) -> float:
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
    for piece in mine:
        weight = 0.05 if piece.kind == "Captain" and objective == "take_out_captain" else 0.3
        progress -= weight * _goal_distance(table, s, side, piece.square)
    if objective == "hold_bridge" and any(p.square in table.bridge for p in mine):
        progress += 3.0
    return 2.0 * offense - danger + progress
