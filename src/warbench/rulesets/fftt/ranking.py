"""The AI's choice and its next best, for the search agent (`warbench.ai.search.Ranking`):
the actions worth weighing against the choice, best first by the scores the AI chooses by,
the choice first. Setup behind the screen is left to the AI (nothing can be read of it
before the screen comes down), and so is surrender (R47); `surrender` is never offered
otherwise, so a decision with one sensible action is not searched at all."""

from __future__ import annotations

import random

from warbench.core.actions import Action
from warbench.rulesets.fftt import shooting
from warbench.rulesets.fftt.actions import (
    Charge,
    Done,
    Enter,
    First,
    Hold,
    Lob,
    OpportunityFire,
    Shoot,
    Surrender,
)
from warbench.rulesets.fftt.ai import TacticsAI, chance
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.move_choice import FLOOR, best_move
from warbench.rulesets.fftt.state import Fig, State, other
from warbench.rulesets.fftt.table import Point, dist

SETUP = ("table", "scenery", "side", "force", "deploy")  # decided behind the screen
WEIGHED = 8  # the most actions ranked after the choice
HOLD = 0.35  # the AI's least score for opportunity fire (`TacticsAI._opfire`)
ENOUGH = 0.05  # the AI's least score for a shot (`TacticsAI._fire`)


def ranked(ai: TacticsAI, game: FFTTGame, player: str) -> list[Action]:
    """`ai`'s choice, then at most WEIGHED other legal actions, best first."""
    choice = ai.choose(game, player)
    s = game.state
    if isinstance(choice, Surrender) or s.stage in SETUP:
        return [choice]
    if s.stage == "first":
        others: list[Action] = [First(player), First(other(player))]
    elif s.stage == "move":
        others = _moves(ai, game, player)
    elif s.stage in ("light", "general"):
        others = _shots(ai, game, player)
    elif s.stage == "opfire":
        others = _opfires(game, player)
    elif s.stage == "enter":
        others = _entries(game, player)
    else:  # answering a charge, allocating a wound: a handful of actions
        others = [a for a in game.legal_actions(player) if not isinstance(a, Surrender)]
    found = {str(choice): choice}
    for a in others:
        if len(found) > WEIGHED:
            break
        found.setdefault(str(a), a)
    return list(found.values())


def _moves(ai: TacticsAI, game: FFTTGame, player: str) -> list[Action]:
    """The movement step: the best move of each figure the AI would move, best first by the
    AI's score (`TacticsAI._move_score`, no tie-break), then its wanted charges by their odds;
    `done` (every figure stays) where a move must score to be made (`move_choice.FLOOR`)."""
    s = game.state
    mine = s.side_figs(player)
    enemies = s.side_figs(other(player))
    if not enemies:
        return []
    movers = ai.movers(s, mine, enemies)
    nearest = {f.id: min(dist(f.pos, e.pos) for e in enemies) for f in movers}
    spots = [e.pos for e in enemies]

    def exact(fig: Fig, to: Point) -> float | None:
        return ai._move_score(s, fig, to, spots, nearest[fig.id])

    scored: list[tuple[float, str, Action]] = [(FLOOR, "", Done())]
    for fig in movers:
        move = best_move(game, [fig], nearest, spots, ai._keys, random.Random(0), exact)
        if move is not None:
            score = exact(fig, move.to)
            assert score is not None
            scored.append((score, str(move), move))
    charges = [
        a
        for a in game.figure_options((f.id for f in mine), (Charge,))
        if isinstance(a, Charge) and ai._wants_charge(s, a)
    ]
    charges.sort(key=lambda a: (-ai._charge_odds(s, a), str(a)))
    scored.sort(key=lambda r: (-r[0], r[1]))
    return [*charges, *(a for _, _, a in scored)]


def _shots(ai: TacticsAI, game: FFTTGame, player: str) -> list[Action]:
    """A firing step: the legal shots, bugs going off and support calls by their worth
    (`TacticsAI._fire_score`), `done` where the AI stops (ENOUGH); a grenadier lobs only
    where it may not shoot."""
    s = game.state
    scored: list[tuple[float, int, Action]] = [(ENOUGH, -1, Done())]
    for n, a in enumerate(game.candidates(player)):
        score = ai._fire_score(s, player, a)
        if score is None or game.check(a, player) is not None:
            continue
        if isinstance(a, Lob) and game.check(Shoot(a.figure, a.target), player) is None:
            continue
        scored.append((score, n, a))
    scored.sort(key=lambda r: (-r[0], r[1]))
    return [a for _, _, a in scored[: WEIGHED + 1]]


def _opfires(game: FFTTGame, player: str) -> list[Action]:
    """Opportunity fire: the shots at the mover by the AI's worth (the chance to hit, more
    for a mover of more FPs), `hold` where the AI holds (HOLD)."""
    s = game.state
    scored: list[tuple[float, int, Action]] = [(HOLD, -1, Hold())]
    for n, a in enumerate(game.legal_actions(player)):
        if isinstance(a, OpportunityFire):
            scored.append((_opfire_score(s, a), n, a))
    scored.sort(key=lambda r: (-r[0], r[1]))
    return [a for _, _, a in scored]


def _opfire_score(s: State, a: OpportunityFire) -> float:
    """The AI's worth of an opportunity shot (`TacticsAI._opfire`)."""
    mover = s.figs[s.moving["mover"]]
    point = s.moving["points"][a.at]
    saved = mover.x, mover.y
    mover.x, mover.y = point[0], point[1]
    try:
        plan = shooting.shot(s, s.figs[a.figure], mover, indirect=False)
    finally:
        mover.x, mover.y = saved
    return float(chance(plan.needed)) * (1 + 0.1 * mover.fp)


def _entries(game: FFTTGame, player: str) -> list[Action]:
    """A flanking figure's way in: the legal ones nearest 15 cm from an enemy first (as the
    AI's `_enter`), at most WEIGHED."""
    s = game.state
    enters = [a for a in game.candidates(player) if isinstance(a, Enter)]
    spots = [e.pos for e in s.side_figs(other(player))]
    if spots:
        enters.sort(key=lambda a: (min(abs(dist(a.at, p) - 15) for p in spots), str(a)))
    found: list[Action] = []
    for a in enters:
        if game.check(a, player) is None:
            found.append(a)
            if len(found) == WEIGHED:
                break
    return found
