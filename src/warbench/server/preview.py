"""What a seat is shown before it confirms an action (docs/server.md, "Before you confirm"):
where a selected piece may move, its range bands and sight lines to the pieces its actions
name, what a move to a point costs, and the exact odds of a proposed action — each only for
the seat whose decision is pending, worked out from that seat's own view of the game.

For a ruleset with hidden information the rules are never asked about the true game where
the answer could tell of pieces the seat may not see: reach, move costs and odds are worked
out on a copy of the game the ruleset builds from the seat's view (`Ruleset.determinise`).
"""

from __future__ import annotations

import dataclasses
import logging

from warbench.core.actions import Action
from warbench.core.dice import SeededDice
from warbench.core.game import Game
from warbench.core.preview import TooManyOutcomes, sight_lines
from warbench.server.messages import Json, words

log = logging.getLogger("warbench.server")


def _targets(game: Game, player: str, piece: str, shown: set[str]) -> dict[str, list[str]]:
    """Each piece the player sees that a legal action of `piece` names, with those actions."""
    found: dict[str, list[str]] = {}
    for action in game.legal_actions(player):
        fields = dataclasses.fields(action)
        if len(fields) < 2 or str(getattr(action, fields[0].name)) != piece:
            continue
        for f in fields[1:]:
            value = getattr(action, f.name)
            if isinstance(value, str) and value in shown and value != piece:
                found.setdefault(value, []).append(str(action))
    return found


def own_copy(game: Game, player: str) -> Game:
    """The game as `player` may know it: for a ruleset with hidden information, the copy
    `Ruleset.determinise` builds from the player's view (what is hidden sampled anew);
    otherwise the game itself. ValueError when the ruleset cannot build one."""
    rs = game.ruleset
    if not rs.hidden_information:
        return game
    try:
        return rs.determinise(game, player, SeededDice(0))
    except NotImplementedError as err:
        raise ValueError(f"no preview in play for {rs.name}: {err}") from None


def piece_preview(game: Game, player: str, piece: str) -> Json:
    """Reach, ranges and sight lines of `piece` for `player` (whose decision is pending)."""
    rs = game.ruleset
    scene = rs.scene(game, player)
    shown = words(game.view(player))
    if piece not in shown:
        raise ValueError(f"no piece '{piece}' that you can see")
    reach = [r.to_json() for r in rs.reach(own_copy(game, player), player, piece)]
    targets = _targets(game, player, piece, shown)
    lines = sight_lines(scene, piece, list(targets))
    for line in lines:
        line["actions"] = targets[str(line["target"])]
    return {
        "piece": piece,
        "reach": reach,
        "ranges": [[label, distance] for label, distance in rs.ranges(game, piece)],
        "sight": lines,
    }


def odds_preview(game: Game, action: Action, player: str) -> Json:
    """The exact odds of `action` as `player` may know them, and whether to ask the player
    to confirm (the action rolls dice, or has too many outcomes to list). `odds` is None
    with the `reason` when there are none; ValueError for an illegal action."""
    reason = game.check(action, player)
    if reason is not None:
        raise ValueError(reason)
    try:
        report = game.ruleset.action_odds(game, action, player).to_json()
    except TooManyOutcomes as err:
        return {"odds": None, "reason": str(err), "confirm": True}
    except ValueError as err:
        return {"odds": None, "reason": str(err), "confirm": False}
    except Exception:  # a rule that fails on a copy must not fail the request
        log.exception("odds of '%s' failed", action)
        return {
            "odds": None,
            "reason": "the odds could not be worked out (logged)",
            "confirm": False,
        }
    return {"odds": report, "reason": None, "confirm": bool(report["rolls"])}


def path_preview(game: Game, action: Action, player: str) -> Json:
    """What the move `action` costs by the ruleset's own movement code (`path`: None when
    the ruleset does not price it) and, when the rules refuse it, why (`reason`)."""
    mine = own_copy(game, player)
    cost = game.ruleset.path_cost(mine, player, action)
    return {
        "path": None if cost is None else cost.to_json(),
        "reason": mine.check(action, player),
    }
