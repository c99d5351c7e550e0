"""A Fistful of TOWs 3 opponent.

It deploys across the front, shells the densest enemy group its stands can see (never its
own stands), and sends each unit to an objective of its own. Each stand moves once a phase to
the point that best balances its unit's objective (more urgently as the turns run out), cover
in difficult terrain, cohesion, the enemy fire it would face there and the best shot it would
have from there in the fire phase that follows (flank shots count by the armour they strike).
IFVs carry their infantry until near an objective or the enemy. An enemy stand is worth
taking out for what it is and for what it threatens (`menace`: a NATO tank's gun takes a
Soviet tank out far more often than a NATO IFV does), so fire and places to move go first
against the enemy's killers. In the fire phase it takes
one target at a time, the one whose loss its free stands make likeliest and costliest, adds
the best shots until the target is nearly sure to go, resolves that fire and looks again;
stands left with nothing worth shooting take overwatch, and overwatch fire goes in at the
point of an enemy move where it hurts most.
"""

from __future__ import annotations

import math
import random
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.geometry import bearing
from warbench.core.ruleset import Agent
from warbench.rulesets.fft3 import artillery, placing
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
    Resolve,
    Strategic,
)
from warbench.rulesets.fft3.anti_vehicle import penetration_dice
from warbench.rulesets.fft3.facing import arc_of_fire
from warbench.rulesets.fft3.fire import Plan, band_of, max_range, plan, weapons_of
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.movement import EPS, Mates, closest_along, point_along
from warbench.rulesets.fft3.profiles import StandProfile, forces, tables
from warbench.rulesets.fft3.rounding import rounded
from warbench.rulesets.fft3.state import Point, Stand

WORTH = {"tank": 3.0, "ifv": 2.0, "infantry": 1.5}
"""What a stand is worth to either side, in rough tank-equivalents."""
ADVANCE, URGENT = 0.2, 0.6
"""Score per inch nearer the unit's objective; urgent once the turns left barely suffice."""
DANGER, STRATEGIC_DANGER = 0.7, 2.5
"""Weight of the worth the enemy may take out at a place (it cannot shoot back after a
strategic move)."""
COHESION = 1.5
"""Cost of ending a move out of cohesion."""
CROWDING = 0.4
"""Cost of each further friend a template placed on the stand could catch with it."""
ENOUGH = 0.85
"""Once the declared fire makes a target this likely to go, the AI resolves it."""
CROWD = 2 * artillery.radius() + 1.25
"""Stands whose centres are this close can fall under one template together."""
MENACE = 2.5
"""Weight of what an enemy stand threatens (`menace`) in what taking it out is worth."""
WORTH_A_SHOT = 0.05
"""Below this chance of taking the target out a stand takes overwatch instead."""
FOE_MEMO = 256
"""`TowsAI._setting` forgets the foes it remembers once it holds this many (a search agent's
look-aheads meet many copies of one phase)."""


def die_at_least(target: int, shift: int) -> float:
    """P(d6 + shift >= target)."""
    return min(6, max(0, 7 - (target - shift))) / 6


def expected_effect(p: Plan, target: Stand, *, in_difficult: bool, arc_armour: int) -> float:
    """The chance the attack takes the target out, roughly: destroyed, or a failed check (a
    stand that has taken its check from enemy fire this turn ignores further ones)."""
    fail = (
        0.0
        if target.fire_checked
        else 1 - die_at_least(forces().sides[target.profile.side].quality, 0)
    )
    shift = sum(v for _, v in p.modifiers)
    return _effect(p.kind, p.rof, shift, p.pen, arc_armour, fail, in_difficult=in_difficult)


_EFFECTS: dict[tuple[object, ...], float] = {}
"""`_effect` by its arguments (a few hundred of them)."""


def _effect(
    kind: str, rof: int, shift: int, pen: int, armour: int, fail: float, *, in_difficult: bool
) -> float:
    """`expected_effect` from the attack's numbers: ROF dice at `shift` to hit, then per hit
    (Pen - armour) penetration dice, or an anti-infantry check; `fail` is the chance the
    target fails a quality check."""
    key = (kind, rof, shift, pen, armour, fail, in_difficult)
    found = _EFFECTS.get(key)
    if found is None:
        found = _EFFECTS[key] = _worked_effect(
            kind, rof, shift, pen, armour, fail, in_difficult=in_difficult
        )
    return found


def _worked_effect(
    kind: str, rof: int, shift: int, pen: int, armour: int, fail: float, *, in_difficult: bool
) -> float:
    """`_effect` worked out."""
    hits = rof * die_at_least(tables().to_hit, shift)
    if in_difficult:
        hits *= 1 - die_at_least(tables().terrain_save, 0)
    if kind == "anti-infantry":
        return min(1.0, hits) * min(1.0, fail + 0.1 * max(0.0, hits - 1))
    dice, mods = penetration_dice(pen, armour)
    pen_shift = sum(v for _, v in mods)
    kill = 1 - (1 - die_at_least(6, pen_shift)) ** dice
    check = 1 - (1 - die_at_least(4, pen_shift)) ** dice - kill
    per_hit = kill + max(0.0, check) * fail
    return float(1 - (1 - per_hit) ** hits)


_MENACES: dict[tuple[str, str], float] = {}
"""`_menace_vs` by the two profiles' names (hashing the profile models themselves is slow)."""


def _menace_vs(attacker: StandProfile, target: StandProfile) -> float:
    """How likely a stand of profile `attacker` takes one of profile `target` out with its
    best weapon at effective range, in the open, at the target's front."""
    key = (attacker.name, target.name)
    found = _MENACES.get(key)
    if found is None:
        found = _MENACES[key] = _best_effect(attacker, target)
    return found


def _best_effect(attacker: StandProfile, target: StandProfile) -> float:
    """`_menace_vs` worked out."""
    bonus = forces().sides[attacker.side].to_hit
    fail = 1 - die_at_least(forces().sides[target.side].quality, 0)
    armour = target.armour.front if target.armour else 0
    vehicle = target.vehicle
    best = 0.0
    if attacker.gun is not None:
        g = attacker.gun
        kind = "anti-vehicle" if vehicle else "anti-infantry"
        shift = bonus + (0 if vehicle else g.ai)
        best = _effect(kind, g.rof, shift, g.pen, armour, fail, in_difficult=False)
    if attacker.missile is not None and vehicle:
        m = attacker.missile
        best = max(best, _effect("missile", m.rof, bonus, m.pen, armour, fail, in_difficult=False))
    if attacker.anti_infantry is not None and not vehicle:
        a = attacker.anti_infantry
        shift = bonus + a.ai
        best = max(best, _effect("anti-infantry", a.rof, shift, 0, 0, fail, in_difficult=False))
    return best


_MENACE_SUMS: dict[tuple[str, ...], float] = {}
"""`menace` by the enemy's profile and the profiles of the opponent's stands, in order."""
MENACE_MEMO = 4096
"""`_MENACE_SUMS` is emptied when it holds this many (long runs of games meet many)."""


def menace(game: FFT3Game, enemy: Stand, mine: list[Stand] | None = None) -> float:
    """What `enemy` threatens to take from its opponent each turn: its chance against an
    average stand of the opponent's still on the table (`mine`, when the caller has them),
    times what that stand is worth."""
    if mine is None:
        mine = game.state.side_stands(game.state.enemy(enemy.player))
    if not mine:
        return 0.0
    key = (enemy.profile.name, *(x.profile.name for x in mine))
    found = _MENACE_SUMS.get(key)
    if found is None:
        if len(_MENACE_SUMS) >= MENACE_MEMO:
            _MENACE_SUMS.clear()
        total = sum(_menace_vs(enemy.profile, x.profile) * WORTH[x.profile.kind] for x in mine)
        found = _MENACE_SUMS[key] = total / len(mine)
    return found


_CHANCES: dict[tuple[object, ...], float] = {}
"""`chance` by all it hangs on once the firer sees the target in range: the two profiles,
the weapon, the range band, suppression, overwatch, the armour struck, the target's terrain
and whether it has taken its check from fire."""


def chance(
    game: FFT3Game,
    firer: Stand,
    weapon: str,
    target: Stand,
    *,
    firer_at: Point | None = None,
    target_at: Point | None = None,
    target_facing: float | None = None,
    overwatch: bool = False,
    sighted: bool = False,
) -> float:
    """The chance `firer`'s `weapon` takes `target` out (0 when it cannot fire); `sighted`
    when the caller knows the firer sees the target from there."""
    here, there = firer_at or firer.at, target_at or target.at
    mine, theirs = firer.radius, target.radius
    gap = math.dist(here, there) - mine - theirs
    if gap > max_range(firer, weapon) + 1e-6:
        return 0.0
    if not sighted and not game.field.can_see(here, mine, there, theirs):
        return 0.0
    armour = 0
    if target.profile.armour is not None:
        facing = target.facing if target_facing is None else target_facing
        side = arc_of_fire(there, facing, here, mine)
        armour = target.profile.armour.front if side == "front" else target.profile.armour.flank
    difficult = game.field.in_difficult(there)
    return _odds(
        game, firer, weapon, target, gap, armour, difficult, firer_at, target_at, overwatch
    )


def _odds(
    game: FFT3Game,
    firer: Stand,
    weapon: str,
    target: Stand,
    gap: float,
    armour: int,
    difficult: bool,
    firer_at: Point | None = None,
    target_at: Point | None = None,
    overwatch: bool = False,
) -> float:
    """`chance` once the firer is known to see the target `gap` away within reach, striking
    `armour` on a target in difficult terrain or not."""
    key = (
        firer.profile.name,
        weapon,
        target.profile.name,
        band_of(firer.profile, weapon, max(0.0, gap)),
        firer.suppressed,
        overwatch,
        armour,
        difficult,
        target.fire_checked,
    )
    found = _CHANCES.get(key)
    if found is None:
        p = plan(
            game.field,
            firer,
            weapon,
            target,
            firer_at=firer_at,
            target_at=target_at,
            overwatch=overwatch,
        )
        found = _CHANCES[key] = (
            0.0
            if isinstance(p, str)
            else expected_effect(p, target, in_difficult=difficult, arc_armour=armour)
        )
    return found


def worth(game: FFT3Game, target: Stand, mine: list[Stand] | None = None) -> float:
    """What taking `target` out is worth: the stand, the passenger that must then pass a
    check, the unit's casualty check if this loss is the one that brings it to 2/3, and what
    the stand threatens (`menace`; `mine` are its opponent's stands on the table, when the
    caller has them)."""
    s = game.state
    fail = 1 - die_at_least(forces().sides[target.profile.side].quality, 0)
    value = WORTH[target.profile.kind]
    if target.carrying is not None:
        value += WORTH["infantry"] * fail
    unit = s.units[target.unit]
    alive = s.unit_stands(unit.id)
    lost = len(unit.stands) - len(alive) + 1
    if unit.broken_turn is None and lost >= math.ceil(2 * len(unit.stands) / 3):
        value += fail * sum(WORTH[x.profile.kind] for x in alive if x is not target)
    return value + MENACE * menace(game, target, mine)


Foe = tuple[Stand, Point, float, list[tuple[str, float]], list[tuple[str, float]], float, float]
Floats = npt.NDArray[np.float64]


class Setting(NamedTuple):
    """What scoring a place needs to know about a stand wherever it goes: the enemies that can
    harm it or that it can harm (`Foe`) and whether each is in difficult terrain, whether the
    enemy has artillery, where its friends stand (only asked for under artillery), what it is
    worth and its unit's other stands; and the foes' table and arms `_scores` builds from them
    (shared by the settings that share the foes)."""

    foes: list[Foe]
    covered: list[bool]
    shelled: bool
    friends: list[Point]
    worth: float
    mates: Mates
    built: list[tuple[Floats, Floats, list[tuple[str, bool]]]]  # `_scores`' arrays, once made


CHANCES = placing.Chances()
"""`_odds`'s answers for the compiled scoring of places."""


_ARMS: dict[tuple[object, ...], tuple[list[tuple[float, ...]], list[tuple[str, bool]]]] = {}
"""`_arms` by the two stands' profiles, suppression and checks from fire."""


def _arms(
    e: Stand, stand: Stand, theirs: list[tuple[str, float]], mine: list[tuple[str, float]]
) -> tuple[list[tuple[float, ...]], list[tuple[str, bool]]]:
    """The rows of `placing.score_places`'s arms for the weapons of foe `e` that reach
    `stand` (`theirs`) and of `stand` that reach `e` (`mine`): reach, chances table row and
    band limits; with each one's weapon and whether it is the foe's."""
    key = (
        e.profile.name,
        e.suppressed,
        e.fire_checked,
        stand.profile.name,
        stand.suppressed,
        stand.fire_checked,
    )
    found = _ARMS.get(key)
    if found is None:
        arms: list[tuple[float, ...]] = []
        named: list[tuple[str, bool]] = []
        for firer, target, weapons in ((e, stand, theirs), (stand, e, mine)):
            for weapon, far in weapons:
                row = CHANCES.row(
                    firer.profile.name,
                    weapon,
                    target.profile.name,
                    firer.suppressed,
                    target.fire_checked,
                )
                arms.append((far, row, *_band_limits(firer.profile, weapon)))
                named.append((weapon, firer is e))
        found = _ARMS[key] = (arms, named)
    return found


def _band_limits(firer: StandProfile, weapon: str) -> tuple[float, float, float, float, bool]:
    """What `fire.band_of` compares a distance with for `weapon` of a stand of profile
    `firer` (`placing._band`): banded or not, the close, effective and far limits, and
    whether it is a missile."""
    if weapon in ("missile", "law"):
        launcher = firer.missile if weapon == "missile" else firer.law
        assert launcher is not None
        return (False, 0.0, 0.0, launcher.range + 1e-9, weapon == "missile")
    arm = firer.gun if weapon == "gun" else firer.anti_infantry
    assert arm is not None
    bands = tables().range_bands
    return (True, arm.range * bands["close"], arm.range, arm.range * bands["long"], False)


_REACHES: dict[tuple[str, bool], list[tuple[str, float]]] = {}
"""`_reaches` by the firer's profile and whether the target is a vehicle (read, never changed)."""


def _reaches(firer: Stand, target: Stand) -> list[tuple[str, float]]:
    """The weapons of `firer` that can attack `target`, with their longest reach."""
    key = (firer.profile.name, target.profile.vehicle)
    found = _REACHES.get(key)
    if found is None:
        fit = ("gun", "missile", "law") if target.profile.vehicle else ("gun", "ai")
        found = [(w, max_range(firer, w) + 1e-6) for w in weapons_of(firer) if w in fit]
        _REACHES[key] = found
    return found


Exchange = tuple[list[tuple[str, float]], list[tuple[str, float]], float]
_EXCHANGES: dict[tuple[str, str], Exchange] = {}
"""`_exchange` by the two stands' profiles (read, never changed)."""


def _exchange(e: Stand, stand: Stand) -> Exchange:
    """`_reaches` of `e` at `stand` and of `stand` at `e`, and the longest of them (-1 when
    neither can harm the other)."""
    key = (e.profile.name, stand.profile.name)
    found = _EXCHANGES.get(key)
    if found is None:
        theirs, mine = _reaches(e, stand), _reaches(stand, e)
        reach = max((r for _, r in theirs + mine), default=-1.0)
        found = _EXCHANGES[key] = (theirs, mine, reach)
    return found


class TowsAI(Agent):
    """The fft3 heuristic player; ties break on its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._moved: set[tuple[int, int, str]] = set()
        self._goals: dict[str, Point] = {}
        self._phase: tuple[int, int, str] = (0, 0, "")
        self._memo: dict[tuple[object, ...], dict[tuple[object, ...], float]] = {}
        self._refused: set[Fire] = set()
        self._fires: dict[tuple[str, str, str], Fire] = {}  # by stand, weapon and target
        # the shots worth making by stand, weapon, its place and suppression, as last found
        # (with `_looked`, which counts the changes of the enemies' keys, `_targets`)
        self._worth_it: dict[tuple[object, ...], tuple[int, list[tuple[float, str]]]] = {}
        self._targets: list[tuple[str, Point, float, bool]] = []
        self._looked = 0
        # each stand's shots worth making (target, chance, action), by what they hang on
        self._stands_shots: dict[tuple[object, ...], list[tuple[str, float, Fire]]] = {}
        # `_setting`'s foes by the stand's profile and state, the friendly profiles and the
        # enemy stands, for the phase `_foes_phase`
        self._foe_memo: dict[tuple[object, ...], tuple[list[Foe], list[bool], list[Any]]] = {}
        self._foes_phase: tuple[int, int, str] = (0, 0, "")

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

    def ranked(self, game: Game, player: str) -> list[Action]:
        """What `choose` takes first, then the search agent's other candidates
        (`search_candidates.py`), then the other legal actions in a seeded order."""
        from warbench.rulesets.fft3.search_candidates import ranked

        return ranked(self, game, player)

    def fork(self, seed: int) -> TowsAI:
        """A copy that knows which stands it has moved this phase, its units' objectives and
        the shots refused, with its own generator: a search look-ahead plays on with it."""
        copy = TowsAI(seed)
        copy._moved = set(self._moved)
        copy._goals = dict(self._goals)
        copy._phase = self._phase
        copy._refused = set(self._refused)
        return copy

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
        # the legal actions in order, each checked only once it would be the best so far
        for action in game._candidates(player):
            if not isinstance(action, Barrage):
                continue
            if any(math.dist(f.at, action.at) <= reach + f.radius + 0.5 for f in friends):
                continue
            score = sum(
                WORTH[e.profile.kind]
                for e in s.side_stands(s.enemy(player))
                if math.dist(e.at, action.at) <= reach + e.radius
            )
            if score > best[0] and game.check(action) is None:
                best = (score, action)
        return best[1]

    # movement
    def _goal(self, game: FFT3Game, stand: Stand) -> Point:
        """The objective of the stand's unit: units share the objectives out from west to
        east in the order they stand."""
        if not self._goals:
            s = game.state
            objectives = sorted(game.spec.objectives)
            for player in (s.order[0], s.order[1]):
                units = [u for u in s.units.values() if u.player == player]
                units.sort(key=lambda u: sum(s.stands[i].x for i in u.stands) / len(u.stands))
                for rank, unit in enumerate(units):
                    pick = objectives[rank * len(objectives) // len(units)]
                    self._goals[unit.id] = (pick[0], pick[1])
        return self._goals[stand.unit]

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
            near = math.dist(stand.at, self._goal(game, stand))
            if near <= 6 or any(stand.gap(e) <= 8 for e in enemies):
                for at in game._debark_points(stand):
                    debark = Debark(stand.id, at)
                    if game.check(debark) is None:
                        self._moved.discard((s.turn, s.half, stand.id))
                        return debark
        setting = self._setting(game, stand)
        far = not any(stand.gap(e) <= 30 for e in enemies)
        options = game.move_points(stand, strategic=far)  # strategic moves only when far
        places = [stand.at, *(to for _, to in options)]
        scores = self._scores(game, stand, places, [False, *(s for s, _ in options)], setting)
        noisy = [score + self._rng.random() * 0.01 for score in scores[1:]]
        # the first legal option of the best score, if it beats staying: the best first, so
        # that usually one is checked (the same pick as checking each that beats the best
        # legal one so far, in order)
        for n in sorted(range(len(options)), key=lambda n: -noisy[n]):
            if not noisy[n] > scores[0]:
                break
            strategic, to = options[n]
            action: Action = Strategic(stand.id, to) if strategic else Move(stand.id, to)
            if game.check(action) is None:
                return action
        return None

    @staticmethod
    def _look(
        game: FFT3Game, stand: Stand, places: list[Point], foes: list[Foe]
    ) -> list[list[tuple[int, float]]]:
        """For each of `places`, the foes (by their index in `foes`, in order) within their
        reach and in sight of `stand` there, each with its distance centre to centre: the
        sight lines worked out at once."""
        r = stand.radius
        near: list[tuple[int, int, float]] = []
        pairs: list[tuple[Point, float, Point, float]] = []
        for i, at in enumerate(places):
            for j, (_, there, er, _, _, reach, _) in enumerate(foes):
                d = math.dist(at, there)
                if d - er - r <= reach:
                    near.append((i, j, d))
                    pairs.append((at, r, there, er))
        seen: list[list[tuple[int, float]]] = [[] for _ in places]
        for (i, j, d), sees in zip(near, game.field.can_see_all(pairs), strict=True):
            if sees:
                seen[i].append((j, d))
        return seen

    def _scores(
        self,
        game: FFT3Game,
        stand: Stand,
        places: list[Point],
        strategic: list[bool],
        setting: Setting,
    ) -> list[float]:
        """`_score` of each of `places` (moving strategically or not) with `_look`'s sight
        lines, all worked out together by compiled code (`placing`), to the last bit the
        same."""
        s = game.state
        field, foes, r = game.field, setting.foes, stand.radius
        px = np.array([at[0] for at in places])
        py = np.array([at[1] for at in places])
        if not setting.built:
            setting.built.append(self._foe_table(stand, setting))
        table, arm_rows, named = setting.built[0]
        near_i, near_j, near_d = placing.near_pairs(
            px, py, r, table[:, 0], table[:, 1], table[:, 2], table[:, 12]
        )
        foes_at = (table[:, 0], table[:, 1], table[:, 2])
        sees = field.sees_pairs(px, py, r, foes_at, (near_i, near_j))
        start = np.zeros(len(places) + 1, dtype=np.intp)
        start[1:] = np.bincount(near_i[sees], minlength=len(places)).cumsum()
        armour = stand.profile.armour
        kind, mov = stand.profile.kind, stand.profile.mov
        missile_mp = mov * tables().missile_ifv_mp_fraction
        missile_ok = [True] * len(places)
        if kind == "ifv":
            spent = field.leg_costs(stand.at, places, vehicle=True)
            missile_ok = [stand.mp_spent + cost <= missile_mp for cost in spent]
        numbers = (
            *stand.at,
            r,
            stand.facing,
            armour is not None,
            armour.front if armour else 0,
            armour.flank if armour else 0,
            max(mov, 1),
            setting.worth,
            game.spec.turns - s.turn,
            setting.shelled,
            tables().cohesion + EPS,
            CROWD,
            ADVANCE,
            URGENT,
            COHESION,
            CROWDING,
            DANGER,
            STRATEGIC_DANGER,
        )
        args = (
            px,
            py,
            np.array(strategic, dtype=np.bool_),
            field.in_difficult_all(px, py),
            np.array(missile_ok, dtype=np.bool_),
            np.array(numbers, dtype=np.float64),
            np.array(self._goal(game, stand), dtype=np.float64),
            np.array(setting.mates.others, dtype=np.float64).reshape(-1, 3),
            np.array(setting.friends, dtype=np.float64).reshape(-1, 2),
            table,
            arm_rows,
            start,
            near_j[sees],
            near_d[sees],
            CHANCES.table,
            np.empty(len(places)),
            np.empty((8 * len(near_j) + 1, 6)),
        )
        while missed := placing.score_places(*args):
            covered = args[3]
            for at, i, j, a, gap, struck in args[-1][:missed].tolist():
                e, at_i, weapon = foes[int(j)][0], places[int(i)], named[int(a)][0]
                if named[int(a)][1]:
                    p = _odds(
                        game,
                        e,
                        weapon,
                        stand,
                        gap,
                        int(struck),
                        bool(covered[int(i)]),
                        target_at=at_i,
                    )
                else:
                    p = _odds(
                        game,
                        stand,
                        weapon,
                        e,
                        gap,
                        int(struck),
                        setting.covered[int(j)],
                        firer_at=at_i,
                    )
                CHANCES.table[int(at)] = p
        scores: list[float] = args[-2].tolist()
        return scores

    @staticmethod
    def _foe_table(stand: Stand, setting: Setting) -> tuple[Floats, Floats, list[tuple[str, bool]]]:
        """`placing.score_places`' table of the foes (13 columns: centre, radius, facing,
        armour, worth, cover, first arm, arms each way, reach) and of their arms (`_arms`),
        with each arm's weapon and whether it is the foe's."""
        rows: list[tuple[float, ...]] = []
        arms: list[tuple[float, ...]] = []
        named: list[tuple[str, bool]] = []  # each arm's weapon and whether it is the foe's
        for e, there, er, theirs, mine, reach, value in setting.foes:
            armour = e.profile.armour
            first = len(arms)
            more, weapons = _arms(e, stand, theirs, mine)
            arms += more
            named += weapons
            rows.append(
                (
                    *there,
                    er,
                    e.facing,
                    armour is not None,
                    armour.front if armour else 0,
                    armour.flank if armour else 0,
                    value,
                    0.0,  # covered: below
                    first,
                    len(theirs),
                    len(mine),
                    reach,
                )
            )
        table = np.array(rows, dtype=np.float64).reshape(-1, 13)
        table[:, 8] = setting.covered
        return table, np.array(arms, dtype=np.float64).reshape(-1, 7), named

    def _setting(self, game: FFT3Game, stand: Stand) -> Setting:
        """What `_score` needs to know about `stand` wherever it goes. The foes and their
        terrain are the same for every stand of one profile, suppression and check from fire
        while the enemy stands and the friendly profiles stay the same (as they do through a
        movement phase): they are remembered for the phase, with the arrays `_scores` builds
        from them (`Setting.built`)."""
        s = game.state
        shelled = self._shelled(game, stand.player)
        own, enemies = s.side_stands(stand.player), s.side_stands(s.enemy(stand.player))
        friends = [f.at for f in own if f is not stand] if shelled else []
        mates = Mates(s, stand)
        phase = (s.turn, s.half, s.phase)
        if phase != self._foes_phase or len(self._foe_memo) >= FOE_MEMO:
            self._foes_phase = phase
            self._foe_memo.clear()
        key = (
            stand.profile.name,
            stand.suppressed,
            stand.fire_checked,
            tuple(f.profile.name for f in own),
            tuple((id(e), e.x, e.y, e.facing, e.suppressed, e.fire_checked) for e in enemies),
        )
        found = self._foe_memo.get(key)
        if found is None:
            foes = self._foes(game, stand)
            covered = [game.field.in_difficult(there) for _, there, *_ in foes]
            found = self._foe_memo[key] = (foes, covered, [])
        foes, covered, built = found
        return Setting(foes, covered, shelled, friends, worth(game, stand, enemies), mates, built)

    @staticmethod
    def _foes(game: FFT3Game, stand: Stand) -> list[Foe]:
        """Each enemy with where it stands and its base radius, the reach of its weapons that
        can harm `stand`, of `stand`'s weapons that can harm it, the longest of them, and what
        taking it out is worth."""
        s = game.state
        friends = s.side_stands(stand.player)
        menaces: dict[str, float] = {}  # by profile: the same for every enemy stand of one
        out = []
        for e in s.side_stands(s.enemy(stand.player)):
            theirs, mine, reach = _exchange(e, stand)
            if reach >= 0:
                if e.profile.name not in menaces:
                    menaces[e.profile.name] = menace(game, e, friends)
                value = WORTH[e.profile.kind] + MENACE * menaces[e.profile.name]
                out.append((e, e.at, e.radius, theirs, mine, reach, value))
        return out

    @staticmethod
    def _shelled(game: FFT3Game, player: str) -> bool:
        """Whether the enemy has an artillery template to place (three units or more with a
        stand alive: one pass over the stands)."""
        s = game.state
        enemy = s.enemy(player)
        units = {x.unit for x in s.stands.values() if x.player == enemy and x.alive}
        return artillery.templates_for(len(units)) > 0

    def _score(
        self,
        game: FFT3Game,
        stand: Stand,
        at: Point,
        setting: Setting,
        seen: list[tuple[int, float]],
        *,
        strategic: bool = False,
    ) -> float:
        """How good a place `at` is for `stand` to end its move; `seen` are the foes in reach
        and in sight there, with their distances (`_look`). The chances of shots are those of
        `chance`, worked out the same way from what is known here."""
        s = game.state
        goal = self._goal(game, stand)
        turns_left = game.spec.turns - s.turn
        distance = max(0.0, math.dist(at, goal) - 2.0)
        urgent = distance / max(stand.profile.mov, 1) >= turns_left - 1
        score = -(URGENT if urgent else ADVANCE) * distance
        if distance == 0.0:
            score += 1.0 + (2.0 if turns_left <= 2 else 0.0)
        covered = game.field.in_difficult(at)
        if covered:
            score += 1.0
        if not setting.mates.near(at):
            score -= COHESION
        if setting.shelled:
            crowd = sum(1 for f in setting.friends if math.dist(f, at) <= CROWD)
            score -= CROWDING * max(0, crowd - 1)
        facing = stand.facing if at == stand.at else bearing(stand.at, at)
        threat = 1.0
        best_shot = 0.0
        missile_ok = (
            stand.profile.kind != "ifv"
            or stand.mp_spent + game.field.leg_cost(stand.at, at, vehicle=True)
            <= stand.profile.mov * tables().missile_ifv_mp_fraction
        )
        r, armour = stand.radius, stand.profile.armour
        for j, d in seen:
            e, there, er, theirs, mine, _, value = setting.foes[j]
            gap = d - er - r  # the foe's fire at the stand (as `chance` has it)
            if theirs:
                struck = 0
                if armour is not None:
                    front = arc_of_fire(at, facing, there, er) == "front"
                    struck = armour.front if front else armour.flank
                for weapon, far in theirs:
                    if gap <= far:
                        p = _odds(game, e, weapon, stand, gap, struck, covered, target_at=at)
                        threat *= 1 - p
            if strategic or not mine:
                continue
            aim = d - r - er  # the stand's fire at the foe (as `chance` has it)
            struck = -1  # the armour struck, once a weapon reaches
            for weapon, far in mine:
                if gap <= far and (weapon != "missile" or missile_ok) and aim <= far:
                    if struck < 0:
                        struck = 0
                        if e.profile.armour is not None:
                            front = arc_of_fire(there, e.facing, at, r) == "front"
                            struck = e.profile.armour.front if front else e.profile.armour.flank
                    p = _odds(game, stand, weapon, e, aim, struck, setting.covered[j], firer_at=at)
                    best_shot = max(best_shot, p * value)
        danger = (1 - threat) * setting.worth
        return score + best_shot - (STRATEGIC_DANGER if strategic else DANGER) * danger

    # fire
    def _overwatch_fire(self, game: FFT3Game, player: str) -> Action:
        s = game.state
        leg = s.leg
        mover = s.stands[leg["stand"]]
        a: Point = (leg["from"][0], leg["from"][1])
        b: Point = (leg["to"][0], leg["to"][1])
        best: tuple[float, Action] = (0.0, Pass())
        samples = {rounded(leg["length"] * k / 4, 2) for k in range(5)}
        sampled = {along: point_along(a, b, along) for along in samples}  # for every firer
        for firer in s.side_stands(player):
            if not firer.overwatch:
                continue
            nearest = rounded(closest_along(a, b, firer.at), 2)
            here, gaps = firer.at, []  # each point's gap as `chance` works it out first
            for along in sorted(samples | {nearest}):
                at = sampled[along] if along in sampled else point_along(a, b, along)
                gaps.append((along, at, math.dist(here, at) - firer.radius - mover.radius))
            for weapon, reach in _reaches(firer, mover):
                for along, at, gap in gaps:
                    if gap > reach:
                        continue  # `chance` is 0 out of reach: no call
                    value = chance(game, firer, weapon, mover, target_at=at, overwatch=True)
                    value *= WORTH[mover.profile.kind]
                    if value > best[0]:
                        action = OverwatchFire(firer.id, weapon, along)
                        if game.check(action) is None:
                            best = (value, action)
        return best[1]

    def _fresh(self, game: FFT3Game) -> None:
        """Forget the chances and refused shots of an earlier phase."""
        s = game.state
        phase = (s.turn, s.half, s.phase)
        if phase != self._phase:
            self._phase = phase
            self._memo.clear()
            self._refused.clear()
            self._worth_it.clear()
            self._stands_shots.clear()

    def _chance(self, game: FFT3Game, firer: Stand, weapon: str, target: Stand) -> float:
        """`chance`, remembered for the rest of the phase (nothing that moves it changes
        within a fire phase but what the keys hold; `_shots` builds the same keys)."""
        self._fresh(game)
        mine = (firer.id, weapon, firer.at, firer.suppressed)
        theirs = (target.id, target.at, target.facing, target.fire_checked)
        memo = self._memo.setdefault(mine, {})
        found = memo.get(theirs)
        if found is None:
            found = memo[theirs] = chance(game, firer, weapon, target)
        return found

    def _shots(
        self, game: FFT3Game, player: str, own: list[Stand]
    ) -> dict[str, list[tuple[float, Fire]]]:
        """Every attack worth making now that the rules seem to allow, by target, best
        first (chance, action); `own` are `player`'s stands on the table."""
        s = game.state
        declared: dict[str, list[str]] = {}
        for group in s.groups.values():
            for shot in group:
                declared.setdefault(shot.firer, []).append(shot.weapon)
        missile_mp = tables().missile_ifv_mp_fraction
        out: dict[str, list[tuple[float, Fire]]] = {}
        self._fresh(game)
        memo, refused, fires = self._memo, self._refused, self._fires
        enemies = [
            (e, e.id, (e.id, (e.x, e.y), e.facing, e.fire_checked), e.radius)
            for e in s.side_stands(s.enemy(player))
            if e.id not in s.resolved
        ]
        targets = [theirs for _, _, theirs, _ in enemies]
        if targets != self._targets:  # the shots worth making are looked for again
            self._targets, self._looked = targets, self._looked + 1
        worth_it, stands_shots = self._worth_it, self._stands_shots
        for stand in own:
            if game._may_fire(stand) or (stand.profile.vehicle and stand.id in declared):
                continue  # it may not fire, or it is a vehicle that has declared its attack
            attacks = stand.attacks
            here, suppressed = (stand.x, stand.y), stand.suppressed
            mine_now = (
                stand.id,
                tuple(declared.get(stand.id, ())),
                tuple(attacks),
                here,
                suppressed,
                stand.mp_spent,
                self._looked,
            )
            offered = stands_shots.get(mine_now)
            if offered is None:
                offered = stands_shots[mine_now] = []
                used = declared.get(stand.id, []) + attacks
                for weapon in weapons_of(stand):
                    if weapon in used or (
                        weapon == "missile"
                        and stand.profile.kind == "ifv"
                        and stand.mp_spent > stand.profile.mov * missile_mp
                    ):
                        continue
                    mine = (stand.id, weapon, here, suppressed)
                    found = worth_it.get(mine)
                    if found is None or found[0] != self._looked:
                        chances = memo.setdefault(mine, {})
                        good: list[tuple[float, str]] = []
                        reach, radius = max_range(stand, weapon) + 1e-6, stand.radius
                        for e, eid, theirs, r in enemies:
                            p = chances.get(theirs)
                            if p is None:
                                # `chance`'s first test here: no call for a foe out of reach
                                p = chances[theirs] = (
                                    0.0
                                    if math.dist(here, theirs[1]) - radius - r > reach
                                    else chance(game, stand, weapon, e)
                                )
                            if p >= WORTH_A_SHOT:
                                good.append((p, eid))
                        found = worth_it[mine] = (self._looked, good)
                    for p, eid in found[1]:
                        action = fires.get((stand.id, weapon, eid))
                        if action is None:
                            action = fires[stand.id, weapon, eid] = Fire(stand.id, weapon, eid)
                        offered.append((eid, p, action))
            for eid, p, action in offered:
                if not refused or action not in refused:
                    out.setdefault(eid, []).append((p, action))
        for shots in out.values():
            shots.sort(key=lambda x: -x[0])
        return out

    def _fire(self, game: FFT3Game, player: str) -> Action:
        while True:
            action = self._pick_fire(game, player)
            if not isinstance(action, Fire) or game.check(action) is None:
                return action
            self._refused.add(action)

    def _pick_fire(self, game: FFT3Game, player: str) -> Action:
        s = game.state
        mine = s.side_stands(player)  # read once for `_shots` and every target's `menace`
        shots = self._shots(game, player, mine)
        for target, declared in s.groups.items():
            gone = 1.0
            for shot in declared:
                gone *= 1 - self._chance(game, s.stands[shot.firer], shot.weapon, s.stands[target])
            more = shots.get(target, [])
            if 1 - gone < ENOUGH and more:
                return more[0][1]
            return Resolve(target)
        best: tuple[float, Action | None] = (0.0, None)
        for target, options in shots.items():
            stays = 1.0
            for p, _ in options:
                stays *= 1 - p
            value = (1 - stays) * worth(game, s.stands[target], mine)
            if value > best[0]:
                best = (value, options[0][1])
        if best[1] is not None:
            return best[1]
        for stand in mine:
            if stand.attacks or stand.strategic:  # the check would refuse it (it has made an
                continue  # attack or taken a marker, or moved strategically): not asked again
            if game.check(Overwatch(stand.id)) is None:
                return Overwatch(stand.id)
        return End()
