"""The actions of A Fistful of TOWs 3 in their text form.

Points are `x,y` in inches from the south-west corner; facings are compass degrees (0 =
north, 90 = east); weapons are `gun`, `missile`, `law` and `ai` (infantry anti-infantry).
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.actions import Action, ActionCodec

Point = tuple[float, float]

WEAPONS = ("gun", "missile", "law", "ai")


@dataclass(frozen=True)
class Deploy(Action):
    """Deployment (ours): a unit placed in line abreast around a point of its strip."""

    verb = "deploy"
    summary = "place a unit in line abreast around a point of your deployment strip"
    unit: str
    at: Point


@dataclass(frozen=True)
class Barrage(Action):
    """Artillery Phase: place a 2" template where a friendly stand sees part of it."""

    verb = "barrage"
    summary = 'place a 2" artillery template where one of your stands sees part of it'
    at: Point


@dataclass(frozen=True)
class Move(Action):
    """Movement Phase: move a stand straight to a point, spending movement points."""

    verb = "move"
    summary = "move a stand straight to a point (it ends facing the way it moved)"
    stand: str
    to: Point


@dataclass(frozen=True)
class Strategic(Action):
    """Strategic movement: double MP, no fire this turn, never within 10" of an enemy."""

    verb = "strategic"
    summary = 'move strategically: double MP, no firing, never within 10" of an enemy'
    stand: str
    to: Point


@dataclass(frozen=True)
class Face(Action):
    """Turn a stand to a facing in its own movement phase (no MP: ruling R6)."""

    verb = "face"
    summary = "turn a stand to a compass facing"
    stand: str
    facing: float


@dataclass(frozen=True)
class Embark(Action):
    """Carrying Infantry: an IFV next to an infantry stand picks it up for 2 MP."""

    verb = "embark"
    summary = "an IFV next to a friendly infantry stand picks it up (2 MP)"
    ifv: str
    infantry: str


@dataclass(frozen=True)
class Debark(Action):
    """Carrying Infantry: an IFV drops its infantry next to it for 2 MP; the infantry
    loses 2 MP."""

    verb = "debark"
    summary = "an IFV drops its infantry at a point next to it (2 MP; the infantry loses 2 MP)"
    ifv: str
    at: Point


@dataclass(frozen=True)
class Fire(Action):
    """Combat: declare a stand's attack with a weapon at a target."""

    verb = "fire"
    summary = "declare an attack: stand, weapon (gun, missile, law, ai), target"
    stand: str
    weapon: str
    target: str


@dataclass(frozen=True)
class Resolve(Action):
    """Resolve all the fire declared at a target."""

    verb = "resolve"
    summary = "resolve all the fire declared at a target"
    target: str


@dataclass(frozen=True)
class Overwatch(Action):
    """Overwatch: a stand that could fire takes a marker instead."""

    verb = "overwatch"
    summary = "a stand that could fire takes an overwatch marker instead"
    stand: str


@dataclass(frozen=True)
class OverwatchFire(Action):
    """Overwatch fire at the moving stand, `along` inches along its move."""

    verb = "owfire"
    summary = "overwatch fire at the moving stand at a distance along its move"
    stand: str
    weapon: str
    along: float


@dataclass(frozen=True)
class Pass(Action):
    """Let the enemy's move go on (no more overwatch fire at it)."""

    verb = "pass"
    summary = "let the move go on"


@dataclass(frozen=True)
class End(Action):
    """End the current phase."""

    verb = "end"
    summary = "end this phase"


CODEC = ActionCodec(
    [
        Deploy,
        Barrage,
        Move,
        Strategic,
        Face,
        Embark,
        Debark,
        Fire,
        Resolve,
        Overwatch,
        OverwatchFire,
        Pass,
        End,
    ]
)
