"""One seeded game of a ruleset's AI against the random agent, the AI on each side in turn."""

from __future__ import annotations

from warbench.core import registry
from warbench.core.game import Decision, GameOver


def ai_wins(ruleset_id: str, scenario: str, seed: int) -> bool:
    """Whether the AI won: red on even seeds, blue on odd ones (hashing off, as in sims)."""
    ruleset = registry.get(ruleset_id)
    game = ruleset.new_game(ruleset.load_scenario(scenario), seed)
    game.track_hashes = False
    ai_side = "red" if seed % 2 == 0 else "blue"
    agents = {
        ai_side: ruleset.agents()["ai"](seed),
        "blue" if ai_side == "red" else "red": ruleset.agents()["random"](seed + 7919),
    }
    while isinstance(game.pending, Decision):
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    pending = game.pending
    assert isinstance(pending, GameOver)
    return pending.winner == ai_side
