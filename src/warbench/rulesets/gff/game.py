"""PLAYING THE GAME: deployment, alternating activations, the four rounds.

The flow is a state machine on `State.phase`; every decision names its player, including
the defender's choice to strike back and the token spending of casters on both sides in
the middle of another unit's activation.
"""

from __future__ import annotations

import dataclasses
import math
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt
import shapely

from warbench.core.actions import Action
from warbench.core.dice import DiceSource, Read, Roll, RollRequest
from warbench.core.events import Event
from warbench.core.game import Decision, GameOver, OpenGame, Pending
from warbench.core.geometry import Base, edge_distance
from warbench.core.terrain import Trait
from warbench.core.words import counted
from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff import jumping, melee, spell_moves, spells
from warbench.rulesets.gff.actions import (
    CODEC,
    Advance,
    Cast,
    Charge,
    Consolidate,
    Deploy,
    Done,
    Edge,
    Fire,
    Hold,
    Idle,
    NoStrikeBack,
    PlaceMarker,
    Reserve,
    Rush,
    Shift,
    StrikeBack,
    Take,
    Tokens,
    Wait,
    slug,
)
from warbench.rulesets.gff.attacks import Hit, regenerate, spend_spells
from warbench.rulesets.gff.kernels import least_apart
from warbench.rulesets.gff.mission import ROUNDS, final_result, score_markers
from warbench.rulesets.gff.morale import end_of_round_morale
from warbench.rulesets.gff.movement import (
    allowance,
    block_move_problem,
    contact_vector,
    models_move_problem,
    others,
    screen_block_moves,
    separate,
    too_close,
    translate,
)
from warbench.rulesets.gff.placements import KeptPlacements, PlacementMemory, legal_many
from warbench.rulesets.gff.profiles import Weapon
from warbench.rulesets.gff.scenario import Scenario
from warbench.rulesets.gff.shooting import (
    MAX_TARGETS,
    BlastSplit,
    FireSolution,
    Volley,
    fire,
    ranged_weapons,
    split_blast,
    volleys,
    weapon_named,
)
from warbench.rulesets.gff.spell_grants import range_bonus, use_up
from warbench.rulesets.gff.spell_limits import in_dangerous, only_problem
from warbench.rulesets.gff.state import Marker, Model, SpellEffect, State, Unit
from warbench.rulesets.gff.wounds import take_wounds

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset

EDGES = ("north", "south", "east", "west")
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
AMBUSH_GAP = 9.0
ALLOWED: dict[str, tuple[type[Action], ...]] = {
    "edge": (Edge,),
    "markers": (PlaceMarker,),
    "deploy": (Deploy, Reserve),
    "scout": (Deploy,),
    "ambush": (Deploy, Wait),
    "activate": (Hold, Advance, Rush, Charge, Idle),
    "shoot": (Fire, Cast, Done),
    "blast-split": (Take,),
    "spell-help": (Tokens, Done),
    "spell-move": (Shift, Done),
    "strike-back": (StrikeBack, NoStrikeBack),
    "consolidate": (Consolidate, Done),
}
"""The actions each step of the game allows."""


_PROMPTS: dict[str, Callable[[State], str]] = {
    "edge": lambda s: "pick your table edge (north, south, east, west)",
    "markers": lambda s: f"place an objective marker ({s.markers_to_place} to place)",
    "deploy": lambda s: 'deploy a unit within 12" of your edge, or set aside Ambush/Scout',
    "scout": lambda s: 'deploy a Scout unit within 12" of your deployment zone',
    "ambush": lambda s: 'deploy an Ambush unit over 9" from enemies, or wait',
    "activate": lambda s: f"round {s.round}: activate a unit (hold, advance, rush, charge, idle)",
    "shoot": lambda s: f"{s.active}: fire a weapon or cast a spell, or done",
    "spell-help": lambda s: "spend spell tokens on the casting roll, or done",
    "spell-move": spell_moves.prompt,
    "blast-split": lambda s: "choose which of your units takes an odd Blast hit",
    "strike-back": lambda s: f"{s.step.get('defender')} was charged: strike back or not",
    "consolidate": lambda s: f'{s.step.get("survivor")} may move up to 3", or done',
}
"""What each decision asks, by step of the game."""


_MOVING = Advance | Rush | Charge  # built once (in an isinstance it would be built each time)
Floats = npt.NDArray[np.float64]


class MoveRun(NamedTuple):
    """A unit's sampled Advance or Rush moves, one after the other in a listing of the
    activation's candidates: where they start, the unit, which kind, their points (rows,
    and as pairs), and the moves made of them so far (each when first wanted, `move_at`)."""

    start: int
    unit: Unit
    advancing: bool
    points: Floats
    spots: list[tuple[float, float]]
    moves: list[Action | None]


_BLOCK_MOVES = Advance | Rush


def other(side: str) -> str:
    """The opposing side."""
    return "blue" if side == "red" else "red"


class GFFGame(OpenGame):
    """One game of Grimdark Future Firefight."""

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
        self._rolled: set[str] = set()  # models that rolled for dangerous terrain this activation
        self._memo: dict[tuple[object, ...], Any] | None = None  # while listing legal actions
        self._vouched: tuple[Action, str, int] | None = None  # found legal at this step
        self._placed = PlacementMemory()  # deployment placements kept across decisions
        self._terrain_screens: dict[tuple[object, ...], Any] = {}  # moves' terrain verdicts
        self._solutions: dict[tuple[object, ...], FireSolution] = {}  # by where units stand
        self._spots: dict[tuple[object, ...], int] = {}  # `_spot_number`s
        self._sampled: dict[tuple[object, ...], Any] = {}  # sampled moves, by position
        self._runs: tuple[Sequence[Action | None], list[MoveRun]] = ([], [])  # last listing
        self._made: dict[tuple[object, ...], Action] = {}  # `_action`
        self._zone_visits: dict[tuple[str, str], tuple[tuple[float, float], ...]] = {}
        units: dict[str, Unit] = {}
        for side in ("red", "blue"):
            army = spec.armies[side].army
            assert army is not None
            for number, profile in enumerate(army.units, start=1):
                uid = f"{side[0]}{number}"
                units[uid] = Unit(uid, side, profile, _models(uid, profile))
        self.state = State(phase="edge", player="red", units=units)
        self.state.starting_units = {
            s: len(spec.armies[s].army.units)  # type: ignore[union-attr]
            for s in ("red", "blue")
        }
        if spec.terrain is not None:
            self.field = bfm.Battlefield.from_data(
                list(spec.terrain), width=spec.table.width, depth=spec.table.depth
            )
        else:
            self.field = bfm.generate_battlefield(
                self,
                width=spec.table.width,
                depth=spec.table.depth,
                pieces=spec.table.pieces,
                jumping=spec.jumping,
            )
        if spec.jumping:  # heights count: moves, sight and cover (GFF-R22, R29)
            self.field = dataclasses.replace(self.field, heights=True)
        count = self.roll(RollRequest("objectives: D3+2", sides=3)).total + 2
        self.state.markers_to_place = count
        self.emit("mission", f"{count} objective markers will be placed")
        winner = self._roll_off("deployment roll-off")
        self.state.deploy_first = self.state.player = winner
        self.emit("deployment", f"{winner} won the deployment roll-off and picks a table edge")
        self.start()

    # ruleset-facing helpers -------------------------------------------------------------
    def faces(self, request: RollRequest) -> tuple[int, ...]:
        """The dice source protocol, so the battlefield is generated with the game's dice. A
        plain die (one, read as its face, as each of the table's ~240 rolls is) is logged as
        `roll` logs it (the same `Roll`, worded when read), without the generic reading of
        `resolve`."""
        if request.dice != 1 or request.read is not Read.TOTAL or request.modifiers:
            return self.roll(request).faces
        faces = tuple(self.dice.faces(request))
        if len(faces) != 1 or not 1 <= faces[0] <= request.sides:
            raise ValueError(f"{request.label}: faces {list(faces)} do not fit d{request.sides}")
        self._rolls.append(faces)
        self._events.append(Event("roll", None, None, Roll(request, faces, faces[0], None)))
        return faces

    def _detach(self) -> None:
        self._rolled = set(self._rolled)
        self._vouched = None
        self._placed = PlacementMemory()
        self._terrain_screens = {}
        self._solutions = {}
        self._spots = dict(self._spots)
        self._sampled = {}
        self._made = {}

    def _roll_off(self, label: str) -> str:
        while True:
            red = self.roll(RollRequest(f"{label}: red")).total
            blue = self.roll(RollRequest(f"{label}: blue")).total
            if red != blue:
                return "red" if red > blue else "blue"

    # -- decisions -----------------------------------------------------------------------
    @property
    def pending(self) -> Pending:
        s = self.state
        if s.phase == "over":
            return GameOver(s.winner, s.reason, dict(s.score))
        return Decision(s.player, s.phase, f"{s.player}: {_PROMPTS[s.phase](s)}")

    def legal_actions(self, player: str) -> list[Action]:
        """Every discrete action, and a sample of the continuous ones (each one legal)."""
        with self.listing():
            return [a for a in self.candidates(player) if self.legal_now(a, player)]

    @contextmanager
    def listing(self) -> Iterator[None]:
        """While the state does not change: screens and look-ups are kept for every action
        listed or checked (`candidates`, `legal_now`), and dropped after."""
        self._memo = {}
        try:
            yield
        finally:
            self._memo = None

    def candidates(self, player: str) -> list[Action]:
        """The actions `legal_actions` chooses from, not yet checked (an agent may score
        them first and check only the best: `legal_now`)."""
        s = self.state
        if s.phase == "over" or player != s.player:
            return []
        if s.phase != "activate":
            return self._candidates(player)
        listed = self._activation_candidates(player)
        made = [a if a is not None else self.move_at(n) for n, a in enumerate(listed)]
        self._runs = (made, self._runs[1])
        return made

    def candidates_unmade(self, player: str) -> Sequence[Action | None]:
        """`candidates` with each sampled Advance and Rush left None: an agent that scores
        the moves by their points (`move_runs`) makes only those it checks (`move_at`), not
        the ~20 of each unit and kind whenever a unit has moved."""
        s = self.state
        if s.phase == "activate" and player == s.player:
            return self._activation_candidates(player)
        return self.candidates(player)

    def legal_now(self, action: Action, player: str) -> bool:
        """Whether a candidate is legal (inside `listing`: the screens are shared). The last
        one found legal is not checked again when it is applied at the same step."""
        legal = not self._screened_out(action) and self._illegal(action, player) is None
        if legal:
            self._vouched = (action, player, len(self.steps))
        return legal

    def _candidates(self, player: str) -> list[Action]:
        s = self.state
        if s.phase == "edge":
            return [Edge(e) for e in EDGES]
        if s.phase == "markers":
            return list(self._marker_grid)
        if s.phase in ("deploy", "scout", "ambush"):
            acts: list[Action] = []
            for unit in self._to_place(player):
                acts += [self._action(Deploy, unit.id, p) for p in self._placements(unit)]
                if s.phase == "deploy":
                    acts += [Reserve(unit.id, k) for k in ("ambush", "scout")]
            if s.phase == "ambush":
                acts.append(Wait())
            return acts
        if s.phase == "shoot":
            unit = s.units[s.active or ""]
            acts = [Done()]
            for weapon in ranged_weapons(unit):
                acts += [
                    Fire(unit.id, slug(weapon.name), e.id) for e in s.side_units(other(player))
                ]
            for spell in unit.profile.spells:
                if spell.point:  # GFF-R35
                    texts = spells.point_choices(s, self.field, unit, spell)
                else:
                    found = [t.id for t in self._spell_targets(spell, unit)]
                    texts = spells.target_choices(spell, found)
                acts += [Cast(unit.id, slug(spell.name), text) for text in texts]
            return acts
        if s.phase == "blast-split":
            blast = s.step["blast"]
            return [Take(u) for u in blast["units"] if u not in blast["chosen"]]
        if s.phase == "spell-help":
            acts = [Done()]
            for helper in self._helpers():
                acts += [Tokens(helper.id, n) for n in range(1, helper.tokens + 1)]
            return acts
        if s.phase == "strike-back":
            return [StrikeBack(), NoStrikeBack()]
        if s.phase == "spell-move":
            shifting = spell_moves.waiting(s)
            assert shifting is not None
            return [Done(), *spell_moves.samples(s, *shifting)]
        survivor = s.units[s.step["survivor"]]
        cx, cy = survivor.centre()
        acts = [Done()]
        for angle in range(0, 360, 45):
            rad = math.radians(angle)
            acts.append(
                Consolidate(
                    survivor.id,
                    (round(cx + 3 * math.sin(rad), 2), round(cy + 3 * math.cos(rad), 2)),
                )
            )
        return acts

    def _activation_candidates(self, player: str) -> list[Action | None]:
        """Hold, Idle, the sampled Advance and Rush moves (left None: `move_at`) and Charge
        at each enemy, for each unit of the player yet to activate."""
        s = self.state
        listed: list[Action | None] = []
        runs: list[MoveRun] = []
        enemies = s.side_units(other(player))
        for unit in s.side_units(player):
            if unit.activated:
                continue
            listed += [self._action(Hold, unit.id), self._action(Idle, unit.id)]
            for kind in ("advance", "rush"):
                spots, moves, points = self._sampled_moves(unit, kind)
                runs.append(MoveRun(len(listed), unit, kind == "advance", points, spots, moves))
                listed += [None] * len(spots)
            listed += [self._action(Charge, unit.id, e.id) for e in enemies]
        self._runs = (listed, runs)
        return listed

    # -- placement -----------------------------------------------------------------------
    def _to_place(self, player: str) -> list[Unit]:
        s = self.state
        units = [u for u in s.units.values() if u.side == player and u.alive and not u.deployed]
        if s.phase == "deploy":
            return [u for u in units if u.reserve is None]
        wanted = "scout" if s.phase == "scout" else "ambush"
        return [u for u in units if u.reserve == wanted]

    def _zone(self, unit: Unit) -> Any:
        edge = self.state.edges[unit.side]
        if self.state.phase == "scout":
            return self.field.scout_zone(edge)  # type: ignore[arg-type]
        return self.field.deployment_zone(edge)  # type: ignore[arg-type]

    def _shape(self, unit: Unit) -> tuple[object, ...]:
        """What a placement of a unit not yet on the table depends on: its side, its number
        of models and their base (units alike share their placements while listing)."""
        if unit.deployed:
            return (unit.id,)
        return (unit.side, len(unit.models), unit.profile.base)

    def _placements(self, unit: Unit, wanted: int = 12) -> list[tuple[float, float]]:
        """Up to `wanted` legal points of a 3" grid (inside the zone, when there is one),
        visited with a fixed stride so that they spread over the whole area."""
        if self._memo is None:
            return self._find_placements(unit, wanted)
        key = ("placements", *self._shape(unit), wanted)
        if key not in self._memo:
            self._memo[key] = self._find_placements(unit, wanted)
        found: list[tuple[float, float]] = self._memo[key]
        return found

    def _find_placements(self, unit: Unit, wanted: int) -> list[tuple[float, float]]:
        kept = self._kept(unit)
        visits = self._visits(unit)
        found: list[tuple[float, float]] = []
        for start in range(0, len(visits), wanted + 4):
            batch = visits[start : start + wanted + 4]
            if self._memo is not None or kept is not None:  # their formations at once
                todo = batch if kept is None else [p for p in batch if p not in kept.formations]
                formations = (
                    bfm.arrange_many(
                        todo,
                        len(unit.models),
                        unit.profile.base,
                        self.field,
                        occupied=self._others(unit),
                    )
                    if todo
                    else []
                )
                for point, formation in zip(todo, formations, strict=True):
                    if self._memo is not None:
                        self._memo[("arranged", *self._shape(unit), point)] = formation
                    if kept is not None:
                        kept.formations[point] = formation
            if kept is not None:
                self._judge_placements(unit, kept, batch)
            for point in batch:
                legal = (
                    kept.legal[point]
                    if kept is not None
                    else self._placement_problem(unit, point) is None
                )
                if legal:
                    found.append(point)
                    if len(found) == wanted:
                        return found
        return found

    def _visits(self, unit: Unit) -> tuple[tuple[float, float], ...]:
        """`_grid_visits` of the unit's zone (the whole table for Ambush), kept in the game
        by step and edge (the zone's WKB, its key across games, is dear to make)."""
        key = (self.state.phase, self.state.edges[unit.side])
        found = self._zone_visits.get(key)
        if found is None:
            zone = None if self.state.phase == "ambush" else self._zone(unit)
            wkb = None if zone is None else zone.wkb
            found = self._zone_visits[key] = _grid_visits(self.field.width, self.field.depth, wkb)
        return found

    def _judge_placements(
        self, unit: Unit, kept: KeptPlacements, points: Sequence[tuple[float, float]]
    ) -> None:
        """Whether placing the unit at each point is legal (`_placement_problem` is None:
        it fits, keeps over 1" from other units and stays in its zone), all at once."""
        fits = []
        for point in points:
            if point not in kept.legal:
                if kept.formations[point] is None:
                    kept.legal[point] = False
                else:
                    fits.append(point)
        if not fits:
            return
        spots = np.array([kept.formations[p] for p in fits], dtype=np.float64)
        legal = legal_many(spots, unit.profile.base, self._others(unit), self._zone(unit))
        kept.legal.update(zip(fits, legal, strict=True))

    def _kept(self, unit: Unit) -> KeptPlacements | None:
        """The placements of a unit waiting to deploy or scout, kept across decisions (the
        points no newly placed unit can affect keep their answers)."""
        s = self.state
        if unit.deployed or s.phase not in ("deploy", "scout"):
            return None
        key = (s.phase, s.edges.get(unit.side), *self._shape(unit))
        if self._memo is not None and ("kept", *key) in self._memo:
            found: KeptPlacements = self._memo[("kept", *key)]
            return found
        kept = self._placed.of(
            key, self.field, self._others(unit), len(unit.models), unit.profile.base
        )
        if self._memo is not None:
            self._memo[("kept", *key)] = kept
        return kept

    def _others(self, unit: Unit) -> list[Base]:
        """`others(state, unit)`, listed once while the legal actions are (once for all the
        units not on the table: every base on it)."""
        if self._memo is None:
            return others(self.state, unit)
        key = ("others", unit.id if unit.deployed else None)
        if key not in self._memo:
            self._memo[key] = others(self.state, unit)
        found: list[Base] = self._memo[key]
        return found

    def _move_screen(
        self, unit: Unit, kind: str
    ) -> tuple[list[tuple[float, float]], dict[tuple[float, float], bool | None]]:
        """The unit's sampled destinations, and while the legal actions are listed what
        `block_move_problem` would say of each (True fine, False not, None ask it),
        screened all at once."""
        if self._memo is None:
            return self._destinations(unit, kind), {}
        key = ("moves", unit.id, kind)
        if key not in self._memo:  # Advance and Rush screened together
            kinds = ("advance", "rush")
            targets = {k: self._destinations(unit, k) for k in kinds}
            points = [p for k in kinds for p in targets[k]]
            moves = {k: allowance(unit, k) for k in kinds}
            reach = [moves[k] for k in kinds for _ in targets[k]]
            if len(self._terrain_screens) > 256:
                self._terrain_screens.clear()
            verdicts = iter(
                screen_block_moves(
                    self.field,
                    unit,
                    points,
                    reach,
                    self._others(unit),
                    jumping=self.spec.jumping,
                    terrain=self._terrain_screens,
                )
            )
            for k in kinds:
                verdict = {p: next(verdicts) for p in targets[k]}
                self._memo[("moves", unit.id, k)] = (targets[k], verdict)
        found: tuple[list[tuple[float, float]], dict[tuple[float, float], bool | None]]
        found = self._memo[key]
        return found

    @cached_property
    def _marker_grid(self) -> tuple[PlaceMarker, ...]:
        """A PlaceMarker at each point of a 4" grid over the table: the markers step's
        candidates, made once in a game (the table does not change)."""
        step = 4.0
        return tuple(
            PlaceMarker((x, y))
            for x in _steps(self.field.width, step)
            for y in _steps(self.field.depth, step)
        )

    def _marker_screen(self) -> dict[tuple[float, float], bool | None]:
        """While the legal actions are listed: what `objective_problem` would say of each
        sampled marker point (True fine, False not, None ask it), screened all at once."""
        if self._memo is None:
            return {}
        if ("markers",) not in self._memo:
            s = self.state
            points = [a.at for a in self._marker_grid]
            zones = [self.field.deployment_zone(e) for e in s.edges.values()]  # type: ignore[arg-type]
            placed = [(m.x, m.y) for m in s.markers]
            verdicts = bfm.screen_objectives(points, placed, zones, self.field)
            self._memo[("markers",)] = dict(zip(points, verdicts, strict=True))
        found: dict[tuple[float, float], bool | None] = self._memo[("markers",)]
        return found

    def _screened_out(self, action: Action) -> bool:
        """Whether a screen already shows the action illegal (legal_actions only); a unit
        that may not move now (Shaken, Immobile, done) is refused before any screen."""
        if isinstance(action, PlaceMarker):
            return self._marker_screen().get(action.at) is False
        if isinstance(action, _MOVING) and self._may_not_move(action.unit):
            return True
        if isinstance(action, Charge):
            return self._out_of_charge_reach(action)
        if not isinstance(action, _BLOCK_MOVES):
            return False
        kind = "advance" if isinstance(action, Advance) else "rush"
        return self._move_screen(self.state.units[action.unit], kind)[1].get(action.to) is False

    def _may_not_move(self, unit_id: str) -> bool:
        """Surely illegal for any move: the unit is Shaken or Immobile, or may not activate
        (the first refusals of `_illegal_activation`)."""
        unit = self.state.units.get(unit_id)
        if unit is None or not unit.alive or unit.side != self.state.player:
            return False  # refused by `_illegal`, with its reason
        return not unit.deployed or unit.activated or unit.shaken or unit.all_have("Immobile")

    def _out_of_charge_reach(self, action: Charge) -> bool:
        """Surely illegal: every enemy model is further than the charge move even in a
        straight line (centres apart less the farthest reach of each base)."""
        s = self.state
        unit, target = s.units.get(action.unit), s.units.get(action.target)
        if unit is None or target is None or not unit.alive or not target.alive:
            return False
        if self._memo is None:
            apart = _least_apart([unit, target])[0, 1]
        else:  # every pair of living units at once, while the legal actions are listed
            if ("apart",) not in self._memo:
                alive = [u for u in s.units.values() if u.alive]
                rows = {u.id: n for n, u in enumerate(alive)}
                self._memo[("apart",)] = (rows, _least_apart(alive))
            rows, least_apart = self._memo[("apart",)]
            apart = least_apart[rows[unit.id], rows[target.id]]
        least = float(apart) - _extent(unit) - _extent(target)
        return least > allowance(unit, "charge") + 1e-6

    def _arranged(self, unit: Unit, at: tuple[float, float]) -> list[Base] | None:
        occupied = self._others(unit)
        key = ("arranged", *self._shape(unit), at)
        kept = self._kept(unit)
        if self._memo is not None and key in self._memo:
            points = self._memo[key]
        elif kept is not None and at in kept.formations:
            points = kept.formations[at]
        else:
            points = bfm.arrange(
                at, len(unit.models), unit.profile.base, self.field, occupied=occupied
            )
            if kept is not None:
                kept.formations[at] = points
        if points is None:
            return None
        return [Base(p, unit.profile.base) for p in points]

    def _placement_problem(self, unit: Unit, at: tuple[float, float]) -> str | None:
        if self._memo is None:
            return self._find_placement_problem(unit, at)
        key = ("placement", unit.id, at)
        if key not in self._memo:
            self._memo[key] = self._find_placement_problem(unit, at)
        problem: str | None = self._memo[key]
        return problem

    def _find_placement_problem(self, unit: Unit, at: tuple[float, float]) -> str | None:
        kept = self._kept(unit)
        if kept is not None and kept.legal.get(at):
            return None
        problem = self._placement_problem_now(unit, at)
        if kept is not None:
            kept.legal[at] = problem is None
        return problem

    def _placement_problem_now(self, unit: Unit, at: tuple[float, float]) -> str | None:
        s = self.state
        bases = self._arranged(unit, at)
        if bases is None:
            return f"{unit.name} does not fit around {at[0]:g},{at[1]:g} (terrain, edges or units)"
        if too_close(bases, self._others(unit)):
            return f'{unit.name} would be within 1" of another unit'
        if s.phase == "ambush":
            enemies = [b for u in s.side_units(other(unit.side)) for b in u.bases()]
            if any(edge_distance(b, e) <= AMBUSH_GAP for b in bases for e in enemies):
                return 'Ambush units deploy over 9" away from enemy units'
            return None
        zone = self._zone(unit)
        if not bfm.box_covers(zone, bases):
            where = (
                'within 12" of your deployment zone'
                if s.phase == "scout"
                else f'within 12" of your table edge ({s.edges[unit.side]})'
            )
            return f"{unit.name} must be placed fully {where}"
        return None

    def _action(self, cls: type[Action], *fields: object) -> Action:
        """`cls(*fields)`, made once in this game (actions are immutable values, so the same
        one serves every listing; a frozen dataclass is slow to make). The points listed are
        a grid's positive floats, so an equal key is the very same fields (no 0.0 and -0.0)."""
        key = (cls, *fields)
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = cls(*fields)
        return found

    def move_runs(self, actions: Sequence[Action | None]) -> list[MoveRun]:
        """The Advance and Rush runs of `actions`, the activation's candidates as `candidates`
        or `candidates_unmade` listed them last (each unit's sampled moves of a kind, one
        after the other)."""
        listed, runs = self._runs
        if actions is not listed:
            raise ValueError("move runs are known only of the activation's last listing")
        return runs

    def move_at(self, place: int) -> Action:
        """The Advance or Rush at `place` of the activation's last listing, made once for
        the unit's sampled position."""
        runs = self._runs[1]
        run = runs[max(0, bisect_right(runs, place, key=attrgetter("start")) - 1)] if runs else None
        if run is None or not 0 <= place - run.start < len(run.spots):
            raise ValueError(f"no sampled move at {place} of the last listing")
        at = place - run.start
        found = run.moves[at]
        if found is None:
            found = run.moves[at] = (Advance if run.advancing else Rush)(run.unit.id, run.spots[at])
        return found

    def _destinations(self, unit: Unit, kind: str) -> list[tuple[float, float]]:
        """The sampled Advance or Rush points of the unit."""
        return self._sampled_moves(unit, kind)[0]

    def _sampled_moves(
        self, unit: Unit, kind: str
    ) -> tuple[list[tuple[float, float]], list[Action | None], Floats]:
        """The sampled points, their actions made so far (`move_at`) and the points as an
        array (rows of x, y), kept while the unit stands where it stood with the same
        allowance (the markers do not move; spells change the allowance)."""
        centre, reach = unit.centre(), allowance(unit, kind)
        key = (unit.id, kind, centre, len(self.state.markers), reach)
        found = self._sampled.get(key)
        if found is None:
            if len(self._sampled) > 256:
                self._sampled.clear()
            flat = self._sample_destinations(centre, reach)
            points = list(zip(flat[::2], flat[1::2], strict=True))
            moves: list[Action | None] = [None] * len(points)
            spots = np.array(flat, dtype=np.float64).reshape(-1, 2)
            found = self._sampled[key] = (points, moves, spots)
        sampled: tuple[list[tuple[float, float]], list[Action | None], Floats] = found
        return sampled

    def _sample_destinations(self, centre: tuple[float, float], reach: float) -> list[float]:
        """The sampled points of a move of `reach` from `centre`, as x, y, x, y, ... (flat:
        numpy makes an array of floats faster than of pairs): the full and half move in 8
        directions, and toward each marker as far as the move goes, rounded to 0.01"."""
        cx, cy = centre
        flat: list[float] = []
        for sin, cos in _COMPASS_8:
            for frac in (1.0, 0.5):
                flat += (cx + reach * frac * sin, cy + reach * frac * cos)
        for marker in self.state.markers:
            dx, dy = marker.x - cx, marker.y - cy
            dist = math.hypot(dx, dy)
            if dist > 0.1:
                k = min(1.0, reach / dist)
                flat += (cx + dx * k, cy + dy * k)
        return bfm.round_all(np.array(flat, dtype=np.float64), 2)

    # -- legality ------------------------------------------------------------------------
    def allowed_now(self) -> tuple[type[Action], ...]:
        return ALLOWED[self.state.phase]

    def _illegal(self, action: Action, player: str) -> str | None:
        if self._vouched == (action, player, len(self.steps)):
            return None
        s = self.state
        allowed = ALLOWED[s.phase]
        if not isinstance(action, allowed):
            return f"now is the {s.phase} step; allowed: " + ", ".join(
                CODEC.form(c) for c in allowed
            )
        if isinstance(action, Edge):
            if action.edge in EDGES:
                return None
            return f"'{action.edge}' is not a table edge; pick one of {', '.join(EDGES)}"
        if isinstance(action, PlaceMarker):
            if self._marker_screen().get(action.at):
                return None
            zones = [self.field.deployment_zone(e) for e in s.edges.values()]  # type: ignore[arg-type]
            placed = [(m.x, m.y) for m in s.markers]
            return bfm.objective_problem(action.at, placed, zones, self.field)
        if isinstance(action, Shift):  # the caster's player moves any side's unit (GFF-R33)
            unit = s.units.get(action.unit)
            obstacles = self._others(unit) if unit is not None else None
            return spell_moves.problem(s, self.field, action, obstacles, jumping=self.spec.jumping)
        unit_id = getattr(action, "unit", None)
        if unit_id is not None:
            unit = s.units.get(unit_id)
            if unit is None or unit.side != player or not unit.alive:
                own = ", ".join(u.id for u in s.units.values() if u.side == player and u.alive)
                return f"'{unit_id}' is not one of your units in play; yours: {own}"
            return self._illegal_for_unit(action, unit)
        if isinstance(action, Done) and s.phase == "spell-move":
            return spell_moves.done_problem(s)  # a move it must make (GFF-R39)
        if isinstance(action, Tokens | Done | Wait | StrikeBack | NoStrikeBack):
            return None
        return None

    def _illegal_for_unit(self, action: Action, unit: Unit) -> str | None:
        s = self.state
        if isinstance(action, Deploy):
            if unit not in self._to_place(unit.side):
                names = ", ".join(u.id for u in self._to_place(unit.side)) or "none"
                return f"{unit.name} is not waiting to be placed now; you may place: {names}"
            return self._placement_problem(unit, action.at)
        if isinstance(action, Reserve):
            rule = {"ambush": "Ambush", "scout": "Scout"}.get(action.kind)
            if rule is None:
                return f"a unit is set aside for ambush or scout, not '{action.kind}'"
            if unit.deployed or unit.reserve is not None:
                return f"{unit.name} is already placed or set aside"
            if not unit.all_have(rule):
                return f"{unit.name} does not have {rule}; only units with it may be set aside"
            return None
        if isinstance(action, Hold | Advance | Rush | Charge | Idle):
            return self._illegal_activation(action, unit)
        if isinstance(action, Fire):
            return self._illegal_fire(action, unit)
        if isinstance(action, Cast):
            return self._illegal_cast(action, unit)
        if isinstance(action, Tokens):
            helpers = self._helpers()
            if unit not in helpers:
                names = ", ".join(h.id for h in helpers) or "none"
                return f"{unit.name} cannot spend tokens on this roll; casters that may: {names}"
            if not 1 <= action.count <= unit.tokens:
                return f"{unit.name} has {counted(unit.tokens, 'token')}; spend 1 to {unit.tokens}"
            return None
        if isinstance(action, Take):
            blast = s.step["blast"]
            free = [u for u in blast["units"] if u not in blast["chosen"]]
            if unit.id not in free:
                return (
                    f"{unit.name} cannot take an odd Blast hit; units that may: {', '.join(free)}"
                )
            return None
        if isinstance(action, Consolidate):
            if unit.id != s.step.get("survivor"):
                return f"only {s.step.get('survivor')} may consolidate"
            return block_move_problem(
                s, self.field, unit, action.to, melee.CONSOLIDATE, jumping=self.spec.jumping
            )
        return None

    def _illegal_activation(self, action: Action, unit: Unit) -> str | None:
        s = self.state
        if not unit.deployed or unit.activated:
            ready = ", ".join(u.id for u in s.side_units(unit.side) if not u.activated) or "none"
            return f"{unit.name} cannot activate now; units yet to activate: {ready}"
        if unit.shaken and not isinstance(action, Idle):
            return f"{unit.name} is Shaken and must stay idle (idle {unit.id}) to recover"
        if unit.all_have("Immobile") and not isinstance(action, Hold | Idle):
            return f"{unit.name} is Immobile and may only Hold (hold {unit.id})"
        if unit.effects and not isinstance(action, Idle):
            refused = only_problem(unit, action)
            if refused:
                return refused
        if isinstance(action, Advance | Rush):
            kind = "advance" if isinstance(action, Advance) else "rush"
            if self._move_screen(unit, kind)[1].get(action.to):
                return None
            reach = allowance(unit, kind)
            return block_move_problem(
                s,
                self.field,
                unit,
                action.to,
                reach,
                obstacles=self._others(unit),
                jumping=self.spec.jumping,
            )
        if isinstance(action, Charge):
            target = s.units.get(action.target)
            if (
                target is None
                or target.side == unit.side
                or not target.alive
                or not target.deployed
            ):
                enemies = ", ".join(u.id for u in s.side_units(other(unit.side)))
                return f"'{action.target}' is not an enemy unit on the table; enemies: {enemies}"
            reach = allowance(unit, "charge")
            vector = contact_vector(unit, target, reach)
            if vector is None:
                return (
                    f'no model of {unit.name} is within charge distance ({reach:g}") of '
                    f"{target.name}"
                )
            return self._charge_path_problem(unit, vector, reach)
        return None

    def _charge_path_problem(
        self, unit: Unit, vector: tuple[float, float], reach: float
    ) -> str | None:
        if math.hypot(*vector) < 1e-6:
            return None
        reason = models_move_problem(
            unit, unit.bases(), vector, reach, self.field, jumping=self.spec.jumping
        )
        return f"{unit.name} cannot charge: {reason}" if reason else None

    def _illegal_fire(self, action: Fire, unit: Unit) -> str | None:
        s = self.state
        weapons = {slug(w.name): w for w in ranged_weapons(unit)}
        weapon = weapons.get(action.weapon)
        fired = s.step.get("fired", [])
        if weapon is None:
            return (
                f"{unit.name} has no ranged weapon '{action.weapon}'; it has: {', '.join(weapons)}"
            )
        if action.weapon in fired:
            left = [w for w in weapons if w not in fired]
            return f"{action.weapon} has already fired; still to fire: {', '.join(left) or 'none'}"
        if action.weapon in unit.used_limited:
            return f"{weapon.name} is Limited and was used already this game"
        target = s.units.get(action.target)
        if target is None or target.side == unit.side or not target.alive or not target.deployed:
            enemies = ", ".join(u.id for u in s.side_units(other(unit.side)))
            return f"'{action.target}' is not an enemy unit on the table; enemies: {enemies}"
        targets = s.step.get("targets", [])
        if target.id not in targets and len(targets) >= MAX_TARGETS:
            return f"{unit.name} already fires at two targets ({', '.join(targets)})"
        if self.fire_solution(unit, weapon, target).attacks == 0:
            return (
                f'no model with {weapon.name} ({weapon.range}") has {target.name} in range '
                f"and line of sight"
            )
        return None

    def _illegal_cast(self, action: Cast, unit: Unit) -> str | None:
        s = self.state
        spell = spells.spell_named(unit, action.spell)
        if spell is None:
            names = ", ".join(slug(p.name) for p in unit.profile.spells) or "none"
            return f"{unit.name} knows no spell '{action.spell}'; it knows: {names}"
        if s.step.get("fired"):
            return "spells are cast before attacking: this unit has already fired"
        if action.spell in s.step.get("cast", []):
            return f"{spell.name} was already tried this activation (one try per spell)"
        if unit.tokens < spell.cost:
            cost = counted(spell.cost, "token")
            return f"{spell.name} costs {cost}; {unit.name} has {unit.tokens}"
        if spell.point:  # GFF-R35
            point = spells.point_of(action.target)
            if point is None or not spells.reaches(self.field, unit, spell, point):
                return (
                    f'{spell.name} goes to a point within {spell.range}" of {unit.name} in its '
                    f"sight (cast {unit.id} {action.spell} x,y), not '{action.target}'"
                )
            return None
        allowed = [t.id for t in self._spell_targets(spell, unit)]
        return spells.target_problem(spell, action.target, allowed)

    def fire_solution(self, unit: Unit, weapon: Weapon, target: Unit) -> FireSolution:
        """`shooting.solution`, kept while both units' models stand where they stood (a
        model's id fixes its weapons and base). Not known yet: found for every weapon of
        this unit and of its side's units yet to activate, at every enemy not yet known for
        them, all at once."""
        key = (unit.id, id(weapon), self._spot(unit), target.id, self._spot(target))
        found = self._solutions.get(key)
        if found is None:
            if len(self._solutions) > 1024:
                self._solutions.clear()
            spots = {u.id: self._spot(u) for u in self.state.units.values() if u.deployed}
            spots.update({unit.id: key[2], target.id: key[4]})
            enemies = self.state.side_units(other(unit.side))
            shooters = [unit] + [
                u for u in self.state.side_units(unit.side) if u is not unit and not u.activated
            ]
            asks: list[Volley] = []
            for shooter in shooters:
                weapons = ranged_weapons(shooter)
                if shooter is unit and not any(w is weapon for w in weapons):
                    weapons.append(weapon)
                if not weapons:
                    continue
                first = (shooter.id, id(weapons[0]), spots[shooter.id])
                targets = [
                    t
                    for t in enemies
                    if (*first, t.id, spots[t.id]) not in self._solutions
                    and not (shooter is unit and t is target)
                ]
                if shooter is unit:
                    targets.insert(0, target)
                if targets:
                    asks.append((shooter, weapons, targets))
            for (who, arms, aims), rows in zip(asks, volleys(self.field, asks), strict=True):
                mine = spots[who.id]
                for w, row in zip(arms, rows, strict=True):
                    for t, shot in zip(aims, row, strict=True):
                        self._solutions[(who.id, id(w), mine, t.id, spots[t.id])] = shot
            found = self._solutions[key]
        return found

    def cast_targets(self, unit: Unit, spell: Any, text: str) -> list[Unit]:
        """The units a cast's target text names (`all`: every one in range, GFF-R33; `x,y`:
        those around the point, GFF-R35)."""
        if text == "all":
            return self._spell_targets(spell, unit)
        point = spells.point_of(text) if spell.point else None
        if point is not None:  # the units around a point (GFF-R35)
            return spells.at_point(self.state, unit, spell, point)
        return [self.state.units[t] for t in text.split(",")]

    def _spot(self, unit: Unit) -> int:
        """A number for `_spot` of the unit (the same spot, the same number, for this game's
        life), once while the legal actions are listed: fire solutions are keyed by it, so a
        look-up hashes an int rather than every model's place (a miss stores ~50 of them)."""
        if self._memo is None:
            return self._spot_number(_spot(unit))
        key = ("spot", unit.id)
        found: int | None = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._spot_number(_spot(unit))
        return found

    def _spot_number(self, spot: tuple[object, ...]) -> int:
        """The spot's number, a new one the first time it is seen (never reused, so a kept
        fire solution never answers for another spot)."""
        number = self._spots.get(spot)
        if number is None:
            number = self._spots[spot] = len(self._spots)
        return number

    def _spell_targets(self, spell: Any, unit: Unit) -> list[Unit]:
        side = other(unit.side) if spell.on_enemies else unit.side
        return [
            t
            for t in self.state.side_units(side)
            if spells.distance(unit, t) <= spell.range and spells.sees(self.field, unit, t)
        ]

    def _helpers(self) -> list[Unit]:
        s = self.state
        if s.phase != "spell-help":
            return []
        caster = s.units[s.step["caster"]]
        return [
            h
            for h in spells.helpers(s, self.field, caster, s.player)
            if h.id not in s.step.get("spent", {})
        ]

    # -- resolution ----------------------------------------------------------------------
    def _resolve(self, action: Action, player: str) -> None:
        s = self.state
        self._vouched = None
        self._settle_heights()
        if isinstance(action, Edge):
            s.edges = {player: action.edge, other(player): OPPOSITE[action.edge]}
            self.emit(
                "deployment",
                f"{player} deploys on the {action.edge} edge, "
                f"{other(player)} on the {OPPOSITE[action.edge]}",
            )
            s.player = self._roll_off("objective roll-off")
            s.phase = "markers"
        elif isinstance(action, PlaceMarker):
            s.markers.append(Marker(*action.at))
            s.markers_to_place -= 1
            self.emit(
                "marker",
                f"{player} places objective {len(s.markers)} at {action.at[0]:g},{action.at[1]:g}",
            )
            s.player = other(player)
            if s.markers_to_place == 0:
                s.phase, s.player = "deploy", s.deploy_first
        elif isinstance(action, Reserve):
            unit = s.units[action.unit]
            unit.reserve = action.kind
            self.emit("reserve", f"{unit.name} is set aside ({action.kind})")
            self._next_placement(player)
        elif isinstance(action, Deploy):
            self._deploy(s.units[action.unit], action.at)
            self._next_placement(player)
        elif isinstance(action, Wait):
            s.step.setdefault("waited", []).append(player)
            self.emit("ambush", f"{player} keeps its Ambush units in reserve this round")
            self._next_placement(player)
        elif isinstance(action, Hold | Advance | Rush | Charge | Idle):
            self._activate(action, s.units[action.unit])
        elif isinstance(action, Fire):
            self._fire(action)
        elif isinstance(action, Take):
            self._take(action)
        elif isinstance(action, Cast):
            self._cast(action)
        elif isinstance(action, Tokens):
            helper = s.units[action.unit]
            helper.tokens -= action.count
            s.step.setdefault("spent", {})[helper.id] = action.count
            sign = 1 if player == s.units[s.step["caster"]].side else -1
            s.step["bonus"] = s.step.get("bonus", 0) + sign * action.count
            self.emit(
                "tokens",
                f"{helper.name} spends {counted(action.count, 'token')} "
                f"({sign * action.count:+d} to the casting roll)",
            )
        elif isinstance(action, Shift):
            self._shift(action)
        elif isinstance(action, Done):
            self._done(player)
        elif isinstance(action, StrikeBack | NoStrikeBack):
            self._strike_back(isinstance(action, StrikeBack))
        elif isinstance(action, Consolidate):
            unit = s.units[action.unit]
            cx, cy = unit.centre()
            starts = {m.id: (m.x, m.y) for m in unit.models}
            translate(unit, action.to[0] - cx, action.to[1] - cy)
            self.emit("move", f"{unit.name} consolidates to {action.to[0]:g},{action.to[1]:g}")
            self._jumps(unit, starts)
            self._dangerous_moves(unit, starts)
            self._end_activation()

    def _deploy(self, unit: Unit, at: tuple[float, float]) -> None:
        bases = self._arranged(unit, at)
        assert bases is not None
        for model, base in zip(unit.models, bases, strict=True):
            model.x, model.y = base.centre
        unit.deployed = True
        if self.state.phase == "ambush":
            unit.arrived = self.state.round
        unit.reserve = None
        self.emit("deploy", f"{unit.name} deploys around {at[0]:g},{at[1]:g}")

    def _next_placement(self, player: str) -> None:
        s = self.state
        opponent = other(player)
        waited = s.step.get("waited", [])

        def ready(side: str) -> bool:
            return bool(self._to_place(side)) and side not in waited

        if ready(opponent):
            s.player = opponent
        elif ready(player):
            s.player = player
        elif s.phase == "deploy":
            s.phase, s.player = "scout", s.deploy_first
            if not (self._to_place("red") or self._to_place("blue")):
                self._start_round(1, s.deploy_first)
            elif not self._to_place(s.player):
                s.player = other(s.player)
        elif s.phase == "scout":
            self._start_round(1, s.deploy_first)
        else:
            first = s.step.get("first", s.player)
            s.step = {}
            self._begin_activations(first)

    # -- rounds and activations ----------------------------------------------------------
    def _start_round(self, number: int, first: str) -> None:
        s = self.state
        s.round, s.first_done, s.step = number, None, {}
        for unit in s.units.values():
            unit.activated = unit.fatigued = False
        spells.end_of_round(s)
        spells.refresh_tokens(s)
        self.emit("round", f"round {number} begins; {first} activates first")
        ambushers = [u for u in s.units.values() if u.alive and u.reserve == "ambush"]
        if number >= 2 and ambushers:
            s.phase = "ambush"
            s.player = first if self._to_place(first) else other(first)
            s.step = {"first": first}
            return
        self._begin_activations(first)

    def _begin_activations(self, first: str) -> None:
        s = self.state
        s.phase = "activate"
        s.step = {}
        s.player = first
        if not self._can_activate(first):
            if self._can_activate(other(first)):
                s.player = other(first)
            else:
                self._end_round()

    def _can_activate(self, side: str) -> bool:
        return any(not u.activated for u in self.state.side_units(side))

    def _activate(self, action: Action, unit: Unit) -> None:
        s = self.state
        s.active = unit.id
        unit.moved = unit.charging = False
        was_shaken = unit.shaken
        self._rolled = self._dangerous_at_start(unit)
        if not unit.alive:
            self._end_activation()
            return
        if isinstance(action, Idle):
            self.emit("activate", f"{unit.name} stays idle")
            if was_shaken:  # a full activation idle while Shaken
                unit.shaken = False
                self.emit("shaken", f"{unit.name} is no longer Shaken")
            self._end_activation()
        elif isinstance(action, Hold):
            self.emit("activate", f"{unit.name} holds")
            self._to_shooting(unit)
        elif isinstance(action, Advance | Rush):
            kind = "advances" if isinstance(action, Advance) else "rushes"
            fell = self._move(unit, action.to, kind)
            if isinstance(action, Advance) and unit.alive and not fell:
                self._to_shooting(unit)
            else:
                self._end_activation()
        elif isinstance(action, Charge):
            self._charge(unit, s.units[action.target])

    def _move(self, unit: Unit, to: tuple[float, float], kind: str) -> bool:
        """Move the unit as a block; whether a model fell (its activation ends)."""
        cx, cy = unit.centre()
        starts = {m.id: (m.x, m.y) for m in unit.models}
        translate(unit, to[0] - cx, to[1] - cy)
        unit.moved = True
        distance = math.hypot(to[0] - cx, to[1] - cy)
        self.emit("move", f'{unit.name} {kind} {distance:.1f}" to {to[0]:g},{to[1]:g}')
        fell = self._jumps(unit, starts)
        self._dangerous_moves(unit, starts)
        use_up(unit, "move")  # "next time they move", after its effects (GFF-R31)
        return fell

    def _settle_heights(self) -> None:
        """Under the jumping rules, every model stands at the height of the ground under it."""
        if not self.spec.jumping:
            return
        for unit in self.state.units.values():
            for model in unit.models:
                model.z = bfm.elevation((model.x, model.y), self.field)

    def _jumps(self, unit: Unit, starts: dict[str, tuple[float, float]]) -> bool:
        """SPECIAL MOVES, Jumping: each model that moved rolls for the jumps on its path; one
        that fails falls at the bottom of it (`jumping.fall`). Whether any fell: then its
        unit's activation ends (ruling GFF-R25)."""
        if not self.spec.jumping:
            return False
        fell = False
        flying = unit.all_have("Flying")
        for model in list(unit.models):
            start, end = starts.get(model.id), (model.x, model.y)
            if start is None or math.dist(start, end) < 1e-6:
                continue
            for leap in jumping.plan(start, end, self.field, flying=flying).jumps:
                if jumping.jump(self, unit, model, leap):
                    continue
                length = math.dist(start, end)
                along = min(
                    length, leap.bottom + (unit.profile.base / 2 if leap.kind == "drop" else 0.0)
                )
                model.x = start[0] + (end[0] - start[0]) * along / length
                model.y = start[1] + (end[1] - start[1]) * along / length
                self.emit("fall", f"{model.id} of {unit.name} fails the jump and falls")
                jumping.fall(self, unit, model, leap.fall)
                fell = True
                break
        self._settle_heights()
        return fell

    def _pushed_falls(self, before: dict[str, tuple[float, float]]) -> None:
        """Pushing off an elevated position at least 2" tall is a fall (jumping rules): a
        model pushed to ground that far below falls (`jumping.fall`)."""
        if not (self.spec.jumping and self.spec.pushing):
            return
        for unit in self.state.units.values():
            for model in list(unit.models):
                was = before.get(model.id)
                if was is None or was == (model.x, model.y):
                    continue
                drop = bfm.elevation(was, self.field) - bfm.elevation(
                    (model.x, model.y), self.field
                )
                if drop >= jumping.FALL_HEIGHT - 1e-9:
                    self.emit("fall", f"{model.id} of {unit.name} is pushed off and falls")
                    jumping.fall(self, unit, model, drop)
        self._settle_heights()

    def _positions(self) -> dict[str, tuple[float, float]]:
        return {m.id: (m.x, m.y) for u in self.state.units.values() for m in u.models}

    def _dangerous_moves(self, unit: Unit, starts: dict[str, tuple[float, float]]) -> None:
        """Models whose move crossed dangerous terrain roll, unless they rolled already this
        activation (ruling GFF-R16: one roll per model per activation); Flying ignores it."""
        if unit.all_have("Flying"):
            return
        moved = [
            (model, start)
            for model in unit.models
            if (start := starts.get(model.id)) is not None
            and model.id not in self._rolled
            and math.dist(start, (model.x, model.y)) >= 1e-6
        ]
        spell = in_dangerous(unit, "move")  # a spell's dangerous terrain (GFF-R37)
        if not moved:
            return
        # `bfm.crosses_dangerous` of each model's round base, all at once
        froms = np.array([start for _, start in moved], dtype=np.float64)
        tos = np.array([(model.x, model.y) for model, _ in moved], dtype=np.float64)
        radius = unit.profile.base / 2
        hits = bfm.round_enters(froms, tos, radius, self.field, Trait.DANGEROUS)
        crossing = 0
        for (model, _), hit in zip(moved, hits.tolist(), strict=True):
            if hit or spell:
                crossing += 1
                self._rolled.add(model.id)
        if crossing:
            why = f"counts as in dangerous terrain ({spell})" if spell else ""
            self._dangerous(unit, crossing, why or "moved across dangerous terrain")

    def _dangerous_at_start(self, unit: Unit) -> set[str]:
        """Models that activate in dangerous terrain roll; returns which did."""
        # `bfm.in_dangerous` of each model's round base, all at once
        spots = np.array([(m.x, m.y) for m in unit.models], dtype=np.float64).reshape(-1, 2)
        hits = bfm.round_enters(spots, None, unit.profile.base / 2, self.field, Trait.DANGEROUS)
        inside = [m for m, hit in zip(unit.models, hits.tolist(), strict=True) if hit]
        spell = in_dangerous(unit, "activation")  # a spell's dangerous terrain (GFF-R37)
        if spell:
            inside = list(unit.models)
        if inside:
            why = f"counts as in dangerous terrain ({spell})" if spell else ""
            self._dangerous(unit, len(inside), why or "activates in dangerous terrain")
        return {m.id for m in inside}

    def _dangerous(self, unit: Unit, models: int, why: str) -> None:
        """A die per model (as many as its Tough value), each 1 a wound."""
        per_model = unit.profile.rating("Tough") or 1
        roll = self.roll(
            RollRequest(f"dangerous terrain: {unit.name} {why}", dice=models * per_model)
        )
        wounds = roll.faces.count(1)
        # said even when none: a referee sees the rule (a wound for each 1), not a bare roll
        self.emit(
            "wounds",
            f"{unit.name} takes {counted(wounds, 'wound')} from dangerous terrain "
            "(one for each 1 rolled)",
        )
        if wounds:
            kept = regenerate(self, unit, [Hit(0, False, 0, False)] * wounds)
            take_wounds(self, unit, kept)

    def _to_shooting(self, unit: Unit) -> None:
        s = self.state
        s.phase, s.step = "shoot", {"unit": unit.id, "fired": [], "targets": [], "cast": []}
        if self._only_done(unit.side):
            self._end_activation()

    def _fire(self, action: Fire) -> None:
        s = self.state
        unit, target = s.units[action.unit], s.units[action.target]
        weapon = {slug(w.name): w for w in ranged_weapons(unit)}[action.weapon]
        s.step["fired"].append(action.weapon)
        if target.id not in s.step["targets"]:
            s.step["targets"].append(target.id)
        before = self._positions()
        shot = self.fire_solution(unit, weapon, target)  # kept since its legality was checked
        split = fire(self, s, self.field, unit, weapon, target, self.spec.pushing, shot)
        self._pushed_falls(before)
        if split is not None:
            s.step["blast"] = {
                "weapon": action.weapon,
                "units": list(split.units),
                "share": split.share,
                "extra": split.extra,
                "hits": [[h.ap, h.bane, h.deadly, h.ignores_regeneration] for h in split.hits],
                "chosen": [],
            }
            s.phase, s.player = "blast-split", target.side
            return
        self._after_shot(unit)

    def _after_shot(self, unit: Unit) -> None:
        if self._only_done(unit.side):
            self._end_activation()

    def _only_done(self, side: str) -> bool:
        """Whether `side` may do nothing now but `done` (the first legal other action found
        settles it: the same answer as listing them all)."""
        s = self.state
        if s.phase == "over" or side != s.player:
            return True
        return not any(
            not isinstance(a, Done) and self._illegal(a, side) is None
            for a in self._candidates(side)
        )

    def _take(self, action: Take) -> None:
        """The defender gives one odd Blast hit to a unit; when all are given, resolve."""
        s = self.state
        blast = s.step["blast"]
        blast["chosen"].append(action.unit)
        self.emit("blast", f"{s.units[action.unit].name} takes one of the odd Blast hits")
        if len(blast["chosen"]) < blast["extra"]:
            return
        attacker = s.units[s.step["unit"]]
        weapon = weapon_named(attacker, blast["weapon"])
        assert weapon is not None
        split = BlastSplit(
            tuple(blast["units"]),
            blast["share"],
            blast["extra"],
            tuple(Hit(a, b, d, r) for a, b, d, r in blast["hits"]),
        )
        del s.step["blast"]
        before = self._positions()
        split_blast(self, s, attacker, weapon, split, blast["chosen"], self.spec.pushing)
        self._pushed_falls(before)
        s.phase, s.player = "shoot", attacker.side
        self._after_shot(attacker)

    def _cast(self, action: Cast) -> None:
        s = self.state
        unit = s.units[action.unit]
        spell = spells.spell_named(unit, action.spell)
        assert spell is not None
        unit.tokens -= spell.cost
        s.step["cast"].append(action.spell)
        s.step.update(
            caster=unit.id,
            spell=action.spell,
            spell_target=action.target,
            bonus=0,
            spent={},
            helping=unit.side,
        )
        cost = counted(spell.cost, "token")
        self.emit("spell", f"{unit.name} casts {spell.name} at {action.target} ({cost})")
        s.phase = "spell-help"
        self._next_helper(unit.side)

    def _next_helper(self, side: str) -> None:
        s = self.state
        s.player = side
        if self._helpers():
            return
        if side == s.units[s.step["caster"]].side:
            s.player = other(side)
            if self._helpers():
                return
        self._resolve_cast()

    def _resolve_cast(self) -> None:
        s = self.state
        caster = s.units[s.step["caster"]]
        spell = spells.spell_named(caster, s.step["spell"])
        assert spell is not None
        targets = self.cast_targets(caster, spell, s.step["spell_target"])
        shifts = spells.cast(self, s, self.field, caster, spell, targets, s.step["bonus"])
        for key in ("caster", "spell", "spell_target", "bonus", "spent", "helping"):
            s.step.pop(key, None)
        s.phase, s.player = "shoot", caster.side
        if shifts:  # the caster's player moves them first (GFF-R33)
            s.step["shifts"] = [list(item) for item in shifts]
            s.phase = "spell-move"
            return
        if not caster.alive or self._only_done(caster.side):
            self._end_activation()

    def _shift(self, action: Shift | None) -> None:
        """Move the first unit a spell lets the caster's player move (None: leave it);
        then the next, and back to the caster's shooting step (GFF-R33)."""
        s = self.state
        must = spell_moves.forced(s)
        uid, inches, *_ = s.step["shifts"].pop(0)
        unit = s.units[uid]
        to = action.to if action is not None else None
        if to is not None and must:  # along the named line, as far as it can (GFF-R39)
            to = spell_moves.farthest(
                s, self.field, unit, to, inches, self._others(unit), jumping=self.spec.jumping
            )
        if to is None:
            self.emit("spell", f"{unit.name} is not moved")
        else:
            cx, cy = unit.centre()
            starts = {m.id: (m.x, m.y) for m in unit.models}
            translate(unit, to[0] - cx, to[1] - cy)
            moved = math.hypot(to[0] - cx, to[1] - cy)
            self.emit("move", f'{unit.name} is moved {moved:.1f}" (of {inches}") by a spell')
            self._jumps(unit, starts)
            self._dangerous_moves(unit, starts)
        s.step["shifts"] = [item for item in s.step["shifts"] if s.units[item[0]].alive]
        if s.step["shifts"]:
            return
        del s.step["shifts"]
        caster = s.units[s.active or ""]
        s.phase = "shoot"
        if not caster.alive or self._only_done(caster.side):
            self._end_activation()

    def _done(self, player: str) -> None:
        s = self.state
        if s.phase == "spell-help":
            caster_side = s.units[s.step["caster"]].side
            if player == caster_side:
                s.player = other(player)
                if self._helpers():
                    return
            self._resolve_cast()
        elif s.phase == "spell-move":
            self._shift(None)
        else:
            self._end_activation()

    def _charge(self, unit: Unit, target: Unit) -> None:
        s = self.state
        unit.charging = True
        starts = {m.id: (m.x, m.y) for m in unit.models}
        held = {m.id: (m.x, m.y) for m in target.models}
        heights = self.field if self.spec.jumping else None
        moved = melee.charge_move(s, unit, target, heights)
        if moved is None:
            self.emit("charge", f"{unit.name} can no longer reach {target.name}: the charge fails")
            self._end_activation()
            return
        self.emit("charge", f'{unit.name} charges {target.name} ({moved:.1f}")')
        fell = self._jumps(unit, starts)
        self._dangerous_moves(unit, starts)
        use_up(unit, "move")  # "next time they move", after its effects (GFF-R31)
        self._jumps(target, held)  # the defenders' close-in moves jump too (GFF-R23)
        if not unit.alive or fell:
            self._end_activation()
            return
        before = self._positions()
        melee.chargers_attack(self, unit, target, self.spec.pushing)
        self._pushed_falls(before)
        s.step = {"charger": unit.id, "defender": target.id}
        if (
            unit.alive
            and target.alive
            and melee.melee_weapons(target, unit, lambda w: not melee.is_counter(w))
        ):
            s.phase, s.player = "strike-back", target.side
            return
        self._after_melee()

    def _strike_back(self, strikes: bool) -> None:
        s = self.state
        charger, defender = s.units[s.step["charger"]], s.units[s.step["defender"]]
        if strikes:
            self.emit("melee", f"{defender.name} strikes back")
            before = self._positions()
            melee.strike_back(self, defender, charger, self.spec.pushing)
            self._pushed_falls(before)
        else:
            self.emit("melee", f"{defender.name} does not strike back")
        self._after_melee()

    def _after_melee(self) -> None:
        s = self.state
        charger, defender = s.units[s.step["charger"]], s.units[s.step["defender"]]
        charger.fatigued = True
        spend_spells(charger, "to_hit", "charge")  # "next time it fights in melee" (GFF-R28)
        spend_spells(defender, "to_hit", "melee")  # and "... when charging" (GFF-R39)
        use_up(charger, "charge", "melee", "attack", "attacked")  # granted rules (GFF-R31)
        use_up(defender, "charged", "melee", "attack", "attacked")
        if charger.alive and defender.alive:
            separate(charger, defender)
            self._end_activation()
            return
        survivor = charger if charger.alive else defender if defender.alive else None
        if survivor is None:
            self._end_activation()
            return
        s.step = {"survivor": survivor.id}
        s.phase, s.player = "consolidate", survivor.side

    def _end_activation(self) -> None:
        s = self.state
        unit = s.units.get(s.active or "")
        side = unit.side if unit else s.player
        if unit is not None:
            unit.activated = True
            use_up(unit, "activation")  # "next time they activate" (GFF-R31)
            if s.step.get("fired"):  # "next time it shoots" (GFF-R28)
                spend_spells(unit, "to_hit", "shooting")
                use_up(unit, "shooting", "attack")  # granted rules (GFF-R31)
                for target in s.step.get("targets", []):  # "next time they are shot at"
                    use_up(s.units[target], "shot_at", "attacked")
        s.active, s.step, s.phase = None, {}, "activate"
        if not self._can_activate(side) and s.first_done is None:
            s.first_done = side
        if self._can_activate(other(side)):
            s.player = other(side)
        elif self._can_activate(side):
            s.player = side
        else:
            self._end_round()

    def _end_round(self) -> None:
        s = self.state
        end_of_round_morale(self, s)
        score_markers(self, s)
        if s.first_done is None:
            s.first_done = s.player
        if s.round >= ROUNDS:
            s.winner, s.reason, s.score = final_result(s)
            s.phase = "over"
            self.emit("over", f"game over: {s.reason}")
            return
        self._start_round(s.round + 1, s.first_done)

    # -- state -------------------------------------------------------------------------
    def state_data(self) -> dict[str, Any]:
        s = self.state
        return {
            "phase": s.phase,
            "player": s.player,
            "round": s.round,
            "active": s.active,
            "step": s.step,
            "edges": s.edges,
            "deploy_first": s.deploy_first,
            "first_done": s.first_done,
            "markers_to_place": s.markers_to_place,
            "markers": [[m.x, m.y, m.owner] for m in s.markers],
            "units": {
                u.id: {
                    "side": u.side,
                    "name": u.profile.name,
                    "deployed": u.deployed,
                    "reserve": u.reserve,
                    "arrived": u.arrived,
                    "activated": u.activated,
                    "shaken": u.shaken,
                    "fatigued": u.fatigued,
                    "tokens": u.tokens,
                    "limited": sorted(u.used_limited),
                    "shield": u.shield,
                    "focus": u.focus,
                    **_effects(u),
                    "models": [[m.id, round(m.x, 6), round(m.y, 6), m.wounds] for m in u.models],
                }
                for u in s.units.values()
            },
            "winner": s.winner,
            "reason": s.reason,
        }


def _placed(unit: Unit) -> tuple[tuple[str, float, float], ...]:
    """Where each of the unit's models stands."""
    return tuple((m.id, m.x, m.y) for m in unit.models)


def _least_apart(units: list[Unit]) -> npt.NDArray[np.float64]:
    """The least distance between the centres of any model of one unit and any of another,
    for each pair of `units` (compiled, `kernels.least_apart`)."""
    xs = np.array([m.x for u in units for m in u.models], dtype=np.float64)
    ys = np.array([m.y for u in units for m in u.models], dtype=np.float64)
    least: npt.NDArray[np.float64] = least_apart(
        xs, ys, np.array([len(u.models) for u in units], dtype=np.intp)
    )
    return least


def _spot(unit: Unit) -> tuple[object, ...]:
    """What a unit's fire solutions rest on: where its models stand and the inches range
    spells add to its weapons (GFF-R31)."""
    return (_placed(unit), range_bonus(unit))


def _extent(unit: Unit) -> float:
    """How far a model's base reaches from its centre at most: its radius (`Model.base` is
    round, of the profile's diameter)."""
    return unit.profile.base / 2


def _effects(unit: Unit) -> dict[str, Any]:
    """The unit's lasting spells in its state data (absent when none, as before GFF-R28)."""
    if not unit.effects:
        return {}
    return {"effects": [_effect_data(e) for e in unit.effects]}


def _effect_data(e: SpellEffect) -> list[Any]:
    """A lasting spell as state data; granted rules and moves say what and until when."""
    data: list[Any] = [e.spell, e.kind, e.value, e.when, e.lasts]
    if e.kind in ("rule", "move", "range", "mark", "attacks", "reroll", "in_dangerous"):
        data += [e.rule or e.far, e.trigger]
    return data


def _models(uid: str, profile: Any) -> list[Model]:
    """The unit's models with their weapons: each Equipment goes to its first `count` models
    (ruling GFF-R3: casualties are taken from the last models, so special weapons last)."""
    loadouts: list[list[Any]] = [[] for _ in range(profile.size)]
    for item in profile.equipment:
        for index in range(item.count):
            loadouts[index].append(item.weapon)
    return [Model(f"{uid}.{n + 1}", 0.0, 0.0, tuple(w)) for n, w in enumerate(loadouts)]


_COMPASS_8 = tuple(
    (math.sin(math.radians(angle)), math.cos(math.radians(angle))) for angle in range(0, 360, 45)
)  # the sampled directions of Advance and Rush


@cache
def _grid_visits(width: float, depth: float, zone: bytes | None) -> tuple[tuple[float, float], ...]:
    """The points of a 3" grid on a `width` × `depth` table (inside `zone`, given as WKB,
    when there is one), in an order that spreads over the whole area: the same for every
    game of a table size, so found once per zone (the geometry's WKB is its exact key)."""
    grid = [(x, y) for x in _steps(width, 3.0) for y in _steps(depth, 3.0)]
    if zone is not None and grid:
        xs, ys = np.array(grid).T
        inside = shapely.contains_xy(shapely.from_wkb(zone), xs, ys)
        grid = [p for p, within in zip(grid, inside, strict=True) if within]
    stride = _coprime_stride(len(grid))
    return tuple(grid[(n * stride) % len(grid)] for n in range(len(grid)))


def _coprime_stride(size: int) -> int:
    """A stride that visits every index of `size` once, jumping far each time."""
    stride = max(1, int(size * 0.618))
    while size and math.gcd(stride, size) != 1:
        stride += 1
    return stride


def _steps(length: float, step: float) -> list[float]:
    count = int(length // step)
    return [step / 2 + i * step for i in range(count)]
