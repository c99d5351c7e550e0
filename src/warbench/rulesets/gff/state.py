"""The state of a Grimdark Future Firefight game: models, units, markers, the round."""

from __future__ import annotations

import copy
import dataclasses
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from warbench.core.geometry import Base
from warbench.rulesets.gff.profiles import UnitProfile, Weapon
from warbench.rulesets.gff.spells_checks import CONDITIONS

_T = TypeVar("_T")


_FIELDS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}  # each dataclass's field getter


def _shallow(item: _T) -> _T:
    """A field-by-field copy of a dataclass (its __init__ given every field: several times
    faster than `dataclasses.replace`, which snapshots of every step would pay)."""
    cls = type(item)
    values = _FIELDS.get(cls)
    if values is None:
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        values = _FIELDS[cls] = operator.attrgetter(*names)
    twin: _T = cls(*values(item))
    return twin


def _copied(value: _T) -> _T:
    """A deep copy of JSON-like data (dicts, lists and scalars; anything else through
    `copy.deepcopy`), without deepcopy's bookkeeping for the common case."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}  # type: ignore[return-value]
    if isinstance(value, list):
        return [_copied(v) for v in value]  # type: ignore[return-value]
    if value is None or isinstance(value, str | int | float):
        return value
    return copy.deepcopy(value)


@lru_cache(maxsize=8192, typed=True)
def _round_base(x: float, y: float, diameter: float) -> Base:
    """A round base at x,y: bases are immutable, so one serves every model standing there
    (building one costs several times the look-up). The cache is typed, so 1 and 1.0 differ."""
    return Base((x, y), diameter)


@dataclass(slots=True)
class Model:
    """One model: where it stands, its weapons, and its wound markers."""

    id: str
    x: float
    y: float
    weapons: tuple[Weapon, ...]
    wounds: int = 0
    z: float = 0.0  # the height it stands at, kept by the game under the jumping rules

    def base(self, diameter: float) -> Base:
        """Its round base."""
        x, y = self.x, self.y
        if x and y:  # (a zero's sign would be lost in the cache: 0.0 == -0.0)
            return _round_base(x, y, diameter)
        return Base((x, y), diameter)


@dataclass(frozen=True, slots=True)
class SpellEffect:
    """A lasting spell on a unit (GFF-R28): `value` to its `kind` of roll (`to_hit`,
    `defense`, `morale`), for `when` it attacks (any, melee, shooting), until the end of
    the round (`lasts: round`) or used up the next time it applies (`lasts: next`).
    Kind `rule` grants special rule `rule` (rated `value`, 0 unrated; weapon rules on the
    weapons `when` picks); `mark` gives it to the units attacking this one; `move` adds
    `value` inches to Advance and `far` to Rush and Charge; `range` adds `value` inches to
    its ranged weapons; `attacks` adds `value` attacks to its weapons (`when` picks which,
    GFF-R33); these lasting `next` are used up when `trigger` happens (GFF-R31)."""

    spell: str
    kind: str
    value: int
    when: str = "any"
    lasts: str = "round"
    rule: str = ""
    far: int = 0
    trigger: str = ""


@dataclass(slots=True)
class Unit:
    """A unit in play (or in reserve): its profile, its models, and its markers."""

    id: str
    side: str
    profile: UnitProfile
    models: list[Model]
    deployed: bool = False
    reserve: str | None = None  # "ambush" | "scout" while set aside
    arrived: int = 0  # round it deployed by Ambush (cannot seize or contest that round)
    activated: bool = False
    shaken: bool = False
    fatigued: bool = False
    tokens: int = 0  # Caster spell tokens
    used_limited: set[str] = field(default_factory=set)
    shield: bool = False  # spell: +1 Defense until the end of the round
    focus: bool = False  # spell: +1 to hit until the end of the round
    effects: tuple[SpellEffect, ...] = ()  # lasting spells (immutable, shared by copies)
    moved: bool = False  # this activation (Indirect)
    charging: bool = False  # this activation (Impact, Furious, Thrust)

    @property
    def alive(self) -> bool:
        """A unit with no models left is destroyed."""
        return bool(self.models)

    @property
    def name(self) -> str:
        """`r3 Battle Brothers` as written in the log."""
        return f"{self.id} {self.profile.name}"

    def bases(self) -> list[Base]:
        """The bases of its models."""
        d = self.profile.base
        return [m.base(d) for m in self.models]

    def centre(self) -> tuple[float, float]:
        """The mean position of its models."""
        n = len(self.models)
        return (sum(m.x for m in self.models) / n, sum(m.y for m in self.models) / n)

    def all_have(self, rule: str) -> bool:
        """Unit rules apply to all its models (army lists give rules per unit); a spell may
        grant one for a while (GFF-R31), maybe only after a Hold or an Advance (GFF-R37)."""
        return self.profile.has(rule) or (
            bool(self.effects)
            and any(
                e.kind == "rule"
                and e.rule == rule
                and (e.when not in CONDITIONS or (e.when == "advance") == self.moved)
                for e in self.effects
            )
        )

    def rating(self, name: str) -> int | None:
        """The rating of unit rule `name`, its own or granted by a spell (the higher)."""
        own = self.profile.rating(name)
        granted = [e.value for e in self.effects if e.kind == "rule" and e.rule == name]
        if not granted:
            return own
        return max(own or 0, *granted)


@dataclass(slots=True)
class Marker:
    """An objective marker and who controls it (None = neutral)."""

    x: float
    y: float
    owner: str | None = None


@dataclass(slots=True)
class State:
    """Everything that changes during a game (hashed and saved)."""

    phase: str
    player: str
    units: dict[str, Unit]
    round: int = 0
    markers: list[Marker] = field(default_factory=list)
    markers_to_place: int = 0
    edges: dict[str, str] = field(default_factory=dict)
    deploy_first: str = "red"
    first_done: str | None = None  # who finished activating first this round
    active: str | None = None  # the unit whose activation is being resolved
    step: dict[str, Any] = field(default_factory=dict)  # the resolution in progress
    starting_units: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    reason: str = ""
    score: dict[str, float] = field(default_factory=dict)

    def copy(self) -> State:
        """A deep copy for restoring a failed resolution; profiles and weapons are immutable
        and shared."""
        units = {}
        for uid, u in self.units.items():
            unit = _shallow(u)
            unit.models = [_shallow(m) for m in u.models]
            unit.used_limited = set(u.used_limited)
            units[uid] = unit
        state = _shallow(self)
        state.units = units
        state.markers = [_shallow(m) for m in self.markers]
        state.edges = dict(self.edges)
        state.step = _copied(self.step)
        state.starting_units = dict(self.starting_units)
        state.score = dict(self.score)
        return state

    def side_units(self, side: str, *, deployed: bool = True) -> list[Unit]:
        """The living units of `side` (on the table, unless `deployed` is False)."""
        return [
            u
            for u in self.units.values()
            if u.side == side and u.alive and (u.deployed or not deployed)
        ]
