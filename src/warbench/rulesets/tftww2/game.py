"""1.0 Turn Sequence: each side in turn gives every man an action (movement and actions),
then ranged combat, then close combat with parry and riposte, then the morale check.

The flow is a state machine on `State.phase`; the riposte after a missed close-combat
attack is a decision of the defending player in the middle of the other side's turn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from warbench.core.actions import Action
from warbench.core.dice import DiceSource
from warbench.core.game import Decision, GameOver, OpenGame, Pending
from warbench.rulesets.tftww2 import area, close_combat, fire, movement, terrain, vehicles
from warbench.rulesets.tftww2.actions import (
    CODEC,
    AimAt,
    Assault,
    Bombard,
    ChangePosition,
    ChargeAt,
    Climb,
    CloseCombat,
    Disengage,
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
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.fire import may_fire, may_throw
from warbench.rulesets.tftww2.floors import floors_at
from warbench.rulesets.tftww2.indirect import indirect_weapon
from warbench.rulesets.tftww2.morale_check import end_of_turn_morale
from warbench.rulesets.tftww2.scenario import Scenario
from warbench.rulesets.tftww2.state import MAN_BASE, Man, Squad, State, Tank

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset

ORDERS = (
    Run,
    Walk,
    Flee,
    ChargeAt,
    ChangePosition,
    Pivot,
    AimAt,
    Disengage,
    Manipulate,
    Climb,
    CloseCombat,
)
ALLOWED: dict[str, tuple[type[Action], ...]] = {
    "orders": (*ORDERS, Drive, Reverse, Done),
    "ranged": (Fire, Throw, Bombard, Gun, MachineGun, Done),
    "close": (Strike, Assault, Done),
    "riposte": (Riposte, NoRiposte),
}
TANK_ACTIONS = (Drive, Reverse, Gun, MachineGun)
PROMPTS = {  # what each step asks (the riposte's names the man missed)
    "orders": "give each man an action (or done: the rest stand fast)",
    "ranged": "ranged combat: fire, throw, or done",
    "close": "close combat: strike an enemy in base contact, or done",
}
_DECISIONS: dict[tuple[str, str, int, Any], Decision] = {}  # by player, step, round, missed
AFV_WORTH = 5  # casualties an AFV out of the fight counts for (ours)
PIECE_WORTH = 3  # and a static piece, an anti-tank gun (ours, ruling A11)


class _RangedStep(NamedTuple):
    """What is known of a ranged step while it lasts (`TFTGame._step`): its state, the men
    of the side to play found with no legal shot (`no_shot`), their legal fire
    (`TFTGame._legal_fire`, by its key) and all their legal shots (`TFTGame._legal_shots`,
    by its key)."""

    state: State
    idle: set[str]
    fire: dict[tuple[object, ...], tuple[Fire, ...]]
    shots: dict[tuple[object, ...], tuple[Action, ...]]


def other(side: str) -> str:
    """The opposing side."""
    return "blue" if side == "red" else "red"


def _deploy(spec: Scenario) -> State:
    """The state a game of the scenario opens with, before its first turn begins: every man
    and AFV where the scenario deploys him."""
    men: dict[str, Man] = {}
    squads: dict[str, Squad] = {}
    for side in ("red", "blue"):
        count = 0
        for number, squad in enumerate(spec.sides[side].squads, start=1):
            sid = f"{side[0]}s{number}"
            squads[sid] = Squad(sid, side, squad.name, squad.quality)
            for man in squad.men:
                count += 1
                mid = f"{side[0]}{count}"
                men[mid] = Man(
                    mid,
                    side,
                    sid,
                    man.rank,
                    man.at[0],
                    man.at[1],
                    man.facing,
                    man.weapon,
                    man.close_weapon,
                    man.grenades,
                    man.radio,
                    man.support,
                    anti_tank=man.anti_tank,
                    support_shots=indirect_weapon(man.support).shots if man.support else None,
                )
    tanks: dict[str, Tank] = {}
    for side in ("red", "blue"):
        for number, v in enumerate(spec.sides[side].vehicles, start=1):
            tid = f"{side[0]}t{number}"
            profile = vehicle(v.vehicle)
            tanks[tid] = Tank(
                tid,
                side,
                v.vehicle,
                v.at[0],
                v.at[1],
                v.facing,
                immobilised=profile.static,  # ruling A11
                width=profile.width,
                length=profile.length,
                static=profile.static,
            )
    return State(
        phase="orders",
        side=spec.first,
        player=spec.first,
        men=men,
        squads=squads,
        first=spec.first,
        missions={
            side: spec.sides[side].missions if spec.sides[side].artillery else 0
            for side in ("red", "blue")
        },
        tanks=tanks,
    )


class _Opening(NamedTuple):
    """How every game of a scenario opens (`TFTGame.__init__`): its validated scenario (held,
    so the key of `_OPENINGS`, its identity, is not reused), table and first state (copied
    for each game)."""

    spec: Scenario
    table: terrain.Table
    state: State


_OPENINGS: dict[int, _Opening] = {}  # by the identity of the validated scenario


class TFTGame(OpenGame):
    """One TFT WW2 skirmish."""

    codec = CODEC
    state: State

    def __init__(
        self,
        ruleset: Ruleset,
        scenario: dict[str, Any],
        spec: Scenario,
        seed: int | None,
        dice: DiceSource | None = None,
    ) -> None:
        super().__init__(ruleset, scenario, seed, dice)
        self.spec = spec
        self._ranged: _RangedStep | None = None  # the ranged step under way (`_step`)
        # a scenario's games open alike: its first one's table and state are kept
        opening = _OPENINGS.get(id(spec))
        if opening is not None:
            self.table, self.state = opening.table, opening.state.copy()
        else:
            self.table = terrain.Table.build(spec)
            self.state = _deploy(spec)
            self._begin_turn()
            if not self._events and not self._rolls and self._ranged is None:
                # no dice rolled nor step begun: every game of the scenario opens so
                if len(_OPENINGS) >= 100:
                    _OPENINGS.clear()
                _OPENINGS[id(spec)] = _Opening(spec, self.table, self.state.copy())
        self.start()

    # -- decisions ----------------------------------------------------------------------
    @property
    def pending(self) -> Pending:
        s = self.state
        if s.phase == "over":
            return GameOver(s.winner, s.reason, dict(s.score))
        missed = s.step.get("defender") if s.phase == "riposte" else None
        key = (s.player, s.phase, s.round, missed)
        found = _DECISIONS.get(key)
        if found is None:  # the same decision (an immutable value) each time it is asked
            if s.phase == "riposte":
                prompt = f"{missed} was missed: riposte or not"
            else:
                prompt = PROMPTS[s.phase]
            found = Decision(s.player, s.phase, f"{s.player}, round {s.round}: {prompt}")
            if len(_DECISIONS) < 10_000:
                _DECISIONS[key] = found
        return found

    def legal_actions(self, player: str) -> list[Action]:
        """Every discrete action and a sample of the continuous ones, each legal."""
        s = self.state
        if s.phase == "over" or player != s.player:
            return []
        return [a for a in self._candidates(player) if self._illegal(a, player) is None]

    def _candidates(self, player: str) -> list[Action]:
        s = self.state
        acts: list[Action] = [Done()]
        enemies = s.side_men(other(player))
        if s.phase == "orders":
            for man in self._to_order():
                acts += self._man_orders(man, enemies)
            for tank in self._tanks_to_order():
                acts += self._tank_orders(tank)
        elif s.phase == "ranged":
            for tank in s.side_tanks(player):
                acts += self._tank_shots(tank, enemies)
            for man in s.side_men(player):
                acts += self._man_shots(man, enemies)
        elif s.phase == "close":
            for man in s.side_men(player):
                acts += [Strike(man.id, e.id) for e in enemies]
                acts += [Assault(man.id, t.id) for t in s.side_tanks(other(player))]
        else:
            acts = [Riposte(), NoRiposte()]
        return acts

    def legal_actions_of(self, unit: str) -> list[Action]:
        """The legal orders or shots (a sample of the continuous ones) of one man or AFV of
        the side to play, in `legal_actions`' order: what an agent weighs when it plays unit
        by unit (empty in the other steps)."""
        s = self.state
        enemies = s.side_men(other(s.side))
        tank, man = s.tanks.get(unit), s.men.get(unit)
        acts: list[Action] = []
        if s.phase == "orders":
            if tank is not None:
                acts = self._tank_orders(tank)
            elif man is not None:
                return self._legal_orders(man, enemies)
        elif s.phase == "ranged":
            if tank is not None and tank.side == s.side:
                acts = self._tank_shots(tank, enemies)
            elif man is not None and man.side == s.side and man.active:
                return self._legal_shots(man, enemies)
        return [a for a in acts if self._illegal(a, s.side) is None]

    def _legal_orders(self, man: Man, enemies: list[Man]) -> list[Action]:
        """The legal ones of a man's orders: `_illegal`'s checks of the man made once."""
        s = self.state
        if man.side != s.side or not man.active or man.action is not None:
            return []
        if s.squads[man.squad].fleeing:
            return movement.legal_orders(self, man, [Flee(man.id)])
        return movement.legal_man_orders(self, man, enemies)

    def _tank_shots(self, tank: Tank, enemies: list[Man]) -> list[Action]:
        acts: list[Action] = [Gun(tank.id, t.id) for t in self.state.side_tanks(other(tank.side))]
        acts += [Gun(tank.id, e.id) for e in enemies]
        return acts + [MachineGun(tank.id, e.id) for e in enemies]

    def _legal_shots(self, man: Man, enemies: list[Man]) -> list[Action]:
        """The legal ones of a man's shots (`_man_shots` checked by `_shot_problem`), his
        fire, grenades and indirect fire at the enemy checked in one pass
        (`fire.legal_fire`, `fire.legal_throws`, `area.legal_bombards`), kept for the
        ranged step under way as his legal fire is (`_legal_fire`), by that and what else
        can change in it: his grenades, his support weapon's shots and his side's missions
        left. The AI asks again for the shots of every man before the one it picks at
        each shot of the step."""
        step = self._step()
        key: tuple[object, ...] = ()
        if step is not None:
            key = (man.id, man.action, man.aim_target, man.shots, man.jam, man.last_target)
            key += (len(enemies), man.grenades, man.support_shots)
            key += (self.state.missions.get(man.side),)
            found = step.shots.get(key)
            if found is not None:
                return list(found)
        acts: list[Action] = []
        acts += self._legal_fire(man, enemies)
        acts += fire.legal_throws(self, man, enemies)
        if man.support or man.radio:
            acts += area.legal_bombards(self, man, enemies)
        if step is not None:
            step.shots[key] = tuple(acts)
        return acts

    @staticmethod
    def _man_shots(man: Man, enemies: list[Man]) -> list[Action]:
        acts: list[Action] = []
        if may_fire(man):  # the others' shots would all be illegal
            acts += [Fire(man.id, e.id) for e in enemies]
        if may_throw(man):
            acts += [Throw(man.id, (round(e.x, 2), round(e.y, 2))) for e in enemies]
        if man.support or man.radio:
            acts += [Bombard(man.id, (round(e.x, 2), round(e.y, 2))) for e in enemies]
        return acts

    def _man_orders(self, man: Man, enemies: list[Man]) -> list[Action]:
        mov = attributes(man).mov
        acts: list[Action] = [ChangePosition(man.id), CloseCombat(man.id), Flee(man.id)]
        if man.jam:
            acts.append(Manipulate(man.id))
        floors = floors_at(self, man)
        acts += [Climb(man.id, f) for f in (man.floor - 1, man.floor + 1) if 0 <= f < floors]
        for angle in range(0, 360, 45):
            acts.append(Pivot(man.id, float(angle)))
            rad = math.radians(angle)
            for reach in (mov / 2, mov):
                to = (
                    round(man.x + reach * math.sin(rad), 2),
                    round(man.y + reach * math.cos(rad), 2),
                )
                acts.append(Walk(man.id, to, float(angle)))
            acts.append(Run(man.id, float(2 * mov), float(angle)))
        for enemy in enemies:
            acts += [AimAt(man.id, enemy.id), ChargeAt(man.id, enemy.id)]
        acts += [ChargeAt(man.id, t.id) for t in self.state.side_tanks(other(man.side))]
        acts.append(Disengage(man.id))
        return acts

    @staticmethod
    def _tank_orders(tank: Tank) -> list[Action]:
        acts: list[Action] = []
        if not tank.reversing:
            reach = float(vehicle(tank.key).movement_points)
            for angle in range(0, 360, 45):
                rad = math.radians(angle)
                for frac in (1.0, 0.5):
                    to = (
                        round(tank.x + reach * frac * math.sin(rad), 2),
                        round(tank.y + reach * frac * math.cos(rad), 2),
                    )
                    acts.append(Drive(tank.id, to))
        return acts + [Reverse(tank.id, d) for d in (1.0, 2.0, 4.0)]

    def _to_order(self) -> list[Man]:
        s = self.state
        return [m for m in s.side_men(s.side) if m.action is None]

    def _all_ordered(self) -> bool:
        """No man or AFV is left to order (`_to_order` and `_tanks_to_order` both empty),
        found without listing them: asked after every order."""
        s = self.state
        side = s.side
        for m in s.men.values():
            if m.action is None and m.side == side and m.status == "ok":
                return False
        return not any(
            t.action is None and not t.immobilised and t.side == side and t.status == "ok"
            for t in s.tanks.values()
        )

    def _tanks_to_order(self) -> list[Tank]:
        s = self.state
        return [t for t in s.side_tanks(s.side) if t.action is None and not t.immobilised]

    # -- legality -------------------------------------------------------------------------
    def allowed_now(self) -> tuple[type[Action], ...]:
        return ALLOWED[self.state.phase]

    def _illegal(self, action: Action, player: str) -> str | None:
        s = self.state
        if not isinstance(action, ALLOWED[s.phase]):
            forms = ", ".join(CODEC.form(c) for c in ALLOWED[s.phase])
            return f"now is the {s.phase} step; allowed: {forms}"
        if isinstance(action, TANK_ACTIONS):
            return self._illegal_for_tank(action, player)
        man_id = getattr(action, "man", None)
        if man_id is None:
            return None
        man = s.men.get(man_id)
        if man is None or man.side != player or not man.active:
            mine = ", ".join(m.id for m in s.side_men(player))
            return f"'{man_id}' is not one of your men in the fight; yours: {mine}"
        if s.phase == "orders":
            if man.action is not None:
                waiting = ", ".join(m.id for m in self._to_order()) or "none"
                return f"{man.id} already has an action this turn; still to order: {waiting}"
            if s.squads[man.squad].fleeing and not isinstance(action, Flee):
                return f"{man.id}'s squad is fleeing: he must flee"
            return movement.order_problem(self, man, action)
        if isinstance(action, Fire | Throw | Bombard):
            return self._shot_problem(man, action)
        if isinstance(action, Strike):
            return close_combat.strike_problem(self, man, action)
        if isinstance(action, Assault):
            return vehicles.assault_problem(self, man, action.tank)
        return None

    def _shot_problem(self, man: Man, action: Action) -> str | None:
        """Why one of `man`'s own shots (fire, throw, bombard) may not be made now. A shot
        among his legal fire (`fire.legal_fire`, which is `shot_problem` of each shot at an
        enemy and kept: it was asked for this very state when the shot was chosen) is
        allowed without working it out again."""
        if isinstance(action, Fire):
            if action in self._legal_fire(man, self.state.side_men(other(man.side))):
                return None
            return fire.shot_problem(self, man, action)
        if isinstance(action, Throw):
            return fire.shot_problem(self, man, action)
        if isinstance(action, Bombard):
            return area.bombard_problem(self, man, action.at)
        return None

    def _illegal_for_tank(
        self, action: Drive | Reverse | Gun | MachineGun, player: str
    ) -> str | None:
        s = self.state
        tank = s.tanks.get(action.tank)
        if tank is None or tank.side != player or not tank.active:
            mine = ", ".join(t.id for t in s.side_tanks(player)) or "none"
            return f"'{action.tank}' is not one of your AFVs in the fight; yours: {mine}"
        if isinstance(action, Drive | Reverse):
            if tank.action is not None:
                return f"{tank.id} has moved this turn"
            if isinstance(action, Drive):
                return vehicles.drive_problem(self, tank, action.to, reverse=False)
            if not 0 < action.dist <= vehicle(tank.key).movement_points / 2:
                return f"{tank.id} reverses up to half its movement points in inches"
            return vehicles.drive_problem(
                self, tank, self._reverse_point(tank, action.dist), reverse=True
            )
        return vehicles.fire_problem(self, tank, action.target, isinstance(action, Gun))

    @staticmethod
    def _reverse_point(tank: Tank, dist: float) -> tuple[float, float]:
        back = math.radians(tank.facing + 180)
        return tank.x + dist * math.sin(back), tank.y + dist * math.cos(back)

    # -- resolution -----------------------------------------------------------------------
    def _resolve(self, action: Action, player: str) -> None:
        s = self.state
        if isinstance(action, Done):
            self._next_step()
        elif isinstance(action, Drive | Reverse):
            tank = s.tanks[action.tank]
            if isinstance(action, Drive):
                vehicles.drive(self, tank, action.to, reverse=False)
            else:
                vehicles.drive(self, tank, self._reverse_point(tank, action.dist), reverse=True)
            self._check_end()
            if s.phase == "orders" and self._all_ordered():
                self._next_step()
        elif isinstance(action, Gun):
            tank = s.tanks[action.tank]
            if action.target in s.men:
                area.he_shot(self, tank, s.men[action.target])
            else:
                vehicles.fire_gun(self, tank, action.target)
            self._check_end()
        elif isinstance(action, MachineGun):
            vehicles.fire_mg(self, s.tanks[action.tank], action.target)
            self._check_end()
        elif isinstance(action, Assault):
            vehicles.assault(self, s.men[action.man], action.tank)
            self._check_end()
        elif s.phase == "orders":
            movement.carry_out(self, s.men[action.man], action)  # type: ignore[attr-defined]
            if self._all_ordered():
                self._next_step()
        elif isinstance(action, Fire | Throw):
            fire.shoot(self, s.men[action.man], action)
            self._check_end()
        elif isinstance(action, Bombard):
            area.bombard(self, s.men[action.man], action.at)
            self._check_end()
        elif isinstance(action, Strike):
            close_combat.strike(self, s.men[action.man], s.men[action.target])
            self._check_end()
        elif isinstance(action, Riposte | NoRiposte):
            close_combat.riposte(self, isinstance(action, Riposte))
            self._check_end()

    def _begin_turn(self) -> None:
        """Start of a side's turn: fleeing squads flee; everyone's action is cleared."""
        s = self.state
        for man in s.men.values():
            if man.side == s.side:
                man.action, man.moved, man.shots, man.last_target = None, 0.0, 0, None
        for tank in s.side_tanks(s.side):
            tank.action, tank.spent, tank.moved, tank.fired = None, 0.0, 0.0, False
            if tank.jam:
                vehicles.crew_clears_jam(self, tank)
        s.phase, s.player, s.step = "orders", s.side, {}
        for man in list(s.side_men(s.side)):
            if s.squads[man.squad].fleeing:
                movement.carry_out(self, man, Flee(man.id))
        if self._all_ordered():
            self._next_step()

    def _anything_to_do(self, side: str) -> bool:
        """Whether `side` has a legal action in this step (ranged or close combat) other than
        done: `_illegal` of each of `_candidates`, less the checks they pass by being made
        (the step allows them; each man or AFV is `side`'s and in the fight)."""
        s = self.state
        enemies = s.side_men(other(side))
        if s.phase == "ranged":
            if any(
                self._illegal_for_tank(cast(Gun | MachineGun, a), side) is None
                for tank in s.side_tanks(side)
                for a in self._tank_shots(tank, enemies)
            ):
                return True
            idle = self.no_shot()
            for man in s.side_men(side):
                if idle is not None and man.id in idle:
                    continue
                if self._legal_shots(man, enemies):
                    return True
                if idle is not None:
                    idle.add(man.id)
            return False
        tanks = s.side_tanks(other(side))
        return any(
            (  # `strike_problem` of each enemy, the man's own checks made once
                m.action in close_combat.STRIKERS
                and not m.shots
                and any(m.distance(e) <= MAN_BASE + 0.05 and e.floor == m.floor for e in enemies)
            )
            or any(vehicles.assault_problem(self, m, t.id) is None for t in tanks)
            for m in s.side_men(side)
        )

    def _step(self) -> _RangedStep | None:
        """What is known of the ranged step under way, or None outside one (or in a
        position set up by hand). In a ranged step no man moves, turns, climbs or changes
        stance, action or aim, no enemy fires, the enemy only falls, and a shot or a mission
        only takes shots away (4.0, 6.0). A state put back or copied is another object, so
        a fork or a restored game knows none."""
        step = self._ranged
        return step if step is not None and step.state is self.state else None

    def no_shot(self) -> set[str] | None:
        """The men of the side to play found with no legal shot (`_legal_shots` empty) in
        the ranged step under way (None outside one, `_step`): a man found with none has
        none for the rest of the step. `_anything_to_do` fills it as the step opens and the
        AI (`SkirmishAI._shoot`) as it shoots."""
        step = self._step()
        return None if step is None else step.idle

    def _legal_fire(self, man: Man, enemies: list[Man]) -> list[Fire]:
        """`fire.legal_fire` of a man of the side to play at `enemies` (the enemy in the
        fight), kept for the ranged step under way (`_step`) by what can change in it: his
        action, aim, shots, jam and last target, and how many enemies are left (they only
        fall, so as many means the same men); the rest it reads (where he and they stand,
        face and lie, their firing) stays as it was. The AI asks for a man's shots, then
        the check of the one it chose asks again."""
        step = self._step()
        if step is None:
            return fire.legal_fire(self, man, enemies)
        key: tuple[object, ...] = (man.id, man.action, man.aim_target, man.shots, man.jam)
        key += (man.last_target, len(enemies))
        found = step.fire.get(key)
        if found is None:
            found = step.fire[key] = tuple(fire.legal_fire(self, man, enemies))
        return list(found)

    def _may_bombard(self, side: str) -> bool:
        """Indirect fire may fall on any point a spotter sees, not only on the enemy men the
        sampled actions aim at: a side that can bring it keeps its ranged step."""
        s = self.state
        return any(
            m.action in ("pivot", "aim")
            and not m.shots
            and (
                (m.support is not None and not m.jam and m.support_shots != 0)
                or (m.radio and m.rank == "CO" and s.missions.get(side, 0) > 0)
            )
            for m in s.side_men(side)
        )

    def _next_step(self) -> None:
        s = self.state
        if s.phase == "orders":
            for man in self._to_order():
                man.action = "pivot"  # no order given: he stands fast, facing as he was
            s.phase = "ranged"
            self._ranged = _RangedStep(s, set(), {}, {})
            if not self._anything_to_do(s.side) and not self._may_bombard(s.side):
                self._next_step()
        elif s.phase == "ranged":
            s.phase = "close"
            self._ranged = None
            if not self._anything_to_do(s.side):
                self._next_step()
        elif s.phase in ("close", "riposte"):
            end_of_turn_morale(self)
            self._end_turn()

    def _end_turn(self) -> None:
        s = self.state
        if self._check_end():
            return
        if s.side == s.first:
            s.side = other(s.first)
        else:
            self._end_round()
            if s.phase == "over":
                return
            s.side = s.first
        self._begin_turn()

    def _end_round(self) -> None:
        s = self.state
        for man in s.men.values():
            man.fired_last_round, man.fired_this_round = man.fired_this_round, False
            man.under_fire_last_round, man.under_fire = man.under_fire, False
        for tank in s.tanks.values():
            tank.under_fire_last_round, tank.under_fire = tank.under_fire, False
        for squad in s.squads.values():
            squad.lost_this_round, squad.area_attack, squad.co_lost = 0, False, False
            squad.air_flame_rocket = False
        if s.round >= self.spec.victory.rounds:
            self._finish(*self._verdict())
            return
        s.round += 1

    # -- the end ---------------------------------------------------------------------------
    def _check_end(self) -> bool:
        s = self.state
        if s.phase == "over":
            return True
        for side in ("red", "blue"):
            if not s.in_fight(side):
                self._finish(other(side), f"{side} has no men left in the fight")
                return True
        return False

    def _verdict(self) -> tuple[str | None, str]:
        s = self.state
        victory = self.spec.victory
        if victory.kind == "hold_building":
            attacker = other(victory.defender)
            inside = terrain.men_inside(self, victory.building)
            if any(m.side == attacker for m in inside) and not any(
                m.side == victory.defender for m in inside
            ):
                return attacker, f"{attacker} took the {victory.building}"
            return victory.defender, f"{victory.defender} held the {victory.building}"
        lost = {
            side: sum(1 for m in s.men.values() if m.side == side and not m.active)
            + sum(
                PIECE_WORTH if t.static else AFV_WORTH
                for t in s.tanks.values()
                if t.side == side and not t.active
            )
            for side in ("red", "blue")
        }
        s.score = {"red": float(lost["blue"]), "blue": float(lost["red"])}
        tally = f"casualties: red lost {lost['red']}, blue lost {lost['blue']}"
        if lost["red"] == lost["blue"]:
            return None, f"equal casualties after {victory.rounds} rounds ({tally})"
        winner = "red" if lost["blue"] > lost["red"] else "blue"
        return winner, f"{winner} inflicted more casualties in {victory.rounds} rounds ({tally})"

    def _finish(self, winner: str | None, reason: str) -> None:
        s = self.state
        s.phase, s.winner, s.reason = "over", winner, reason
        self.emit("over", f"game over: {reason}")

    # -- state -----------------------------------------------------------------------------
    def state_data(self) -> dict[str, Any]:
        s = self.state
        return {
            "phase": s.phase,
            "side": s.side,
            "player": s.player,
            "round": s.round,
            "step": s.step,
            "collapsed": s.collapsed,
            "missions": s.missions,
            "building_hits": s.building_hits,
            "men": {
                m.id: [
                    m.side,
                    m.squad,
                    m.rank,
                    round(m.x, 6),
                    round(m.y, 6),
                    round(m.facing, 6),
                    m.stance,
                    m.wounded,
                    m.status,
                    m.jam,
                    m.close_state,
                    m.action,
                    m.moved,
                    m.shots,
                    m.last_target,
                    m.grenades,
                    m.support,
                    m.fired_this_round,
                    m.fired_last_round,
                    m.under_fire,
                    m.under_fire_last_round,
                    m.aim_target,
                    m.anti_tank,
                    m.support_shots,
                    m.floor,
                ]
                for m in s.men.values()
            },
            "tanks": {
                t.id: [
                    t.side,
                    t.key,
                    round(t.x, 6),
                    round(t.y, 6),
                    round(t.facing, 6),
                    t.status,
                    t.immobilised,
                    t.gun_out,
                    t.mgs_out,
                    t.jam,
                    t.reversing,
                    t.spent,
                    t.moved,
                    t.fired,
                    t.under_fire,
                    t.under_fire_last_round,
                    t.action,
                ]
                for t in s.tanks.values()
            },
            "squads": {
                q.id: [
                    q.fleeing,
                    q.casualties,
                    q.lost_this_round,
                    q.area_attack,
                    q.air_flame_rocket,
                    q.co_lost,
                    q.tested,
                ]
                for q in s.squads.values()
            },
            "winner": s.winner,
            "reason": s.reason,
        }
