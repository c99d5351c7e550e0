"""What an fft3 player sees before confirming: the range bands of a stand's weapons
(Combat: close to ½ effective, effective, long to 1½; missiles and LAWs one range), how
the rules read their dice in play (as `odds.reading`), and that declared fire is carried
out by resolving it (`resolve TARGET`)."""

from __future__ import annotations

from warbench.core.actions import Action
from warbench.core.dice import Read, Reading, RollRequest
from warbench.rulesets.fft3 import odds
from warbench.rulesets.fft3.actions import Fire, Resolve
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.profiles import tables

COUNTED = (Read.COUNT_AT_LEAST, Read.AT_LEAST)


def reading(request: RollRequest) -> Reading | None:
    """The fire's reading (`odds.reading`) for the counted pools and pass-or-fail checks
    it was written for; any other roll face by face."""
    return odds.reading(request) if request.read in COUNTED else None


def follow_up(action: Action) -> Action | None:
    """Declared fire is resolved by `resolve TARGET` (with any fire declared before it)."""
    return Resolve(action.target) if isinstance(action, Fire) else None


def ranges(game: FFT3Game, piece: str) -> list[tuple[str, float]]:
    """Each weapon's range bands, edge to edge, in inches."""
    stand = game.state.stands.get(piece)
    if stand is None:
        return []
    p, bands = stand.profile, tables().range_bands
    out: list[tuple[str, float]] = []
    for name, weapon in (("gun", p.gun), ("ai", p.anti_infantry)):
        if weapon is not None:
            out.append((f"{name} close", weapon.range * bands["close"]))
            out.append((f"{name} effective", weapon.range))
            out.append((f"{name} long", weapon.range * bands["long"]))
    for name, single in (("missile", p.missile), ("law", p.law)):
        if single is not None:
            out.append((name, single.range))
    return out
