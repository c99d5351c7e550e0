"""What an fftt player sees before confirming a move (MOVEMENT: 10 cm an action unless
stated, double through slowing terrain, 1 action for each door or getting in or out of a
vehicle wreck): how far a figure may go on its actions left and what a move costs, from the
rules' own `Table.move_cost` and `movement.actions_for`."""

from __future__ import annotations

from warbench.core.actions import Action
from warbench.core.preview import PathCost
from warbench.rulesets.fftt import movement
from warbench.rulesets.fftt.actions import Move
from warbench.rulesets.fftt.game import FFTTGame


def reach_limits(game: FFTTGame, player: str, piece: str) -> dict[str, float]:
    """A move goes at most the figure's pace for each action it has left (open ground)."""
    fig = game.state.figs.get(piece)
    if fig is None or fig.side != player or fig.where != "table":
        return {}
    return {"move": fig.pace * fig.ap}


def path_cost(game: FFTTGame, player: str, action: Action) -> PathCost | None:
    """A move's cm (slowing terrain counts double) and the actions it takes, doors and
    getting in or out included."""
    if not isinstance(action, Move):
        return None
    s = game.state
    fig = s.figs.get(action.figure)
    if fig is None or fig.side != player or fig.where != "table":
        return None
    cost = s.table.move_cost(fig.pos, action.to, fig.prof.ignores_terrain)
    extra = movement.passage(s, fig, action.to)[0]
    actions = movement.actions_for(s, fig, action.to)
    detail = f"{actions} of {fig.ap} actions ({fig.pace:g} cm each"
    detail += f", {extra} for doors or getting in or out)" if extra else ")"
    return PathCost(cost, fig.pace * max(fig.ap - extra, 0), "cm", detail)
