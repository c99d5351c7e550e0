"""What an fft3 player sees before confirming: the range bands of a stand's weapons
(Combat: close to ½ effective, effective, long to 1½; missiles and LAWs one range), how
the rules read their dice in play (as `odds.reading`), that declared fire is carried
out by resolving it (`resolve TARGET`), and what a leg costs (Movement: MP by the ground
under the stand's centre, `Battlefield.leg_cost`) and how far one may go."""

from __future__ import annotations

import math

from warbench.core.actions import Action
from warbench.core.dice import Read, Reading, RollRequest
from warbench.core.preview import PathCost
from warbench.core.terrain import Trait
from warbench.rulesets.fft3 import odds
from warbench.rulesets.fft3.actions import Fire, Move, Resolve, Strategic
from warbench.rulesets.fft3.battlefield import OPEN_MP, ROAD_MP
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.profiles import tables
from warbench.rulesets.fft3.state import Stand

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


def _mp_left(stand: Stand, strategic: bool) -> float:
    """MP left this phase for a normal (or strategic: doubled) move."""
    return max(stand.profile.mov * (2 if strategic else 1) - stand.mp_spent - stand.mp_lost, 0.0)


def reach_limits(game: FFT3Game, player: str, piece: str) -> dict[str, float]:
    """How far a leg may go on the MP left: at most all of it on road (2" per MP), or in
    the open (1" per MP) on a table without roads."""
    stand = game.state.stands.get(piece)
    if stand is None or stand.player != player or not stand.on_table:
        return {}
    roads = any(p.has(Trait.ROAD) for p in game.field.pieces)
    rate = ROAD_MP if roads else OPEN_MP
    return {"move": _mp_left(stand, False) / rate, "strategic": _mp_left(stand, True) / rate}


def path_cost(game: FFT3Game, player: str, action: Action) -> PathCost | None:
    """The MP of a leg straight to the point (`Battlefield.leg_cost`), of the MP left."""
    if not isinstance(action, Move | Strategic):
        return None
    stand = game.state.stands.get(action.stand)
    if stand is None or stand.player != player or not stand.on_table:
        return None
    vehicle = stand.profile.vehicle
    cost = game.field.leg_cost(stand.at, action.to, vehicle=vehicle)
    rates = "roads ½ MP an inch" + (", difficult ground 2 MP an inch" if vehicle else "")
    straight = math.dist(stand.at, action.to)
    detail = f'{straight:.1f}" straight: 1 MP an inch, {rates}'
    return PathCost(cost, round(_mp_left(stand, isinstance(action, Strategic)), 2), "MP", detail)
