"""The search agent against a ruleset's heuristic AI, each on both sides in turn.

Run: `.venv/bin/python benchmarks/search.py [--ruleset ID] [--scenario S] [--games N]
[--lookaheads N] [--horizon N] [--candidates N] [--margin X] [--registered]`
(`--registered`: the ruleset's own `search` agent, its budget's `until` included, instead of
the options'). Prints the search agent's score (wins + ½ draws) with its 95% Wilson interval
and the mean CPU time per search decision. The budget counts look-aheads, so the games are
the same on any machine; only the time per decision depends on the load. This is for trying
other budgets; the registered budget's figure is `warbench sim RULESET --red search --blue
ai --swap`, which reports each agent's score and CPU time per decision (docs/sim.md).
"""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.ai.search import Budget, SearchAgent
from warbench.core import registry
from warbench.core.game import Decision, GameOver
from warbench.core.ruleset import Agent
from warbench.sim.play import spawn_seeds
from warbench.sim.report import rate


def main(
    ruleset: Annotated[str, typer.Option(help="ruleset id")] = "ttt",
    scenario: Annotated[str, typer.Option(help="scenario id")] = "besiege-the-bunker",
    games: Annotated[int, typer.Option(help="games, half with search as red")] = 20,
    lookaheads: Annotated[int, typer.Option(help="look-aheads per search decision")] = 24,
    horizon: Annotated[int, typer.Option(help="decisions played in each look-ahead")] = 400,
    candidates: Annotated[int, typer.Option(help="candidate actions per decision")] = 3,
    margin: Annotated[float, typer.Option(help="score needed to overrule the AI")] = 0.0,
    seed: Annotated[int, typer.Option(help="seed of the run")] = 0,
    registered: Annotated[bool, typer.Option(help="the ruleset's registered budget")] = False,
) -> None:
    """Play search v ai and print the search agent's score."""
    rs = registry.get(ruleset)
    data = rs.load_scenario(scenario)
    score, decisions, thinking = 0.0, 0, 0.0
    think = Budget(lookaheads, horizon, candidates, margin=margin)
    for seeds in spawn_seeds(seed, games):
        side = "red" if seeds.index % 2 == 0 else "blue"
        game = rs.new_game(dict(data), seeds.dice)
        game.track_hashes = False
        agents: dict[str, Agent] = {
            p: (rs.agents()["search"](s) if registered else SearchAgent(s, think))
            if p == side
            else rs.agents()["ai"](s)
            for p, s in zip(rs.players, seeds.agents, strict=True)
        }
        while isinstance(game.pending, Decision):
            player = game.pending.player
            start = time.process_time()
            action = agents[player].choose(game, player)
            if player == side:
                decisions += 1
                thinking += time.process_time() - start
            game.apply(action, player)
        over = game.pending
        assert isinstance(over, GameOver)
        score += 0.5 if over.winner is None else float(over.winner == side)
        print(
            f"game {seeds.index}: search {side}, winner {over.winner}, "
            f"{thinking / max(1, decisions):.3f} CPU s/decision so far",
            flush=True,
        )
    result = rate(score, games)
    table = Table(
        "ruleset",
        "scenario",
        "games",
        "look-aheads",
        "search score",
        "95% Wilson",
        "CPU s/decision",
        title="search agent v heuristic AI (sides alternate)",
    )
    table.add_row(
        rs.id,
        scenario,
        str(games),
        "registered" if registered else f"{lookaheads} x {horizon}, {candidates} cand.",
        f"{result.rate:.1%}",
        f"{result.low:.1%}-{result.high:.1%}",
        f"{thinking / max(1, decisions):.3f}",
    )
    Console(width=120).print(table)


if __name__ == "__main__":
    typer.run(main)
