"""Quality tests: "roll one six-sided die, and if you score the model's quality value or
higher, then it counts as a success"; whatever the modifiers, 6 succeeds and 1 fails."""

from __future__ import annotations

from typing import Protocol

from warbench.core.dice import Modifier, Read, Roll, RollRequest

SIX = frozenset({6})
ONE = frozenset({1})


class Referee(Protocol):
    """What rules code needs of the game: its dice and its log."""

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        """Roll through the game's dice, logged."""
        ...

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Log an event."""
        ...


def quality_test(
    label: str, value: int, modifiers: tuple[Modifier, ...] = (), dice: int = 1
) -> RollRequest:
    """`dice` tests at `value`+ (a pool counts its successes), 6 always and 1 never."""
    return RollRequest(
        label=label,
        dice=dice,
        read=Read.COUNT_AT_LEAST if dice > 1 else Read.AT_LEAST,
        target=value,
        modifiers=modifiers,
        always_succeed=SIX,
        always_fail=ONE,
    )


def successes(roll: Roll) -> int:
    """Successes of a test or a pool of tests."""
    if roll.successes is not None:
        return roll.successes
    return 1 if roll.success else 0


def die_succeeds(request: RollRequest, face: int) -> bool:
    """Whether one die of the pool `request` succeeds: 6 always and 1 never, else its face
    with the modifiers at the target."""
    if face in request.always_succeed:
        return True
    if face in request.always_fail:
        return False
    assert request.target is not None
    return face + request.modifier_total >= request.target
