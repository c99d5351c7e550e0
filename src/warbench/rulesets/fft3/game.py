"""Sequence of Play: each turn the attacker, then the defender, has an artillery phase, a
movement phase (the other side may fire overwatch), a fire phase and quality checks.

The flow is a state machine on `State.phase`. Overwatch is a decision of the non-moving
player in the middle of the mover's move: after a leg is declared, the overwatching player
declares every overwatch attack at the point of the leg they choose, then the leg resolves
in order along its length (templates touched, overwatch fire), stopping if the mover falls.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from warbench.core.actions import Action
from warbench.core.dice import DiceSource, Modifier, RollRequest
from warbench.core.events import Event
from warbench.core.game import Decision, GameOver, OpenGame, Pending
from warbench.core.geometry import bearing
from warbench.core.words import counted
from warbench.rulesets.fft3 import artillery, battlefield, victory
from warbench.rulesets.fft3.actions import (
    CODEC,
    Barrage,
    Debark,
    Deploy,
    Embark,
    End,
    Face,
    Fire,
    Move,
    Overwatch,
    OverwatchFire,
    Pass,
    Resolve,
    Strategic,
)
from warbench.rulesets.fft3.fire import (
    Volley,
    band_of,
    max_range,
    plan,
    resolve_volleys,
    suits,
    weapons_of,
)
from warbench.rulesets.fft3.movement import (
    Mates,
    closest_along,
    cohesion_problem,
    first_within,
    in_cohesion,
    keep_away_problem,
    point_along,
)
from warbench.rulesets.fft3.profiles import forces, profile, tables
from warbench.rulesets.fft3.quality import OUT_OF_COHESION, passes, quality_check
from warbench.rulesets.fft3.rounding import cents, rounded
from warbench.rulesets.fft3.scenario import PLAYERS, Scenario
from warbench.rulesets.fft3.state import (
    Frozen,
    Point,
    Shot,
    Stand,
    State,
    Template,
    Unit,
    thaw,
)

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset

NEXT_TO = 1.0
"""Carrying Infantry: "next to" is within 1" edge to edge (ruling R8)."""

REACH_SLACK = 1e-6
"""Candidates farther than a weapon's reach by more than this are not even planned."""

MOVE_MEMO = 1 << 14
"""`move_points` answers (and stands' leg verdicts) a game remembers before it empties the
memo."""

SPACING = 2.0
"""Deployment (ours): stands in line abreast 2" apart centre to centre, six to a rank."""
RANK = 6

PROMPTS = {
    "deploy": "deploy a unit in your strip (deploy UNIT X,Y)",
    "artillery": "artillery phase: place a template (barrage X,Y) or end",
    "movement": "movement phase: move, strategic, face, embark, debark, or end",
    "overwatch": "overwatch fire at the moving stand (owfire STAND WEAPON ALONG) or pass",
    "fire": "fire phase: fire STAND WEAPON TARGET, resolve TARGET, overwatch STAND, or end",
}

_DECISIONS: dict[tuple[str, str, int], Decision] = {}
"""`FFT3Game.pending` by player, phase and turn (asked many times a decision; immutable)."""

ALLOWED: dict[str, tuple[type[Action], ...]] = {
    "deploy": (Deploy,),
    "artillery": (Barrage, End),
    "movement": (Move, Strategic, Face, Embark, Debark, End),
    "overwatch": (OverwatchFire, Pass),
    "fire": (Fire, Resolve, Overwatch, End),
}
"""The actions each phase allows."""


class Surroundings(NamedTuple):
    """What every candidate leg of one stand is checked against: the enemy stands near
    enough to matter, its unit's other stands and whether it is in cohesion now; and the
    verdicts on its legs (leg and whether strategic → problem) for these surroundings."""

    enemies: list[Stand]
    mates: Mates
    cohesive: bool
    verdicts: dict[tuple[Point, bool], str | None]


@cache
def _directions(count: int, between: bool) -> list[tuple[float, float]]:
    """The sines and cosines of `count` bearings evenly round, from north (or from 22.5°
    east of it, `between`): where `move_points` looks."""
    angles = [math.radians(360 * k / count + (22.5 if between else 0)) for k in range(count)]
    return [(math.sin(angle), math.cos(angle)) for angle in angles]


Floats = npt.NDArray[np.float64]


FANS = ((False, 1.0), (False, 0.5), (True, 2.0))
"""The candidate moves (`move_points`): whether strategic, and the share of the stand's MP
allowance each goes (full and half normal moves, double strategic ones)."""


@cache
def _fan(
    count: int, mov: float, fans: tuple[tuple[bool, float], ...]
) -> tuple[tuple[bool, ...], Floats, Floats, Floats]:
    """The legs `move_points` tries for a stand of allowance `mov`: `count` bearings of each
    of `fans` (`_directions`, from north or, at half allowance, between), each leg's flag
    (strategic or not), reach and bearing's sine and cosine (read, never changed)."""
    flags: list[bool] = []
    reach: list[float] = []
    sins: list[float] = []
    coss: list[float] = []
    for strategic, scale in fans:
        found = _directions(count, scale == 0.5)
        sins += [sin for sin, _ in found]
        coss += [cos for _, cos in found]
        flags += [strategic] * count
        reach += [mov * scale] * count
    return tuple(flags), np.array(reach), np.array(sins), np.array(coss)


class FFT3Game(OpenGame):
    """One game of A Fistful of TOWs 3 (introductory rules)."""

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
        self._move_memo: dict[tuple[object, ...], list[tuple[bool, Point]]] = {}
        self._leg_memo: dict[tuple[object, ...], dict[tuple[Point, bool], str | None]] = {}
        self._applying: Action | None = None  # the action `apply` is carrying out
        table = spec.table
        if table.terrain is not None:
            self.field = battlefield.from_data(list(table.terrain), table.width, table.depth)
        else:
            self.field = battlefield.generate(self, width=table.width, depth=table.depth)
        stands: dict[str, Stand] = {}
        units: dict[str, Unit] = {}
        for player in PLAYERS:
            force = spec.forces[player]
            for u in force.units:
                ids = []
                for n in range(1, u.tanks + 1):
                    ids.append(f"{u.id}t{n}")
                    stands[ids[-1]] = Stand(ids[-1], u.id, player, profile(force.side, "tank"))
                for n in range(1, u.ifvs + 1):
                    ifv, inf = f"{u.id}v{n}", f"{u.id}i{n}"
                    stands[ifv] = Stand(ifv, u.id, player, profile(force.side, "ifv"), carrying=inf)
                    stands[inf] = Stand(
                        inf, u.id, player, profile(force.side, "infantry"), carried_by=ifv
                    )
                    ids += [ifv, inf]
                units[u.id] = Unit(u.id, player, u.organisation, ids)
        first = spec.attacker or self._roll_off()
        second = "blue" if first == "red" else "red"
        self.state = State(
            phase="deploy", player=second, order=(first, second), stands=stands, units=units
        )
        self.emit(
            "sequence",
            f"{first} ({spec.forces[first].side}) plays the attacker's half of each turn first; "
            f"{second} deploys first",
        )
        self.start()

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        """The dice source protocol, so the battlefield is generated with the game's dice."""
        return self.roll(request).faces

    def _roll_off(self) -> str:
        while True:
            red = self.roll(RollRequest("roll-off for the attacker's half: red")).total
            blue = self.roll(RollRequest("roll-off for the attacker's half: blue")).total
            if red != blue:
                return "red" if red > blue else "blue"

    # -- decisions -----------------------------------------------------------------------
    @property
    def pending(self) -> Pending:
        s = self.state
        if s.phase == "over":
            return GameOver(s.winner, s.reason, dict(s.score))
        key = (s.player, s.phase, s.turn)
        found = _DECISIONS.get(key)
        if found is None:
            where = f"turn {s.turn}, " if s.turn else ""
            found = _DECISIONS[key] = Decision(
                s.player, s.phase, f"{s.player}: {where}{PROMPTS[s.phase]}"
            )
        return found

    def legal_actions(self, player: str) -> list[Action]:
        """Every discrete action, and a sample of the continuous ones (each one legal)."""
        s = self.state
        if s.phase == "over" or player != s.player:
            return []
        if s.phase == "deploy":  # every candidate is a `Deploy`: the stands placed read once
            placed = self._placed()
            return [
                a
                for a in self._candidates(player)
                if isinstance(a, Deploy) and self._deploy_problem(a, player, placed) is None
            ]
        if s.phase != "movement":
            return [a for a in self._candidates(player) if self._illegal(a, player) is None]
        # the candidate moves are of the player's own stands on the table, in its movement
        # phase: only the leg itself is left to judge (`_illegal` would check the rest again)
        around = self._surroundings(player)
        return [
            a
            for a in self._candidates(player)
            if (
                self._move_problem(
                    s.stands[a.stand], a.to, strategic=type(a) is Strategic, around=around[a.stand]
                )
                if type(a) is Move or type(a) is Strategic
                else self._illegal(a, player)
            )
            is None
        ]

    def _surroundings(self, player: str) -> dict[str, Surroundings]:
        """For each of `player`'s stands, what all its candidate legs are checked against:
        the enemy stands near enough for one of them to come within the keep-away distance
        (the others are too far for any), whether it is in cohesion now, and the verdicts on
        its legs already judged with everything they hang on the same (a stand that has not
        moved is asked about the same legs at every decision of the phase)."""
        s = self.state
        enemies = s.side_stands(s.enemy(player))
        far = max(tables().enemy_keep_away, tables().strategic_keep_away)
        out = {}
        for stand in s.side_stands(player):
            ax, ay = stand.x, stand.y
            longest = max((math.dist((ax, ay), to) for _, to in self.move_points(stand)), default=0)
            near = [
                e
                for e in enemies
                if not math.hypot(e.x - ax, e.y - ay) - (stand.radius + e.radius) - longest > far
            ]
            mates = Mates(s, stand)
            p = stand.profile
            key = (
                (stand.id, ax, ay, p.kind, p.mov, stand.mp_spent, stand.mp_lost, stand.strategic),
                bool(stand.attacks),
                tuple((e.id, e.x, e.y, e.profile.kind) for e in near),
                tuple(mates.others),
            )
            verdicts = self._leg_memo.get(key)
            if verdicts is None:
                if len(self._leg_memo) >= MOVE_MEMO:
                    self._leg_memo.clear()
                verdicts = self._leg_memo[key] = {}
            out[stand.id] = Surroundings(near, mates, mates.near(stand.at), verdicts)
        return out

    def _candidates(self, player: str) -> list[Action]:
        s = self.state
        out: list[Action] = []
        if s.phase == "deploy":
            for unit in self._undeployed(player):
                out += [Deploy(unit.id, at) for at in self.deploy_points(player)]
            return out
        if s.phase == "artillery":
            out.append(End())
            for enemy in s.side_stands(s.enemy(player)):
                out.append(Barrage(enemy.at))
            return out
        if s.phase == "movement":
            out.append(End())
            for stand in s.side_stands(player):
                for strategic, to in self.move_points(stand):
                    out.append(Strategic(stand.id, to) if strategic else Move(stand.id, to))
                if stand.carrying is not None:
                    out += [Debark(stand.id, at) for at in self._debark_points(stand)]
                elif stand.profile.kind == "ifv":
                    out += [Embark(stand.id, inf.id) for inf in s.side_stands(player)]
            return out
        if s.phase == "overwatch":
            out.append(Pass())
            for stand in s.side_stands(player):
                if stand.overwatch:
                    for weapon in weapons_of(stand):
                        out += [OverwatchFire(stand.id, weapon, d) for d in self._leg_samples()]
            return out
        out.append(End())
        out += [Resolve(t) for t in s.groups]
        enemies = s.side_stands(s.enemy(player))
        for stand in s.side_stands(player):
            out.append(Overwatch(stand.id))
            for weapon in weapons_of(stand):
                reach = max_range(stand, weapon) + REACH_SLACK
                out += [Fire(stand.id, weapon, e.id) for e in enemies if stand.gap(e) <= reach]
        return out

    # -- candidate points for agents (each is checked before it is offered) ----------------
    def deploy_points(self, player: str) -> list[Point]:
        """Points along the middle of the player's strip, every 6"."""
        low, high = self.spec.forces[player].zone
        y = (low + high) / 2
        width = self.field.width
        return [(float(x), y) for x in range(6, int(width) - 5, 6)]

    def move_points(
        self, stand: Stand, count: int = 8, *, strategic: bool = True
    ) -> list[tuple[bool, Point]]:
        """(strategic, point) candidates around `stand`: normal moves at its full and half
        allowance, strategic ones at double (unless not `strategic`: then the others alone,
        the same points); each pulled back to what its MP pay for. Remembered by everything
        they hang on (stands that have not moved ask again and again)."""
        p = stand.profile
        key = (
            stand.x,
            stand.y,
            p.kind,
            p.mov,
            stand.mp_spent,
            stand.mp_lost,
            stand.strategic,
            count,
            strategic,
        )
        found = self._move_memo.get(key)
        if found is None:
            if len(self._move_memo) >= MOVE_MEMO:
                self._move_memo.clear()
            found = self._move_memo[key] = self._move_points(stand, count, strategic)
        return list(found)

    def _move_points(
        self, stand: Stand, count: int, strategic_too: bool = True
    ) -> list[tuple[bool, Point]]:
        """Each candidate (full and half allowance, double when strategic) clamped to the
        table and pulled back along its leg to what the stand's MP pay for, by compiled code
        (`moves.move_ends`, each leg on its own), then rounded to 0.01" (`rounding.cents`)."""
        x, y, r, mov = stand.x, stand.y, stand.radius, stand.profile.mov
        moved = stand.mp_spent > 0
        fans = tuple(
            (strategic, scale)
            for strategic, scale in FANS
            if not ((moved and strategic != stand.strategic) or (strategic and not strategic_too))
        )
        if not fans:
            return []
        flags, reach, sins, coss = _fan(count, mov, fans)
        spent, lost = stand.mp_spent, stand.mp_lost
        mps = [max(mov * (2 if strategic else 1) - spent - lost, 0.0) for strategic, _ in fans]
        ends_x, ends_y = self.field.move_ends(
            (x, y),
            (r, self.field.width - r, r, self.field.depth - r),
            reach,
            sins,
            coss,
            np.array(mps).repeat(count),
            vehicle=stand.profile.vehicle,
        )
        here, ends = (x, y), zip(cents(ends_x), cents(ends_y), strict=True)
        return [(strategic, end) for strategic, end in zip(flags, ends, strict=True) if end != here]

    def _debark_points(self, ifv: Stand) -> list[Point]:
        r = ifv.radius + NEXT_TO / 2 + 0.375
        return [
            (
                rounded(ifv.x + r * math.sin(math.radians(a)), 2),
                rounded(ifv.y + r * math.cos(math.radians(a)), 2),
            )
            for a in (ifv.facing + 180, ifv.facing + 90, ifv.facing - 90)
        ]

    def _leg_samples(self) -> list[float]:
        length = self.state.leg["length"]
        return sorted({rounded(length * k / 4, 2) for k in range(5)})

    # -- legality --------------------------------------------------------------------------
    def allowed_now(self) -> tuple[type[Action], ...]:
        return ALLOWED[self.state.phase]

    def _illegal(self, action: Action, player: str) -> str | None:
        """Why `action` is illegal for `player` now, or None."""
        s = self.state
        allowed = ALLOWED[s.phase]
        if not isinstance(action, allowed):
            forms = ", ".join(CODEC.form(cls) for cls in allowed)
            return f"now is the {s.phase} phase; allowed: {forms}"
        if isinstance(action, End | Pass):
            return None
        if isinstance(action, Deploy):
            return self._deploy_problem(action, player)
        if isinstance(action, Barrage):
            return self._barrage_problem(action, player)
        if isinstance(action, Resolve):
            if action.target not in s.groups:
                open_ = ", ".join(s.groups) or "none"
                return f"no fire is declared at {action.target}; declared at: {open_}"
            return None
        stand_id = getattr(action, "stand", None) or getattr(action, "ifv", None)
        problem = self._own_stand(stand_id, player)
        if problem:
            return problem
        stand = s.stands[str(stand_id)]
        if isinstance(action, Move | Strategic):
            strategic = isinstance(action, Strategic)
            return self._move_problem(stand, action.to, strategic=strategic)
        if isinstance(action, Face):
            if not 0 <= action.facing < 360:
                return f"a facing is a compass bearing from 0 to 360, not {action.facing:g}"
            return None
        if isinstance(action, Embark):
            return self._embark_problem(stand, action.infantry)
        if isinstance(action, Debark):
            return self._debark_problem(stand, action.at)
        if isinstance(action, Fire):
            return self._fire_problem(stand, action.weapon, action.target)
        if isinstance(action, Overwatch):
            declared = any(x.firer == stand.id for g in s.groups.values() for x in g)
            if stand.attacks or declared:
                return f"{stand.name} has fired or declared fire this phase"
            return self._may_fire(stand) or None
        assert isinstance(action, OverwatchFire)
        return self._overwatch_fire_problem(stand, action.weapon, action.along)

    def _own_stand(self, stand_id: object, player: str) -> str | None:
        s = self.state
        stand = s.stands.get(str(stand_id))
        if stand is None:
            mine = ", ".join(x.id for x in s.side_stands(player))
            return f"there is no stand '{stand_id}'; your stands: {mine}"
        if stand.player != player:
            return f"{stand.name} is not yours"
        if not stand.alive:
            return f"{stand.name} has been eliminated"
        if stand.carried_by is not None:
            return (
                f"{stand.name} is riding in {stand.carried_by}; debark it first "
                f"(debark {stand.carried_by} X,Y)"
            )
        return None

    def _undeployed(self, player: str) -> list[Unit]:
        s = self.state
        return [
            u for u in s.units.values() if u.player == player and not s.stands[u.stands[0]].deployed
        ]

    def formation(self, unit: Unit, at: Point) -> list[tuple[str, Point, float]]:
        """Deployment (ours): the unit's vehicles in line abreast around `at`, six to a
        rank, further ranks 2" back; facing the enemy's side of the table."""
        s = self.state
        low, _ = self.spec.forces[unit.player].zone
        facing = 0.0 if low < self.field.depth / 2 else 180.0
        back = -1.0 if facing == 0.0 else 1.0
        vehicles = [i for i in unit.stands if s.stands[i].carried_by is None]
        placed = []
        for n, sid in enumerate(vehicles):
            rank, file = divmod(n, RANK)
            in_rank = min(RANK, len(vehicles) - rank * RANK)
            x = at[0] + (file - (in_rank - 1) / 2) * SPACING
            y = at[1] + back * rank * SPACING
            placed.append((sid, (rounded(x, 4), rounded(y, 4)), facing))
        return placed

    def _placed(self) -> list[tuple[Point, float, Stand]]:
        """The stands on the table, each with its centre and radius, for deployment checks."""
        return [((o.x, o.y), o.radius, o) for o in self.state.stands.values() if o.on_table]

    def _deploy_problem(
        self, action: Deploy, player: str, placed: list[tuple[Point, float, Stand]] | None = None
    ) -> str | None:
        """Why `action` may not deploy; `placed` is `_placed()` when the caller has it."""
        s = self.state
        unit = s.units.get(action.unit)
        todo = self._undeployed(player)
        if unit is None or unit not in todo:
            names = ", ".join(u.id for u in todo) or "none"
            return f"'{action.unit}' is not one of your units still to deploy: {names}"
        low, high = self.spec.forces[player].zone
        if placed is None:
            placed = self._placed()
        for sid, at, _ in self.formation(unit, action.at):
            stand = s.stands[sid]
            mine = stand.radius
            if not self.field.on_table(at, mine):
                where = f'off the {self.field.width:g}"x{self.field.depth:g}" table'
                return self._deploy_refusal(unit, action.at, stand, where)
            if not low <= at[1] <= high:
                where = f"outside your strip (y {low:g} to {high:g})"
                return self._deploy_refusal(unit, action.at, stand, where)
            for there, theirs, other in placed:
                if math.dist(there, at) < theirs + mine:
                    return f"{stand.name} would overlap {other.name}"
        return None

    def _deploy_refusal(self, unit: Unit, at: Point, stand: Stand, where: str) -> str:
        """Why `deploy UNIT AT` is refused: the typed point, the stand it would put `where`,
        and the points around which the whole unit fits on the table and in its strip."""
        low, high = self.spec.forces[unit.player].zone
        x_lo, y_lo, x_hi, y_hi = -math.inf, low, math.inf, high
        for sid, (dx, dy), _ in self.formation(unit, (0.0, 0.0)):
            r = self.state.stands[sid].radius
            x_lo, x_hi = max(x_lo, r - dx), min(x_hi, self.field.width - r - dx)
            y_lo = max(y_lo, low - dy, r - dy)
            y_hi = min(y_hi, high - dy, self.field.depth - r - dy)
        said = f"the point {at[0]:g},{at[1]:g} would put {stand.name} {where}"
        if x_lo > x_hi or y_lo > y_hi:
            return f"{said}; unit {unit.id} does not fit in your strip anywhere"
        return (
            f"{said}; unit {unit.id} fits around points with x {round(x_lo, 3):g} to"
            f" {round(x_hi, 3):g} and y {round(y_lo, 3):g} to {round(y_hi, 3):g}"
        )

    def _barrage_problem(self, action: Barrage, player: str) -> str | None:
        s = self.state
        if s.templates_left <= 0:
            return "you have no artillery templates left this turn"
        x, y = action.at
        if not (0 <= x <= self.field.width and 0 <= y <= self.field.depth):
            width, depth = self.field.width, self.field.depth
            return (
                f"the template's centre {x:g},{y:g} is off the table; "
                f"it must lie within x 0 to {width:g} and y 0 to {depth:g}"
            )
        r = artillery.radius()
        for stand in s.side_stands(player):
            if self.field.can_see(stand.at, stand.radius, action.at, r):
                return None
        return "none of your stands can see any part of a template there"

    def _move_problem(
        self, stand: Stand, to: Point, *, strategic: bool, around: Surroundings | None = None
    ) -> str | None:
        if around is None:
            return self._leg_problem(stand, to, strategic=strategic)
        key = (to, strategic)
        if key not in around.verdicts:
            around.verdicts[key] = self._leg_problem(stand, to, strategic=strategic, around=around)
        return around.verdicts[key]

    def _leg_problem(
        self, stand: Stand, to: Point, *, strategic: bool, around: Surroundings | None = None
    ) -> str | None:
        s = self.state
        if stand.mp_spent and stand.strategic != strategic:
            how = "strategically" if stand.strategic else "normally"
            return f"{stand.name} already moved {how} this phase and must go on that way"
        if strategic and stand.attacks:
            return f"{stand.name} cannot move strategically"
        if not self.field.on_table(to, stand.radius):
            return self._off_table(to, stand)
        if to == stand.at:
            return f"{stand.name} is already at {to[0]:g},{to[1]:g}"
        cost = self.field.leg_cost(stand.at, to, vehicle=stand.profile.vehicle)
        total = stand.profile.mov * (2 if strategic else 1)
        left = total - stand.mp_spent - stand.mp_lost
        if cost > left + 1e-9:
            return f"the move costs {cost:.2f} MP and {stand.name} has {max(left, 0):.2f} MP left"
        enemies = around.enemies if around else s.side_stands(s.enemy(stand.player))
        problem = keep_away_problem(
            stand, to, enemies, tables().enemy_keep_away, 'stands never move within 1" of an enemy'
        )
        if problem is None and strategic:
            problem = keep_away_problem(
                stand,
                to,
                enemies,
                tables().strategic_keep_away,
                'strategic movement never comes within 10" of an enemy',
            )
        if problem is None and around is not None:
            return None if around.cohesive else cohesion_problem(s, stand, to, around.mates)
        return problem or cohesion_problem(s, stand, to)

    def _embark_problem(self, ifv: Stand, infantry: str) -> str | None:
        s = self.state
        if ifv.profile.kind != "ifv":
            ifvs = [x.id for x in s.side_stands(ifv.player) if x.profile.kind == "ifv"]
            return (
                f"only IFVs carry infantry, and {ifv.name} is not one; write embark IFV "
                f"INFANTRY (your IFVs: {', '.join(ifvs) or 'none'})"
            )
        if ifv.carrying is not None:
            return f"{ifv.name} already carries {ifv.carrying}"
        inf = s.stands.get(infantry)
        if (
            inf is None
            or inf.player != ifv.player
            or not inf.on_table
            or inf.profile.kind != "infantry"
        ):
            return f"'{infantry}' is not one of your infantry stands on the table"
        if ifv.gap(inf) > NEXT_TO + 1e-9:
            return f'{inf.name} is {ifv.gap(inf):.1f}" from {ifv.name}; it must be next to it (1")'
        return self._mp_for(ifv, tables().embark_mp, "pick up infantry")

    def _debark_problem(self, ifv: Stand, at: Point) -> str | None:
        s = self.state
        if ifv.carrying is None:
            return f"{ifv.name} carries no infantry"
        inf = s.stands[ifv.carrying]
        if not self.field.on_table(at, inf.radius):
            return self._off_table(at, inf)
        gap = math.dist(at, ifv.at) - ifv.radius - inf.radius
        if gap > NEXT_TO + 1e-9:
            return (
                f'the infantry must be put down next to {ifv.name} (within 1"), not {gap:.1f}" away'
            )
        for enemy in s.side_stands(s.enemy(ifv.player)):
            if math.dist(at, enemy.at) - inf.radius - enemy.radius < tables().enemy_keep_away:
                return f'that is within 1" of {enemy.name}'
        return self._mp_for(ifv, tables().debark_mp, "drop off infantry")

    def _off_table(self, at: Point, stand: Stand) -> str:
        """Why `stand` may not end at `at`, off the table: the table and where its centre fits."""
        r, width, depth = stand.radius, self.field.width, self.field.depth
        return (
            f'{at[0]:g},{at[1]:g} is off the {width:g}"x{depth:g}" table for {stand.name}; '
            f"its centre must lie within x {round(r, 3):g} to {round(width - r, 3):g}"
            f" and y {round(r, 3):g} to {round(depth - r, 3):g}"
        )

    def _mp_for(self, stand: Stand, cost: int, what: str) -> str | None:
        if stand.mp_left() < cost - 1e-9:
            return f"{stand.name} needs {cost} MP to {what} and has {stand.mp_left():.2f}"
        return None

    def _may_fire(self, stand: Stand) -> str:
        """Why `stand` cannot attack in this fire phase at all ('' if it may)."""
        if stand.strategic:
            return f"{stand.name} moved strategically and cannot fire this turn"
        if "overwatch" in stand.attacks:
            return f"{stand.name} took an overwatch marker instead of firing"
        if stand.profile.vehicle and stand.attacks:
            return f"{stand.name} has made its attack this turn (a vehicle makes one)"
        return ""

    def _fire_problem(self, stand: Stand, weapon: str, target_id: str) -> str | None:
        s = self.state
        problem = self._may_fire(stand)
        if problem:
            return problem
        declared = [shot.weapon for g in s.groups.values() for shot in g if shot.firer == stand.id]
        if stand.profile.vehicle and declared:
            return f"{stand.name} has already declared its attack (a vehicle makes one)"
        if weapon in stand.attacks or weapon in declared:
            return f"{stand.name} has made its {weapon} attack this phase"
        target = s.stands.get(target_id)
        if target is None or target.player == stand.player or not target.on_table:
            return f"'{target_id}' is not an enemy stand on the table"
        if target_id in s.resolved:
            return (
                f"the fire at {target.name} has been resolved this phase; all fire against a "
                "stand is declared before any is resolved"
            )
        if weapon == "missile" and stand.profile.kind == "ifv":
            limit = stand.profile.mov * tables().missile_ifv_mp_fraction
            if stand.mp_spent > limit + 1e-9:
                return (
                    f"{stand.name} spent {stand.mp_spent:.1f} MP; IFVs fire missiles only after "
                    f"spending {limit:g} MP or less"
                )
        result = plan(self.field, stand, weapon, target)
        return result if isinstance(result, str) else None

    def _overwatch_fire_problem(self, stand: Stand, weapon: str, along: float) -> str | None:
        s = self.state
        leg = s.leg
        if not stand.overwatch:
            return f"{stand.name} has no overwatch marker"
        if not 0 <= along <= leg["length"] + 1e-9:
            return f"ALONG must be from 0 to {leg['length']:g} inches along the move"
        mover = s.stands[leg["stand"]]
        at = point_along(tuple(leg["from"]), tuple(leg["to"]), along)
        result = plan(self.field, stand, weapon, mover, target_at=at, overwatch=True)
        return result if isinstance(result, str) else None

    # -- resolution ------------------------------------------------------------------------
    def _resolve(self, action: Action, player: str) -> None:
        s = self.state
        if isinstance(action, Deploy):
            self._deploy(s.units[action.unit], action.at)
        elif isinstance(action, Barrage):
            self._barrage(player, action.at)
        elif isinstance(action, Move | Strategic):
            self._start_leg(s.stands[action.stand], action.to, isinstance(action, Strategic))
        elif isinstance(action, Face):
            stand = s.stands[action.stand]
            stand.facing = action.facing
            self.emit("move", f"{stand.name} turns to face {action.facing:g}°")
        elif isinstance(action, Embark):
            self._embark(s.stands[action.ifv], s.stands[action.infantry])
        elif isinstance(action, Debark):
            self._debark(s.stands[action.ifv], action.at)
        elif isinstance(action, OverwatchFire):
            stand = s.stands[action.stand]
            stand.overwatch = False
            s.leg["shots"].append([stand.id, action.weapon, action.along])
            self.emit(
                "overwatch",
                f'{stand.name} will fire {action.weapon} at {action.along:g}" along the move',
            )
            if not self._overwatched():
                self._finish_leg()
        elif isinstance(action, Pass):
            self._finish_leg()
        elif isinstance(action, Fire):
            s.groups.setdefault(action.target, []).append(Shot(action.stand, action.weapon))
            stand = s.stands[action.stand]
            self.emit(
                "fire",
                f"{stand.name} declares {action.weapon} fire at {s.stands[action.target].name}",
            )
        elif isinstance(action, Resolve):
            self._resolve_group(action.target)
        elif isinstance(action, Overwatch):
            stand = s.stands[action.stand]
            stand.overwatch = True
            stand.attacks.append("overwatch")
            self.emit("overwatch", f"{stand.name} takes an overwatch marker")
        elif isinstance(action, End):
            self._end_phase()
        self._check_wipe_out()

    # deployment
    def _deploy(self, unit: Unit, at: Point) -> None:
        s = self.state
        for sid, where, facing in self.formation(unit, at):
            self._place(s.stands[sid], where)
            s.stands[sid].facing = facing
            s.stands[sid].deployed = True
            passenger = s.stands[sid].carrying
            if passenger is not None:
                s.stands[passenger].deployed = True
        self.emit("deploy", f"{unit.player} deploys unit {unit.id} around {at[0]:g},{at[1]:g}")
        mine, theirs = self._undeployed(unit.player), self._undeployed(s.enemy(unit.player))
        if theirs:
            s.player = s.enemy(unit.player)
        elif not mine:
            self._start_turn(1)

    def _place(self, stand: Stand, at: Point) -> None:
        stand.x, stand.y = at
        if stand.carrying is not None:
            passenger = self.state.stands[stand.carrying]
            passenger.x, passenger.y = at

    # turn and half
    def _start_turn(self, number: int) -> None:
        s = self.state
        s.turn, s.half = number, 0
        for stand in s.stands.values():
            stand.fire_checked = stand.artillery_checked = False
        for unit in s.units.values():
            unit.lost_this_turn = 0
        self.emit("turn", f"turn {number} begins")
        self._start_half()

    def _start_half(self) -> None:
        """Artillery Phase: the mover's old templates come off; suppression it caused ends."""
        s = self.state
        player = s.mover
        s.templates = [t for t in s.templates if t.owner != player]
        for stand in s.stands.values():
            if stand.suppressed_by == player:
                stand.suppressed_by = None
            if stand.player == player:
                stand.attacks = []
        units = sum(1 for u in s.units.values() if u.player == player and s.unit_stands(u.id))
        s.templates_left = artillery.templates_for(units)
        s.player = player
        self.emit("phase", f"{player}'s artillery phase ({counted(s.templates_left, 'template')})")
        if s.templates_left:
            s.phase = "artillery"
        else:
            self._start_movement()

    def _barrage(self, player: str, at: Point) -> None:
        s = self.state
        s.templates_left -= 1
        template = Template(player, at[0], at[1])
        s.templates.append(template)
        self.emit("artillery", f"{player} places a template at {at[0]:g},{at[1]:g}")
        for stand in list(s.stands.values()):
            if stand.on_table and artillery.under(template, stand):
                template.attacked.append(stand.id)
                self._artillery_attack(stand, player)
        if s.templates_left == 0:
            self._start_movement()

    def _artillery_attack(self, stand: Stand, owner: str) -> None:
        effect = artillery.artillery_effect(
            self, stand, in_difficult=self.field.in_difficult(stand.at)
        )
        if effect == "destroyed":
            self._eliminate(stand, "destroyed by artillery")
        elif effect == "check-then-suppressed":
            if stand.artillery_checked:
                self.emit("check", f"{stand.name} has taken its artillery check this turn")
                self._suppress(stand, owner)
            else:
                stand.artillery_checked = True
                if self._stand_check(stand, "artillery"):
                    self._suppress(stand, owner)
        elif effect == "suppressed":
            self._suppress(stand, owner)

    def _suppress(self, stand: Stand, owner: str) -> None:
        s = self.state
        if stand.suppressed_by is None and s.phase == "movement" and stand.player == s.mover:
            stand.mp_lost += tables().suppressed_mp_loss  # suppressed mid-move (ruling R11)
        stand.suppressed_by = owner
        self.emit("suppressed", f"{stand.name} is suppressed")

    def _start_movement(self) -> None:
        s = self.state
        s.phase, s.player = "movement", s.mover
        for stand in s.side_stands(s.mover):
            stand.mp_spent = 0.0
            stand.mp_lost = float(tables().suppressed_mp_loss) if stand.suppressed else 0.0
            stand.strategic = False
            stand.began_in_cohesion = in_cohesion(s, stand)
        self.emit("phase", f"{s.mover}'s movement phase")

    # movement
    def _start_leg(self, stand: Stand, to: Point, strategic: bool) -> None:
        s = self.state
        cost = self.field.leg_cost(stand.at, to, vehicle=stand.profile.vehicle)
        stand.mp_spent += cost
        stand.strategic = strategic
        stand.facing = bearing(stand.at, to)
        how = "strategically " if strategic else ""
        self.emit(
            "move",
            f"{stand.name} moves {how}from {rounded(stand.x, 2):g},{rounded(stand.y, 2):g} "
            f"to {to[0]:g},{to[1]:g} "
            f"({cost:.2f} MP, {stand.mp_left():.2f} left)",
        )
        s.leg = {
            "stand": stand.id,
            "from": [stand.x, stand.y],
            "to": [to[0], to[1]],
            "length": math.dist(stand.at, to),
            "shots": [],
        }
        if self._overwatched():
            s.phase, s.player = "overwatch", s.enemy(stand.player)
        else:
            self._finish_leg()

    def _overwatched(self) -> bool:
        """Whether an enemy stand with an overwatch marker could fire somewhere on the leg
        (the first one found answers)."""
        s = self.state
        leg = s.leg
        mover = s.stands[leg["stand"]]
        a, b = tuple(leg["from"]), tuple(leg["to"])
        samples = self._leg_samples()
        theirs = mover.radius
        for stand in s.side_stands(s.enemy(mover.player)):
            if not stand.overwatch:
                continue
            here, mine = (stand.x, stand.y), stand.radius
            near = closest_along(a, b, here)
            # `nearest_approach(a, b, here)`, without working out `near` again
            gap = math.dist(point_along(a, b, near), here) - mine - theirs
            gaps: list[tuple[Point, float]] | None = None  # the points' gaps, once a stand
            for weapon in weapons_of(stand):
                if gap > max_range(stand, weapon) + REACH_SLACK:
                    continue  # out of reach all along the leg
                if not suits(stand, weapon, mover, overwatch=True):
                    continue
                if gaps is None:
                    points = [point_along(a, b, d) for d in [near, *samples]]
                    gaps = [(at, max(0.0, math.dist(here, at) - mine - theirs)) for at in points]
                # `plan` gives an attack where the target is in a band and in sight
                banded = [at for at, g in gaps if band_of(stand.profile, weapon, g) is not None]
                if banded and self.field.sees_any(here, mine, banded, theirs):
                    return True
        return False

    def _finish_leg(self) -> None:
        """The declared move resolves along its length: templates it touches attack it, and
        overwatch fire at each chosen point, nearest the start first."""
        s = self.state
        leg = s.leg
        mover = s.stands[leg["stand"]]
        a: Point = (leg["from"][0], leg["from"][1])
        b: Point = (leg["to"][0], leg["to"][1])
        events: list[tuple[float, int, Any]] = []
        for template in s.templates:
            if mover.id in template.attacked:
                continue
            d = first_within(a, b, template.at, artillery.radius() + mover.radius)
            if d is not None:
                events.append((d, 0, template))
        shots: dict[float, list[Shot]] = {}
        for firer, weapon, along in leg["shots"]:
            shots.setdefault(along, []).append(Shot(firer, weapon, along))
        events += [(d, 1, group) for d, group in shots.items()]
        s.phase, s.player = "movement", mover.player
        for d, _, what in sorted(events, key=lambda e: (e[0], e[1])):
            self._place(mover, point_along(a, b, d))
            if isinstance(what, Template):
                what.attacked.append(mover.id)
                self.emit("artillery", f"{mover.name} runs into {what.owner}'s template")
                self._artillery_attack(mover, what.owner)
            else:
                self._volleys(mover, what, overwatch=True)
            if not mover.alive:
                break
        if mover.alive:
            self._place(mover, b)
        s.leg = {}

    def _embark(self, ifv: Stand, inf: Stand) -> None:
        ifv.mp_spent += tables().embark_mp
        ifv.carrying, inf.carried_by = inf.id, ifv.id
        inf.overwatch = False
        self._place(ifv, ifv.at)
        self.emit("carry", f"{ifv.name} picks up {inf.name} (2 MP)")

    def _debark(self, ifv: Stand, at: Point) -> None:
        assert ifv.carrying is not None
        inf = self.state.stands[ifv.carrying]
        ifv.mp_spent += tables().debark_mp
        ifv.carrying, inf.carried_by = None, None
        inf.x, inf.y, inf.facing = at[0], at[1], ifv.facing
        inf.mp_lost += tables().debark_infantry_mp_loss
        self.emit("carry", f"{ifv.name} drops off {inf.name} at {at[0]:g},{at[1]:g} (2 MP)")

    # fire
    def _volleys(self, target: Stand, shots: list[Shot], *, overwatch: bool = False) -> None:
        s = self.state
        volleys = []
        for shot in shots:
            firer = s.stands[shot.firer]
            if not firer.alive:
                self.emit("fire", f"{firer.name} is gone; its fire is lost")
                continue
            result = plan(self.field, firer, shot.weapon, target, overwatch=overwatch)
            if isinstance(result, str):
                self.emit("fire", f"{firer.name} {shot.weapon}: {result}; the fire is lost")
                continue
            if not overwatch:
                firer.attacks.append(shot.weapon)
            volleys.append(Volley(firer, shot.weapon, firer.at, result))
        resolve_volleys(
            self,
            target,
            volleys,
            in_difficult=self.field.in_difficult(target.at),
            check=self._fire_check,
            destroy=self._eliminate,
        )

    def _resolve_group(self, target_id: str) -> None:
        s = self.state
        shots = s.groups.pop(target_id)
        s.resolved.append(target_id)
        self._volleys(s.stands[target_id], shots)

    def _fire_check(self, stand: Stand, why: str, modifiers: tuple[Modifier, ...]) -> bool:
        """A quality check from enemy fire: at most one per turn; passing ignores the rest."""
        if stand.fire_checked:
            self.emit(
                "check",
                f"{stand.name} has taken its check from enemy fire this turn: {why} ignored",
            )
            return True
        stand.fire_checked = True
        return self._stand_check(stand, why, modifiers)

    def _stand_check(self, stand: Stand, why: str, modifiers: tuple[Modifier, ...] = ()) -> bool:
        mods = modifiers + (() if stand.cohesive else (OUT_OF_COHESION,))
        quality = forces().sides[stand.profile.side].quality
        if quality_check(self, f"{stand.name} ({why})", quality, mods).success:
            return True
        self._eliminate(stand, f"fails its quality check ({why})")
        return False

    def _eliminate(self, stand: Stand, why: str) -> None:
        s = self.state
        stand.alive = False
        stand.overwatch = False
        s.units[stand.unit].lost_this_turn += 1
        self.emit("eliminated", f"{stand.name} {why}")
        if stand.carrying is not None:
            passenger = s.stands[stand.carrying]
            stand.carrying, passenger.carried_by = None, None
            passenger.x, passenger.y = stand.x, stand.y
            self._stand_check(passenger, f"its IFV {stand.id} was destroyed")

    def _end_phase(self) -> None:
        s = self.state
        if s.phase == "artillery":
            self._start_movement()
        elif s.phase == "movement":
            for stand in s.side_stands(s.mover):
                stand.cohesive = stand.began_in_cohesion and in_cohesion(s, stand)
                if stand.carrying is not None:
                    s.stands[stand.carrying].cohesive = stand.cohesive
            for stand in s.side_stands(s.enemy(s.mover)):
                stand.overwatch = False
            s.phase = "fire"
            self.emit("phase", f"{s.mover}'s fire phase")
        else:
            for target in list(s.groups):
                self._resolve_group(target)
            s.resolved = []
            self._casualty_checks()
            if s.phase == "over":
                return
            if s.half == 0:
                s.half = 1
                self._start_half()
            else:
                self._end_turn()

    def _casualty_checks(self) -> None:
        """Quality Checks: a unit checks when it first loses 2/3 of its stands (round up),
        then in any later turn in which it loses one or more; at most once a turn; one roll
        for the whole unit, each stand reading it with its own cohesion."""
        s = self.state
        for unit in s.units.values():
            alive = s.unit_stands(unit.id)
            if not alive or not unit.lost_this_turn or unit.checked_turn == s.turn:
                continue
            lost = len(unit.stands) - len(alive)
            if unit.broken_turn is None:
                if lost < math.ceil(2 * len(unit.stands) / 3):
                    continue
                unit.broken_turn = s.turn
            elif unit.broken_turn == s.turn:
                continue
            unit.checked_turn = s.turn
            quality = forces().sides[alive[0].profile.side].quality
            roll = quality_check(self, f"unit {unit.id} casualties ({lost} stands lost)", quality)
            for stand in alive:
                mods = () if stand.cohesive else (OUT_OF_COHESION,)
                if not passes(roll.total, quality, mods):
                    self._eliminate(stand, "fails the unit's casualty check")

    def _end_turn(self) -> None:
        s = self.state
        for n, objective in enumerate(self.spec.objectives, start=1):
            who = victory.holder(s, objective)
            if who:
                s.held[str(n)] = who
            else:
                s.held.pop(str(n), None)
        broken = [p for p in PLAYERS if victory.broken(s, p)]
        if len(broken) == 2:
            self._over(None, "both forces are broken (2/3 of their stands lost)")
        elif broken:
            winner = "blue" if broken[0] == "red" else "red"
            self._over(winner, f"{broken[0]} is broken: 2/3 of its stands lost")
        elif s.turn >= self.spec.turns:
            self._final_result()
        else:
            self._start_turn(s.turn + 1)

    def _final_result(self) -> None:
        s = self.state
        held = {p: sum(1 for h in s.held.values() if h == p) for p in PLAYERS}
        if self.spec.victory == "attack":
            attacker = self.spec.attacker
            assert attacker is not None
            defender = "blue" if attacker == "red" else "red"
            if held[attacker] > held[defender]:
                self._over(
                    attacker,
                    f"the attacker holds {counted(held[attacker], 'objective')} "
                    f"to {held[defender]}",
                )
            else:
                self._over(
                    defender, f"the defender is not outheld ({held[defender]} to {held[attacker]})"
                )
            return
        if held["red"] != held["blue"]:
            winner = "red" if held["red"] > held["blue"] else "blue"
            self._over(
                winner, f"{winner} holds more objectives (red {held['red']}, blue {held['blue']})"
            )
            return
        share = {p: victory.share_destroyed(s, p) for p in PLAYERS}
        if share["red"] != share["blue"]:
            winner = "red" if share["red"] > share["blue"] else "blue"
            self._over(winner, f"objectives even; {winner} destroyed a larger share of the enemy")
        else:
            self._over(None, "objectives and losses even")

    def _check_wipe_out(self) -> None:
        s = self.state
        if s.phase == "over" or s.turn == 0:
            return
        left: set[str] = set()  # one pass, stopping once both sides have a stand alive
        for x in s.stands.values():
            if x.alive and x.player not in left:
                left.add(x.player)
                if len(left) == len(PLAYERS):
                    return
        gone = [p for p in PLAYERS if p not in left]
        if len(gone) == 2:
            self._over(None, "both forces are gone")
        elif gone:
            self._over("blue" if gone[0] == "red" else "red", f"{gone[0]} has no stands left")

    def _over(self, winner: str | None, reason: str) -> None:
        s = self.state
        s.phase, s.winner, s.reason = "over", winner, reason
        s.score = {p: float(sum(1 for h in s.held.values() if h == p)) for p in PLAYERS} | {
            f"{p} lost": float(victory.lost(s, p)) for p in PLAYERS
        }
        self.emit("over", f"game over: {reason}")

    # -- state -------------------------------------------------------------------------
    def apply(self, action: Action, player: str | None = None) -> list[Event]:
        """`Game.apply`, telling `_snapshot` which action it is taken for."""
        self._applying = action
        try:
            return super().apply(action, player)
        finally:
            self._applying = None

    def _snapshot(self) -> object:
        """The state before an action (`State.freeze`): of the stands only those the action
        can change, when `_touched` names them; all of them for a fork."""
        only = None if self._applying is None else self._touched(self._applying)
        return self.state.freeze(only), only is not None

    def _touched(self, action: Action) -> list[Stand] | None:
        """The only stands the legal `action` can change, or None when it may change any. A
        declaration changes none; a marker or a facing its stand; a debark the IFV and its
        passenger; a move its stand and passenger when no template can attack it on the
        way (no overwatch fire is resolved with the move itself: `_start_leg`)."""
        s = self.state
        if type(action) is Fire:
            return []
        if type(action) is Overwatch or type(action) is Face:
            return [s.stands[action.stand]]
        if type(action) is Debark:
            ifv = s.stands[action.ifv]
            return [ifv] if ifv.carrying is None else [ifv, s.stands[ifv.carrying]]
        if type(action) is Resolve:
            target = s.stands[action.target]
            out = [s.stands[shot.firer] for shot in s.groups[action.target]]
            out.append(target)
            return out if target.carrying is None else [*out, s.stands[target.carrying]]
        if type(action) is Move or type(action) is Strategic:
            mover = s.stands[action.stand]
            reach = artillery.radius() + mover.radius
            if all(
                mover.id in t.attacked or first_within(mover.at, action.to, t.at, reach) is None
                for t in s.templates
            ):
                return [mover] if mover.carrying is None else [mover, s.stands[mover.carrying]]
        return None

    def _restore(self, snapshot: object) -> None:
        frozen, partial = cast(tuple[Frozen, bool], snapshot)
        self.state = thaw(frozen, self.state.stands if partial else None)

    def state_data(self) -> dict[str, Any]:
        s = self.state
        return {
            "phase": s.phase,
            "player": s.player,
            "order": list(s.order),
            "turn": s.turn,
            "half": s.half,
            "templates": [[t.owner, t.x, t.y, t.attacked] for t in s.templates],
            "templates_left": s.templates_left,
            "groups": {k: [[x.firer, x.weapon] for x in v] for k, v in s.groups.items()},
            "resolved": s.resolved,
            "leg": s.leg,
            "held": s.held,
            "stands": {
                x.id: [
                    x.unit,
                    x.player,
                    x.profile.name,
                    round(x.x, 6),
                    round(x.y, 6),
                    round(x.facing, 6),
                    x.alive,
                    x.deployed,
                    x.carried_by,
                    x.carrying,
                    x.suppressed_by,
                    x.overwatch,
                    round(x.mp_spent, 6),
                    x.mp_lost,
                    x.strategic,
                    x.attacks,
                    x.fire_checked,
                    x.artillery_checked,
                    x.cohesive,
                    x.began_in_cohesion,
                ]
                for x in s.stands.values()
            },
            "units": {
                u.id: [u.lost_this_turn, u.broken_turn, u.checked_turn] for u in s.units.values()
            },
            "winner": s.winner,
            "reason": s.reason,
        }
