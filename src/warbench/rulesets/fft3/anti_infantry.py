"""Anti-infantry Fire, fifth step: "If any hits remain against the infantry stand, the
infantry stand must make a quality check. The quality check die roll is reduced by 1 for
every additional hit after the first in that phase." """

from __future__ import annotations

from warbench.core.dice import Modifier


def check_modifiers(hits: int) -> tuple[Modifier, ...]:
    """The quality check's modifier for `hits` hits in the phase (none for a single hit)."""
    if hits <= 1:
        return ()
    return (("additional hits", -(hits - 1)),)
