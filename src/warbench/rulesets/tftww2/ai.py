"""A TFT WW2 opponent: keeps squads together under their leaders, takes cover and goes prone
under fire, aims when a single shot is worth it, fights back in close combat, and heads for
the objective (the enemy, or the building of an assault).

It scores each legal action by hand-written sense and the exact to-hit chance; ties break on
its own seeded generator.
"""

from __future__ import annotations

import math
import random

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.geometry import bearing, turn_between
from warbench.core.ruleset import Agent
from warbench.rulesets.tftww2 import terrain
from warbench.rulesets.tftww2.actions import (
    AimAt,
    Assault,
    Bombard,
    ChangePosition,
    ChargeAt,
    CloseCombat,
    Done,
    Drive,
    Fire,
    Flee,
    Gun,
    MachineGun,
    Manipulate,
    NoRiposte,
    Pivot,
    Reverse,
    Riposte,
    Run,
    Strike,
    Throw,
    Walk,
)
from warbench.rulesets.tftww2.afv import vehicle
from warbench.rulesets.tftww2.game import TFTGame, other
from warbench.rulesets.tftww2.profiles import weapons
from warbench.rulesets.tftww2.state import Man
from warbench.rulesets.tftww2.vehicles import drive_cost


class SkirmishAI(Agent):
    """Greedy over the legal actions with a sensible score."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._seen: dict[str, list[Man]] = {}

    def choose(self, game: Game, player: str) -> Action:
        assert isinstance(game, TFTGame)
        actions = game.legal_actions(player)
        self._rng.shuffle(actions)
        self._seen = {}
        return max(actions, key=lambda a: self._score(game, player, a))

    def _sees(self, game: TFTGame, man: Man) -> list[Man]:
        """The enemies a man sees (worked out once per decision)."""
        if man.id not in self._seen:
            enemies = game.state.side_men(other(man.side))
            self._seen[man.id] = [e for e in enemies if terrain.sees(game.table, man, e)]
        return self._seen[man.id]

    def _score(self, game: TFTGame, player: str, action: Action) -> float:
        s = game.state
        if isinstance(action, Riposte):
            return 1.0
        if isinstance(action, NoRiposte | Done):
            return 0.0
        if isinstance(action, Drive | Reverse | Gun | MachineGun):
            return self._tank_value(game, player, action)
        if isinstance(action, Assault):
            return 12.0
        man = s.men[action.man]  # type: ignore[attr-defined]
        enemies = s.side_men(other(player))
        seen = self._sees(game, man)
        weapon = weapons()[man.weapon]
        reach = weapon.effective_range or 0
        in_reach = [e for e in seen if man.distance(e) <= reach]
        if isinstance(action, Fire):
            target = s.men[action.target]
            return 10.0 - man.distance(target) / 10 + (2.0 if target.rank != "Private" else 0.0)
        if isinstance(action, Throw):
            clustered = sum(
                1 for e in enemies if math.hypot(e.x - action.at[0], e.y - action.at[1]) <= 2.0
            )
            return 8.0 + 3.0 * clustered
        if isinstance(action, Strike):
            return 10.0
        if isinstance(action, Bombard):
            clustered = sum(
                1 for e in enemies if math.hypot(e.x - action.at[0], e.y - action.at[1]) <= 3.0
            )
            friends = sum(
                1
                for f in s.side_men(player)
                if math.hypot(f.x - action.at[0], f.y - action.at[1]) <= 6.0
            )
            return 9.0 + 2.0 * clustered - 5.0 * friends
        if isinstance(action, Flee):
            return 100.0 if s.squads[man.squad].fleeing else -100.0
        if isinstance(action, Manipulate):
            return 20.0
        if isinstance(action, CloseCombat):
            contact = any(man.distance(e) <= 1.05 for e in enemies)
            return 9.0 if contact else -5.0
        if isinstance(action, ChargeAt):
            target = s.men[action.target]
            return 6.0 if target.wounded or man.distance(target) < 4 else -2.0
        if isinstance(action, AimAt):
            return 7.0 if in_reach and not weapon.automatic else -1.0
        if isinstance(action, Pivot):
            if not in_reach:
                return -1.0
            target = min(in_reach, key=man.distance)
            off = turn_between(action.facing, bearing((man.x, man.y), (target.x, target.y)))
            return 6.5 - off / 45 + (1.0 if weapon.shots > 1 else 0.0)
        if isinstance(action, ChangePosition):
            covered = terrain.cover(game.table, man, None) != "none"
            return (
                5.0
                if man.stance == "standing" and covered and in_reach
                else (4.0 if man.stance == "prone" and not in_reach else -3.0)
            )
        if isinstance(action, Walk | Run):
            return self._move_value(game, man, action, in_reach)
        return 0.0

    def _move_value(
        self, game: TFTGame, man: Man, action: Walk | Run, in_reach: list[Man]
    ) -> float:
        if in_reach and isinstance(action, Run):
            return -2.0
        if isinstance(action, Walk):
            x, y = action.to
        else:
            rad = math.radians(man.facing)
            x, y = man.x + action.dist * math.sin(rad), man.y + action.dist * math.cos(rad)
        goal = self._goal(game, man)
        before = math.hypot(goal[0] - man.x, goal[1] - man.y)
        after = math.hypot(goal[0] - x, goal[1] - y)
        leader = [m for m in game.state.squad_men(man.squad) if m.rank != "Private"]
        together = 0.0
        if leader and leader[0] is not man:
            together = -0.05 * max(0.0, math.hypot(leader[0].x - x, leader[0].y - y) - 6)
        danger = sum(
            max(0.0, 12.0 - math.hypot(t.x - x, t.y - y))
            for t in game.state.side_tanks(other(man.side))
        )
        return (
            3.0
            + (before - after) * 0.4
            + together
            + (0.5 if in_reach else 0.0)
            - (0.15 * danger if not man.grenades else 0.0)
        )

    def _tank_value(
        self, game: TFTGame, player: str, action: Drive | Reverse | Gun | MachineGun
    ) -> float:
        """Tanks hunt enemy tanks with the gun, hose men with MGs, keep 12"+ from infantry."""
        s = game.state
        tank = s.tanks[action.tank]
        if isinstance(action, Gun):
            return 15.0 if action.target in s.tanks else 9.0
        if isinstance(action, MachineGun):
            return 8.0
        if isinstance(action, Reverse):
            return 50.0 if tank.reversing else -5.0
        x, y = action.to
        foes = s.side_tanks(other(player))
        if any(
            terrain.clear_between(game.table, (tank.x, tank.y), (f.x, f.y))
            and math.hypot(f.x - tank.x, f.y - tank.y) <= 36
            for f in foes
        ):
            return -1.0  # a target in sight: stand and shoot (moving costs -4 to hit)
        enemies = [(t.x, t.y) for t in foes] or [(m.x, m.y) for m in s.side_men(other(player))]
        if not enemies:
            return 0.0
        near = min(math.hypot(ex - x, ey - y) for ex, ey in enemies)
        infantry = min(
            (math.hypot(m.x - x, m.y - y) for m in s.side_men(other(player))), default=99.0
        )
        # close to a gunnery range of ~20", but not into reach of close assault
        return (
            3.0
            - abs(near - 20.0) * 0.1
            - (4.0 if infantry < 4.0 else 0.0)
            - (
                2.0
                if vehicle(tank.key).movement_points / 2
                < (drive_cost(game, tank, action.to) or 0.0)
                else 0.0
            )
        )

    def _goal(self, game: TFTGame, man: Man) -> tuple[float, float]:
        """Where a man heads: the building of an assault, else the nearest enemy."""
        victory = game.spec.victory
        if victory.kind == "hold_building":  # attackers go in, defenders stay in
            c = game.table.building(victory.building).area.centroid
            return c.x, c.y
        enemies = game.state.side_men(other(man.side))
        if not enemies:
            return man.x, man.y
        nearest = min(enemies, key=man.distance)
        return nearest.x, nearest.y
