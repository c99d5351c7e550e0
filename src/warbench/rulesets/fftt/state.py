"""The state of an FFTT battle: figures, flanking forces, melees, goo, eggs and corpses, and
where the sequence of play stands."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warbench.rulesets.fftt.profiles import Profile, forces, tables
from warbench.rulesets.fftt.table import Point, Table

# OPTIONAL RULES, the general's special abilities chart (2D6).
ROAD_RUNNER, CRACK_SHOOTER, IRON, CHAMELEON, STORM_BRINGER, DOC = 2, 3, 4, 5, 6, 7
FULL_METAL_JACKET, LUCKY_BASTARD, HAPPY_TRIGGER, BERSERK, GLIMMERING = 8, 9, 10, 11, 12


@dataclass
class Fig:
    """One figure. `where`: reserve (not yet deployed, behind the screen), flank (in hidden
    movement), table, dead."""

    id: str
    side: str
    race: str
    key: str
    elite: bool = False
    x: float = 0.0
    y: float = 0.0
    facing: float = 0.0
    wounds: int = 0
    ap: int = 0
    where: str = "reserve"
    flank: int | None = None
    out_of_ammo: bool = False
    light_shot: bool = False
    answered: bool = False
    corpses: int = 0
    sees: list[str] = field(default_factory=list)
    hatched: bool = False
    ability: int = 0  # the general's special ability (2D6 chart), 0 for none
    xp: int = 0  # OPTIONAL RULES, Experience: enemy FPs killed (only with the switch on)
    level: int = 0  # the floor of a building it stands on: 0 ground, 1 upper (stairs)
    # its profile and half its base, set once (a figure's race and profile never change):
    # plain attributes, as CPython 3.11 never specialises reading a cached property
    prof: Profile = field(init=False, repr=False, compare=False)
    radius: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.prof = _PROFILES[self.race][self.key]
        self.radius = self.prof.base / 2

    @property
    def pos(self) -> Point:
        """Where it stands."""
        return (self.x, self.y)

    @property
    def fp(self) -> int:
        """Its force points: its profile's, 1 more if it is an elite troop (R57)."""
        return self.prof.worth(self.elite)

    def copy(self) -> Fig:
        """A copy (its list of figures seen copied too)."""
        return Fig.of_fields(self.__dict__)

    @staticmethod
    def of_fields(fields: dict[str, Any]) -> Fig:
        """A figure with a copy of these fields (a figure's `__dict__`, as `State.saved`
        keeps it; its list of figures seen copied too)."""
        twin = object.__new__(Fig)  # as copy.copy, without its generic machinery
        mine = fields.copy()
        mine["sees"] = list(mine["sees"])
        twin.__dict__ = mine
        return twin

    @property
    def on_table(self) -> bool:
        """Whether it is on the table and alive."""
        return self.where == "table"

    @property
    def max_wounds(self) -> int:
        """Its wounds; 'Iron Man': one more; Experience, 16 FPs: 'an extra wound'."""
        extra = (self.ability == IRON) + (self.xp >= _XP.wound)
        return self.prof.wounds + extra

    @property
    def actions(self) -> int:
        """Its actions a phase; 'Glimmering' and Experience at 24 FPs: 'one permanent extra
        action' each."""
        extra = (self.ability == GLIMMERING) + (self.xp >= _XP.action)
        return self.prof.actions + extra

    @property
    def veteran(self) -> bool:
        """Experience: 'When it reaches the 20 FPs, it is considered to have veteran status'."""
        return self.xp >= _XP.veteran

    @property
    def pace(self) -> float:
        """Its movement an action; 'Road runner': 2 cm more."""
        return self.prof.move + (2.0 if self.ability == ROAD_RUNNER else 0.0)

    @property
    def wounded(self) -> bool:
        """WOUNDS: half (rounded up) or more of its wounds taken."""
        return self.wounds >= -(-self.max_wounds // 2)


@dataclass
class Flank:
    """A flanking force: owner, flank, the owner's label, its figures, whether it entered."""

    side: str
    flank: str
    label: str
    figures: list[str]
    entered: bool = False


@dataclass
class Melee:
    """A hand-to-hand fight: one defender and the figures that charged it; rounds fought."""

    defender: str
    attackers: list[str]
    rounds: int = 0


@dataclass
class Goo:
    """Acid spitter goo: where, and the last turn it lasts."""

    x: float
    y: float
    until: int


@dataclass
class Egg:
    """A queen's egg: side, place and the turn at whose end it hatches."""

    side: str
    x: float
    y: float
    hatch: int


@dataclass
class Corpse:
    """A dead bio-form where it fell, which a queen may eat."""

    x: float
    y: float


@dataclass
class State:
    """Everything the hash covers."""

    stage: str
    player: str
    attacker: str
    table: Table
    figs: dict[str, Fig]
    flanks: list[Flank]
    races: dict[str, str]
    experience: bool = False  # OPTIONAL RULES: the experience switch of the scenario
    turn: int = 0
    phase: int = 0
    first: str = "red"
    initiative: str = ""  # GAME STEPS: turn 1's initiative winner, diced before deployment (R59)
    part: int = 0  # 0: the first player's part of a step, 1: the second's
    south: str = "red"
    revealed: bool = False
    to_enter: list[str] = field(default_factory=list)
    pending_wounds: dict[str, int] = field(default_factory=dict)
    last_hit: dict[str, str] = field(default_factory=dict)  # who dealt a figure's last wound
    melees: list[Melee] = field(default_factory=list)
    melee_at: int = 0
    allocation: dict[str, Any] = field(default_factory=dict)
    heals: list[list[str]] = field(default_factory=list)
    goo: list[Goo] = field(default_factory=list)
    eggs: list[Egg] = field(default_factory=list)
    corpses: list[Corpse] = field(default_factory=list)
    moving: dict[str, Any] = field(default_factory=dict)
    hatched: int = 0
    open_doors: frozenset[tuple[int, str]] = frozenset()  # (piece number, wall), R40
    winner: str | None = None
    reason: str = ""
    score: dict[str, float] = field(default_factory=dict)

    def copy(self) -> State:
        """A deep copy (the table is immutable and shared), built field by field."""
        twin = self._shell()
        twin.figs = {k: f.copy() for k, f in self.figs.items()}
        return twin

    def saved(self) -> Saved:
        """What `apply` keeps before every action, to put back if it fails: a deep copy of
        all but the figures, and each figure's fields — a copy of its `__dict__`, cheaper
        than a copy of the figure. The lists of figures seen are shared, not copied: they
        are only ever replaced (`FFTTGame._note_sight`), never changed in place."""
        return Saved(self._shell(), {k: f.__dict__.copy() for k, f in self.figs.items()})

    def _shell(self) -> State:
        """A deep copy of all but the figures (`figs` is this state's own dict)."""
        twin = State.__new__(State)
        twin.__dict__.update(self.__dict__)
        twin.flanks = [
            Flank(f.side, f.flank, f.label, list(f.figures), f.entered) for f in self.flanks
        ]
        twin.races = dict(self.races)
        twin.to_enter = list(self.to_enter)
        twin.pending_wounds = dict(self.pending_wounds)
        twin.last_hit = dict(self.last_hit)
        twin.melees = [Melee(m.defender, list(m.attackers), m.rounds) for m in self.melees]
        twin.allocation = _plain(self.allocation)
        twin.heals = [list(h) for h in self.heals]
        twin.goo = [Goo(g.x, g.y, g.until) for g in self.goo]
        twin.eggs = [Egg(e.side, e.x, e.y, e.hatch) for e in self.eggs]
        twin.corpses = [Corpse(c.x, c.y) for c in self.corpses]
        twin.moving = _plain(self.moving)
        twin.score = dict(self.score)
        return twin

    def table_figs(self) -> list[Fig]:
        """Every figure on the table, of both sides."""
        return [f for f in self.figs.values() if f.where == "table"]

    def side_figs(self, side: str) -> list[Fig]:
        """The side's figures on the table."""
        return [f for f in self.figs.values() if f.side == side and f.where == "table"]

    def second(self) -> str:
        """The player who moves second this turn."""
        return "blue" if self.first == "red" else "red"

    def acting(self) -> str:
        """The player whose part of the step it is."""
        return self.first if self.part == 0 else self.second()

    def edge(self, side: str) -> str:
        """The side's table edge: south or north."""
        return "south" if side == self.south else "north"

    def data(self) -> dict[str, Any]:
        """JSON data of the whole state (written out by hand: `asdict` is slow)."""
        return {
            "stage": self.stage,
            "player": self.player,
            "attacker": self.attacker,
            "table": self.table.as_data(),
            "figs": {
                f.id: [
                    f.side,
                    f.race,
                    f.key,
                    f.elite,
                    f.x,
                    f.y,
                    f.facing,
                    f.wounds,
                    f.ap,
                    f.where,
                    f.flank,
                    f.out_of_ammo,
                    f.light_shot,
                    f.answered,
                    f.corpses,
                    f.sees,
                    f.hatched,
                    f.ability,
                    f.xp,
                    f.level,
                ]
                for f in self.figs.values()
            },
            "flanks": [[f.side, f.flank, f.label, f.figures, f.entered] for f in self.flanks],
            "races": self.races,
            "experience": self.experience,
            "turn": self.turn,
            "phase": self.phase,
            "first": self.first,
            "initiative": self.initiative,
            "part": self.part,
            "south": self.south,
            "revealed": self.revealed,
            "to_enter": self.to_enter,
            "pending_wounds": self.pending_wounds,
            "last_hit": self.last_hit,
            "melees": [[m.defender, m.attackers, m.rounds] for m in self.melees],
            "melee_at": self.melee_at,
            "allocation": self.allocation,
            "heals": self.heals,
            "goo": [[g.x, g.y, g.until] for g in self.goo],
            "eggs": [[e.side, e.x, e.y, e.hatch] for e in self.eggs],
            "corpses": [[c.x, c.y] for c in self.corpses],
            "moving": self.moving,
            "hatched": self.hatched,
            "open_doors": sorted(self.open_doors),
            "winner": self.winner,
            "reason": self.reason,
            "score": self.score,
        }


@dataclass(frozen=True)
class Saved:
    """A state as `State.saved` keeps it: all but the figures, and each figure's fields."""

    shell: State
    figs: dict[str, dict[str, Any]]

    def restored(self) -> State:
        """The state as it was saved (a new copy each time)."""
        twin = self.shell._shell()
        twin.figs = {k: Fig.of_fields(fields) for k, fields in self.figs.items()}
        return twin


_PROFILES = forces()
_XP = tables().experience


def _plain(data: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, and immutable leaves), faster than
    `copy.deepcopy` for the small records a state keeps of a move or a melee."""
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def other(side: str) -> str:
    """The opposing side."""
    return "blue" if side == "red" else "red"
