"""Seeded skirmishes played AI against AI, for tests that hold a fast path to its exact form
at every activation of real games."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from warbench.core.game import Decision
from warbench.rulesets.gff.ai import FirefightAI
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight


def activations(seeds: Iterable[int]) -> Iterator[tuple[GFFGame, dict[str, FirefightAI], str]]:
    """Each activation decision of the skirmishes of `seeds` (AIs seeded seed·2 and seed·2+1),
    as (game, agents, player), yielded before the deciding AI chooses and its choice is applied."""
    ruleset = GrimdarkFutureFirefight()
    for seed in seeds:
        game = ruleset.new_game(ruleset.load_scenario("skirmish"), seed)
        assert isinstance(game, GFFGame)
        agents = {p: FirefightAI(seed * 2 + n) for n, p in enumerate(ruleset.players)}
        while isinstance(game.pending, Decision):
            player = game.pending.player
            if game.state.phase == "activate":
                yield game, agents, player
            game.apply(agents[player].choose(game, player), player)
