"""The tftww2 AI plays, move for move, the games it played before it was sped up (its
per-decision tables, dispatch and shortcuts change no score)."""

from __future__ import annotations

from benchmarks.fingerprints import fingerprints

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
