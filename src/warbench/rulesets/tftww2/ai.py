"""A TFT WW2 opponent: orders its units one by one (leaders, then privates, then AFVs), keeps
squads together under their leaders and spread out against blasts, weighs every place it
could end by how many enemy weapons could hit a man there (range, cover, stance), goes
prone in cover, aims when a single shot is worth it, closes on the enemy only while out of
reach, fights back in close combat, and heads for the objective (the enemy, or the
building of an assault), up or down the stairs to an enemy on another floor of it. A man
with a close-assault weapon of +2 or more goes for an enemy AFV or gun within 12" and
charges it. It keeps out of an enemy gun's traverse. Its AFVs stand and shoot while an
enemy AFV is in sight and hide from the enemy guns once ahead on casualties.

It scores each legal action by hand-written sense and 3d6 hit chances; ties break on its
own seeded generator.
"""

from __future__ import annotations

import math
import operator
import random
from dataclasses import dataclass, field, fields
from functools import cache
from itertools import product
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import Point

from warbench.ai.shuffle import shuffle
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.geometry import bearing, turn_between
from warbench.core.ruleset import Agent
from warbench.core.terrain import Trait
from warbench.rulesets.tftww2 import terrain
from warbench.rulesets.tftww2.actions import (
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
from warbench.rulesets.tftww2.afv import close_assault_bonus, close_assault_factor, vehicle
from warbench.rulesets.tftww2.attributes import attributes, rank_attributes
from warbench.rulesets.tftww2.combat import Cover
from warbench.rulesets.tftww2.fire import FAST, may_fire, may_throw, shot_modifiers
from warbench.rulesets.tftww2.game import AFV_WORTH, PIECE_WORTH, TFTGame, other
from warbench.rulesets.tftww2.movement import Compass, compass_of
from warbench.rulesets.tftww2.order_terms import Array, order_values, pivot_fire
from warbench.rulesets.tftww2.profiles import WeaponProfile, weapon_profile
from warbench.rulesets.tftww2.state import Man, Tank
from warbench.rulesets.tftww2.vehicles import (
    STATIC_ARC,
    assault_weapon,
    best_assault_weapon,
    drive_cost,
)

RANKS = {"CO": 0, "NCO": 1, "Private": 2}
COVER_REACH = terrain.COVER_REACH + 0.5  # from a man's centre: his base's radius more
GRENADE_SPREAD = 4.5  # inches between two men a grenade's 4" template cannot both touch
SPREAD = 4.5  # inches the AI likes between its men (an AFV's 75 mm HE is 10" across)
LEASH = 6.0  # inches a man strays from his leader before it costs
ASSAULT_BONUS = 2  # the close-assault bonus (8.2) from which charging an AFV pays
HUNT_REACH = 12.0  # inches within which such a man goes for an enemy AFV


@cache
def _at_most() -> tuple[float, ...]:
    """P(3d6 <= n) for n = 0..18."""
    totals = [sum(r) for r in product(range(1, 7), repeat=3)]
    return tuple(sum(1 for t in totals if t <= n) / 216 for n in range(19))


@cache
def _hit_table() -> tuple[float, ...]:
    table = _at_most()
    return tuple(max(table[5], min(table[15], p)) for p in table)


def p_hit(needed: int) -> float:
    """The chance of a to-hit roll (4.4: a natural 3-5 always hits, 16-18 always misses)."""
    return _hit_table()[max(0, min(18, needed))]


# An enemy man as a danger: where he is (x, y), how far his weapon reaches at most (3x its
# effective range) and at full effect, his DEX, whether he has grenades and whether his
# weapon is jammed, and the hits he is expected to put on a man he needs n or less to hit,
# for n = 0..18: P(hit) x shots (at most 2) x bite, multiplied in that order.
_Threat = tuple[float, float, int, int, int, bool, bool, tuple[float, ...]]


@cache
def _expected_hits(shots: int, bite: float) -> tuple[float, ...]:
    """`p_hit(n) * shots * bite` for n = 0..18 (`_Threat`'s last field)."""
    return tuple(p * shots * bite for p in _hit_table())


@dataclass
class _Orders:
    """What stays the same while one man's orders are weighed."""

    weapon: WeaponProfile
    enemies: list[Man]  # the enemy men in the fight (`side_men`)
    seen: list[Man]
    threat_rows: list[_Threat]
    tanks: list[tuple[float, float, float | None]]  # enemy AFVs, and a gun's facing
    goal: tuple[float, float] | None
    leader: tuple[float, float] | None
    friends_afv: list[tuple[float, float]]
    friends: list[tuple[float, float]]
    spread: float
    cover: dict[tuple[int, int, int], Cover]
    hunting: bool = False  # after an enemy AFV with a close-assault weapon
    weight: float = 0.08  # of an inch gained toward the goal
    before: float = 0.0  # inches from the goal now
    danger: dict[tuple[float, float, bool, bool], float] = field(default_factory=dict)
    bearings: list[float] = field(default_factory=list)  # from him to each man he sees
    chances: dict[str, int | None] = field(default_factory=dict)  # unaimed roll needed
    places: dict[tuple[float, float], tuple[float | None, tuple[float, ...]]] = field(
        default_factory=dict
    )

    def chance(self, game: TFTGame, man: Man, target: Man, aimed: bool) -> float:
        """His chance to hit a target he sees from where he stands (4.1's main modifiers;
        aiming, +4): the roll needed (`SkirmishAI._needed`) worked out once per target
        while his orders are weighed (aiming adds 4 to it: a sum of whole numbers is the
        same in any order)."""
        needed = self.chances.get(target.id, False)
        if needed is False:
            needed = self.chances[target.id] = SkirmishAI._needed(game, man, target)
        if needed is None:
            return 0.0
        return p_hit(needed + 4 if aimed else needed)

    def place(self, x: float, y: float) -> tuple[float | None, tuple[float, ...]]:
        """What ending at a place adds to an order's value, once per place while his orders
        are weighed: the ground gained toward the goal (None without one), then what it
        costs, in `_order_value`'s order — straying from his leader, from each friendly AFV
        (5.0: +2 LDR with an AFV within 12"), and standing near each friend (one grenade on
        two men can break the squad). A cost of 0 is left out: taking 0 off changes no
        value, so the sum is the one worked out term by term, to the last bit."""
        key = (x, y)
        found = self.places.get(key)
        if found is not None:
            return found
        gain = None
        if self.goal is not None:
            after = math.hypot(self.goal[0] - x, self.goal[1] - y)
            gain = (self.before - after) * self.weight
        costs: list[float] = []
        if self.leader is not None:
            lx, ly = self.leader
            costs.append(0.05 * max(0.0, math.hypot(lx - x, ly - y) - LEASH))
        for tx, ty in self.friends_afv:
            costs.append(0.05 * max(0.0, math.hypot(tx - x, ty - y) - 12.0))
        spread = self.spread  # >= GRENADE_SPREAD
        for fx, fy in self.friends:
            dx, dy = fx - x, fy - y
            if -spread < dx < spread and -spread < dy < spread:  # else apart >= spread: 0
                apart = math.hypot(dx, dy)
                costs.append(1.5 if apart < GRENADE_SPREAD else 0.5 if apart < spread else 0.0)
        found = self.places[key] = (gain, tuple(c for c in costs if c))
        return found

    def ground(self, game: TFTGame, x: float, y: float) -> tuple[float, float, float, float, float]:
        """A place as `order_terms` reads it: x, y, inside a building (1/0), the cover
        there (0 none, 1 soft, 2 hard) and how many enemy AFVs and guns would see him there
        (`SkirmishAI._danger_at`'s look-ups; the terrain's kept per table and place)."""
        key = (id(game.table), x, y)
        found = _GROUND.get(key)
        if found is None:
            if len(_GROUND) >= 100_000:
                _GROUND.clear()
            inside = terrain.building_at(game.table, x, y) is not None
            cover = "hard" if inside else self.cover_at(game, x, y)
            found = _GROUND[key] = (x, y, 1.0 if inside else 0.0, _COVER_CODES[cover], 0.0)
        if not self.tanks:
            return found
        inside = found[2] != 0.0
        seen_by = 0
        for tx, ty, arc in self.tanks:
            if arc is not None and turn_between(arc, bearing((tx, ty), (x, y))) > STATIC_ARC:
                continue  # outside a gun's traverse (A11)
            if not inside and terrain.clear_between(game.table, (tx, ty), (x, y)):
                seen_by += 1
        return x, y, found[2], found[3], float(seen_by)

    def arrays(self) -> tuple[Array, Array, Array]:
        """The threats and their expected hits (kept while the enemy stays as he is: every
        man of a side shares them in its orders step), and the goal, leader, spread,
        friendly AFVs and friends, as `order_terms.order_values` reads them."""
        rows = tuple(self.threat_rows)
        found = _THREATS.get(rows)
        if found is None:
            if len(_THREATS) >= 1_000:
                _THREATS.clear()
            found = _THREATS[rows] = (
                np.array([r[:7] for r in rows], dtype=np.float64).reshape(-1, 7),
                np.array([r[7] for r in rows], dtype=np.float64).reshape(-1, 19),
            )
        goal, leader = self.goal or (0.0, 0.0), self.leader or (0.0, 0.0)
        context = [1.0 if self.goal is not None else 0.0, *goal, self.before, self.weight]
        context += [1.0 if self.leader is not None else 0.0, *leader, self.spread]
        context.append(float(len(self.friends_afv)))
        for spot in self.friends_afv:
            context += spot
        for spot in self.friends:
            context += spot
        return *found, np.array(context, dtype=np.float64)

    def cover_at(self, game: TFTGame, x: float, y: float) -> Cover:
        """Cover from anywhere at a place, to the half inch: a cover piece within 2" of the
        base (terrain.cover's test, measured to the centre rather than traced). The cell's
        centre decides, so the answer does not depend on which games came before."""
        key = (id(game.table), round(x * 2), round(y * 2))
        found = self.cover.get(key)
        if found is None:
            found = "none"
            spot = Point(key[1] / 2, key[2] / 2)
            for piece in game.table.pieces:
                hard, soft = piece.has(Trait.HARD_COVER), piece.has(Trait.SOFT_COVER)
                if (hard or soft) and piece.area.distance(spot) <= COVER_REACH:
                    found = "hard" if hard else "soft"
                    if hard:
                        break
            self.cover[key] = found
        return found


_COVER: dict[tuple[int, int, int], Cover] = {}  # per table and half-inch cell: tables are shared
_THREATS: dict[tuple[_Threat, ...], tuple[Array, Array]] = {}  # `_Orders.arrays`
_FIRE_VALUES: dict[tuple[object, ...], float] = {}  # `SkirmishAI._fire_value`
_NEEDED: dict[tuple[object, ...], int | None] = {}  # `SkirmishAI._needed`
_GROUND: dict[tuple[int, float, float], tuple[float, float, float, float, float]] = {}
_COVER_CODES: dict[Cover, float] = {"none": 0.0, "soft": 1.0, "hard": 2.0}  # `order_terms`


def _draw(rng: random.Random, n: int) -> None:
    """The draws `shuffle` makes for a list of `n` items (the same calls, the same
    rejections), without moving any: a pick one order alone scores best for."""
    getrandbits = rng.getrandbits
    for size in range(n, 1, -1):
        k = size.bit_length()
        while getrandbits(k) >= size:
            pass


def _hit_value(weapon: WeaponProfile) -> float:
    """What one hit is worth: a 4d6 hit usually takes a man out, fewer dice often do not."""
    return min(1.0, (weapon.damage_dice or 1) / 4)


class SkirmishAI(Agent):
    """Greedy over the legal actions of one unit at a time, with a sensible score."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._seen: dict[str, list[Man]] = {}
        self._context: dict[str, _Orders] = {}

    def choose(self, game: Game, player: str) -> Action:
        assert isinstance(game, TFTGame)
        s = game.state
        if s.phase == "orders":
            unit = self._next_unit(game, player)
            if unit is not None and unit in s.men:
                # one man's orders, scored together (`_weighed`), picked as `_best` picks:
                # the first best after a shuffle (of their places: the same draws)
                orders, scores = self._weighed(game, s.men[unit])
                if orders:
                    top = max(scores)
                    if scores.count(top) == 1:  # the pick whatever the order: the draws alone
                        _draw(self._rng, len(orders))
                        return orders[scores.index(top)]
                    places = list(range(len(orders)))
                    shuffle(self._rng, places)
                    shuffled = [scores[i] for i in places]
                    return orders[places[shuffled.index(top)]]
        shot, actions = self._options(game, player)
        if shot is not None:
            return shot
        return self._best(game, player, actions)

    def ranked(self, game: Game, player: str) -> list[Action]:
        """Every action open to the unit `choose` would order (or, when shooting, every
        legal action), best first; the first is what `choose` would take: the search
        agent's candidates."""
        assert isinstance(game, TFTGame)
        shot, actions = self._options(game, player)
        if shot is not None:
            actions = [a for a in game.legal_actions(player) if a != shot]
        shuffle(self._rng, actions)
        actions.sort(key=lambda a: self._score(game, player, a), reverse=True)
        return actions if shot is None else [shot, *actions]

    def _options(self, game: TFTGame, player: str) -> tuple[Action | None, list[Action]]:
        """The shot to take in the ranged step, or else the actions to choose among."""
        self._seen, self._context = {}, {}
        actions: list[Action] = []
        if game.state.phase == "orders":
            unit = self._next_unit(game, player)
            if unit is not None:
                actions = game.legal_actions_of(unit)
                if unit in game.state.tanks:
                    actions.append(Done())  # the men are ordered: the AFV may stand
        elif game.state.phase == "ranged":
            return self._shoot(game, player), []
        return None, actions or game.legal_actions(player)

    def _weighed(self, game: TFTGame, man: Man) -> tuple[tuple[Action, ...], tuple[float, ...]]:
        """The legal orders of the man to order (`legal_actions_of`) and their scores
        (`_order_scores`), kept by all they read (`_weighing_key`): in a sweep the games
        go over the same ground, and two thirds of the men's orders are weighed again from
        a position weighed before."""
        key = _weighing_key(game, man)
        found = _WEIGHED.get(key)
        if found is None:
            self._seen, self._context = {}, {}
            actions = game.legal_actions_of(man.id)
            scores = self._order_scores(game, man, actions) if actions else []
            found = (tuple(actions), tuple(scores))
            if len(_WEIGHED) < KEPT_WEIGHINGS:  # the first: every game starts on the same ground
                _WEIGHED[key] = found
        return found

    def _best(self, game: TFTGame, player: str, actions: list[Action]) -> Action:
        """The best scored, the first of equals after a shuffle (as `max` picks)."""
        shuffle(self._rng, actions)
        scores = [self._score(game, player, a) for a in actions]
        return actions[scores.index(max(scores))]

    def _shoot(self, game: TFTGame, player: str) -> Action:
        """The ranged step unit by unit: the first AFV or man with a shot worth taking takes
        his best; when none has, done. A man found with no shot in this step, by the game
        as it opened or here, is passed over (`TFTGame.no_shot`), and one who may neither
        fire, throw nor call or serve indirect fire has none (`TFTGame._legal_shots`)."""
        s = game.state
        for tank in s.side_tanks(player):
            actions = game.legal_actions_of(tank.id)
            if actions:
                found = self._take(game, player, actions)
                if found is not None:
                    return found
        idle = game.no_shot()
        if idle is None:  # a position set up by hand: none known
            idle = set()
        enemies = s.side_men(other(player))
        for m in s.side_men(player):
            if m.id in idle:
                continue
            if not (may_fire(m) or may_throw(m) or m.support or m.radio):
                idle.add(m.id)
                continue
            actions = game._legal_shots(m, enemies)  # `legal_actions_of` of his
            if not actions:
                idle.add(m.id)
                continue
            found = self._take(game, player, actions)
            if found is not None:
                return found
        return Done()

    def _take(self, game: TFTGame, player: str, actions: list[Action]) -> Action | None:
        """`_best` of one unit's shots, or None when the best is not worth taking."""
        shuffle(self._rng, actions)
        scores = [self._score(game, player, a) for a in actions]
        top = max(scores)
        return actions[scores.index(top)] if top > 0 else None

    @staticmethod
    def _next_unit(game: TFTGame, player: str) -> str | None:
        """Leaders first (their men follow them), then privates, then AFVs."""
        s = game.state
        first, best = None, len(RANKS)  # the first waiting man of the highest rank
        for m in s.men.values():
            if m.action is None and m.side == player and m.status == "ok":
                rank = RANKS[m.rank]
                if rank < best:
                    first, best = m, rank
                    if not rank:
                        break  # a CO: none comes before him
        if first is not None:
            return first.id
        for tank in s.side_tanks(player):
            if tank.action is None and not tank.immobilised:
                return tank.id
        return None

    def _sees(self, game: TFTGame, man: Man, enemies: list[Man]) -> list[Man]:
        """The enemies (his side's, `side_men`) a man sees, worked out once per decision."""
        if man.id not in self._seen:
            self._seen[man.id] = [e for e in enemies if terrain.sees(game.table, man, e)]
        return self._seen[man.id]

    # -- the danger of a place ---------------------------------------------------------------
    def _orders(self, game: TFTGame, man: Man) -> _Orders:
        """The context of one man's orders (worked out once per decision)."""
        found = self._context.get(man.id)
        if found is not None:
            return found
        s = game.state
        foe = other(man.side)
        enemies, friends, leader = [], [], None
        for m in s.men.values():  # `side_men` of both sides and the squad's first leader
            if m.status != "ok":
                continue
            if m.side == foe:
                enemies.append(m)
            elif m is not man:
                friends.append((m.x, m.y))
            if leader is None and m.squad == man.squad and m.rank != "Private":
                leader = m
        foe_tanks: list[Tank] = []
        own_tanks: list[Tank] = []
        for t in s.tanks.values():
            if t.status == "ok":
                (foe_tanks if t.side == foe else own_tanks).append(t)
        weapon = weapon_profile(man.weapon)
        reach = weapon.effective_range or 0
        mx, my, here = man.x, man.y, (man.x, man.y)
        seen, bearings, in_reach = [], [], False
        for e in self._sees(game, man, enemies):
            gap = math.hypot(mx - e.x, my - e.y) - 1  # `man.distance(e) - 1`
            if gap <= 3 * reach:
                seen.append(e)
                bearings.append(bearing(here, (e.x, e.y)))
                in_reach = in_reach or gap <= reach
        threats = [
            (e.x, e.y, *_arm(e.weapon, e.rank, e.wounded, bool(e.grenades), bool(e.jam)))
            for e in enemies
        ]
        hold = game.spec.victory.kind == "hold_building"
        hunted = _hunted_among(man, foe_tanks)
        hunting = hunted is not None
        goal = self._goal(game, man, hunted, enemies) if not in_reach or hold or hunting else None
        he_threat = any(not t.gun_out and _has_he(t) for t in foe_tanks)
        context = self._context[man.id] = _Orders(
            weapon=weapon,
            enemies=enemies,
            seen=seen,
            threat_rows=threats,
            tanks=[(t.x, t.y, t.facing if t.static else None) for t in foe_tanks],
            goal=goal,
            bearings=bearings,
            hunting=hunting,
            weight=0.25 if hunting or hold else 0.08,
            before=math.hypot(goal[0] - mx, goal[1] - my) if goal is not None else 0.0,
            leader=(leader.x, leader.y) if leader is not None and leader is not man else None,
            friends_afv=[(t.x, t.y) for t in own_tanks],
            friends=friends,
            spread=SPREAD + (2.0 if he_threat else 0.0),
            cover=_COVER,
        )
        return context

    @staticmethod
    def _danger_at(
        game: TFTGame, man: Man, context: _Orders, x: float, y: float, prone: bool, moved: float
    ) -> float:
        """Expected hits the enemy could put on a man here next turn (sight not traced): kept
        per place, stance and speed while his orders are weighed (`_order_value`)."""
        inside = terrain.building_at(game.table, x, y) is not None  # `inside_building` there
        cover = "hard" if inside else context.cover_at(game, x, y)
        full = inside or (prone and cover != "none")
        sheltered = full and cover == "hard"  # only grenades reach him
        danger = 0.0
        # his own stance, speed and cover change what each enemy needs by the same amount
        shift = (-3 if prone else 0) + (-2 if moved > 6 else 0)
        if cover == "hard":
            shift -= 4
        elif cover == "soft":
            shift -= 6 if full else 2
        for ex, ey, far, reach, dex, grenades, jammed, hits in context.threat_rows:
            gap = math.hypot(ex - x, ey - y) - 1
            if grenades and gap <= 12:
                danger += 0.25
            if gap > far or jammed or sheltered:
                continue
            needed = dex + (3 if gap <= 6 else -6 if gap > reach else 0) + shift
            danger += hits[0 if needed < 0 else 18 if needed > 18 else needed]  # p_hit
        for tx, ty, arc in context.tanks:
            if arc is not None and turn_between(arc, bearing((tx, ty), (x, y))) > STATIC_ARC:
                continue  # outside a gun's traverse (A11)
            if not inside and terrain.clear_between(game.table, (tx, ty), (x, y)):
                danger += 0.4 if full else 0.8
        return danger

    # -- scores ------------------------------------------------------------------------------
    def _score(self, game: TFTGame, player: str, action: Action) -> float:
        s = game.state
        if type(action) in _ORDERS:  # most actions weighed: straight to their score
            return self._order_value(game, s.men[action.man], action)  # type: ignore[attr-defined]
        if type(action) is Fire:  # most of the rest (the ranged step's): past the other tests
            return self._fire_value(game, s.men[action.man], s.men[action.target])
        if isinstance(action, Riposte):
            return 1.0
        if isinstance(action, NoRiposte | Done):
            return 0.0
        if isinstance(action, Drive | Reverse | Gun | MachineGun):
            return self._tank_value(game, player, action)
        if isinstance(action, Assault):
            return 12.0
        man = s.men[action.man]  # type: ignore[attr-defined]
        if isinstance(action, Throw):
            return self._area_value(game, player, action.at, 2.0, 3.0)
        if isinstance(action, Strike):
            return 10.0
        if isinstance(action, Bombard):
            return self._area_value(game, player, action.at, 3.0, 6.0) + 1.0
        if isinstance(action, Flee):
            return _flee_value(game, man)
        if isinstance(action, Manipulate):
            return 20.0
        if isinstance(action, CloseCombat):
            return _close_combat_value(man, s.side_men(other(player)))
        if isinstance(action, Climb):
            return self._climb_value(game, man, action.floor, s.side_men(other(player)))
        return self._order_value(game, man, action)

    @staticmethod
    def _climb_value(game: TFTGame, man: Man, floor: int, enemies: list[Man]) -> float:
        """Up or down the stairs to the enemy in his building, when none is on his floor."""
        home = terrain.inside_building(game.table, man)
        there = [e for e in enemies if terrain.inside_building(game.table, e) == home]
        if any(e.floor == man.floor for e in there):
            return -1.0
        return 5.0 if any(e.floor == floor for e in there) else -1.0

    def _fire_value(self, game: TFTGame, man: Man, target: Man) -> float:
        """A shot: its chance to hit, the harm it does, and who the target is. Kept by what
        decides it (`fire.shot_modifiers`: the firer's weapon, troop type, wound, action and
        place, the man he fired at last and where he stands, the target's place, stance,
        speed, firing and rank): a sweep's games go over the same ground."""
        previous = game.state.men.get(man.last_target or "")
        key: tuple[object, ...] = (id(game.table), man.weapon, man.rank, man.wounded)
        key += (man.action, man.x, man.y, target.x, target.y, target.stance, target.rank)
        key += (target.moved > FAST, target.fired_last_round or target.fired_this_round)
        if previous is not None:
            key += (previous.id != target.id, previous.x, previous.y)
        found = _FIRE_VALUES.get(key)
        if found is None:
            weapon = weapon_profile(man.weapon)
            needed = attributes(man).dexterity
            needed += sum(v for _, v in shot_modifiers(game, man, target))
            leader = 0.3 if target.rank != "Private" else 0.0
            if len(_FIRE_VALUES) >= 100_000:
                _FIRE_VALUES.clear()
            found = _FIRE_VALUES[key] = 4.0 + 6.0 * p_hit(needed) * _hit_value(weapon) + leader
        return found

    def _area_value(
        self, game: TFTGame, player: str, at: tuple[float, float], reach: float, safe: float
    ) -> float:
        """A template: the enemy men it covers, less our own men near it."""
        s = game.state
        foes = sum(
            1 for e in s.side_men(other(player)) if math.hypot(e.x - at[0], e.y - at[1]) <= reach
        )
        friends = sum(1 for f in s.side_men(player) if math.hypot(f.x - at[0], f.y - at[1]) <= safe)
        return 5.0 + 3.0 * foes - 6.0 * friends

    def _order_value(self, game: TFTGame, man: Man, action: Action) -> float:
        """An order: the fire it allows this turn, the danger where it leaves him, the ground
        it gains toward the objective, and staying near his leader but apart from friends."""
        context = self._orders(game, man)
        weapon = context.weapon
        x, y, prone, moved = man.x, man.y, man.stance == "prone", 0.0
        fire = 0.0
        kind = type(action)  # the orders are final classes: a look-up, not an isinstance chain
        if kind is Walk:
            to = action.to  # type: ignore[attr-defined]
            (x, y), moved = to, math.hypot(to[0] - man.x, to[1] - man.y)
        elif kind is Run:
            rad = math.radians(man.facing)
            dist = action.dist  # type: ignore[attr-defined]
            x, y = man.x + dist * math.sin(rad), man.y + dist * math.cos(rad)
            moved = dist
        elif kind is ChangePosition:
            prone = not prone
        elif kind is ChargeAt:
            target_id = action.target  # type: ignore[attr-defined]
            if target_id in game.state.tanks:
                return _assault_value(man)
            target = game.state.men[target_id]
            return 6.0 if target.wounded or man.distance(target) < 4 else -2.0
        elif kind is Pivot:
            facing = action.facing  # type: ignore[attr-defined]
            arc = [
                e
                for e, heading in zip(context.seen, context.bearings, strict=True)
                if turn_between(facing, heading) <= 80
            ]
            if arc:
                best = max(context.chance(game, man, e, aimed=False) for e in arc)
                fire = best * min(weapon.shots, 3) * _hit_value(weapon)
            fire -= turn_between(man.facing, facing) / 720
        elif kind is AimAt:
            target = game.state.men[action.target]  # type: ignore[attr-defined]
            if target not in context.seen:
                return -1.0
            fire = context.chance(game, man, target, aimed=True) * _hit_value(weapon) * 1.1
        else:
            return -1.0
        key = (x, y, prone, moved > 6)
        danger = context.danger.get(key)
        if danger is None:
            danger = context.danger[key] = self._danger_at(game, man, context, x, y, prone, moved)
        value = 3.0 + 3.0 * fire - 2.0 * danger
        gain, costs = context.place(x, y)
        if gain is not None:
            value += gain
        for cost in costs:
            value -= cost
        return value

    def _order_scores(self, game: TFTGame, man: Man, actions: list[Action]) -> list[float]:
        """`_score` of each of one man's orders, equal to the last bit: what they share (his
        context, the enemies in each pivot's arc, the fire each order allows) worked out
        once, each order dispatched on its class, and the danger and place terms of every
        walk, run, pivot, aim and change of position worked out together, compiled
        (`order_terms.order_values`). His pivots, walks and runs are those of his compass
        (`movement.compass_of`, the very values `legal_man_orders` gave): their places and
        rows are kept with it (`_plan`), and every one is weighed, legal or not, in the one
        call; an order of the list that is not one of them is weighed alone."""
        s = game.state
        context = self._orders(game, man)
        weapon = context.weapon
        hit, volley = _hit_value(weapon), min(weapon.shots, 3)
        facing, prone = man.facing, man.stance == "prone"
        down, up = (1.0, 0.0) if prone else (0.0, 1.0)  # his stance, and the other
        plan = _plan(game, man)
        places = plan.places
        if context.tanks:  # how many enemy AFVs and guns would see him at each place
            places = np.array([context.ground(game, x, y) for x, y in plan.spots])
        queries = plan.rows.copy()
        queries[:, 1] = down
        sighted = [context.chance(game, man, e, aimed=False) for e in context.seen]
        queries[plan.pivots, 3] = pivot_fire(
            np.array(context.bearings, dtype=np.float64),
            np.array(sighted, dtype=np.float64),
            plan.turns,
            facing,
            volley,
            hit,
        )
        seen = {e.id for e in context.seen}
        extra: list[float] = []  # rows of 4 at his place: aims and a change of position
        count = len(queries)
        # each order's row of the compiled pass (his compass's found at once by identity),
        # else its score worked out here (`fixed`)
        rows: list[int | None] = list(map(plan.slots.get, map(id, actions)))
        fixed: dict[int, float] = {}
        for i in [i for i, row in enumerate(rows) if row is None]:
            action = actions[i]
            kind = type(action)
            if kind is AimAt:
                target = s.men[action.target]  # type: ignore[attr-defined]
                if target.id not in seen:
                    fixed[i] = -1.0
                else:
                    fire = context.chance(game, man, target, aimed=True) * hit * 1.1
                    rows[i] = count + len(extra) // 4
                    extra.extend((0.0, down, 0.0, fire))
            elif kind is ChangePosition:
                rows[i] = count + len(extra) // 4
                extra.extend((0.0, up, 0.0, 0.0))
            elif kind is Flee:
                fixed[i] = _flee_value(game, man)
            elif kind is CloseCombat:
                fixed[i] = _close_combat_value(man, context.enemies)
            else:
                fixed[i] = self._score(game, man.side, action)
        if len(fixed) == len(rows):
            return [fixed[i] for i in range(len(rows))]
        flat = np.concatenate((places.ravel(), queries.ravel(), np.array(extra)))
        values = order_values(*context.arrays(), flat, len(plan.spots)).tolist()
        return [fixed[i] if row is None else values[row] for i, row in enumerate(rows)]

    @staticmethod
    def _needed(game: TFTGame, man: Man, target: Man) -> int | None:
        """What he needs to hit a target he sees without aiming (4.1's main modifiers), or
        None when the target's full hard cover leaves him no chance. It depends on the
        table, his weapon, troop type, wound and place and the target's place, stance and
        firing (`terrain.cover` and `full_cover`), so it is kept by those: the games of a
        sweep go over the same ground."""
        key: tuple[object, ...] = (id(game.table), man.weapon, man.rank, man.wounded)
        key += (man.x, man.y, target.x, target.y, target.stance, target.fired_last_round)
        if key in _NEEDED:
            return _NEEDED[key]
        if len(_NEEDED) >= 100_000:
            _NEEDED.clear()
        weapon = weapon_profile(man.weapon)
        reach = weapon.effective_range or 0
        gap = man.distance(target) - 1
        needed = attributes(man).dexterity
        needed += 3 if gap <= 6 else -6 if gap > reach else 0
        needed += -3 if target.stance == "prone" else 0
        cover = terrain.cover(game.table, target, man)
        if terrain.full_cover(game.table, target, man) and not target.fired_last_round:
            if cover == "hard" or terrain.inside_building(game.table, target):
                _NEEDED[key] = None
                return None
            needed -= 6
        else:
            needed -= {"hard": 4, "soft": 2, "none": 0}[cover]
        _NEEDED[key] = needed
        return needed

    def _tank_value(
        self, game: TFTGame, player: str, action: Drive | Reverse | Gun | MachineGun
    ) -> float:
        """Tanks hunt enemy tanks with the gun, HE groups of men, hose men with MGs, stand
        still while an enemy AFV is in sight (moving costs -4), keep clear of infantry."""
        s = game.state
        tank = s.tanks[action.tank]
        if isinstance(action, Gun):
            if action.target in s.tanks:
                foe = s.tanks[action.target]
                return 15.0 if not foe.gun_out else 10.0
            return self._area_value(game, player, _spot(s.men[action.target]), 3.0, 6.0) + 3.5
        if isinstance(action, MachineGun):
            return 8.0
        if isinstance(action, Reverse):
            return 50.0 if tank.reversing else -5.0
        x, y = action.to
        foes = s.side_tanks(other(player))
        guns = [f for f in foes if not f.gun_out and vehicle(f.key).main_gun is not None]
        if _lead(game, player) > 0 and _seen_by(game, guns, tank.x, tank.y):
            # ahead on casualties: take the AFV out of the enemy guns' sight
            return 2.0 - 3.0 * _seen_by(game, guns, x, y)
        if any(terrain.clear_between(game.table, (tank.x, tank.y), (f.x, f.y)) for f in foes):
            return -1.0  # a target in sight: stand and shoot
        enemies = [(t.x, t.y) for t in foes] or [(m.x, m.y) for m in s.side_men(other(player))]
        if not enemies:
            return 0.0
        near = min(math.hypot(ex - x, ey - y) for ex, ey in enemies)
        infantry = min(
            (math.hypot(m.x - x, m.y - y) for m in s.side_men(other(player))), default=99.0
        )
        return (
            3.0
            - abs(near - 20.0) * 0.1
            - (4.0 if infantry < 6.0 else 0.0)
            - (2.0 if _too_far_to_fire(game, tank, action.to) else 0.0)
        )

    @staticmethod
    def _goal(
        game: TFTGame, man: Man, hunted: Tank | None, enemies: list[Man]
    ) -> tuple[float, float]:
        """Where a man heads: the building of an assault, else the nearest enemy AFV for a
        man with a close-assault weapon of +2 or more (`hunted`), else the nearest enemy."""
        victory = game.spec.victory
        if victory.kind == "hold_building":  # attackers go in, defenders stay in
            return game.table.centre(victory.building)
        if hunted is not None:
            return hunted.x, hunted.y
        if not enemies:
            return man.x, man.y
        nearest = min(enemies, key=man.distance)
        return nearest.x, nearest.y


# What weighing a man's orders (`_weighing_key`) reads of the men in the fight: of him,
# what his legal orders and their scores rest on (his place, facing, stance, floor, move
# rate by rank and wound, weapons, grenades, jam and action); of his friends, their bases
# and his leader (place, floor, squad, rank); of the enemies, their bases and bearings,
# sight (floor), threats (weapon, rank, wound, grenades, jam) and the roll he needs to
# hit them (stance, fired last round). Of a man out of the fight, only that he is.
MAN_READ = (
    "id", "side", "squad", "rank", "x", "y", "facing", "weapon", "close_weapon", "grenades",
    "stance", "wounded", "jam", "action", "anti_tank", "floor",
)  # fmt: skip
FRIEND_READ = ("id", "side", "squad", "rank", "x", "y", "floor")
ENEMY_READ = (
    "id", "side", "x", "y", "floor", "stance", "fired_last_round", "weapon", "rank",
    "wounded", "grenades", "jam",
)  # fmt: skip
_MAN_READ = operator.attrgetter(*MAN_READ)
_FRIEND_READ = operator.attrgetter(*FRIEND_READ)
_ENEMY_READ = operator.attrgetter(*ENEMY_READ)
_TANK_READ = operator.attrgetter(*(f.name for f in fields(Tank)))
KEPT_WEIGHINGS = 20_000  # weighings kept a process (~4 kB each: ~85 MB when full)
_WEIGHED: dict[tuple[object, ...], tuple[tuple[Action, ...], tuple[float, ...]]] = {}


def _weighing_key(game: TFTGame, man: Man) -> tuple[object, ...]:
    """All that his legal orders and their scores (`SkirmishAI._weighed`) depend on: the
    scenario (its table, one per scenario: `terrain.Table.build`), what they read of each
    man (`MAN_READ`, `FRIEND_READ`, `ENEMY_READ`), which squads flee, the AFVs and guns,
    and the collapsed buildings."""
    s = game.state
    side = man.side
    men = tuple(
        [
            (_MAN_READ(m) if m is man else _FRIEND_READ(m) if m.side == side else _ENEMY_READ(m))
            if m.status == "ok"
            else m.status
            for m in s.men.values()
        ]
    )
    tanks = tuple(map(_TANK_READ, s.tanks.values())) if s.tanks else ()
    fleeing = tuple([q.fleeing for q in s.squads.values()])
    return id(game.table), man.id, men, fleeing, tanks, tuple(s.collapsed)


# The orders `_order_value` weighs (and `_score` sends it): every other action has its own.
_ORDERS = frozenset({Walk, Run, ChangePosition, ChargeAt, Pivot, AimAt, Disengage})


class _Plan(NamedTuple):
    """A man's compass (`movement.compass_of`) as `order_terms.order_values` reads it."""

    compass: Compass
    spots: list[tuple[float, float]]  # his place, then each end of the compass
    places: Array  # a row of 5 a spot (`_Orders.ground`, as if no enemy AFV were near)
    rows: Array  # a row of 4 an order: its place's row, 0 (his stance), fast, 0 (fire)
    slots: dict[int, int]  # each order (by identity: the compass holds it) to its row
    pivots: NDArray[np.intp]  # each pivot's row
    turns: Array  # and its facing


def _flee_value(game: TFTGame, man: Man) -> float:
    """A Flee order: taken when his squad flees (morale), never otherwise."""
    return 100.0 if game.state.squads[man.squad].fleeing else -100.0


def _close_combat_value(man: Man, enemies: list[Man]) -> float:
    """A Close combat order: worth it in base contact with an enemy on his floor, else not."""
    contact = any(man.distance(e) <= 1.05 and e.floor == man.floor for e in enemies)
    return 9.0 if contact else -5.0


def _plan(game: TFTGame, man: Man) -> _Plan:
    """The places and rows of his compass's orders, in its order: a pivot at his place, a
    walk at its end, a run at the end straight ahead (more than 6" is fast, as
    `_order_value` weighs it). They depend on the table, his place, facing and move rate
    alone, so they are kept with his compass."""
    compass = compass_of(man.id, man.x, man.y, man.facing, attributes(man).mov)
    key = (id(game.table), id(compass))
    found = _PLANS.get(key)
    if found is not None and found.compass is compass:
        return found
    mx, my = man.x, man.y
    ends = compass.ends.tolist()
    spots = [(mx, my), *((x, y) for x, y in ends)]
    rows: list[tuple[float, float, float, float]] = []
    slots: dict[int, int] = {}
    pivots: list[int] = []
    turns: list[float] = []
    end = 1
    for pivot, walks, run in compass.orders:
        slots[id(pivot)] = len(rows)
        pivots.append(len(rows))
        turns.append(pivot.facing)  # type: ignore[attr-defined]
        rows.append((0.0, 0.0, 0.0, 0.0))
        for walk in walks:
            slots[id(walk)] = len(rows)
            moved = math.hypot(walk.to[0] - mx, walk.to[1] - my)
            rows.append((float(end), 0.0, 1.0 if moved > 6 else 0.0, 0.0))
            end += 1
        slots[id(run)] = len(rows)
        fast = run.dist > 6  # type: ignore[attr-defined]
        rows.append((float(len(ends)), 0.0, 1.0 if fast else 0.0, 0.0))
    bare = _Orders(
        weapon=weapon_profile(man.weapon),
        enemies=[],
        seen=[],
        threat_rows=[],
        tanks=[],
        goal=None,
        leader=None,
        friends_afv=[],
        friends=[],
        spread=SPREAD,
        cover=_COVER,
    )
    if len(_PLANS) >= 20_000:
        _PLANS.clear()
    found = _PLANS[key] = _Plan(
        compass,
        spots,
        np.array([bare.ground(game, x, y) for x, y in spots], dtype=np.float64),
        np.array(rows, dtype=np.float64),
        slots,
        np.array(pivots, dtype=np.intp),
        np.array(turns, dtype=np.float64),
    )
    return found


_PLANS: dict[tuple[int, int], _Plan] = {}


def _hunted_among(man: Man, tanks: list[Tank]) -> Tank | None:
    """The nearest of the enemy AFVs and guns in the fight (`tanks`) within 12", for a man
    whose close-assault weapon makes an assault pay (going further for one cost games
    against the random agent)."""
    weapon = best_assault_weapon(man.anti_tank, bool(man.grenades), man.close_weapon)
    if not tanks or close_assault_bonus(weapon) < ASSAULT_BONUS:
        return None
    near = [
        (d, t.id, t) for t in tanks if (d := math.hypot(t.x - man.x, t.y - man.y)) <= HUNT_REACH
    ]
    return min(near)[2] if near else None


@cache
def _arm(
    weapon: str, rank: str, wounded: bool, grenades: bool, jammed: bool
) -> tuple[int, int, int, bool, bool, tuple[float, ...]]:
    """An enemy man's `_Threat` but where he stands, by what decides it."""
    arm = weapon_profile(weapon)
    reach = arm.effective_range or 0
    dex = rank_attributes(rank, wounded).dexterity
    hits = _expected_hits(min(arm.shots, 2), _hit_value(arm))
    return 3 * reach, reach, dex, grenades, jammed, hits


def _assault_value(man: Man) -> float:
    """A charge at an AFV pays with a weapon of +2 or more (8.2): its chance to stop it."""
    bonus = close_assault_bonus(assault_weapon(man))
    if bonus < ASSAULT_BONUS:
        return -1.0
    return 3.0 + 12.0 * _at_most()[close_assault_factor([assault_weapon(man)])]


def _lead(game: TFTGame, player: str) -> int:
    """Casualties inflicted less casualties suffered, as the victory counts them."""
    lost = {side: 0 for side in ("red", "blue")}
    for m in game.state.men.values():
        lost[m.side] += 0 if m.active else 1
    for t in game.state.tanks.values():
        lost[t.side] += 0 if t.active else PIECE_WORTH if t.static else AFV_WORTH
    return lost[other(player)] - lost[player]


def _seen_by(game: TFTGame, guns: list[Tank], x: float, y: float) -> int:
    """How many of these guns see the point."""
    return sum(1 for g in guns if terrain.clear_between(game.table, (g.x, g.y), (x, y)))


def _spot(man: Man) -> tuple[float, float]:
    return man.x, man.y


def _too_far_to_fire(game: TFTGame, tank: Tank, to: tuple[float, float]) -> bool:
    """Whether that drive spends more than half its points (no fire after it, 8.2)."""
    return vehicle(tank.key).movement_points / 2 < (drive_cost(game, tank, to) or 0.0)


def _has_he(tank: Tank) -> bool:
    gun = vehicle(tank.key).main_gun
    return gun is not None and gun.he_capable
