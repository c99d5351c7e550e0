"""The actions of the TFT WW2 skirmish rules in their text form (3.0 Movement).

Distances are inches, facings compass degrees (0 = north, 90 = east), points `x,y`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from warbench.core.actions import Action, ActionCodec

Point = tuple[float, float]
A = TypeVar("A", bound=Action)


@dataclass(frozen=True)
class TFTAction(Action):
    """An action of these rules whose text (`Action.__str__`: every step's record holds
    it) is worked out once per value and kept in its `__dict__`, beside its fields: it is
    made from them alone and they never change, and the orders and shots chosen are mostly
    values kept and chosen again (a man's compass, his legal fire and throws)."""

    def __str__(self) -> str:
        kept = self.__dict__
        text: str | None = kept.get("_text")
        if text is None:
            text = kept["_text"] = Action.__str__(self)
        return text


@dataclass(frozen=True)
class Run(TFTAction):
    """Run: straight ahead up to twice the move rate, turning at the end; no combat."""

    verb = "run"
    summary = "run straight ahead DIST inches (up to 2x MOV), then face FACING"
    man: str
    dist: float
    facing: float


@dataclass(frozen=True)
class Walk(TFTAction):
    """Walk and Snap Shot: move and turn up to the move rate; one snap shot; no close combat."""

    verb = "walk"
    summary = "walk to a point and face FACING (turns cost 1 per 90°), then one snap shot"
    man: str
    to: Point
    facing: float


@dataclass(frozen=True)
class Flee(TFTAction):
    """Flee: twice the move rate toward unoccupied cover or the friendly table edge."""

    verb = "flee"
    summary = "flee toward cover or your table edge"
    man: str


@dataclass(frozen=True)
class ChargeAt(TFTAction):
    """Charge: up to the move rate straight ahead, no turn, into close combat (or into base
    contact with an enemy AFV, to close assault it: TFT-R27)."""

    verb = "charge"
    summary = "charge straight ahead into base contact with an enemy man or AFV"
    man: str
    target: str


@dataclass(frozen=True)
class ChangePosition(TFTAction):
    """Change position: standing to prone or prone to standing; no combat."""

    verb = "position"
    summary = "go prone or stand up (no combat)"
    man: str


@dataclass(frozen=True)
class Pivot(TFTAction):
    """Pivot without moving; any combat without penalty."""

    verb = "pivot"
    summary = "turn in place to FACING and fight or shoot without penalty"
    man: str
    facing: float


@dataclass(frozen=True)
class AimAt(TFTAction):
    """Aim: no movement, ranged combat straight ahead, no automatic weapons; +4."""

    verb = "aim"
    summary = "aim at an enemy straight ahead (+4; not with automatic weapons)"
    man: str
    target: str


@dataclass(frozen=True)
class Disengage(TFTAction):
    """Disengage: move directly away from the close-combat enemy."""

    verb = "disengage"
    summary = "move directly away from the enemy in base contact"
    man: str


@dataclass(frozen=True)
class Manipulate(TFTAction):
    """Action: manipulate an item, e.g. clear a jammed weapon; no combat, no move."""

    verb = "unjam"
    summary = "try to clear a jammed weapon (INT roll)"
    man: str


@dataclass(frozen=True)
class Climb(TFTAction):
    """Climb or go down the stairs of a building one floor (ours, ruling F1); no combat."""

    verb = "climb"
    summary = "go up or down one floor inside a building (0 = the ground floor)"
    man: str
    floor: int


@dataclass(frozen=True)
class CloseCombat(TFTAction):
    """Close combat: no move, no ranged combat; can parry and riposte."""

    verb = "fight"
    summary = "stand and fight in close combat (can parry and riposte)"
    man: str


@dataclass(frozen=True)
class Fire(TFTAction):
    """Ranged combat: one shot at a target."""

    verb = "fire"
    summary = "shoot at an enemy"
    man: str
    target: str


@dataclass(frozen=True)
class Throw(TFTAction):
    """Ranged combat: throw a grenade at a point."""

    verb = "throw"
    summary = "throw a grenade at a point"
    man: str
    at: Point


@dataclass(frozen=True)
class Bombard(TFTAction):
    """Indirect fire: a mortar man fires his mortar, or a CO with radio calls the artillery."""

    verb = "bombard"
    summary = "fire your mortar, or call your artillery by radio (CO), at a point you see"
    man: str
    at: Point


@dataclass(frozen=True)
class Drive(TFTAction):
    """8.1: an AFV turns to face a point and drives straight to it."""

    verb = "drive"
    summary = "drive an AFV to a point (terrain and turns cost movement points)"
    tank: str
    to: Point


@dataclass(frozen=True)
class Reverse(TFTAction):
    """8.1: an AFV reverses straight back at half speed."""

    verb = "reverse"
    summary = "reverse an AFV straight back DIST inches (double cost)"
    tank: str
    dist: float


@dataclass(frozen=True)
class Gun(TFTAction):
    """8.2: the main gun — AP at an AFV, HE at a man."""

    verb = "gun"
    summary = "fire an AFV's main gun at an enemy AFV (AP) or man (HE)"
    tank: str
    target: str


@dataclass(frozen=True)
class MachineGun(TFTAction):
    """8.2: one of the AFV's machine guns at a man."""

    verb = "mg"
    summary = "fire an AFV's machine gun at an enemy man"
    tank: str
    target: str


@dataclass(frozen=True)
class Assault(TFTAction):
    """8.2 Close assault: the men in base contact with an enemy AFV attack it together."""

    verb = "assault"
    summary = "close assault an enemy AFV in base contact (all your men touching it join)"
    man: str
    tank: str


@dataclass(frozen=True)
class Strike(TFTAction):
    """Close combat: strike an enemy in base contact."""

    verb = "strike"
    summary = "strike an enemy in base contact"
    man: str
    target: str


@dataclass(frozen=True)
class Riposte(TFTAction):
    """After a miss the target may riposte."""

    verb = "riposte"
    summary = "riposte at the attacker who missed"


@dataclass(frozen=True)
class NoRiposte(TFTAction):
    """Decline the riposte."""

    verb = "no-riposte"
    summary = "do not riposte"


@dataclass(frozen=True)
class Done(TFTAction):
    """End this step (orders, ranged combat or close combat) of your turn."""

    verb = "done"
    summary = "end this step of your turn"


CODEC = ActionCodec(
    [
        Run,
        Walk,
        Flee,
        ChargeAt,
        ChangePosition,
        Pivot,
        AimAt,
        Disengage,
        Manipulate,
        Climb,
        CloseCombat,
        Fire,
        Throw,
        Bombard,
        Strike,
        Drive,
        Reverse,
        Gun,
        MachineGun,
        Assault,
        Riposte,
        NoRiposte,
        Done,
    ]
)


def maker(cls: type[A]) -> Callable[..., A]:
    """`cls(*fields)`, about twice as quick, for the orders and shots made at every
    decision: the fields go straight into the new value's `__dict__` where the frozen
    dataclass's `__init__` sets each through `object.__setattr__` (the same class, fields
    and order, so an equal, hashable, immutable value; these classes have no
    `__post_init__`)."""
    if hasattr(cls, "__post_init__") or not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a plain dataclass")
    names = [f.name for f in dataclasses.fields(cls)]
    sets = "".join(f"    fields[{name!r}] = {name}\n" for name in names)
    source = (
        f"def make({', '.join(names)}):\n"
        f"    made = new(cls)\n"
        f"    fields = made.__dict__\n{sets}"
        f"    return made\n"
    )
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec(source, scope)  # the source is built from the class's own field names
    made: Callable[..., A] = scope["make"]
    return made
