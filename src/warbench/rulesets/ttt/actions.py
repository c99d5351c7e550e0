"""The actions of Table Top Troopers in their text form."""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.actions import Action, ActionCodec
from warbench.core.grid import Square


@dataclass(frozen=True)
class Place(Action):
    """GAME SET-UP: put one piece of the squad sheet on the board."""

    verb = "place"
    summary = "place a piece of your force on a square allowed by the operation"
    kind: str
    to: Square


@dataclass(frozen=True)
class Move(Action):
    """TURN SUMMARY: move one piece."""

    verb = "move"
    summary = "move a piece to a square it can reach"
    piece: str
    to: Square


@dataclass(frozen=True)
class Aim(Action):
    """AIM instead of moving (counts as the move): +1 to hit that target."""

    verb = "aim"
    summary = "aim a piece at an enemy already in range (+1 to hit it this turn)"
    piece: str
    target: str


@dataclass(frozen=True)
class Pass(Action):
    """Move no (more) pieces this turn and go on to attacking."""

    verb = "pass"
    summary = "stop moving and go on to attack"


@dataclass(frozen=True)
class Attack(Action):
    """ATTACKING: one of your pieces attacks an enemy in its range and sight."""

    verb = "attack"
    summary = "attack an enemy in range and sight with one of your pieces"
    piece: str
    target: str


@dataclass(frozen=True)
class End(Action):
    """End your turn (no more attacks)."""

    verb = "end"
    summary = "end your turn"


CODEC = ActionCodec([Place, Move, Aim, Pass, Attack, End])
