"""The state of a TFT WW2 skirmish: men with facing and stance, squads, vehicles, buildings."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from warbench.core.geometry import Base

MAN_BASE = 1.0  # inches: a 25 mm round base
TANK_WIDTH, TANK_LENGTH = 3.0, 6.0  # inches (ours)


@dataclass(slots=True)
class Man:
    """One soldier: attributes (halved when wounded), weapons, where he stands and faces."""

    id: str
    side: str
    squad: str
    rank: str  # Private | NCO | CO
    x: float
    y: float
    facing: float  # compass degrees, 0 = north (+y)
    weapon: str  # the firearm in his hands
    close_weapon: str  # bayonet, knife, club...
    grenades: int = 0
    radio: bool = False
    support: str | None = None  # an on-table indirect weapon he serves (6.1), e.g. a mortar
    stance: str = "standing"  # standing | prone
    wounded: bool = False
    status: str = "ok"  # ok | incapacitated | dead | fled | surrendered
    jam: int = 0  # 0 none, 1 jammed (INT), 2 jammed hard (INT -4)
    close_state: str = "ok"  # ok | dropped | broken
    action: str | None = None  # this turn's action
    moved: float = 0.0  # inches moved this turn
    shots: int = 0  # shots taken this turn
    last_target: str | None = None
    fired_this_round: bool = False
    fired_last_round: bool = False
    under_fire: bool = False
    under_fire_last_round: bool = False
    aim_target: str | None = None
    anti_tank: str | None = None  # a close-assault weapon (8.2): bazooka, panzerfaust...
    support_shots: int | None = None  # shots left of his support weapon (None: no limit)
    floor: int = 0  # 0 the ground floor (everyone outside), 1 the first floor up (F1)

    @property
    def active(self) -> bool:
        """Still in the fight."""
        return self.status == "ok"

    def base(self) -> Base:
        """His round base, facing where he faces."""
        return Base((self.x, self.y), MAN_BASE, facing=self.facing)

    def distance(self, other: Man) -> float:
        """Centre to centre, inches."""
        return math.hypot(self.x - other.x, self.y - other.y)


@dataclass(slots=True)
class Tank:
    """An AFV in play (8.0): where it is and faces, what is broken, how far it went."""

    id: str
    side: str
    key: str  # its profile in data/afvs.yaml
    x: float
    y: float
    facing: float
    status: str = "ok"  # ok | knocked out | abandoned | exploded
    immobilised: bool = False
    gun_out: bool = False
    mgs_out: bool = False
    jam: int = 0
    reversing: bool = False  # its crew failed a morale test
    spent: float = 0.0  # movement points spent this turn
    moved: float = 0.0  # inches this turn
    fired: bool = False
    under_fire: bool = False
    under_fire_last_round: bool = False
    action: str | None = None
    width: float = TANK_WIDTH
    length: float = TANK_LENGTH
    static: bool = False  # an anti-tank gun: never moves (ruling A11)

    @property
    def active(self) -> bool:
        """Still fighting."""
        return self.status == "ok"

    def base(self) -> Base:
        """Its footprint: its profile's, 3" wide and 6" long for a tank (ours)."""
        return Base((self.x, self.y), self.width, self.length, self.facing)


@dataclass(slots=True)
class Squad:
    """A squad and its morale."""

    id: str
    side: str
    name: str
    quality: str = "regular"  # green | regular | elite
    fleeing: bool = False
    casualties: int = 0
    lost_this_round: int = 0
    area_attack: bool = False  # under air, artillery or flame attack this round
    air_flame_rocket: bool = False  # under air, flame or rocket attack this round (-4)
    co_lost: bool = False  # its side's (nearest) CO fell this round
    tested: int = 0  # the round of its last morale check


@dataclass(slots=True)
class State:
    """Everything that changes during a game (hashed and saved)."""

    phase: str
    side: str  # whose turn it is
    player: str  # who must decide now
    men: dict[str, Man]
    squads: dict[str, Squad]
    round: int = 1
    first: str = "red"
    step: dict[str, Any] = field(default_factory=dict)
    collapsed: list[str] = field(default_factory=list)
    missions: dict[str, int] = field(default_factory=dict)  # off-table fire missions left
    tanks: dict[str, Tank] = field(default_factory=dict)
    building_hits: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    reason: str = ""
    score: dict[str, float] = field(default_factory=dict)

    def copy(self) -> State:
        """A deep copy for restoring a failed resolution (every field is plain data)."""
        man, squad, tank = _copier(Man), _copier(Squad), _copier(Tank)
        new = _copier(State)(self)  # as `dataclasses.replace`, its containers replaced below
        new.men = {k: man(m) for k, m in self.men.items()}
        new.squads = {k: squad(q) for k, q in self.squads.items()}
        new.tanks = {k: tank(t) for k, t in self.tanks.items()} if self.tanks else {}
        new.step = copy.deepcopy(self.step) if self.step else {}
        new.collapsed = list(self.collapsed)
        new.building_hits = dict(self.building_hits)
        new.missions = dict(self.missions)
        new.score = dict(self.score)
        return new

    def side_tanks(self, side: str) -> list[Tank]:
        """The AFVs of `side` still fighting."""
        return [t for t in self.tanks.values() if t.side == side and t.status == "ok"]

    def side_men(self, side: str) -> list[Man]:
        """The men of `side` still in the fight."""
        return [m for m in self.men.values() if m.side == side and m.status == "ok"]

    def in_fight(self, side: str) -> bool:
        """Whether `side` has a man or an AFV still fighting (`side_men` or `side_tanks`
        not empty), found without listing them: asked after every shot."""
        for m in self.men.values():
            if m.side == side and m.status == "ok":
                return True
        return any(t.side == side and t.status == "ok" for t in self.tanks.values())

    def squad_men(self, squad: str) -> list[Man]:
        """The men of a squad still in the fight."""
        return [m for m in self.men.values() if m.squad == squad and m.status == "ok"]


T = TypeVar("T")


def _copier(cls: type[T]) -> Callable[[T], T]:
    """A fast shallow copy of a slotted dataclass of plain values: a new object whose every
    field is set from the old, in code written once per class (as `dataclasses` writes its
    `__init__`). A state is copied at every step; this is 2-3x quicker than calling the
    class with every field, and `dataclasses.replace` is six times slower still."""
    if cls not in _COPIERS:
        names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        body = "".join(f"    new.{name} = obj.{name}\n" for name in names)
        source = f"def copy(obj):\n    new = make(cls)\n{body}    return new\n"
        scope: dict[str, Any] = {"make": object.__new__, "cls": cls}
        exec(source, scope)  # the source is built from the class's own field names
        _COPIERS[cls] = scope["copy"]
    return _COPIERS[cls]


_COPIERS: dict[type[Any], Callable[[Any], Any]] = {}
