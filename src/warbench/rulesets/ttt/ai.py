"""A Table Top Troopers opponent: looks one action ahead with the rulebook's own odds.

It moves toward the operation's objective and into cover, aims when that is worth more
than moving, and focuses fire on the likeliest, most valuable hits. Ties are broken by its
own seeded generator so games replay exactly.
"""

from __future__ import annotations

import random

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.grid import Square
from warbench.core.ruleset import Agent
from warbench.rulesets.ttt.actions import Aim, Attack, End, Move, Place
from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.position import Outlook, far, goal_field, hit_chance, piece_value
from warbench.rulesets.ttt.terrain import terrain_table
from warbench.rulesets.ttt.winning import other

PREFERRED = ("M-Gunner", "Recon", "Guard", "Shot-Gun", "Sniper", "Berserker")


class TrooperAI(Agent):
    """Greedy one-action look-ahead over the legal actions."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: str) -> Action:
        """The best-scoring legal action for `player` (the first of equals, as `max`)."""
        actions, values = self._scored(game, player)
        return actions[max(range(len(actions)), key=values.__getitem__)]

    def ranked(self, game: Game, player: str) -> list[Action]:
        """Every legal action, best first (the first is what `choose` would take): the
        search agent's candidates."""
        actions, values = self._scored(game, player)
        order = sorted(range(len(actions)), key=values.__getitem__, reverse=True)
        return [actions[n] for n in order]

    def _scored(self, game: Game, player: str) -> tuple[list[Action], list[float]]:
        """The legal actions, shuffled for ties, and this AI's score of each."""
        assert isinstance(game, TTTGame)
        actions = game.legal_actions(player)
        self._rng.shuffle(actions)
        if game.state.phase == "attack":
            return actions, [self._attack_value(game, a) for a in actions]
        if game.state.phase == "placement":
            field, beyond = goal_field(game.table, game.state, player), far(game.table)
            return actions, [self._place_value(game, field, beyond, a) for a in actions]
        return actions, self._after(game, player, actions)

    # -- attacking: focus fire ---------------------------------------------------------
    def _attack_value(self, game: TTTGame, action: Action) -> float:
        if isinstance(action, End):
            return 0.0
        assert isinstance(action, Attack)
        s = game.state
        attacker, target = s.pieces[action.piece], s.pieces[action.target]
        return hit_chance(game.table, attacker, target) * piece_value(game.table, target)

    # -- set-up ------------------------------------------------------------------------
    def _place_value(
        self, game: TTTGame, field: dict[Square, int], beyond: int, action: Action
    ) -> float:
        """Preferred kinds first, then cover, then nearness to the goal (`position.goal_field`,
        `beyond` steps where no goal can be reached)."""
        assert isinstance(action, Place)
        preference = PREFERRED.index(action.kind) if action.kind in PREFERRED else len(PREFERRED)
        cover = terrain_table()[game.table.battlefield.terrain[action.to]].tbh
        goal = float(field.get(action.to, beyond))
        return -10.0 * preference + cover - 0.1 * goal

    # -- movement: one step of look-ahead ---------------------------------------------
    def _after(self, game: TTTGame, player: str, actions: list[Action]) -> list[float]:
        """`position.position_value` of the position after each action (`Outlook` reads it
        without copying the state); a move into the enemy bunker scores above all."""
        outlook = Outlook(game.table, game.state, player)
        bunker = game.table.homes.get(other(player), frozenset())
        values = []
        for action in actions:
            if isinstance(action, Move):
                if action.to in bunker:
                    values.append(1e6)
                else:
                    values.append(outlook.moved(action.piece, action.to))
            elif isinstance(action, Aim):
                values.append(outlook.aimed(action.piece, action.target))
            else:
                values.append(outlook.unchanged())
        return values
