"""The state of a Fistful of TOWs 3 game: stands, units, templates, the turn and phase."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter
from typing import Any

from warbench.rulesets.fft3.profiles import StandProfile

Point = tuple[float, float]

RADIUS = {"tank": 0.625, "ifv": 0.625, "infantry": 0.375}
"""Base radii in inches (ruling R3): vehicles on 1¼" rounds, infantry on pennies (¾")."""


@dataclass(slots=True)
class Stand:
    """One stand: a vehicle or an infantry platoon."""

    id: str
    unit: str
    player: str
    profile: StandProfile
    x: float = 0.0
    y: float = 0.0
    facing: float = 0.0
    alive: bool = True
    deployed: bool = False
    carried_by: str | None = None  # the IFV an infantry stand rides in
    carrying: str | None = None  # an IFV's passenger
    suppressed_by: str | None = None  # the player whose artillery suppressed it
    overwatch: bool = False
    mp_spent: float = 0.0  # this movement phase
    mp_lost: float = 0.0  # this movement phase: suppression, debarking
    strategic: bool = False  # moved strategically this turn: no fire
    attacks: list[str] = field(default_factory=list)  # attack kinds made since its half began
    fire_checked: bool = False  # took a quality check from enemy fire this turn
    artillery_checked: bool = False  # took a quality check from artillery this turn
    cohesive: bool = True  # began and ended its last movement phase in cohesion
    began_in_cohesion: bool = True

    @property
    def radius(self) -> float:
        """Its base radius."""
        return RADIUS[self.profile.kind]

    @property
    def at(self) -> Point:
        """Its centre."""
        return (self.x, self.y)

    @property
    def on_table(self) -> bool:
        """Alive, deployed and not riding in an IFV."""
        return self.alive and self.deployed and self.carried_by is None

    @property
    def name(self) -> str:
        """`s1t2 Soviet Tank`, as the log writes it."""
        return f"{self.id} {self.profile.name}"

    @property
    def suppressed(self) -> bool:
        """Suppressed by enemy artillery."""
        return self.suppressed_by is not None

    def mp_left(self) -> float:
        """Movement points left this phase (doubled when moving strategically)."""
        total = self.profile.mov * (2 if self.strategic else 1)
        return total - self.mp_spent - self.mp_lost

    def copy(self) -> Stand:
        """A copy with its own list of attacks (a third of `dataclasses.replace`'s time)."""
        twin = Stand(*_stand_fields(self))
        twin.attacks = list(self.attacks)
        return twin

    def gap(self, other: Stand) -> float:
        """Edge-to-edge distance to `other`."""
        return max(0.0, math.dist(self.at, other.at) - self.radius - other.radius)


_stand_fields = attrgetter(*(f.name for f in fields(Stand)))


@dataclass(slots=True)
class Unit:
    """A unit: a NATO company or a Soviet battalion."""

    id: str
    player: str
    organisation: str
    stands: list[str]
    lost_this_turn: int = 0
    broken_turn: int | None = None  # the turn it first lost 2/3 of its stands
    checked_turn: int = 0  # last turn it took a casualty check

    def copy(self) -> Unit:
        """A copy with its own list of stands (quicker than `dataclasses.replace`)."""
        twin = Unit(*_unit_fields(self))
        twin.stands = list(self.stands)
        return twin


_unit_fields = attrgetter(*(f.name for f in fields(Unit)))


@dataclass(slots=True)
class Template:
    """An artillery template on the table until its owner's next artillery phase."""

    owner: str
    x: float
    y: float
    attacked: list[str] = field(default_factory=list)  # stands it has attacked

    @property
    def at(self) -> Point:
        """Its centre."""
        return (self.x, self.y)


@dataclass(slots=True)
class Shot:
    """One declared attack: a stand, a weapon, and for overwatch the point along the move."""

    firer: str
    weapon: str
    along: float = 0.0


@dataclass(slots=True)
class State:
    """Everything that changes during a game (hashed and saved)."""

    phase: str  # deploy | artillery | movement | overwatch | fire | over
    player: str  # whose decision the phase is (the mover's, or the overwatching side's)
    order: tuple[str, str]  # who plays the attacker's half first
    stands: dict[str, Stand]
    units: dict[str, Unit]
    turn: int = 0
    half: int = 0  # 0: the first player's half of the turn, 1: the second's
    templates: list[Template] = field(default_factory=list)
    templates_left: int = 0
    groups: dict[str, list[Shot]] = field(default_factory=dict)  # declared fire by target
    resolved: list[str] = field(default_factory=list)  # targets resolved this fire phase
    leg: dict[str, Any] = field(default_factory=dict)  # the move waiting on overwatch
    held: dict[str, str] = field(default_factory=dict)  # objective number -> holder
    winner: str | None = None
    reason: str = ""
    score: dict[str, float] = field(default_factory=dict)

    def copy(self) -> State:
        """A deep copy (profiles are immutable and shared)."""
        return replace(
            self,
            stands={k: s.copy() for k, s in self.stands.items()},
            units={k: u.copy() for k, u in self.units.items()},
            templates=[replace(t, attacked=list(t.attacked)) for t in self.templates],
            groups={k: [replace(s) for s in v] for k, v in self.groups.items()},
            resolved=list(self.resolved),
            leg=leg_copy(self.leg),
            held=dict(self.held),
            score=dict(self.score),
        )

    @property
    def mover(self) -> str:
        """The player whose half of the turn it is."""
        return self.order[self.half]

    def freeze(self, only: Iterable[Stand] | None = None) -> Frozen:
        """What `copy` copies, as plain values: quicker to take than a copy (the game takes
        one before every action, and rarely needs it back); `thaw` makes the copy. With
        `only`, of the stands just those (an action that can change no other stand: `thaw`
        then takes the others as they are)."""
        return (
            _state_fields(self),
            [
                (_stand_fields(x), list(x.attacks))
                for x in (self.stands.values() if only is None else only)
            ],
            [(_unit_fields(u), list(u.stands)) for u in self.units.values()],
            [(t.owner, t.x, t.y, list(t.attacked)) for t in self.templates],
            [(k, [(x.firer, x.weapon, x.along) for x in v]) for k, v in self.groups.items()],
            (list(self.resolved), leg_copy(self.leg), dict(self.held), dict(self.score)),
        )

    def enemy(self, player: str) -> str:
        """The other player."""
        return self.order[1] if player == self.order[0] else self.order[0]

    def side_stands(self, player: str) -> list[Stand]:
        """`player`'s stands on the table (`Stand.on_table` spelled out: asked very often)."""
        return [
            s
            for s in self.stands.values()
            if s.player == player and s.alive and s.deployed and s.carried_by is None
        ]

    def unit_stands(self, unit: str) -> list[Stand]:
        """The living stands of `unit` (passengers included)."""
        return [self.stands[i] for i in self.units[unit].stands if self.stands[i].alive]


def leg_copy(leg: dict[str, Any]) -> dict[str, Any]:
    """A copy of a move waiting on overwatch with its own list of the overwatch fire declared
    at it (the only part changed in place)."""
    return {**leg, "shots": list(leg["shots"])} if "shots" in leg else dict(leg)


_state_fields = attrgetter(*(f.name for f in fields(State)))

Frozen = tuple[
    tuple[Any, ...],
    list[tuple[tuple[Any, ...], list[str]]],
    list[tuple[tuple[Any, ...], list[str]]],
    list[tuple[str, float, float, list[str]]],
    list[tuple[str, list[tuple[str, str, float]]]],
    tuple[list[str], dict[str, Any], dict[str, str], dict[str, float]],
]
"""`State.freeze`: the state's fields, then each stand's and unit's fields with its own list,
each template, each group of declared fire, and copies of the other lists and mappings."""


def thaw(frozen: Frozen, rest: dict[str, Stand] | None = None) -> State:
    """A state equal to the one `frozen` was taken from when it was taken (a fresh copy each
    time: nothing is shared with it or with other thawed copies but the profiles). A freeze
    of only some stands takes the others from `rest` (the same objects, in its order)."""
    top, stands, units, templates, groups, (resolved, leg, held, score) = frozen
    state = State(*top)
    state.stands = {}
    for values, attacks in stands:
        stand = Stand(*values)
        stand.attacks = list(attacks)
        state.stands[stand.id] = stand
    if rest is not None:
        state.stands = {k: state.stands.get(k, x) for k, x in rest.items()}
    state.units = {}
    for values, members in units:
        unit = Unit(*values)
        unit.stands = list(members)
        state.units[unit.id] = unit
    state.templates = [Template(o, x, y, list(hit)) for o, x, y, hit in templates]
    state.groups = {k: [Shot(*shot) for shot in v] for k, v in groups}
    state.resolved = list(resolved)
    state.leg, state.held, state.score = leg_copy(leg), dict(held), dict(score)
    return state
