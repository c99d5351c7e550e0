"""The actions of Grimdark Future Firefight in their text form.

Points are `x,y` in inches from the bottom-left corner; weapons and spells are named by
their slug (`heavy-rifle`).
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.actions import Action, ActionCodec

Point = tuple[float, float]


def slug(name: str) -> str:
    """`Heavy Rifle` → `heavy-rifle`: names as one word for the text form."""
    return "-".join(name.lower().split())


@dataclass(frozen=True)
class Edge(Action):
    """Deployment: the roll-off winner picks a table edge."""

    verb = "edge"
    summary = "pick your table edge: north, south, east or west"
    edge: str


@dataclass(frozen=True)
class PlaceMarker(Action):
    """Mission: place an objective marker."""

    verb = "marker"
    summary = 'place an objective marker outside deployment zones, over 9" from others'
    at: Point


@dataclass(frozen=True)
class Deploy(Action):
    """Deployment, Scout and Ambush: place a unit with its models around a point."""

    verb = "deploy"
    summary = "place a unit around a point"
    unit: str
    at: Point


@dataclass(frozen=True)
class Reserve(Action):
    """Set a unit with Ambush or Scout aside before deployment."""

    verb = "reserve"
    summary = "set aside a unit with Ambush or Scout (kind: ambush or scout)"
    unit: str
    kind: str


@dataclass(frozen=True)
class Wait(Action):
    """Keep your remaining Ambush units in reserve this round."""

    verb = "wait"
    summary = "keep your Ambush units in reserve this round"


@dataclass(frozen=True)
class Hold(Action):
    """Hold: 0", can shoot."""

    verb = "hold"
    summary = "activate a unit: stay and shoot"
    unit: str


@dataclass(frozen=True)
class Advance(Action):
    """Advance: 6", can shoot after moving."""

    verb = "advance"
    summary = 'activate a unit: move up to 6" then shoot'
    unit: str
    to: Point


@dataclass(frozen=True)
class Rush(Action):
    """Rush: 12", can't shoot."""

    verb = "rush"
    summary = 'activate a unit: move up to 12", no shooting'
    unit: str
    to: Point


@dataclass(frozen=True)
class Charge(Action):
    """Charge: 12" into melee."""

    verb = "charge"
    summary = 'activate a unit: charge an enemy unit within 12"'
    unit: str
    target: str


@dataclass(frozen=True)
class Idle(Action):
    """Stay idle for the whole activation (a Shaken unit must; it then stops being Shaken)."""

    verb = "idle"
    summary = "activate a unit and stay idle (ends Shaken)"
    unit: str


@dataclass(frozen=True)
class Fire(Action):
    """Shooting: fire one ranged weapon of the unit at a target."""

    verb = "fire"
    summary = "fire one of the unit's ranged weapons at an enemy unit"
    unit: str
    weapon: str
    target: str


@dataclass(frozen=True)
class Cast(Action):
    """Caster(X): try to cast a spell before attacking."""

    verb = "cast"
    summary = "spend spell tokens to try a spell on its target unit or units, as A or A,B"
    unit: str
    spell: str
    target: str


@dataclass(frozen=True)
class Tokens(Action):
    """Spend spell tokens from a Caster within 18" to help (or hinder) a casting roll."""

    verb = "tokens"
    summary = "spend tokens of one of your casters: +1 (yours) or -1 (enemy's) per token"
    unit: str
    count: int


@dataclass(frozen=True)
class Take(Action):
    """Blast: the defender picks a unit to take one of the odd hits of an uneven split."""

    verb = "take"
    summary = "give one of the odd Blast hits to this unit of yours"
    unit: str


@dataclass(frozen=True)
class Done(Action):
    """Finish the current step: stop shooting, spend no (more) tokens, or stay put."""

    verb = "done"
    summary = "finish this step"


@dataclass(frozen=True)
class StrikeBack(Action):
    """Melee: the defender strikes back."""

    verb = "strike-back"
    summary = "strike back at the chargers"


@dataclass(frozen=True)
class NoStrikeBack(Action):
    """Melee: the defender does not strike back."""

    verb = "no-strike-back"
    summary = "do not strike back"


@dataclass(frozen=True)
class Consolidate(Action):
    """After melee destroyed a unit, the other may move by up to 3"."""

    verb = "consolidate"
    summary = 'move the surviving unit up to 3"'
    unit: str
    to: Point


@dataclass(frozen=True)
class Shift(Action):
    """A spell's move out of turn: the caster's player moves the unit (its own or, after a
    failed morale test, the enemy's) by up to the spell's inches in a straight line."""

    verb = "shift"
    summary = "move the unit a spell lets you move, up to its inches in a straight line"
    unit: str
    to: Point


CODEC = ActionCodec(
    [
        Edge,
        PlaceMarker,
        Deploy,
        Reserve,
        Wait,
        Hold,
        Advance,
        Rush,
        Charge,
        Idle,
        Fire,
        Cast,
        Tokens,
        Take,
        Done,
        StrikeBack,
        NoStrikeBack,
        Consolidate,
        Shift,
    ]
)
