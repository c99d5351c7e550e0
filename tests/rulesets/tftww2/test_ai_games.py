"""The tftww2 AI plays, move for move, the games it played before it was sped up (its
per-decision tables, dispatch and shortcuts change no score; the state copies faster), and
a state's copy is whole and its own."""

from __future__ import annotations

from benchmarks.fingerprints import fingerprints
from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.tftww2.ai import SkirmishAI
from warbench.rulesets.tftww2.game import TFTGame

# Digests (benchmarks/fingerprints.py, AI on both sides, seeds 0-1) of the games the AI
# played before the speed-up: every step's player, action, dice and state hash.
BEFORE = {
    "building-assault/0": "afe2fcf2cbe989f0",
    "building-assault/1": "a893c0c34ce88225",
    "combined-arms/0": "9a3349403bdddd6d",
    "combined-arms/1": "a9f467879f29e162",
    "patrol/0": "5442670226ce86dc",
    "patrol/1": "fd348ba46aa6d0ec",
}


def test_the_ai_plays_the_games_it_played_before() -> None:
    found = fingerprints("tftww2", "ai", 2)
    assert {k: v[:16] for k, v in found.items()} == BEFORE


def test_a_state_copy_equals_the_state_and_shares_no_man_squad_or_afv() -> None:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("combined-arms"), 0)
    assert isinstance(game, TFTGame)
    agents = {p: SkirmishAI(n) for n, p in enumerate(ruleset.players)}
    for _ in range(30):  # into the game: men moved, shots taken, flags set
        assert isinstance(game.pending, Decision)
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    s = game.state
    s.step = {"assaulted": ["t1"]}
    copied = s.copy()
    assert copied == s
    assert copied.tanks and copied.men and copied.squads
    assert all(copied.men[k] is not v and copied.men[k] == v for k, v in s.men.items())
    assert all(copied.squads[k] is not v and copied.squads[k] == v for k, v in s.squads.items())
    assert all(copied.tanks[k] is not v and copied.tanks[k] == v for k, v in s.tanks.items())
    copied.step["assaulted"].append("t2")
    next(iter(copied.men.values())).x += 1.0
    assert s.step == {"assaulted": ["t1"]}
    assert copied != s
