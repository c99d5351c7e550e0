"""A Fistful of TOWs 3 opponent.

It deploys across the front, shells the densest enemy group its stands can see (never its
own stands), moves each stand once a phase to the point that best balances the objectives,
cover in difficult terrain, cohesion, enemy fire it would face and shots it would get
(flank shots on vehicles count double), carries its infantry until near an objective, picks
every attack by its expected effect, fires overwatch at the point of a move it hurts most,
and takes overwatch with stands that have nothing worth shooting.
"""

from __future__ import annotations

import math
import random

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.ruleset import Agent
from warbench.rulesets.fft3 import artillery
from warbench.rulesets.fft3.actions import (
    Barrage,
    Debark,
    Deploy,
    End,
    Fire,
    Move,
    Overwatch,
    OverwatchFire,
    Pass,
    Strategic,
)
from warbench.rulesets.fft3.anti_vehicle import penetration_dice
from warbench.rulesets.fft3.facing import arc_of_fire
from warbench.rulesets.fft3.fire import Plan, plan, weapons_of
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.movement import in_cohesion, point_along
from warbench.rulesets.fft3.profiles import forces, tables
from warbench.rulesets.fft3.state import Point, Stand

WORTH = {"tank": 3.0, "ifv": 2.0, "infantry": 1.5}


def die_at_least(target: int, shift: int) -> float:
    """P(d6 + shift >= target)."""
    return min(6, max(0, 7 - (target - shift))) / 6


def expected_effect(p: Plan, target: Stand, *, in_difficult: bool, arc_armour: int) -> float:
    """The chance the attack takes the target out, roughly: destroyed, or a failed check."""
    hits = p.rof * die_at_least(tables().to_hit, sum(v for _, v in p.modifiers))
    if in_difficult:
        hits *= 1 - die_at_least(tables().terrain_save, 0)
    fail = 1 - die_at_least(forces().sides[target.profile.side].quality, 0)
    if p.kind == "anti-infantry":
        return min(1.0, hits) * min(1.0, fail + 0.1 * max(0.0, hits - 1))
    dice, mods = penetration_dice(p.pen, arc_armour)
    shift = sum(v for _, v in mods)
    kill = 1 - (1 - die_at_least(6, shift)) ** dice
    check = 1 - (1 - die_at_least(4, shift)) ** dice - kill
    per_hit = kill + max(0.0, check) * fail
    return float(1 - (1 - per_hit) ** hits)


class TowsAI(Agent):
    """The fft3 heuristic player; ties break on its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._moved: set[tuple[int, int, str]] = set()

    def choose(self, game: Game, player: str) -> Action:
        """The action for the pending decision."""
        assert isinstance(game, FFT3Game)
        phase = game.state.phase
        if phase == "deploy":
            return self._deploy(game, player)
        if phase == "artillery":
            return self._barrage(game, player)
        if phase == "movement":
            return self._move(game, player)
        if phase == "overwatch":
            return self._overwatch_fire(game, player)
        return self._fire(game, player)

    # deployment and artillery
    def _deploy(self, game: FFT3Game, player: str) -> Action:
        s = game.state
        mine = [x for x in s.stands.values() if x.player == player and x.deployed]
        best: tuple[float, Action] | None = None
        for action in game.legal_actions(player):
            assert isinstance(action, Deploy)
            spread = min((abs(action.at[0] - x.x) for x in mine), default=99.0)
            near = min(math.dist(action.at, o) for o in game.spec.objectives)
            score = min(spread, 20.0) - 0.3 * near + self._rng.random() * 0.1
            if best is None or score > best[0]:
                best = (score, action)
        assert best is not None
        return best[1]

    def _barrage(self, game: FFT3Game, player: str) -> Action:
        s = game.state
        best: tuple[float, Action] = (0.5, End())
        reach = artillery.radius()
        friends = s.side_stands(player)
        for action in game.legal_actions(player):
            if not isinstance(action, Barrage):
                continue
            if any(math.dist(f.at, action.at) <= reach + f.radius + 0.5 for f in friends):
                continue
            score = sum(
                WORTH[e.profile.kind]
                for e in s.side_stands(s.enemy(player))
                if math.dist(e.at, action.at) <= reach + e.radius
            )
            if score > best[0]:
                best = (score, action)
        return best[1]

    # movement
    def _move(self, game: FFT3Game, player: str) -> Action:
        s = game.state
        for stand in s.side_stands(player):
            tag = (s.turn, s.half, stand.id)
            if tag in self._moved:
                continue
            self._moved.add(tag)
            action = self._best_move(game, stand)
            if action is not None:
                return action
        return End()

    def _best_move(self, game: FFT3Game, stand: Stand) -> Action | None:
        s = game.state
        enemies = s.side_stands(s.enemy(stand.player))
        if stand.carrying is not None:
            near = min(math.dist(stand.at, o) for o in game.spec.objectives)
            if near <= 6 or any(stand.gap(e) <= 8 for e in enemies):
                for at in game._debark_points(stand):
                    debark = Debark(stand.id, at)
                    if game.check(debark) is None:
                        self._moved.discard((s.turn, s.half, stand.id))
                        return debark
        best: tuple[float, Action | None] = (self._score(game, stand, stand.at), None)
        far = not any(stand.gap(e) <= 30 for e in enemies)
        for strategic, to in game.move_points(stand):
            if strategic and not far:
                continue
            action: Action = Strategic(stand.id, to) if strategic else Move(stand.id, to)
            if game.check(action) is not None:
                continue
            score = self._score(game, stand, to) + self._rng.random() * 0.01
            if score > best[0]:
                best = (score, action)
        return best[1]

    def _score(self, game: FFT3Game, stand: Stand, at: Point) -> float:
        """How good a place `at` is for `stand`."""
        s = game.state
        field = game.field
        objectives = game.spec.objectives
        enemy = s.enemy(stand.player)
        wanted = [
            o for n, o in enumerate(objectives, start=1) if s.held.get(str(n)) != stand.player
        ]
        goal = min((math.dist(at, o) for o in wanted or objectives), default=0.0)
        score = -0.15 * goal
        if any(math.dist(at, o) <= 3 for o in objectives):
            score += 2.0
        if field.in_difficult(at):
            score += 1.5
        if not in_cohesion(s, stand, at):
            score -= 1.0
        threat = 0.0
        chance = 0.0
        for e in s.side_stands(enemy):
            gap = math.dist(at, e.at) - e.radius - stand.radius
            if gap > 40:
                continue
            if not field.can_see(at, stand.radius, e.at, e.radius):
                continue
            threat += self._threat(e, stand, gap)
            if stand.profile.vehicle or stand.profile.kind == "infantry":
                reach = max(
                    (w.range for w in (stand.profile.gun, stand.profile.missile) if w is not None),
                    default=stand.profile.anti_infantry.range if stand.profile.anti_infantry else 0,
                )
                if gap <= reach:
                    flank = (
                        e.profile.vehicle
                        and arc_of_fire(e.at, e.facing, at, stand.radius) == "flank"
                    )
                    chance += WORTH[e.profile.kind] * (2.0 if flank else 1.0)
        return score + 0.3 * min(chance, 6.0) - 0.8 * threat

    @staticmethod
    def _threat(enemy: Stand, me: Stand, gap: float) -> float:
        """A rough danger from `enemy` to `me` at `gap` inches."""
        p = enemy.profile
        if me.profile.vehicle:
            reach = max(
                (
                    w.range * (1.5 if w is p.gun else 1.0)
                    for w in (p.gun, p.missile, p.law)
                    if w is not None
                ),
                default=0.0,
            )
        else:
            reach = max(
                (w.range * 1.5 for w in (p.gun, p.anti_infantry) if w is not None), default=0.0
            )
        return 1.0 if gap <= reach else 0.0

    # fire
    def _overwatch_fire(self, game: FFT3Game, player: str) -> Action:
        s = game.state
        leg = s.leg
        mover = s.stands[leg["stand"]]
        a: Point = (leg["from"][0], leg["from"][1])
        b: Point = (leg["to"][0], leg["to"][1])
        best: tuple[float, Action] = (0.0, Pass())
        for action in game.legal_actions(player):
            if not isinstance(action, OverwatchFire):
                continue
            firer = s.stands[action.stand]
            at = point_along(a, b, action.along)
            value = self._value(game, firer, action.weapon, mover, target_at=at, overwatch=True)
            if value > best[0]:
                best = (value, action)
        return best[1]

    def _value(
        self,
        game: FFT3Game,
        firer: Stand,
        weapon: str,
        target: Stand,
        *,
        target_at: Point | None = None,
        overwatch: bool = False,
    ) -> float:
        p = plan(game.field, firer, weapon, target, target_at=target_at, overwatch=overwatch)
        if isinstance(p, str):
            return 0.0
        at = target_at or target.at
        armour = 0
        if target.profile.armour is not None:
            side = arc_of_fire(at, target.facing, firer.at, firer.radius)
            armour = target.profile.armour.front if side == "front" else target.profile.armour.flank
        chance = expected_effect(
            p, target, in_difficult=game.field.in_difficult(at), arc_armour=armour
        )
        return chance * WORTH[target.profile.kind]

    def _fire(self, game: FFT3Game, player: str) -> Action:
        s = game.state
        enemies = s.side_stands(s.enemy(player))
        declared = {shot.firer for g in s.groups.values() for shot in g}
        for stand in s.side_stands(player):
            if stand.id in declared or stand.attacks:
                continue
            best: tuple[float, Action | None] = (0.05, None)
            for weapon in weapons_of(stand):
                for e in enemies:
                    if e.id in s.resolved:
                        continue
                    value = self._value(game, stand, weapon, e)
                    if value > best[0]:
                        action = Fire(stand.id, weapon, e.id)
                        if game.check(action) is None:
                            best = (value, action)
            if best[1] is not None:
                return best[1]
            if game.check(Overwatch(stand.id)) is None:
                return Overwatch(stand.id)
        return End()
