"""The search agent's candidates in A Fistful of TOWs 3: the heuristic AI's choice, then the
decisions it weighs on the way to it (docs/sim.md, "The search agent").

- Fire phase: the first shot at each other target worth shooting, best first by the AI's own
  value (what taking it out is worth times the chance the free stands do it); with fire
  declared at a target, resolving it now instead of adding a shot, or one more shot instead of
  resolving; the firer taking overwatch instead of firing.
- Movement phase: the other places the AI's stand could move to, best first by the AI's own
  score, and holding it where it is (turned to face the nearest enemy, which costs no MP).
- Artillery phase: the other places a template could go, best first by what it covers, and
  no barrage.
- Overwatch: letting the move go on instead of firing at it.

Every candidate is legal (`Game.check`); the other legal actions follow in a seeded order.
"""

from __future__ import annotations

import math

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.geometry import bearing
from warbench.rulesets.fft3 import artillery
from warbench.rulesets.fft3.actions import (
    Barrage,
    End,
    Face,
    Fire,
    Move,
    Overwatch,
    OverwatchFire,
    Pass,
    Resolve,
    Strategic,
)
from warbench.rulesets.fft3.ai import WORTH, TowsAI, worth
from warbench.rulesets.fft3.game import FFT3Game


def ranked(ai: TowsAI, game: Game, player: str) -> list[Action]:
    """`ai`'s choice, then the candidates above, then the other legal actions shuffled by
    `ai`'s generator; no action twice."""
    assert isinstance(game, FFT3Game)
    choice = ai.choose(game, player)
    out: dict[str, Action] = {str(choice): choice}
    for action in alternatives(ai, game, player, choice):
        if str(action) not in out and game.check(action, player) is None:
            out[str(action)] = action
    rest = [a for a in game.legal_actions(player) if str(a) not in out]
    ai._rng.shuffle(rest)
    return [*out.values(), *rest]


def alternatives(ai: TowsAI, game: FFT3Game, player: str, choice: Action) -> list[Action]:
    """What the AI could have done instead of `choice` at this decision, best first."""
    phase = game.state.phase
    if phase == "fire":
        return _fire(ai, game, player, choice)
    if phase == "movement" and isinstance(choice, Move | Strategic):
        return _movement(ai, game, choice)
    if phase == "artillery":
        return _barrages(game, player)
    if phase == "overwatch" and isinstance(choice, OverwatchFire):
        return [Pass()]
    return []


def _fire(ai: TowsAI, game: FFT3Game, player: str, choice: Action) -> list[Action]:
    """Other targets by the AI's value, resolving sooner or firing more, overwatch."""
    s = game.state
    shots = ai._shots(game, player, s.side_stands(player))
    out: list[Action] = []
    for target in s.groups:  # the AI deals with one declared target at a time
        if isinstance(choice, Fire):
            out.append(Resolve(target))
        elif shots.get(target):
            out.append(shots[target][0][1])
        return out
    values: list[tuple[float, Action]] = []
    for target, options in shots.items():
        stays = 1.0
        for p, _ in options:
            stays *= 1 - p
        values.append(((1 - stays) * worth(game, s.stands[target]), options[0][1]))
    values.sort(key=lambda v: -v[0])
    out += [action for _, action in values]
    if isinstance(choice, Fire):
        out.insert(min(1, len(out)), Overwatch(choice.stand))
    return out


def _movement(ai: TowsAI, game: FFT3Game, choice: Move | Strategic) -> list[Action]:
    """The stand's other places by the AI's score, with holding second."""
    s = game.state
    stand = s.stands[choice.stand]
    setting = ai._setting(game, stand)
    places: list[Move | Strategic] = []
    for strategic, to in game.move_points(stand):
        places.append(Strategic(stand.id, to) if strategic else Move(stand.id, to))
    seen = ai._look(game, stand, [a.to for a in places], setting.foes)
    scores = [
        ai._score(game, stand, a.to, setting, sees, strategic=isinstance(a, Strategic))
        for a, sees in zip(places, seen, strict=True)
    ]
    order = sorted(range(len(places)), key=lambda k: -scores[k])
    out: list[Action] = [places[k] for k in order]
    enemies = s.side_stands(s.enemy(stand.player))
    facing = stand.facing
    if enemies:
        nearest = min(enemies, key=lambda e: math.dist(e.at, stand.at))
        facing = round(bearing(stand.at, nearest.at), 1) % 360
    out.insert(min(1, len(out)), Face(stand.id, facing))
    return out


def _barrages(game: FFT3Game, player: str) -> list[Action]:
    """Templates on enemy stands away from friends, by the worth they cover (the AI's
    reckoning), then no barrage."""
    s = game.state
    reach = artillery.radius()
    friends = s.side_stands(player)
    enemies = s.side_stands(s.enemy(player))
    scored: list[tuple[float, Action]] = []
    for enemy in enemies:
        at = enemy.at
        if any(math.dist(f.at, at) <= reach + f.radius + 0.5 for f in friends):
            continue
        covered = sum(
            WORTH[e.profile.kind] for e in enemies if math.dist(e.at, at) <= reach + e.radius
        )
        scored.append((covered, Barrage(at)))
    scored.sort(key=lambda v: -v[0])
    return [*(a for _, a in scored), End()]
