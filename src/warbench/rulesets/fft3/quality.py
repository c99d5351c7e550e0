"""Quality Checks: "a d6 roll. If the roll equals or exceeds the stand's quality rating,
there's no effect. If the roll is less than the stand's quality rating, the stand is
eliminated." A unit's check is one roll for the whole unit, each stand reading it with its
own modifiers (−1 out of cohesion)."""

from __future__ import annotations

from warbench.core.dice import Modifier, Read, Roll, RollRequest
from warbench.rulesets.fft3.referee import Referee

OUT_OF_COHESION: Modifier = ("out of cohesion", -1)


def quality_check(
    ref: Referee, label: str, quality: int, modifiers: tuple[Modifier, ...] = ()
) -> Roll:
    """One check at `quality`+ (NATO 4+, Soviet 5+); success means no effect."""
    return ref.roll(
        RollRequest(
            label=f"quality check: {label}",
            read=Read.AT_LEAST,
            target=quality,
            modifiers=modifiers,
        )
    )


def passes(face: int, quality: int, modifiers: tuple[Modifier, ...]) -> bool:
    """Whether a stand reading the unit's roll `face` with its own `modifiers` passes."""
    return face + sum(value for _, value in modifiers) >= quality
