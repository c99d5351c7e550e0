"""DEVELOPMENT OF A TURN: 2D6 initiative, the winner decides who moves first; three phases,
each with light firing, movement (opportunity fire in the middle of it), general firing, hand
to hand and healing; the end of the game. Before the first turn: the GAME STEPS of setting
up, with the secret deployment behind the screen.

The flow is a state machine on `State.stage`. Opportunity fire, a charged figure's answer and
the defender's choice of which attacker takes its wound are decisions of the player the rules
ask, in the middle of the other side's action.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from warbench.core.actions import Action
from warbench.core.dice import DiceSource, Read, RollRequest
from warbench.core.events import Event
from warbench.core.game import Decision, Game, GameOver, Pending
from warbench.core.words import counted, noun
from warbench.rulesets.fftt import (
    composition,
    hand_to_hand,
    movement,
    setup,
    shooting,
    victory,
    wounds,
)
from warbench.rulesets.fftt.actions import (
    CODEC,
    Answer,
    CallSupport,
    Charge,
    ChooseSide,
    ChooseTable,
    Climb,
    Compose,
    Deploy,
    Done,
    Eat,
    Enter,
    Explode,
    Fight,
    First,
    Heal,
    Hold,
    Lay,
    Lob,
    Move,
    OpportunityFire,
    PlacePiece,
    PlaceScenery,
    Shoot,
    Surrender,
    WoundAttacker,
    WriteForce,
    WriteForceSwapped,
)
from warbench.rulesets.fftt.profiles import forces, tables
from warbench.rulesets.fftt.reach import reach_points
from warbench.rulesets.fftt.scenario import SIDES, ForceSpec, Scenario
from warbench.rulesets.fftt.sight import bearing, can_see, in_arc
from warbench.rulesets.fftt.state import (
    DOC,
    LUCKY_BASTARD,
    STORM_BRINGER,
    Egg,
    Fig,
    Melee,
    Saved,
    State,
    other,
)
from warbench.rulesets.fftt.table import (
    KEPT,
    Point,
    Points,
    Table,
    dist,
    rounded,
    rows,
    segment_distance,
)

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset

ALLOWED: dict[str, tuple[type[Action], ...]] = {
    "table": (ChooseTable,),
    "scenery": (PlaceScenery, PlacePiece, Done),
    "side": (ChooseSide,),
    "force": (WriteForce, WriteForceSwapped, Compose),
    "deploy": (Deploy,),
    "first": (First,),
    "enter": (Enter,),
    "light": (Shoot, Lob, Done),
    "move": (Move, Climb, Charge, Heal, Eat, Lay, Explode, Done),
    "opfire": (OpportunityFire, Hold),
    "general": (Shoot, Lob, CallSupport, Explode, Done),
    "answer": (Answer, Fight),
    "allocate": (WoundAttacker,),
}
PROMPTS = {
    "table": "you are the attacker: choose the table size",
    "scenery": "you are the defender: place the scenery",
    "side": "you are the attacker: choose the side to deploy on",
    "force": (
        "write down your force secretly: one of your lists (force NUMBER RACE), its flanking "
        "forces by the other flanks (force-swap NUMBER RACE), or, if the battle allows, your own "
        "(compose RACE FIGURES WEST EAST)"
    ),
    "deploy": "deploy your figures behind the screen",
    "first": "you have the initiative: decide who moves first",
    "enter": "your forces in hidden movement arrive: place them on their flank",
    "light": "light firing (figures with 3 or more actions), or done",
    "move": "move your figures and heal the injured, or done",
    "opfire": "an enemy figure is moving: opportunity fire, or hold",
    "general": "general firing (simultaneous), or done",
    "answer": "your figure is charged: shoot the attacker instead of fighting, or fight",
    "allocate": "your defender beat several attackers: choose who takes its wound",
}
CLOSE = 2.0  # OURS: a queen eats a corpse within 2 cm of her base
WAYS = [(math.sin(math.radians(a)), math.cos(math.radians(a))) for a in range(0, 360, 45)]
WAY_ROWS = np.array(WAYS, dtype=float)  # the same, for the compiled `reach_points`
PATH_SLACK = 0.05  # more than a path point's rounding (0.01 cm) takes it off its line
Movers = dict[str, Callable[[Point], bool] | None]  # a figure's test of destinations, if free


@dataclass
class Reach:
    """A figure's moves from one place (`FFTTGame._reach`): their destinations and, once
    asked for, the points half way (`FFTTGame._half`) in the same order, both as rows, and
    the moves themselves (an agent that weighs moves best first needs only the points)."""

    figure: str
    tos: list[Point]
    halves: list[Point] | None = None
    points: Points | None = None
    actions: tuple[Move, ...] | None = None
    forms: list[tuple[Move, Move]] | None = None

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves."""
        if self.actions is None:
            self.actions = tuple(Move(self.figure, to) for to in self.tos)
        return self.actions

    def halfway(self, fig: Fig) -> list[Point]:
        """The point half way to each destination, `fig` standing at this reach's place."""
        if self.halves is None:
            x, y = fig.x, fig.y
            self.halves = [(rounded((x + a) / 2, 1), rounded((y + b) / 2, 1)) for a, b in self.tos]
        return self.halves

    def spots(self, fig: Fig) -> Points:
        """The destinations, then the points half way, as rows x, y."""
        if self.points is None:
            self.points = rows(self.tos + self.halfway(fig))
        return self.points

    def paired(self, fig: Fig) -> list[tuple[Move, Move]]:
        """Each move with its half, `fig` standing at the place of this reach."""
        if self.forms is None:
            fid = self.figure
            halves = self.halfway(fig)
            self.forms = [(a, Move(fid, h)) for a, h in zip(self.moves, halves, strict=True)]
        return self.forms


class FFTTGame(Game):
    """One FFTT battle."""

    codec = CODEC

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
        self._legal_cache: tuple[tuple[object, ...], list[Action]] = ((), [])
        self._opfire_kept: tuple[tuple[object, ...], list[tuple[str, int]]] = ((), [])
        self._aimed: tuple[tuple[object, ...], dict[str, tuple[bool, bool]]] = ((), {})
        self._asked: tuple[tuple[object, ...], Decision | None] = ((), None)
        self._reaches: tuple[Table | None, dict[tuple[object, ...], Reach]] = (None, {})
        # a side with one list has written it, unless it may compose its own (R54); one with
        # more writes at the `force` step (R52)
        written = {
            side: spec.forces[side]
            for side in SIDES
            if len(spec.lists(side)) == 1 and not spec.compose
        }
        figs, flanks = setup.figures(written)
        attacker = setup.attacker(self)
        self.state = State(
            stage="table",
            player=attacker,
            attacker=attacker,
            table=Table(0.0, 0.0, ()),
            figs=figs,
            flanks=flanks,
            races={side: written[side].race if side in written else "" for side in SIDES},
            experience=spec.optional.experience,
        )
        self.emit("setup", f"{attacker} is the attacker")
        for side, force in written.items():
            self._general(side, force)
        self.start()

    def _general(self, side: str, force: ForceSpec) -> None:
        """The general's special abilities chart (a scenario switch): 2D6 for a general not
        given one; the owner alone learns it."""
        general = force.general
        if not self.spec.optional.generals or general is None:
            return
        fig = self.state.figs[setup.figure_id(side, general.figure + 1)]
        only = frozenset({side})
        ability = general.ability
        if ability is None:
            ability = self.roll(RollRequest(f"{side}'s general's ability", dice=2), only).total
        fig.ability = ability
        names = tables().general_abilities
        self.emit("general", f"{general.name} ({fig.id}) is a {names[ability]}", only)

    # -- decisions ----------------------------------------------------------------------
    @property
    def pending(self) -> Pending:
        """The decision, kept for its stage, player, turn and phase (all it says; it is asked
        for some 1,000 times a battle, by the check, `apply` and the agents)."""
        s = self.state
        if s.stage == "over":
            return GameOver(s.winner, s.reason, dict(s.score))
        key = (s.stage, s.player, s.turn, s.phase)
        kept, decision = self._asked
        if decision is None or kept != key:
            where = f"turn {s.turn}, phase {s.phase}: " if s.turn else ""
            decision = Decision(s.player, s.stage, f"{s.player}, {where}{PROMPTS[s.stage]}")
            self._asked = (key, decision)
        return decision

    def legal_actions(self, player: str) -> list[Action]:
        """Every discrete action and a sample of the continuous ones, each legal; `surrender`
        last, as it is legal at every decision (R44, R47)."""
        s = self.state
        if s.stage == "over" or player != s.player:
            return []
        key = (len(self.steps), player, id(self.state))
        if self._legal_cache[0] != key:
            self._legal_cache = (key, list(self._options(player)))
        return [*self._legal_cache[1], Surrender()]

    def candidates(self, player: str) -> list[Action]:
        """Every action `legal_actions` would test now, untested (none for a player not
        deciding): for an agent that scores them first and tests (`check`) only those it
        would choose, best first."""
        s = self.state
        if s.stage == "over" or player != s.player:
            return []
        return self._candidates(player)

    def apply(self, action: Action, player: str | None = None) -> list[Event]:
        """As `Game.apply`; forgets the legal actions it had listed."""
        self._legal_cache = ((), [])
        return super().apply(action, player)

    def _options(self, player: str) -> Iterator[Action]:
        """The legal actions one by one: each candidate that passes `_illegal` (for moves the
        figure's own part of that test is done once); a move blocked at full reach is tried
        at half reach."""
        s = self.state
        if s.stage == "opfire":  # `opfire_options` are the legal shots: no test per candidate
            yield from self._candidates(player)
            return
        near: Movers = {}
        for a in self._candidates(player):
            legal = self._legal_form(a, player, near)
            if legal is not None:
                yield legal

    def _legal_form(self, a: Action, player: str, near: Movers) -> Action | None:
        """The candidate if it passes `_illegal`, for a move blocked at full reach the move at
        half reach if that passes, else None. A move's figure is tested once, into `near`
        (its test of destinations, None if it may not move at all)."""
        s = self.state
        if not (isinstance(a, Move) and s.stage == "move"):
            return a if self._illegal(a, player) is None else None
        fig = s.figs[a.figure]
        if a.figure not in near:
            free = movement.mover_problem(s, fig) is None
            near[a.figure] = movement.route_tester(s, fig) if free else None
        clear = near[a.figure]
        if clear is None:
            return None
        if clear(a.to):
            return a
        half = Move(a.figure, self._half(fig, a.to))
        return half if clear(half.to) else None

    def figure_options(
        self,
        figures: Iterable[str],
        kinds: tuple[type[Action], ...],
        keep: Callable[[Action], bool] | None = None,
        sides: tuple[list[Fig], list[Fig]] | None = None,
    ) -> list[Action]:
        """The legal actions of `kinds` of these figures of the deciding player in the
        deployment or the movement step, in the order `legal_actions` lists them: for an
        agent that weighs only some actions (the same legality tests as `legal_actions`).
        In the movement step, candidates `keep` refuses are left out untested, and so are
        the charges and climbs of a figure that may not move (`mover_problem`, which both
        tests come to) or, for charges, fights hand to hand (`route_problem`): tested once
        a figure, not once a candidate; its other charges by `movement.charge_open`.
        `sides`: the player's figures on the table and the enemy's, if the caller has them
        (`State.side_figs` of each)."""
        s = self.state
        wanted = set(figures)
        if s.stage == "deploy":
            if not issubclass(Deploy, kinds):
                return []
            # `_illegal`'s test of a deployment, but for what these figures pass already (its
            # own reserve figure), with the figures on the table it looks at (behind the
            # screen the player's own: `movement._base_problem` passes over the enemy's)
            placed = [f for f in s.table_figs() if s.revealed or f.side == s.player]
            return [
                a
                for fig in s.figs.values()
                if fig.id in wanted and fig.side == s.player and fig.where == "reserve"
                for a in self._deploy_spots(fig)
                if movement.deploy_problem(s, fig, a.at, placed) is None
            ]
        if s.stage != "move":
            return []
        mine, enemies = sides or (s.side_figs(s.player), s.side_figs(other(s.player)))
        moves = any(issubclass(Move, k) for k in kinds)
        near: Movers = {}
        found: list[Action] = []
        for fig in mine:
            if fig.id not in wanted:
                continue
            if kinds == (Move,) and not self.heals(fig):  # its moves are all in its reach
                found += self._reach_options(fig)
                continue
            held: tuple[type[Action], ...] | None = None  # what the figure may not do at all
            for a in self._figure_candidates(fig, mine, enemies, moves=moves):
                if isinstance(a, kinds) and (keep is None or keep(a)):
                    if isinstance(a, Charge | Climb):
                        if held is None:
                            held = (
                                (Charge, Climb)
                                if movement.mover_problem(s, fig) is not None
                                else (Charge,)
                                if shooting.engaged(s, fig)
                                else ()
                            )
                        if isinstance(a, held):
                            continue
                    if isinstance(a, Charge):  # `_illegal`'s test, `held` passed
                        if movement.charge_open(s, fig, s.figs[a.target], mine + enemies):
                            found.append(a)
                        continue
                    legal = self._legal_form(a, s.player, near)
                    if legal is not None:
                        found.append(legal)
        return found

    def _candidates(self, player: str) -> list[Action]:
        s = self.state
        stage = s.stage
        if stage == "table":
            return [ChooseTable(w, d) for w in tables().table_sizes for d in tables().table_sizes]
        if stage == "scenery":
            if self.spec.scenery == "generated":
                return [PlaceScenery()]
            done: list[Action] = [] if setup.empty_zones(s.table) else [Done()]
            return done + list(setup.placement_samples(s.table))
        if stage == "side":
            return [ChooseSide("south"), ChooseSide("north")]
        if stage == "force":
            lists = self.spec.lists(player)
            return [WriteForce(n, force.race) for n, force in enumerate(lists, start=1)]
        if stage == "deploy":
            return self._deploy_candidates(player)
        if stage == "first":
            return [First("red"), First("blue")]
        if stage == "enter":
            return self._enter_candidates()
        if stage == "opfire":
            return [Hold(), *(OpportunityFire(f, k) for f, k in self.opfire_options())]
        if stage == "answer":
            melee = s.melees[s.melee_at]
            return [Fight(), *(Answer(a) for a in melee.attackers)]
        if stage == "allocate":
            return [WoundAttacker(a) for a in dict.fromkeys(b[0] for b in s.allocation["beaten"])]
        acts: list[Action] = [Done()]
        mine = s.side_figs(player)
        enemies = s.side_figs(other(player))
        if stage in ("light", "general"):
            for fig in mine:  # only candidates `_illegal` could pass (`fire_problem`)
                prof = fig.prof
                if fig.ap < 1 or (stage == "light" and (fig.ap < 3 or fig.light_shot)):
                    continue
                if prof.armed and not fig.out_of_ammo and not shooting.engaged(s, fig):
                    at = (fig.x, fig.y)
                    for e in enemies:
                        if dist(at, (e.x, e.y)) > prof.long:
                            continue
                        acts.append(Shoot(fig.id, e.id))
                        if prof.indirect:
                            acts.append(Lob(fig.id, e.id))
                if stage == "general":
                    if prof.bomb:
                        acts.append(Explode(fig.id))
                    if self.spec.optional.artillery or fig.ability == STORM_BRINGER:
                        acts += [CallSupport(fig.id, e.id) for e in enemies]
            return acts
        for fig in mine:  # the movement step
            acts += self._figure_candidates(fig, mine, enemies)
        return acts

    def _figure_candidates(
        self, fig: Fig, mine: list[Fig], enemies: list[Fig], *, moves: bool = True
    ) -> list[Action]:
        """One figure's candidates in the movement step (`mine`: its side on the table), its
        moves left out if not `moves`."""
        s = self.state
        if fig.ap < 1:
            return []
        acts: list[Action] = []
        if self.heals(fig):
            hurt = [f for f in mine if f.wounds and f is not fig]
            acts += [Heal(fig.id, f.id) for f in hurt]
            if moves:
                acts += [Move(fig.id, movement.charge_point(fig, f)) for f in hurt]
        if fig.prof.queen:
            acts += [Eat(fig.id), Lay(fig.id)]
        if fig.prof.bomb:
            acts.append(Explode(fig.id))
        x, y = fig.x, fig.y  # (a distance under 20 cm is so along each axis too)
        at = (x, y)
        acts += [
            Charge(fig.id, e.id)
            for e in enemies
            if abs(e.x - x) < 20 and abs(e.y - y) < 20 and dist((e.x, e.y), at) < 20
        ]
        if movement.stuck(s, fig):
            return acts
        if s.table.building_at(fig.pos) is not None:
            acts.append(Climb(fig.id))
        if not moves:
            return acts
        return acts + list(self._reach(fig).moves)

    def _reach_options(self, fig: Fig) -> list[Action]:
        """The legal forms of a figure's `_reach` moves (all its moves if it heals no one),
        as `_legal_form` gives them, without its dispatch: a decision lists some 60."""
        s = self.state
        if movement.mover_problem(s, fig) is not None:
            return []
        clear = movement.route_tester(s, fig)
        found: list[Action] = []
        for a, half in self._reach(fig).paired(fig):
            if clear(a.to):
                found.append(a)
            elif clear(half.to):
                found.append(half)
        return found

    def move_forms(self, fig: Fig) -> list[tuple[Move, Move]]:
        """The moves `figure_options(..., (Move,))` tests for `fig` in the movement step, in
        its order and untested, each with its form at half reach (tried when the move is
        blocked at full reach); none if the figure may not move. Test them with
        `move_tester`: an agent that weighs moves best first tests only a few."""
        s = self.state
        if movement.mover_problem(s, fig) is not None:
            return []
        forms = self._reach(fig).paired(fig)
        if not self.heals(fig):
            return forms
        to_heal = [
            Move(fig.id, movement.charge_point(fig, f))
            for f in s.side_figs(fig.side)
            if f.wounds and f is not fig
        ]
        return [(a, Move(fig.id, self._half(fig, a.to))) for a in to_heal] + forms

    def move_points(self, fig: Fig) -> tuple[list[Point], list[Point], Points] | None:
        """The destinations of `move_forms(fig)`, in its order: each move's, each half's,
        and both as rows x, y (the moves', then the halves'); None if the figure may not
        move. Kept per place as `_reach` keeps them (for a figure that heals no one)."""
        s = self.state
        if movement.mover_problem(s, fig) is not None:
            return None
        reach = self._reach(fig)
        to_heal = (
            [
                movement.charge_point(fig, f)
                for f in s.side_figs(fig.side)
                if f.wounds and f is not fig
            ]
            if self.heals(fig)
            else []
        )
        if not to_heal:
            return reach.tos, reach.halfway(fig), reach.spots(fig)
        tos = to_heal + reach.tos
        halves = [self._half(fig, p) for p in to_heal] + reach.halfway(fig)
        return tos, halves, rows(tos + halves)

    def move_tester(self, fig: Fig, *, few: bool = False) -> Callable[[Point], bool]:
        """The legality test of `fig`'s destinations (`movement.route_tester`, for `few`
        tests or many) for a figure `move_forms` offers moves, its reach's destinations and
        half-way points given (asked for at a new place only)."""

        def spots() -> tuple[list[Point], Points]:
            reach = self._reach(fig)
            return reach.tos + reach.halfway(fig), reach.spots(fig)

        return movement.route_tester(self.state, fig, spots, few=few)

    def _reach(self, fig: Fig) -> Reach:
        """A figure's moves to the points by the openings and wrecks within its reach, then
        eight ways as far as one action and all its actions go; remembered per place (a
        figure stands still while others move)."""
        s = self.state
        table, kept = self._reaches
        if table is not s.table:
            kept = {}
            self._reaches = (s.table, kept)
        key = (fig.id, fig.x, fig.y, fig.pace, fig.ap, fig.level)
        found = kept.get(key)
        if found is not None:
            return found
        if len(kept) >= KEPT:
            kept.clear()
        points = reach_points(fig.x, fig.y, fig.pace, fig.ap, s.table.portal_rows, WAY_ROWS)
        if points is None:
            found = kept[key] = Reach(fig.id, self._reach_tos(fig))
            return found
        n = len(points) // 2
        both = list(zip(points[:, 0].tolist(), points[:, 1].tolist(), strict=True))
        found = kept[key] = Reach(fig.id, both[:n], both[n:], points)
        return found

    def _reach_tos(self, fig: Fig) -> list[Point]:
        """`_reach`'s destinations in Python: what `reach.reach_points` works out compiled,
        for the figures it leaves to Python."""
        reach_all = fig.pace * fig.ap
        at = (fig.x, fig.y)
        tos = [
            (rounded(p[0], 1), rounded(p[1], 1))
            for p in self.state.table.portals
            if dist(p, at) <= reach_all
        ]
        reaches = [fig.pace] + ([fig.pace * fig.ap] if fig.ap > 1 else [])
        for sin, cos in WAYS:
            for reach in reaches:
                tos.append((rounded(fig.x + reach * sin, 1), rounded(fig.y + reach * cos, 1)))
        return tos

    @staticmethod
    def _half(fig: Fig, to: Point) -> Point:
        """The point half way to `to`, to 0.1 cm: where a move blocked at full reach is
        tried."""
        return (rounded((fig.x + to[0]) / 2, 1), rounded((fig.y + to[1]) / 2, 1))

    def _deploy_candidates(self, player: str) -> list[Action]:
        s = self.state
        return [
            a
            for fig in s.figs.values()
            if fig.side == player and fig.where == "reserve"
            for a in self._deploy_spots(fig)
        ]

    def _deploy_spots(self, fig: Fig) -> list[Deploy]:
        """One figure's candidates for deployment: 8 across its zone, 2 deep."""
        s = self.state
        depth = s.table.zone_depth
        north = s.edge(fig.side) == "north"
        acts: list[Deploy] = []
        for i in range(8):
            x = rounded(s.table.width * (i + 0.5) / 8, 1)
            for j in (0.3, 0.7):
                y = rounded(s.table.depth - depth * j if north else depth * j, 1)
                acts.append(Deploy(fig.id, (x, y)))
        return acts

    def _enter_candidates(self) -> list[Action]:
        s = self.state
        acts: list[Action] = []
        for fid in s.to_enter:
            fig = s.figs[fid]
            flank = s.flanks[fig.flank or 0].flank
            for x_in in (2.5, 7.5):
                x = x_in if flank == "west" else s.table.width - x_in
                for i in range(10):
                    y = rounded(s.table.depth * (i + 0.5) / 10, 1)
                    acts.append(Enter(fid, (x, y)))
            depth = s.table.zone_depth
            y = depth / 2 if s.edge(fig.side) == "south" else s.table.depth - depth / 2
            for i in range(5):
                acts.append(Enter(fid, (rounded(s.table.width * (i + 0.5) / 5, 1), y)))
        return acts

    # -- legality -------------------------------------------------------------------------
    def _mine(self, fid: str, player: str) -> Fig | str:
        """The player's figure on the table with this id, or why not."""
        fig = self.state.figs.get(fid)
        if fig is None or fig.side != player or fig.where != "table":
            yours = ", ".join(f.id for f in self.state.side_figs(player)) or "none"
            return f"'{fid}' is not one of your figures on the table; yours: {yours}"
        return fig

    def _enemy(self, fid: str, player: str) -> Fig | None:
        """An enemy figure the player can know of (on the table), or None."""
        fig = self.state.figs.get(fid)
        if fig is None or fig.side == player or fig.where != "table":
            return None
        return fig

    def allowed_now(self) -> tuple[type[Action], ...]:
        """The stage's actions, and Surrender (END OF THE GAME: '... or surrender', at any of
        the player's decisions)."""
        return (*ALLOWED[self.state.stage], Surrender)

    def _illegal(self, action: Action, player: str) -> str | None:
        s = self.state
        if isinstance(action, Surrender):
            return None
        allowed = self.allowed_now()
        if not isinstance(action, allowed):
            forms = ", ".join(CODEC.form(c) for c in allowed)
            return f"now is the {s.stage} step; allowed: {forms}"
        if isinstance(action, ChooseTable):
            sizes = tables().table_sizes
            if action.width not in sizes or action.depth not in sizes:
                return (
                    f"each side of the table is one of {', '.join(map(str, sizes))} cm, "
                    f"not {action.width} by {action.depth}"
                )
            return None
        if isinstance(action, ChooseSide):
            if action.edge in ("south", "north"):
                return None
            return f"'{action.edge}' is not a side to deploy on; choose south or north"
        if isinstance(action, WriteForce | WriteForceSwapped | Compose):
            force = composition.written(self.spec, player, action)
            return force if isinstance(force, str) else None
        if isinstance(action, First):
            if action.player in ("red", "blue"):
                return None
            return f"'{action.player}' is not a player; choose red or blue to move first"
        if isinstance(action, Deploy):
            fig = s.figs.get(action.figure)
            if fig is None or fig.side != player or fig.where != "reserve":
                waiting = [
                    f.id for f in s.figs.values() if f.side == player and f.where == "reserve"
                ]
                return (
                    f"'{action.figure}' is not a figure of yours to deploy; "
                    f"still to deploy: {', '.join(waiting)}"
                )
            return movement.deploy_problem(s, fig, action.at)
        if isinstance(action, Enter):
            if action.figure not in s.to_enter:
                return f"'{action.figure}' is not entering now; entering: {', '.join(s.to_enter)}"
            fig = s.figs[action.figure]
            return movement.enter_problem(s, fig, action.at, s.flanks[fig.flank or 0].flank)
        if isinstance(action, OpportunityFire):
            if (action.figure, action.at) in self.opfire_options():
                return None
            return (
                f"{action.figure} cannot fire at the mover at path point {action.at}: opportunity "
                "fire needs 2 actions, sight, range and the mover in its 180° arc (not snipers "
                "or missile tanks)"
            )
        if isinstance(action, Answer):
            return self._answer_problem(action.attacker)
        if isinstance(action, WoundAttacker):
            if action.attacker not in {b[0] for b in s.allocation["beaten"]}:
                names = sorted({b[0] for b in s.allocation["beaten"]})
                return f"choose one of the beaten attackers: {', '.join(names)}"
            return None
        if s.stage == "scenery":
            return self._scenery_problem(action)
        if isinstance(action, Done | Hold | Fight):
            return None
        return self._figure_problem(action, player)

    def _figure_problem(self, action: Action, player: str) -> str | None:
        s = self.state
        fid = getattr(action, "figure", None) or getattr(action, "healer", None)
        fid = fid or getattr(action, "queen", None) or getattr(action, "bug", None)
        fig = self._mine(str(fid), player)
        if isinstance(fig, str):
            return fig
        if isinstance(action, Shoot | Lob):
            indirect = isinstance(action, Lob)
            if s.stage == "light":
                if fig.light_shot:
                    return f"{fig.id} has fired in this light firing phase"
                if fig.ap < 3:
                    return (
                        "only figures with 3 or more actions fire in the light firing phase; "
                        f"{fig.id} has {fig.ap}"
                    )
            return shooting.fire_problem(
                s, fig, self._enemy(action.target, player), indirect=indirect
            )
        if isinstance(action, CallSupport):
            return self._support_problem(fig, self._enemy(action.target, player))
        if isinstance(action, Move):
            return movement.move_problem(s, fig, action.to)
        if isinstance(action, Climb):
            return movement.climb_problem(s, fig)
        if isinstance(action, Charge):
            return movement.charge_problem(s, fig, self._enemy(action.target, player))
        if isinstance(action, Heal):
            return self._heal_problem(fig, action.target)
        if isinstance(action, Eat | Lay):
            if not fig.prof.queen:
                return f"only the queen eats corpses and lays eggs; {fig.id} is a {fig.prof.name}"
            if fig.ap < 1:
                return f"{fig.id} has no action points left this phase"
            if isinstance(action, Eat):
                if not any(dist(fig.pos, (c.x, c.y)) <= fig.radius + CLOSE for c in s.corpses):
                    return f"no corpse lies in base contact with {fig.id}"
                return None
            return None if fig.corpses > 0 else f"{fig.id} must eat a corpse for each egg"
        if isinstance(action, Explode):
            if not fig.prof.bomb:
                return f"only bomb bugs explode; {fig.id} is a {fig.prof.name}"
            return None if fig.ap >= 1 else f"{fig.id} has no action points left this phase"
        return None

    def _scenery_problem(self, action: Action) -> str | None:
        """THE GAME TABLE: scenery generated by the dice (`scenery`), or placed by the
        defender piece by piece (`piece ...`, then `done` once each zone has one)."""
        s = self.state
        if self.spec.scenery == "generated":
            if isinstance(action, PlaceScenery):
                return None
            return "this scenario's scenery is generated by the dice: scenery"
        if isinstance(action, PlaceScenery):
            return "this scenario's scenery is placed by the defender: piece KIND ..., then done"
        if isinstance(action, Done):
            empty = setup.empty_zones(s.table)
            if empty:
                zones = ", ".join(map(str, empty))
                have = f"{noun(len(empty), 'zone')} {zones} {noun(len(empty), 'has', 'have')}"
                return f"each of the six zones needs a piece; {have} none yet"
            return None
        assert isinstance(action, PlacePiece)
        return setup.place_problem(s.table, action)

    def _support_problem(self, fig: Fig, target: Fig | None) -> str | None:
        """Off-board artillery support (a switch of the scenario) or a Storm bringer's air
        support: 1 action, a weapon skill to roll, sight of the target, any range."""
        if not (self.spec.optional.artillery or fig.ability == STORM_BRINGER):
            return "off-board support is not in play (scenario optional rules) for " + fig.id
        if fig.prof.skill is None:
            return f"{fig.id} has no weapon skill to call support with"
        if fig.ap < 1:
            return f"{fig.id} has no action points left this phase"
        if target is None:
            return "the target is not an enemy figure on the table"
        if not can_see(self.state, fig, target):
            return f"{fig.id} cannot see {target.id}"
        return None

    @staticmethod
    def heals(fig: Fig) -> str | None:
        """How `fig` heals: medics heal, tanks repair; a 'Doc' general has "healing abilities
        like any medic or AI": it repairs if it is mechanical, else heals (R35)."""
        if fig.prof.heals is None and fig.ability == DOC:
            return "repair" if fig.prof.mechanical else "medic"
        return fig.prof.heals

    def _heal_problem(self, healer: Fig, target_id: str) -> str | None:
        s = self.state
        kind = self.heals(healer)
        if kind is None:
            return f"only medics and tanks heal; {healer.id} is a {healer.prof.name}"
        if healer.ap < 2:
            return f"healing costs 2 actions; {healer.id} has {healer.ap}"
        target = s.figs.get(target_id)
        if (
            target is None
            or target.side != healer.side
            or target.where != "table"
            or target is healer
        ):
            return f"'{target_id}' is not another friendly figure on the table"
        if (kind == "repair") != target.prof.mechanical:
            can = "repairs mechanical units" if kind == "repair" else "heals bio-forms"
            what = "mechanical" if target.prof.mechanical else "a bio-form"
            return f"{healer.id} {can} only (medics heal, tanks repair); {target.id} is {what}"
        if not movement.in_contact(s, healer, target):
            return f"{healer.id} must be in base contact with {target.id}"
        owed = sum(1 for h in s.heals if h[1] == target.id)
        if target.wounds - owed <= 0:
            return f"{target.id} has no wound left to heal"
        return None

    def _answer_problem(self, attacker_id: str) -> str | None:
        s = self.state
        melee = s.melees[s.melee_at]
        if attacker_id not in melee.attackers:
            return (
                f"'{attacker_id}' is not charging {melee.defender}; "
                f"attackers: {', '.join(melee.attackers)}"
            )
        defender = s.figs[melee.defender]
        return self._answer_shot_problem(defender, s.figs[attacker_id])

    def _answer_shot_problem(self, defender: Fig, attacker: Fig) -> str | None:
        prof = defender.prof
        if not prof.armed or defender.out_of_ammo:
            return f"{defender.id} has no shot to fire"
        if defender.ap < 2:
            return (
                f"the answering shot is opportunity fire: 2 actions; {defender.id} has "
                f"{defender.ap}"
            )
        if prof.no_opportunity:
            return f"{prof.name}s make no opportunity fire"
        if attacker.ability == LUCKY_BASTARD:
            return f"{attacker.id} is a lucky bastard: opportunity fire never hurts him"
        if not can_see(self.state, defender, attacker):
            return f"{defender.id} cannot see {attacker.id}"
        return None

    # -- opportunity fire -------------------------------------------------------------------
    def opfire_options(self) -> list[tuple[str, int]]:
        """(firer, path point) pairs the non-moving player may fire at the mover; remembered
        for the same move and figures on the table, the only ones it looks at (asked for by
        the move, the listing, the check and the resolution)."""
        s = self.state
        if s.stage != "opfire" and not s.moving:
            return []
        key = (
            s.table,
            s.moving["mover"],
            tuple(tuple(p) for p in s.moving["points"]),
            s.moving["next"],
            tuple(
                [(f.id, f.x, f.y, f.facing, f.ap, f.level, f.out_of_ammo) for f in s.table_figs()]
            ),
            tuple((m.defender, tuple(m.attackers)) for m in s.melees),
        )
        if self._opfire_kept[0] != key:
            self._opfire_kept = (key, self._opfire_options())
        return list(self._opfire_kept[1])

    def _opfire_options(self) -> list[tuple[str, int]]:
        s = self.state
        mover = s.figs[s.moving["mover"]]
        if mover.ability == LUCKY_BASTARD:
            return []  # 'it can never be hurt when shot in the opportunity fire phase'
        first = s.moving["next"]
        points: list[Point] = [(p[0], p[1]) for p in s.moving["points"]]
        found: list[tuple[str, int]] = []
        placed = s.table_figs()  # all `can_see` looks at
        enemy = other(mover.side)
        for fig in [f for f in placed if f.side == enemy]:  # as `State.side_figs` lists them
            prof = fig.prof
            if (
                not prof.armed
                or prof.no_opportunity
                or fig.out_of_ammo
                or fig.ap < 2
                or shooting.engaged(s, fig)
            ):
                continue
            at = fig.pos
            # the path's points lie within 0.01 cm of the line between its first and last
            if segment_distance(at, points[first], points[-1]) > prof.long + PATH_SLACK:
                continue
            for k in range(first, len(points)):
                p = points[k]
                if (
                    dist(at, p) <= prof.long
                    and in_arc(fig, p)
                    and can_see(s, fig, mover, p, placed)
                ):
                    found.append((fig.id, k))
        return found

    # -- resolution -----------------------------------------------------------------------
    def _resolve(self, action: Action, player: str) -> None:
        s = self.state
        if isinstance(action, Surrender):
            self._surrender(player)
        elif isinstance(action, ChooseTable):
            s.table = Table(float(action.width), float(action.depth), ())
            self.emit("setup", f"{player} chooses a {action.width} x {action.depth} cm table")
            s.stage, s.player = "scenery", other(s.attacker)
        elif isinstance(action, PlaceScenery):
            pieces = setup.scenery(self, s.table.width, s.table.depth)
            s.table = Table(s.table.width, s.table.depth, pieces)
            self.emit("setup", f"{player} places {len(pieces)} pieces of scenery")
            s.stage, s.player = "side", s.attacker
        elif isinstance(action, PlacePiece):
            new = setup.placed_piece(action)
            assert not isinstance(new, str)
            s.table = Table(s.table.width, s.table.depth, (*s.table.pieces, new))
            centre = ((new.x0 + new.x1) / 2, (new.y0 + new.y1) / 2)
            zone = setup.zone_of(s.table.width, s.table.depth, centre)
            self.emit(
                "setup",
                f"{player} places a {new.kind} at {new.x0:g},{new.y0:g} to {new.x1:g},{new.y1:g}"
                f" (zone {zone})",
            )
        elif isinstance(action, Done) and s.stage == "scenery":
            self.emit("setup", f"{player} has placed {len(s.table.pieces)} pieces of scenery")
            s.stage, s.player = "side", s.attacker
        elif isinstance(action, ChooseSide):
            s.south = player if action.edge == "south" else other(player)
            self.emit("setup", f"{player} deploys on the {action.edge} side; the screen goes up")
            self._to_write()
        elif isinstance(action, WriteForce | WriteForceSwapped | Compose):
            self._write(action, player)
        elif isinstance(action, Deploy):
            self._deploy(action, player)
        elif isinstance(action, First):
            s.first = action.player
            self.emit("turn", f"{player} decides that {action.player} moves first in turn {s.turn}")
            s.phase = 0
            self._begin_phase()
        elif isinstance(action, Enter):
            self._enter(action)
        elif isinstance(action, Done):
            self._next_part()
        elif isinstance(action, Shoot | Lob):
            fig, target = s.figs[action.figure], s.figs[action.target]
            fig.ap -= 1
            if s.stage == "light":
                fig.light_shot = True
            shooting.resolve(self, s, fig, target, indirect=isinstance(action, Lob), hold=True)
            self._settle()
        elif isinstance(action, Move | Charge):
            self._start_move(action)
        elif isinstance(action, Climb):
            fig = s.figs[action.figure]
            fig.ap -= 1
            fig.level = 1 - fig.level
            self._leave_melees(fig)
            where = "up to the upper floor" if fig.level else "down to the ground floor"
            self.emit("climb", f"{fig.id} climbs the stairs {where}")
            self._settle()
        elif isinstance(action, CallSupport):
            self._call_support(s.figs[action.figure], s.figs[action.target])
        elif isinstance(action, Heal):
            s.figs[action.healer].ap -= 2
            s.heals.append([action.healer, action.target])
            self.emit(
                "heal", f"{action.healer} tends {action.target} (takes effect after hand to hand)"
            )
            self._settle()
        elif isinstance(action, Eat):
            self._eat(s.figs[action.queen])
        elif isinstance(action, Lay):
            queen = s.figs[action.queen]
            queen.ap -= 1
            queen.corpses -= 1
            s.eggs.append(Egg(queen.side, queen.x, queen.y, s.turn + 1))
            self.emit("egg", f"{queen.id} lays an egg; it hatches at the end of turn {s.turn + 1}")
            self._settle()
        elif isinstance(action, Explode):
            bug = s.figs[action.bug]
            bug.ap -= 1
            self.emit("explode", f"{bug.id} goes off")
            wounds.kill(self, s, bug, "going off", hold=s.stage == "general")
            self._settle()
        elif isinstance(action, OpportunityFire):
            self._opfire(action)
        elif isinstance(action, Hold):
            self._finish_move()
        elif isinstance(action, Answer | Fight):
            self._fight_melee(answer=action.attacker if isinstance(action, Answer) else None)
        elif isinstance(action, WoundAttacker):
            self._allocate(action.attacker)

    def _surrender(self, player: str) -> None:
        """END OF THE GAME: 'or surrender' — the opponent wins at once. The score (fighting
        FPs) is given only once the screen is down, so it tells nothing hidden."""
        s = self.state
        s.winner = other(player)
        when = f"in turn {s.turn}" if s.turn else "before the battle"
        s.reason = f"{player} surrenders {when}"
        s.score = (
            {side: float(self.fighting_strength(side)) for side in ("red", "blue")}
            if s.revealed
            else {}
        )
        s.moving = {}
        s.stage = "over"
        self.emit("end", s.reason)

    def _call_support(self, fig: Fig, target: Fig) -> None:
        """'success with a dice throw as if he were shooting ... and got a hit ... fire
        modifiers will never be applied'; the support lands as a missile burst (R34)."""
        s = self.state
        fig.ap -= 1
        skill = fig.prof.skill or 0
        roll = self.roll(
            RollRequest(
                f"support called by {fig.id} on {target.id} (skill {skill}, no modifiers)",
                dice=2,
                read=Read.AT_MOST,
                target=skill,
            )
        )
        if roll.success:
            wounds.burst(
                self, s, target.pos, "missile", f"{fig.id}'s support", hold=True, by=fig.id
            )
        self._settle()

    # setup ------------------------------------------------------------------------------
    def _to_write(self) -> None:
        """GAME STEPS: after the side, each player with lists to choose from writes one down
        (the attacker first, R52); then "Dice for initiative" (R59) and deployment behind the
        screen."""
        s = self.state
        for side in (s.attacker, other(s.attacker)):
            if not s.races[side]:
                s.stage, s.player = "force", side
                return
        s.initiative = self._initiative(1)
        s.stage, s.player = "deploy", s.attacker

    def _write(self, action: composition.Written, player: str) -> None:
        """The player's force is written: its figures wait behind the screen; everyone is told
        that it is written, only its owner what (R52, R54)."""
        s = self.state
        found = composition.written(self.spec, player, action)
        assert not isinstance(found, str)
        title, force = found
        figs, flanks = setup.figures({player: force}, len(s.flanks))
        everyone = {**s.figs, **figs}
        s.figs = {k: f for side in SIDES for k, f in everyone.items() if f.side == side}
        s.flanks = [*s.flanks, *flanks]
        s.races = {**s.races, player: force.race}
        self.emit("setup", f"{player} writes down a force secretly")
        only = frozenset({player})
        self.emit("setup", f"you write down {setup.written_down(title, force)}", only)
        self._general(player, force)
        self._to_write()

    def _deploy(self, action: Deploy, player: str) -> None:
        s = self.state
        fig = s.figs[action.figure]
        fig.x, fig.y = action.at
        fig.facing = 0.0 if s.edge(player) == "south" else 180.0
        fig.where = "table"
        only = frozenset({player})
        self.emit("deploy", f"{fig.id} ({fig.prof.name}) deployed at {fig.x:g},{fig.y:g}", only)
        if any(f.side == player and f.where == "reserve" for f in s.figs.values()):
            return
        if player == s.attacker:
            s.player = other(player)
            return
        s.revealed = True
        shown = ", ".join(
            f"{f.id} {f.prof.name} at {f.x:g},{f.y:g}"
            for f in s.figs.values()
            if f.where == "table"
        )
        self.emit("reveal", f"the screen comes down: {shown}")
        self._begin_turn()

    # the turn ---------------------------------------------------------------------------
    def _initiative(self, turn: int) -> str:
        """DEVELOPMENT OF A TURN: 'both players throw 2D6 to see who have the initiative'
        (ties again); the winner."""
        while True:
            red = self.roll(RollRequest(f"initiative turn {turn}: red", dice=2)).total
            blue = self.roll(RollRequest(f"initiative turn {turn}: blue", dice=2)).total
            if red != blue:
                return "red" if red > blue else "blue"

    def _begin_turn(self) -> None:
        """A turn begins: its initiative (turn 1's was diced before deployment, R59) and the
        winner's decision of who moves first."""
        s = self.state
        s.turn += 1
        s.player = s.initiative if s.turn == 1 and s.initiative else self._initiative(s.turn)
        s.initiative = ""
        s.stage = "first"

    def _begin_phase(self) -> None:
        s = self.state
        s.phase += 1
        for fig in s.figs.values():
            if fig.where == "table":
                fig.ap = fig.actions
                fig.light_shot = fig.answered = False
        self.emit("phase", f"turn {s.turn}, phase {s.phase}: light firing")
        self._set("light", 0)

    def _set(self, stage: str, part: int) -> None:
        """Go to `stage` for the first (0) or second (1) player, doing what needs no one."""
        s = self.state
        s.stage, s.part = stage, part
        s.player = s.acting()
        if stage == "move":
            if part == 0:
                self._note_sight()
            if s.phase == 1 and s.turn >= 2:
                self._roll_flanks(s.player)
            if s.to_enter:
                s.stage = "enter"
                return
        if stage == "general" and part == 0:
            self._goo_rolls()
        self._settle()

    def _settle(self) -> None:
        """Skip a player's part of a step when `done` is all they could do."""
        s = self.state
        if s.stage in ("light", "move", "general") and not self._can_act(s.player):
            self._next_part()

    def _can_act(self, player: str) -> bool:
        """Whether the player has a legal action other than `done` (in the movement step
        looked for figure by figure, stopping at the first: first a move, by the remembered
        test of destinations for a few tests, then the other actions)."""
        s = self.state
        if s.stage != "move":
            return self._can_fire(player)
        mine = s.side_figs(player)
        for fig in mine:
            spots = self.move_points(fig)
            if spots is not None and spots[0]:
                clear = self.move_tester(fig, few=True)
                if any(clear(a) or clear(h) for a, h in zip(spots[0], spots[1], strict=True)):
                    return True
        enemies = s.side_figs(other(player))
        near: Movers = {}
        return any(
            self._legal_form(a, player, near) is not None
            for fig in mine
            for a in self._figure_candidates(fig, mine, enemies, moves=False)
        )

    def _can_fire(self, player: str) -> bool:
        """Whether the player has a legal action other than `done` in a firing step: the
        answer of testing each candidate with `_illegal` (a shot at an enemy in long range,
        a lob needing no sight; a bomb bug going off; a support call of a figure with a
        weapon skill at an enemy in sight), figure by figure, what a figure may aim at kept
        per layout (`_aims`): in a step figures fire again and again, nobody moving."""
        s = self.state
        light = s.stage == "light"
        aims = self._aims()
        for fig in s.side_figs(player):
            if fig.ap < 1 or (light and (fig.ap < 3 or fig.light_shot)):
                continue
            prof = fig.prof
            if not light and prof.bomb:
                return True
            shoots, calls = aims(fig)
            if shoots and not fig.out_of_ammo and not shooting.engaged(s, fig):
                return True
            if calls and not light:
                return True
        return False

    def _aims(self) -> Callable[[Fig], tuple[bool, bool]]:
        """Of a figure, whether its weapon reaches an enemy it may shoot at (in long range;
        in sight, but for a lob), and whether it may call support (in play for it) with a
        weapon skill on an enemy in sight: the part of its firing tests decided only by the
        table and the layout of the figures on the table (which stand there, where, on which
        floor); kept for that layout. Each side's enemies are listed once."""
        s = self.state
        support = self.spec.optional.artillery
        layout = (
            s.table,
            tuple([(f.id, f.x, f.y, f.level) for f in s.table_figs()]),
        )
        if self._aimed[0] != layout:
            self._aimed = (layout, {})
        kept = self._aimed[1]
        enemies_of: dict[str, list[Fig]] = {}

        def aims(fig: Fig) -> tuple[bool, bool]:
            found = kept.get(fig.id)
            if found is None:
                prof = fig.prof
                enemies = enemies_of.get(fig.side)
                if enemies is None:
                    enemies = enemies_of[fig.side] = s.side_figs(other(fig.side))
                at = (fig.x, fig.y)
                shoots = prof.armed and any(
                    dist(at, (e.x, e.y)) <= prof.long and (prof.indirect or can_see(s, fig, e))
                    for e in enemies
                )
                calls = (
                    (support or fig.ability == STORM_BRINGER)
                    and prof.skill is not None
                    and any(can_see(s, fig, e) for e in enemies)
                )
                found = kept[fig.id] = (shoots, calls)
            return found

        return aims

    def _next_part(self) -> None:
        s = self.state
        if s.part == 0:
            self._set(s.stage, 1)
            return
        if s.stage == "light":
            wounds.remove_casualties(self, s)
            self._set("move", 0)
        elif s.stage == "move":
            self._set("general", 0)
        else:
            self._begin_melees()

    def _note_sight(self) -> None:
        """Insectoids remember whom they can see at the beginning of the movement phase."""
        s = self.state
        for fig in s.figs.values():
            if fig.where == "table" and fig.race == "insectoids":
                fig.sees = [e.id for e in s.side_figs(other(fig.side)) if can_see(s, fig, e)]

    def _roll_flanks(self, player: str) -> None:
        """Units in hidden movement enter in the first phase on 6 in turns 2-3, 5-6 in turns
        4-5, 4-6 in turns 6-7 and automatically from turn 8."""
        s = self.state
        needs = tables().flank_entry
        only = frozenset({player})
        for flank in s.flanks:
            if flank.side != player or flank.entered:
                continue
            need = needs[min(s.turn, max(needs))]
            if need > 1:
                roll = self.roll(
                    RollRequest(
                        f"hidden movement ({flank.flank} flank)", read=Read.AT_LEAST, target=need
                    ),
                    only,
                )
                if not roll.success:
                    continue
            flank.entered = True
            s.to_enter += [f for f in flank.figures if s.figs[f].where == "flank"]
            self.emit("flank", f"your flanking force '{flank.label}' arrives", only)
            self.emit(
                "flank", f"{player}'s forces in hidden movement arrive on the {flank.flank} flank"
            )

    def _enter(self, action: Enter) -> None:
        s = self.state
        fig = s.figs[action.figure]
        fig.x, fig.y = action.at
        fig.facing = 90.0 if s.flanks[fig.flank or 0].flank == "west" else 270.0
        fig.where = "table"
        fig.ap = fig.actions
        s.to_enter.remove(fig.id)
        self.emit("enter", f"{fig.id} ({fig.prof.name}) enters at {fig.x:g},{fig.y:g}")
        if not s.to_enter:
            s.stage = "move"
            self._settle()

    def _goo_rolls(self) -> None:
        """Acid goo: affected figures roll 2D6 in the simultaneous fire phase, a wound on 6-."""
        s = self.state
        for fig in sorted(s.figs.values(), key=lambda f: f.id):
            if fig.where == "table" and movement.stuck(s, fig):
                roll = self.roll(
                    RollRequest(
                        f"acid goo on {fig.id}",
                        dice=2,
                        read=Read.AT_MOST,
                        target=tables().goo.wound_at_most,
                        modifiers=(("wounded", 1),) if fig.wounded else (),
                    )
                )
                if roll.success:
                    wounds.wound(self, s, fig, 1, "acid goo", hold=True)

    # movement ---------------------------------------------------------------------------
    def _start_move(self, action: Move | Charge) -> None:
        s = self.state
        fig = s.figs[action.figure]
        target = ""
        if isinstance(action, Charge):
            to = movement.charge_point(fig, s.figs[action.target])
            target = action.target
        else:
            to = action.to
        opens: list[tuple[int, str]] = []  # the closed doors the move opens
        extra = movement.passage(s, fig, to, opens)[0]
        fig.ap -= 1 + extra if target else movement.actions_for(s, fig, to, extra)
        s.open_doors |= frozenset(opens)  # paid for: open from now on (R40)
        self._leave_melees(fig)
        s.moving = {
            "mover": fig.id,
            "to": list(to),
            "points": [list(p) for p in movement.path(fig.pos, to)],
            "next": 0,
            "target": target,
        }
        fig.facing = bearing(fig.pos, to)
        verb = f"charges {target}" if target else f"moves to {to[0]:g},{to[1]:g}"
        doors = f" (+{counted(extra, 'action')}: doors, getting in or out)" if extra else ""
        self.emit("move", f"{fig.id} {verb}{doors}")
        s.stage, s.player = "opfire", other(fig.side)
        if not self.opfire_options():
            self._finish_move()

    def _leave_melees(self, fig: Fig) -> None:
        """Breaking off a hand to hand combat after its first round."""
        s = self.state
        for melee in s.melees:
            if fig.id in melee.attackers:
                melee.attackers.remove(fig.id)
        s.melees = [m for m in s.melees if m.attackers and m.defender != fig.id]

    def _opfire(self, action: OpportunityFire) -> None:
        s = self.state
        mover = s.figs[s.moving["mover"]]
        firer = s.figs[action.figure]
        point = s.moving["points"][action.at]
        mover.x, mover.y = point[0], point[1]
        firer.ap -= 2
        self.emit(
            "opfire",
            f"{firer.id} opens opportunity fire on {mover.id} at {point[0]:g},{point[1]:g}",
        )
        shooting.resolve(self, s, firer, mover, indirect=False, hold=False)
        if mover.where != "table":
            s.moving = {}
            s.stage, s.player = "move", mover.side
            self._settle()
            return
        s.moving["next"] = action.at
        if not self.opfire_options():
            self._finish_move()

    def _finish_move(self) -> None:
        s = self.state
        mover = s.figs[s.moving["mover"]]
        mover.x, mover.y = s.moving["to"]
        target = s.moving["target"]
        if target and s.figs[target].where == "table":
            melee = next((m for m in s.melees if m.defender == target), None)
            if melee is None:
                s.melees.append(Melee(target, [mover.id]))
            else:
                melee.attackers.append(mover.id)
        s.moving = {}
        s.stage, s.player = "move", mover.side
        self._settle()

    def _eat(self, queen: Fig) -> None:
        s = self.state
        queen.ap -= 1
        corpse = min(
            (c for c in s.corpses if dist(queen.pos, (c.x, c.y)) <= queen.radius + CLOSE),
            key=lambda c: dist(queen.pos, (c.x, c.y)),
        )
        s.corpses.remove(corpse)
        queen.corpses += 1
        self.emit("eat", f"{queen.id} eats a corpse ({queen.corpses} kept for eggs)")
        self._settle()

    # hand to hand -------------------------------------------------------------------------
    def _begin_melees(self) -> None:
        s = self.state
        s.melees.sort(key=lambda m: m.defender)
        s.melee_at = 0
        self._next_melee()

    def _next_melee(self) -> None:
        s = self.state
        while s.melee_at < len(s.melees):
            melee = s.melees[s.melee_at]
            defender = s.figs[melee.defender]
            melee.attackers = [
                a
                for a in melee.attackers
                if s.figs[a].where == "table" and movement.in_contact(s, s.figs[a], defender)
            ]
            if not melee.attackers or defender.where != "table":
                s.melee_at += 1
                continue
            if not defender.answered and any(
                self._answer_shot_problem(defender, s.figs[a]) is None for a in melee.attackers
            ):
                s.stage, s.player = "answer", defender.side
                return
            self._fight_melee(answer=None)
            return
        self._end_phase()

    def _fight_melee(self, answer: str | None) -> None:
        s = self.state
        melee = s.melees[s.melee_at]
        defender = s.figs[melee.defender]
        if answer is not None:
            defender.answered = True
            defender.ap -= 2
            self.emit("answer", f"{defender.id} shoots its attacker {answer} instead of fighting")
            shooting.resolve(
                self, s, defender, s.figs[answer], indirect=False, hold=False, point_blank=True
            )
            if s.figs[answer].where != "table":
                melee.attackers = [a for a in melee.attackers if a != answer]
            if defender.where != "table" or not melee.attackers:
                if any(m is melee for m in s.melees):  # else its end moved `melee_at` on
                    s.melee_at += 1
                self._next_melee()
                return
        against, beaten, hits = hand_to_hand.fight(self, s, melee, answered=answer is not None)
        melee.rounds += 1
        if against:
            wounds.wound(self, s, defender, len(against), "hand to hand", hold=True, by=against[-1])
        hits = min(hits, len(beaten))
        s.allocation = {"beaten": [[b.attacker, b.wounds] for b in beaten], "hits": hits}
        self._allocate_automatically()

    def _allocate_automatically(self) -> None:
        s = self.state
        left = s.allocation["hits"]
        beaten = s.allocation["beaten"]
        defender_id = s.melees[s.melee_at].defender
        if left and (left >= len(beaten) or len({b[0] for b in beaten}) == 1):
            for b in sorted(beaten, key=lambda b: -b[1])[:left]:
                wounds.wound(self, s, s.figs[b[0]], b[1], "hand to hand", hold=True, by=defender_id)
            left = 0
        if left:
            s.stage, s.player = "allocate", s.figs[s.melees[s.melee_at].defender].side
            return
        s.allocation = {}
        s.melee_at += 1
        self._next_melee()

    def _allocate(self, attacker: str) -> None:
        s = self.state
        beaten = s.allocation["beaten"]
        entry = max((b for b in beaten if b[0] == attacker), key=lambda b: b[1])
        beaten.remove(entry)
        s.allocation["hits"] -= 1
        defender_id = s.melees[s.melee_at].defender
        wounds.wound(
            self,
            s,
            s.figs[attacker],
            entry[1],
            "hand to hand (defender's choice)",
            hold=True,
            by=defender_id,
        )
        self._allocate_automatically()

    # end of a phase and of a turn ----------------------------------------------------------
    def _end_phase(self) -> None:
        s = self.state
        wounds.remove_casualties(self, s)
        for healer_id, target_id in s.heals:
            healer, target = s.figs[healer_id], s.figs[target_id]
            if healer.where == "table" and target.where == "table" and target.wounds > 0:
                target.wounds -= 1
                self.emit("heal", f"{healer_id} heals a wound of {target_id}")
        s.heals = []
        s.melees = [
            m
            for m in s.melees
            if s.figs[m.defender].where == "table"
            and any(s.figs[a].where == "table" for a in m.attackers)
        ]
        for m in s.melees:
            m.attackers = [a for a in m.attackers if s.figs[a].where == "table"]
        if s.phase < 3:
            if victory.time_up(self.spec.victory, s):
                self._time_over()
            else:
                self._begin_phase()
            return
        self._end_turn()

    def _end_turn(self) -> None:
        s = self.state
        for egg in [e for e in s.eggs if e.hatch <= s.turn]:
            s.eggs.remove(egg)
            self._hatch(egg)
        s.goo = [g for g in s.goo if g.until > s.turn]
        if not self._game_over():
            self._begin_turn()

    def _hatch(self, egg: Egg) -> None:
        """A deployed egg hatches at the end of the next turn: 1D6 on the egg table."""
        s = self.state
        t = tables()
        while True:
            face = self.roll(RollRequest("egg hatches (6: roll again)")).total
            if face != t.egg_reroll:
                break
        key = t.egg_table[face]
        s.hatched += 1
        fid = f"{egg.side[0]}e{s.hatched}"
        s.figs[fid] = Fig(
            fid, egg.side, "insectoids", key, x=egg.x, y=egg.y, where="table", hatched=True
        )
        self.emit("hatch", f"an egg hatches: {fid} ({s.figs[fid].prof.name})")

    def experience(self) -> dict[str, dict[str, Any]]:
        """OPTIONAL RULES, Experience, for a campaign to carry on: each figure that has killed
        enemy FPs, with its side, profile, FPs killed, veteran status, ability and whether it
        is still alive (feed `xp` and `ability` back into the next battle's FigureSpec)."""
        return {
            f.id: {
                "side": f.side,
                "profile": f.key,
                "xp": f.xp,
                "veteran": f.veteran,
                "ability": f.ability,
                "alive": f.where == "table",
            }
            for f in self.state.figs.values()
            if f.xp
        }

    def fighting_strength(self, side: str) -> int:
        """FPs of the side's figures that count as alive (HQs, scanners and figures out of
        ammo count as dead), flanking forces still to come included."""
        return sum(
            f.fp
            for f in self.state.figs.values()
            if f.side == side
            and f.where in ("table", "flank", "reserve")
            and not (f.prof.hq or f.prof.scanner or f.out_of_ammo)
        )

    def _third_lost(self, side: str) -> bool:
        """END OF THE GAME, "looses one third of his forces" (R58): the FPs of the side's
        figures killed are a third or more of the FPs it fielded (flanking forces included,
        hatched figures in neither); HQs and scanners count as forces, out-of-ammo figures
        are not lost."""
        mine = [f for f in self.state.figs.values() if f.side == side and not f.hatched]
        killed = sum(f.fp for f in mine if f.where == "dead")
        return 3 * killed >= sum(f.fp for f in mine)

    def _game_over(self) -> bool:
        """END OF THE GAME at the end of a turn: a side without figures; the optional
        conditions of the scenario; the turn limit (most FPs standing wins)."""
        s = self.state
        v = self.spec.victory
        strength = {side: self.fighting_strength(side) for side in ("red", "blue")}
        s.score = {side: float(n) for side, n in strength.items()}
        losers = [side for side, n in strength.items() if n == 0]
        reason = "without figures"
        if not losers and v.third_lost:
            losers = [side for side in ("red", "blue") if self._third_lost(side)]
            reason = "lost a third of its forces"
        if not losers and v.hqs_lost:
            losers = [
                side
                for side in ("red", "blue")
                if s.races[side] != "insectoids" and not any(f.prof.hq for f in s.side_figs(side))
            ]
            reason = "lost all its headquarters"
        if not losers and v.key_positions:
            lost = victory.lost_keys(v, s)
            losers = sorted(lost)
            names = [name for side in losers for name in lost[side]]
            reason = f"lost the key position{'s' * (len(names) > 1)} {', '.join(names)}"
        if losers:
            s.winner = None if len(losers) == 2 else other(losers[0])
            s.reason = f"{' and '.join(losers)} {reason} at the end of turn {s.turn}"
        elif victory.time_up(v, s):
            self._time_over()
            return True
        elif s.turn >= v.turns:
            s.winner = (
                None
                if strength["red"] == strength["blue"]
                else max(strength, key=lambda k: strength[k])
            )
            s.reason = (
                f"turn {s.turn} ends the battle: {strength['red']} FP red, "
                f"{strength['blue']} FP blue standing"
            )
        else:
            return False
        s.stage = "over"
        self.emit("end", s.reason)
        return True

    def key_positions(self) -> list[dict[str, Any]]:
        """The scenario's key positions on this table, once the sides are chosen (R49)."""
        s = self.state
        if s.turn == 0 and s.stage not in ("force", "deploy"):
            return []  # the sides are chosen just before the forces are written
        return [
            {
                "name": k.name,
                "holder": victory.holder(s, k),
                "at": list(victory.point(s, k)),
                "radius": k.radius,
            }
            for k in self.spec.victory.key_positions
        ]

    def _time_over(self) -> None:
        """R49: the time limit, reached at the end of a phase: more fighting FPs standing
        wins, equal is a draw."""
        s = self.state
        strength = {side: self.fighting_strength(side) for side in ("red", "blue")}
        s.score = {side: float(n) for side, n in strength.items()}
        s.winner = (
            None if strength["red"] == strength["blue"] else max(strength, key=strength.__getitem__)
        )
        s.reason = (
            f"the time limit of {self.spec.victory.seconds} s ends the battle after turn "
            f"{s.turn} phase {s.phase}: {strength['red']} FP red, {strength['blue']} FP blue "
            "standing"
        )
        s.stage = "over"
        self.emit("end", s.reason)

    # -- state, view, snapshots ---------------------------------------------------------------
    def state_data(self) -> dict[str, Any]:
        return self.state.data()

    def view(self, player: str | None) -> dict[str, Any]:
        """What `player` may see: their own force whole; the enemy only once the screen comes
        down, and never its forces in hidden movement before they enter."""
        s = self.state
        pending = self.pending
        shown: dict[str, Any] = (
            {"player": pending.player, "kind": pending.kind, "prompt": pending.prompt}
            if isinstance(pending, Decision)
            else {"result": pending.line()}
        )

        def visible(f: Fig) -> bool:
            return f.side == player or (s.revealed and f.where in ("table", "dead"))

        figures = [
            {
                "id": f.id,
                "side": f.side,
                "profile": f.key,
                "name": f.prof.name,
                "elite": f.elite,
                "where": f.where,
                "at": [f.x, f.y],
                "facing": f.facing,
                "wounds": f.wounds,
                "ap": f.ap,
                "out_of_ammo": f.out_of_ammo,
                "xp": f.xp,
                "level": f.level,
            }
            for f in s.figs.values()
            if visible(f)
        ]
        data: dict[str, Any] = {
            "ruleset": self.ruleset.id,
            "viewer": player,
            "stage": s.stage,
            "turn": s.turn,
            "phase": s.phase,
            "attacker": s.attacker,
            "first": s.first,
            "south": s.south,
            "revealed": s.revealed,
            "table": s.table.as_data(),
            "figures": figures,
            "melees": [[m.defender, list(m.attackers), m.rounds] for m in s.melees],
            "pending_wounds": dict(s.pending_wounds),
            "goo": [[g.x, g.y, g.until] for g in s.goo],
            "eggs": [[e.side, e.x, e.y, e.hatch] for e in s.eggs],
            "corpses": [[c.x, c.y] for c in s.corpses],
            "open_doors": [list(door) for door in sorted(s.open_doors)],  # R40
            "moving": dict(s.moving),
            "pending": shown,
            "key_positions": self.key_positions(),
        }
        if player is not None:
            data["races"] = {
                side: race
                for side, race in s.races.items()
                if race and (s.revealed or side == player)
            }
            if s.stage == "force" and s.player == player:
                data["lists"] = [
                    {"force": n, "text": setup.written_down(f"force {n}", force)}
                    for n, force in enumerate(self.spec.lists(player), start=1)
                ]
                if self.spec.compose:
                    data["compose"] = self._compose_help(player)
            data["flanks"] = [
                {
                    "flank": f.flank,
                    "label": f.label,
                    "figures": list(f.figures),
                    "entered": f.entered,
                }
                for f in s.flanks
                if f.side == player
            ]
            data["entering"] = list(s.to_enter) if s.player == player else []
        elif s.revealed:
            data["races"] = dict(s.races)
        return data

    def _compose_help(self, player: str) -> dict[str, Any]:
        """What a composition of `player`'s own may hold (R54), for its own view: its races
        with their profiles' force points, the agreed force points, a flank's most."""
        points = self.spec.force_points
        return {
            "form": CODEC.form(Compose),
            "force_points": points,
            "flank_most": points // 4,
            "marks": composition.marks(self.spec),
            "profiles": {
                race: {key: p.fp for key, p in forces()[race].items()}
                for race in composition.races(self.spec, player)
            },
        }

    def _detach(self) -> None:
        """A look-ahead copy of the game forgets the legal actions listed and the aims kept
        for its parent."""
        self._legal_cache = ((), [])
        self._aimed = ((), {})

    def _snapshot(self) -> object:
        return self.state.saved()

    def _restore(self, snapshot: object) -> None:
        assert isinstance(snapshot, Saved)
        self.state = snapshot.restored()
