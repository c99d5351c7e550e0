"""A Grimdark Future Firefight opponent: plays the mission.

It takes objectives (advancing when it can still shoot, rushing when they are far), keeps
units in cover when it holds, charges when its expected melee damage beats what it would
take back, strikes back when that pays, casts its spells before firing (the one worth most
per token), and fires each weapon where it expects the most wounds. Ties break on its own
seeded generator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
import shapely

from warbench.ai.shuffle import shuffle
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.geometry import Base
from warbench.core.ruleset import Agent
from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff import spell_moves, spells_value
from warbench.rulesets.gff.actions import (
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
    Shift,
    StrikeBack,
    Tokens,
    Wait,
)
from warbench.rulesets.gff.ai_strike_back import strike_back_value
from warbench.rulesets.gff.attacks import Context
from warbench.rulesets.gff.game import GFFGame, other
from warbench.rulesets.gff.kernels import move_values
from warbench.rulesets.gff.melee import melee_weapons
from warbench.rulesets.gff.odds import expected_melee
from warbench.rulesets.gff.odds import expected_wounds as exact_wounds
from warbench.rulesets.gff.profiles import Weapon
from warbench.rulesets.gff.shooting import weapon_named
from warbench.rulesets.gff.spells import spell_named
from warbench.rulesets.gff.state import Marker, Unit


def hit_chance(quality: int) -> float:
    """P(quality test), 6 always and 1 never."""
    return min(5, max(1, 7 - quality)) / 6


def wound_chance(defense: int, ap: int) -> float:
    """P(a hit is not blocked)."""
    return 1 - min(5, max(1, 7 - (defense + ap))) / 6


def expected_wounds(attacker: Unit, weapon: Weapon, attacks: int, target: Unit) -> float:
    """Hits times unblocked share, a rough value of one volley."""
    quality = 2 if weapon.rating("Reliable") is not None else attacker.profile.quality
    ap = weapon.rating("AP") or 0
    return attacks * hit_chance(quality) * wound_chance(target.profile.defense, ap)


def melee_value(attacker: Unit, target: Unit) -> float:
    """Expected wounds of all the attacker's melee weapons on the target."""
    per_model: dict[Weapon, int] = {}
    for model in attacker.models:
        for weapon in model.weapons:
            if weapon.melee:
                per_model[weapon] = per_model.get(weapon, 0) + weapon.attacks
    value = sum(expected_wounds(attacker, w, n, target) for w, n in per_model.items())
    impact = attacker.profile.rating("Impact") or 0
    return value + impact * len(attacker.models) * 5 / 6 * wound_chance(target.profile.defense, 0)


def _placed(unit: Unit) -> tuple[tuple[str, float, float], ...]:
    """Where each of the unit's models stands (a model's id fixes its weapons and base)."""
    return tuple((m.id, m.x, m.y) for m in unit.models)


_PASSIVE = Edge | Wait | Done | NoStrikeBack | Idle | Consolidate | Reserve


def worth(unit: Unit) -> float:
    """How much a unit is worth killing: points per remaining model share."""
    return unit.profile.cost / max(1, unit.profile.size)


class FirefightAI(Agent):
    """Scores each legal action by the mission and the expected dice, picks the best."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._memo: dict[tuple[object, ...], float] = {}
        self._free: dict[str, list[Marker]] = {}
        self._where: dict[str, int] = {}  # `_spot`, by unit
        self._field: object = None  # the table the lasting values below were found on
        self._lasting: dict[tuple[object, ...], float] = {}  # values of unchanged positions
        self._spots: dict[tuple[tuple[str, float, float], ...], int] = {}  # `_spot`s
        self._zone_gaps: dict[tuple[object, ...], list[float]] = {}  # `_marker_scores`
        self._marks: tuple[tuple[float, float], ...] | None = None  # the markers' places

    def choose(self, game: Game, player: str) -> Action:
        assert isinstance(game, GFFGame)
        (action,) = self._best_first(game, player, 1)
        return action

    def ranked(self, game: Game, player: str) -> list[Action]:
        """Every legal action, best first (the first is what `choose` would take): the
        search agent's candidates."""
        assert isinstance(game, GFFGame)
        return self._best_first(game, player, None)

    def _best_first(self, game: GFFGame, player: str, most: int | None) -> list[Action]:
        """Up to `most` legal actions, best scored first: every candidate is scored, in the
        order listed (a score does not depend on the order), and ties go by a shuffle of
        their places (the same draws and order as shuffling the actions); legality is
        checked only until `most` are found (the sampled moves are scored by their points
        and made only when checked: `candidates_unmade`)."""
        self._memo, self._free, self._where = {}, {}, {}  # of the position, while scoring
        self._marks = None
        if game.field is not self._field:
            self._field, self._lasting, self._spots = game.field, {}, {}
            self._zone_gaps = {}
        found: list[Action] = []
        with game.listing():
            actions = game.candidates_unmade(player)
            places = list(range(len(actions)))
            shuffle(self._rng, places)
            keys = [-score for score in self._scores(game, player, actions)]
            for n in sorted(places, key=keys.__getitem__):
                action = actions[n]
                if action is None:
                    action = game.move_at(n)
                if game.legal_now(action, player):
                    found.append(action)
                    if len(found) == most:
                        break
        if not found:
            raise ValueError(f"no legal action for {player}")
        return found

    def _scores(self, game: GFFGame, player: str, actions: Sequence[Action | None]) -> list[float]:
        """Each action's score: Advance, Rush (None while not made) and PlaceMarker all at
        once, the others by `_score`."""
        scores = self._move_scores(game, actions)
        for n, value in self._marker_scores(game, player, actions).items():
            scores[n] = value
        return [
            found if found is not None else self._score(game, player, cast(Action, action))
            for found, action in zip(scores, actions, strict=True)
        ]

    def _remember(self, key: tuple[object, ...], value: Callable[[], float]) -> float:
        """`value()` computed once per decision for `key`."""
        if key not in self._memo:
            self._memo[key] = value()
        return self._memo[key]

    def _attacks(self, game: GFFGame, unit: Unit, weapon: Weapon, target: Unit) -> int:
        """The attacks the unit fires with `weapon` at `target` from where it stands."""
        key = (id(weapon), self._spot(unit), self._spot(target), unit.effects)
        if key not in self._lasting:
            self._lasting[key] = game.fire_solution(unit, weapon, target).attacks
        return int(self._lasting[key])

    def _spot(self, unit: Unit) -> int:
        """A number for `_placed` of the unit (the same places, the same number, while the
        lasting values are kept; never reused), once per decision: lasting values are keyed
        by it, so a look-up hashes an int rather than every model's place."""
        found = self._where.get(unit.id)
        if found is None:
            placed = _placed(unit)
            found = self._spots.get(placed)
            if found is None:
                found = self._spots[placed] = len(self._spots)
            self._where[unit.id] = found
        return found

    def _volley(
        self, game: GFFGame, unit: Unit, weapon: Weapon, attacks: int, target: Unit
    ) -> float:
        """`expected_wounds` of a volley; with spells on either unit, exactly from the play
        code instead (`odds.expected_wounds`: granted rules, marks, extra attacks, GFF-R33),
        kept while both units stand as they stood with the same spells."""
        if not (unit.effects or target.effects) or not attacks:
            return expected_wounds(unit, weapon, attacks, target)
        state = (target.models[-1].wounds, target.shaken, target.effects)
        mine = (self._spot(unit), unit.effects, unit.moved)
        key = ("exact", id(weapon), attacks, mine, self._spot(target), state)
        if key not in self._lasting:
            shot = game.fire_solution(unit, weapon, target)
            ctx = Context(melee=False, distance=shot.distance, moved=unit.moved)
            self._lasting[key] = exact_wounds(unit, weapon, attacks, target, ctx)
        return self._lasting[key]

    def _melee_value(self, attacker: Unit, target: Unit, charging: bool = True) -> float:
        """`melee_value`, kept while the attacker has the same models (their ids fix their
        weapons), the same spells on it, and the target the same Defense; with spells on
        either unit, exactly from the play code instead (`odds.expected_melee`, GFF-R34),
        kept while everything it reads is unchanged (GFF-R40): the attacker's fatigue,
        Focus and having moved (a granted rule's condition), and the target's models, wound
        markers, Shaken, Shield, spells and having moved."""
        models = tuple(m.id for m in attacker.models)
        key: tuple[object, ...] = ("melee", attacker.id, models, attacker.effects)
        key += (target.profile.defense,)
        exact = bool(attacker.effects or target.effects)
        if exact:
            mine = (charging, attacker.fatigued, attacker.focus, attacker.moved)
            held = tuple(m.id for m in target.models)
            marks = (target.models[-1].wounds if held else 0, target.shaken, target.shield)
            key += (*mine, target.id, held, *marks, target.effects, target.moved)
        if key not in self._lasting:
            self._lasting[key] = (
                expected_melee(attacker, target, charging=charging)
                if exact
                else melee_value(attacker, target)
            )
        return self._lasting[key]

    def _score(self, game: GFFGame, player: str, action: Action) -> float:
        s = game.state
        if isinstance(action, _PASSIVE):
            return self._passive(game, player, action)
        if isinstance(action, Deploy):
            return self._deploy_value(game, s.units[action.unit], action.at)
        if isinstance(action, Hold):
            unit = s.units[action.unit]
            at = unit.centre()
            return (
                self._shooting_value(game, unit)
                + 3.0 * self._holding(game, unit, at)
                - 0.15 * self._nearest_free_marker(game, unit, at)
            )
        if isinstance(action, Charge):
            unit, target = s.units[action.unit], s.units[action.target]
            gain = self._melee_value(unit, target) * worth(target)
            loss = self._melee_value(target, unit, charging=False) * worth(unit)
            return 2.0 * (gain - 0.7 * loss) + (3.0 if self._on_marker(game, target) else 0.0)
        if isinstance(action, Fire):
            unit, target = s.units[action.unit], s.units[action.target]
            weapon = weapon_named(unit, action.weapon)
            assert weapon is not None
            attacks = self._attacks(game, unit, weapon, target)
            bonus = 2.0 if self._on_marker(game, target) else 1.0
            return 10 + bonus * self._volley(game, unit, weapon, attacks, target) * worth(target)
        if isinstance(action, Cast):
            return self._spell_value(game, action)
        if isinstance(action, Shift):  # a spell's move out of turn (GFF-R33)
            return spell_moves.value(s, action, player)
        if isinstance(action, Tokens):
            caster = s.units.get(str(s.step.get("caster")))
            helping = caster is not None and caster.side == player
            return 1.0 if helping and action.count == 1 else -1.0
        if isinstance(action, StrikeBack):
            charger, defender = s.units[s.step["charger"]], s.units[s.step["defender"]]
            if charger.effects or defender.effects:  # GFF-R36
                return strike_back_value(defender, charger) * worth(charger)
            return 1.0 if melee_weapons(defender, charger, lambda w: True) else -1.0
        return 0.0

    def _spell_value(self, game: GFFGame, action: Cast) -> float:
        """Casting costs only tokens and comes before firing: above any shot, by the spell's
        expected worth per token (`spells_value`, GFF-R38); not cast when it is worth
        nothing or its own units it reaches outweigh."""
        s = game.state
        caster = s.units[action.unit]
        spell = spell_named(caster, action.spell)
        assert spell is not None
        targets = game.cast_targets(caster, spell, action.target)
        value = spells_value.value(s, caster, spell, targets, action.target, worth, wound_chance)
        return 100.0 + value / spell.cost if value > 0 else value  # not when it hurts its own

    def _move_scores(self, game: GFFGame, actions: Sequence[Action | None]) -> list[float | None]:
        """The scores of Advance and Rush (None for other actions), all at once (compiled,
        `kernels.move_values`): markers to take there, the nearest marker free for the unit,
        and for Advance the volley after. The moves come in runs, a unit's of a kind one
        after the other, whose points the game keeps as arrays (`move_runs`)."""
        scores: list[float | None] = [None] * len(actions)
        if game.state.phase != "activate":  # the only step that lists moves
            return scores
        runs = [run for run in game.move_runs(actions) if len(run.points)]
        if not runs:
            return scores
        order: dict[str, int] = {}  # each moving unit's row, in the order first met
        units: list[Unit] = []
        for run in runs:
            if order.setdefault(run.unit.id, len(order)) == len(units):
                units.append(run.unit)
        rows = [order[run.unit.id] for run in runs]
        sizes = [len(run.points) for run in runs]
        markers = game.state.markers
        spots = np.array([(m.x, m.y) for m in markers], dtype=np.float64).reshape(-1, 2)
        free = [self._free_for(game, unit) for unit in units] if markers else []
        mine = [any(m is f for f in fs) for fs in free for m in markers]
        shooting = {row for row, run in zip(rows, runs, strict=True) if run.advancing}
        volley = [
            0.5 * self._shooting_value(game, unit) if n in shooting else 0.0
            for n, unit in enumerate(units)
        ]
        values: list[float] = move_values(
            np.concatenate([run.points for run in runs]),
            np.repeat(np.array(rows, dtype=np.intp), sizes),
            spots,
            np.array([m.owner != units[0].side for m in markers], dtype=np.bool_),
            np.array([3.0 + u.profile.base for u in units], dtype=np.float64),
            np.array(mine, dtype=np.bool_).reshape(len(units), len(markers)),
            np.repeat(np.array([run.advancing for run in runs], dtype=np.bool_), sizes),
            np.array(volley, dtype=np.float64),
        ).tolist()
        done = 0
        for run, size in zip(runs, sizes, strict=True):
            scores[run.start : run.start + size] = values[done : done + size]
            done += size
        return scores

    def _free_for(self, game: GFFGame, unit: Unit) -> list[Marker]:
        """`_free_markers` of the unit, once per decision (with those of its side's units)."""
        free = self._free.get(unit.id)
        if free is None:
            self._free.update(self._free_markers(game, unit))
            free = self._free[unit.id]
        return free

    def _marker_scores(
        self, game: GFFGame, player: str, actions: Sequence[Action | None]
    ) -> dict[int, float]:
        """The scores of PlaceMarker by place in `actions`, all at once: minus the distance
        to our deployment zone (markers placed near our side), kept for the same points and
        zone (each step lists the same grid)."""
        if game.state.phase != "markers":  # the only step that places markers
            return {}
        where = [n for n, a in enumerate(actions) if isinstance(a, PlaceMarker)]
        if not where:
            return {}
        edge = game.state.edges[player]
        points = tuple(cast(PlaceMarker, actions[n]).at for n in where)
        key = ("zone gaps", edge, points)
        gaps = self._zone_gaps.get(key)
        if gaps is None:
            zone = game.field.deployment_zone(edge)  # type: ignore[arg-type]
            spots = shapely.points(np.array(points, dtype=np.float64))
            gaps = self._zone_gaps[key] = shapely.distance(zone, spots).tolist()
        return {n: -gap for n, gap in zip(where, gaps, strict=True)}

    def _passive(self, game: GFFGame, player: str, action: Action) -> float:
        if isinstance(action, Idle):
            return 100.0 if game.state.units[action.unit].shaken else -100.0
        if isinstance(action, Reserve):
            return -50.0
        if isinstance(action, Done):
            return 0.0 if game.state.phase != "shoot" else 5.0
        return 0.0

    def _deploy_value(self, game: GFFGame, unit: Unit, at: tuple[float, float]) -> float:
        """A placement's score: minus the distance to the nearest marker, plus its cover;
        kept for the same point, base and markers."""
        if self._marks is None:
            self._marks = tuple((m.x, m.y) for m in game.state.markers)
        key = ("deploy", at, unit.profile.base, self._marks)
        if key not in self._lasting:
            self._lasting[key] = -self._nearest_marker_distance(game, at) + self._cover_bonus(
                game, unit, at
            )
        return self._lasting[key]

    def _nearest_marker_distance(self, game: GFFGame, at: tuple[float, float]) -> float:
        return min((math.hypot(m.x - at[0], m.y - at[1]) for m in game.state.markers), default=0.0)

    def _nearest_free_marker(self, game: GFFGame, unit: Unit, at: tuple[float, float]) -> float:
        """Distance to the nearest marker we do not hold and no other unit of ours is taking."""
        free = self._free_for(game, unit)
        return min((math.hypot(m.x - at[0], m.y - at[1]) for m in free), default=0.0)

    def _free_markers(self, game: GFFGame, unit: Unit) -> dict[str, list[Marker]]:
        """The markers free for the unit and for each unit of its side on the table: those
        its side does not hold that no other unit of the side is taking (its centre within
        3"); else all it does not hold; else all. Who takes each marker is found once."""
        side = game.state.side_units(unit.side)
        centres = [u.centre() for u in side]
        markers = game.state.markers
        theirs = [m for m in markers if m.owner != unit.side]
        takers = [
            [n for n, (fx, fy) in enumerate(centres) if math.hypot(fx - m.x, fy - m.y) <= 3.0]
            for m in theirs
        ]
        found: dict[str, list[Marker]] = {}
        for n, u in enumerate(side if any(u is unit for u in side) else [*side, unit]):
            free = [m for m, by in zip(theirs, takers, strict=True) if all(k == n for k in by)]
            found[u.id] = free or list(theirs) or markers
        return found

    def _holding(self, game: GFFGame, unit: Unit, at: tuple[float, float]) -> float:
        """Markers within 3" of the unit's centre that we do not own yet."""
        return sum(
            1.0
            for m in game.state.markers
            if math.hypot(m.x - at[0], m.y - at[1]) <= 3.0 + unit.profile.base
            and m.owner != unit.side
        )

    def _on_marker(self, game: GFFGame, unit: Unit) -> bool:
        """Whether the unit's centre is within 4" of a marker (once per decision)."""

        def near() -> float:
            cx, cy = unit.centre()
            return float(any(math.hypot(m.x - cx, m.y - cy) <= 4.0 for m in game.state.markers))

        return self._remember(("on-marker", unit.id), near) > 0

    def _cover_bonus(self, game: GFFGame, unit: Unit, at: tuple[float, float]) -> float:
        key = ("cover", at, unit.profile.base)
        if key not in self._lasting:
            base = Base(at, unit.profile.base)
            self._lasting[key] = 1.0 if bfm.in_cover_terrain(base, game.field, mostly=True) else 0.0
        return self._lasting[key]

    def _shooting_value(self, game: GFFGame, unit: Unit) -> float:
        return self._remember(("shooting", unit.id), lambda: self._best_volley(game, unit))

    def _best_volley(self, game: GFFGame, unit: Unit) -> float:
        """The best `_volley` of the unit's first model's ranged weapons at any enemy (the
        best at each enemy, `_best_at`)."""
        best = 0.0
        for enemy in game.state.side_units(other(unit.side)):
            best = max(best, self._best_at(game, unit, enemy))
        return best

    def _best_at(self, game: GFFGame, unit: Unit, enemy: Unit) -> float:
        """The best `_volley` of the unit's first model's ranged weapons at the enemy; with
        no spells on either, kept while both stand as they stood (it reads only their places
        and fixed profiles then)."""
        if unit.effects or enemy.effects:
            return self._find_best_at(game, unit, enemy)
        key = ("best", self._spot(unit), self._spot(enemy))
        if key not in self._lasting:
            self._lasting[key] = self._find_best_at(game, unit, enemy)
        return self._lasting[key]

    def _find_best_at(self, game: GFFGame, unit: Unit, enemy: Unit) -> float:
        best = 0.0
        for model in unit.models[:1]:
            for weapon in model.weapons:
                if not weapon.melee:
                    attacks = self._attacks(game, unit, weapon, enemy)
                    best = max(best, self._volley(game, unit, weapon, attacks, enemy))
        return best
