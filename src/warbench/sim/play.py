"""One game and one batch of games, played unattended through the game contract.

Every game of a run gets its own seeds from `numpy.random.SeedSequence(seed).spawn`, by its
index, so a run's results are the same whatever the number of jobs or the backend. With
`swap`, the odd-numbered games give each player the other's agent, so two agents meet on both
sides equally.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warbench.core import registry
from warbench.core.game import Decision, Game, GameOver, unhashed
from warbench.core.ruleset import Ruleset

Census = dict[str, dict[str, tuple[int, int]]]


@dataclass(frozen=True)
class GameSeeds:
    """The seeds of game number `index`: its dice and each player's agent."""

    index: int
    dice: int
    agents: tuple[int, ...]


def spawn_seeds(seed: int, games: int, players: int = 2) -> list[GameSeeds]:
    """Seeds for `games` games, spawned from `seed`: game i's seeds depend on i only."""
    if seed < 0 or games < 0:
        raise ValueError(f"seed and games must be >= 0, not {seed} and {games}")
    children = np.random.SeedSequence(seed).spawn(games)
    found = []
    for index, child in enumerate(children):
        words = [int(w) >> 1 for w in child.generate_state(players + 1, np.uint64)]
        found.append(GameSeeds(index, words[0], tuple(words[1:])))
    return found


@dataclass(frozen=True)
class Matchup:
    """What every game of a run plays: a ruleset, a scenario and an agent per player."""

    ruleset: str
    scenario: dict[str, Any]
    agents: tuple[tuple[str, str], ...]  # (player, agent name), in the ruleset's order
    swap: bool = False  # odd-numbered games give each player the other's agent (two players)

    def seating(self, index: int) -> tuple[tuple[str, str], ...]:
        """Who plays what in game number `index`: (player, agent name) in the ruleset's order."""
        if not self.swap or index % 2 == 0:
            return self.agents
        if len(self.agents) != 2:
            raise ValueError(f"swapping sides needs 2 players, not {len(self.agents)}")
        (first, a), (second, b) = self.agents
        return ((first, b), (second, a))


@dataclass(frozen=True)
class GameResult:
    """How one game ended: winner (None for a draw), reason, decisions taken, each side's
    pieces by unit type as (fielded, standing) at the end, who played each side, and each
    side's thinking as (CPU seconds by `time.process_time`, decisions; a measurement, so not
    compared: the same seeds give equal results)."""

    index: int
    seed: int
    winner: str | None
    reason: str
    steps: int
    census: Census = field(default_factory=dict)
    seating: tuple[tuple[str, str], ...] = ()
    thinking: dict[str, tuple[float, int]] = field(default_factory=dict, compare=False)


_settled = False  # `settle` has run in this process (a forked worker inherits it)


def settle() -> None:
    """Once a process, after its first game (`play` calls it; benchmarks after their untimed
    game): collect, then freeze what lives on (modules, rulesets, compiled kernels, kept
    tables) out of the garbage collector's passes, which otherwise walk it again and again
    while games make and drop their objects (~5% of a gff or fftt AI game's CPU, docs/sim.md). What
    is frozen is never collected, so it is done once, with no game alive. Whether it was done
    is kept in `_settled`, not asked of `gc.get_freeze_count`, which walks every frozen object
    (some 1–8 ms a call: a fifth of a ttt game's CPU when it was asked after each game)."""
    global _settled
    if not _settled:
        gc.collect()
        gc.freeze()
        _settled = True


def play(matchup: Matchup, seeds: GameSeeds) -> GameResult:
    """Play one game to its end with the matchup's agents (state hashing and rollback off:
    a game that fails is given up)."""
    ruleset = registry.get(matchup.ruleset)
    with unhashed():
        game = ruleset.new_game(dict(matchup.scenario), seeds.dice)
    game.rollback = False
    factories = ruleset.agents()
    seating = matchup.seating(seeds.index)
    agents = {
        player: factories[kind](agent_seed)
        for (player, kind), agent_seed in zip(seating, seeds.agents, strict=True)
    }
    seconds = dict.fromkeys(agents, 0.0)
    decisions = dict.fromkeys(agents, 0)
    while isinstance(game.pending, Decision):
        player = game.pending.player
        start = time.process_time()
        action = agents[player].choose(game, player)
        seconds[player] += time.process_time() - start
        decisions[player] += 1
        game.apply(action, player)
    over = game.pending
    assert isinstance(over, GameOver)
    result = GameResult(
        seeds.index,
        seeds.dice,
        over.winner,
        over.reason,
        len(game.steps),
        ruleset.census(game),
        seating,
        {p: (seconds[p], decisions[p]) for p in agents},
    )
    del game, agents  # the game is dropped before `settle` could freeze it
    settle()
    return result


def play_batch(matchup: Matchup, batch: list[GameSeeds]) -> list[GameResult]:
    """Play a batch of games in order (the unit of work sent to a worker)."""
    return [play(matchup, seeds) for seeds in batch]


def playout(ruleset: Ruleset, scenario: dict[str, Any], kind: str, seed: int) -> Game:
    """One game of `scenario` to its end with both sides played by agent `kind` (seeded
    `seed`·2 and `seed`·2+1), state hashing and rollback off: the game the speed benchmarks time."""
    with unhashed():
        game = ruleset.new_game(dict(scenario), seed)
    game.rollback = False
    agents = {p: ruleset.agents()[kind](seed * 2 + n) for n, p in enumerate(ruleset.players)}
    while isinstance(game.pending, Decision):
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    return game
