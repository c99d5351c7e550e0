"""The search agent: determinised Monte Carlo look-ahead over the game contract.

At each decision it weighs a few candidate actions — the ruleset's own AI's choice and a
seeded sample of the other legal actions — by playing each forward in copies of the game
built only from what its player may see (`Ruleset.determinise`, with the agent's own dice,
never the game's), with the ruleset's AI playing both sides for a fixed horizon of decisions,
and scoring where that leaves it with `Ruleset.evaluate`. Every candidate is played forward
against the same futures (the same dice seed and the same seeded players in each round), so
the comparison between candidates is not drowned in the noise of the dice. Another candidate
overrules the ruleset AI's choice only when its mean score is better by `margin`: on ttt,
overruling on any lead lost more games than it won (benchmarks/search.py).

The budget counts look-aheads, so a seed gives the same choices on any machine; an optional
wall-clock cap per decision suits play but gives up that reproducibility.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from warbench.core.actions import Action
from warbench.core.dice import SeededDice
from warbench.core.game import Decision, Game
from warbench.core.ruleset import Agent


@dataclass(frozen=True)
class Budget:
    """How much thinking a decision gets."""

    lookaheads: int = 16  # games played forward per decision, shared among the candidates
    horizon: int = 12  # decisions played after the candidate in each look-ahead
    candidates: int = 4  # the ruleset AI's choice and at most this many less one others
    seconds: float | None = None  # wall-clock cap per decision (play only)
    margin: float = 0.3  # how much better another candidate must score to overrule the AI

    def __post_init__(self) -> None:
        if self.lookaheads < 1 or self.horizon < 0 or self.candidates < 1:
            raise ValueError(
                "a search budget needs at least 1 look-ahead and 1 candidate, and a horizon "
                f"of 0 or more decisions (got {self.lookaheads}, {self.candidates}, "
                f"{self.horizon})"
            )


@dataclass
class _Arm:
    action: Action
    total: float = 0.0
    tries: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.tries if self.tries else 0.0


class SearchAgent(Agent):
    """Looks ahead through the rules code itself; needs the ruleset's `ai` agent and its
    `evaluate` and `determinise` hooks."""

    def __init__(self, seed: int, budget: Budget | None = None) -> None:
        self._rng = random.Random(seed)
        self.budget = budget or Budget()
        self._policy: Agent | None = None

    def choose(self, game: Game, player: str) -> Action:
        """The candidate whose look-aheads scored best for `player`."""
        actions = game.legal_actions(player)
        if not actions:
            raise ValueError(f"{player} has no legal action at {game.pending}")
        if self._policy is None:
            self._policy = game.ruleset.agents()["ai"](self._rng.getrandbits(32))
        preferred = self._policy.choose(game, player)
        if len(actions) == 1:
            return actions[0]
        arms = [_Arm(preferred), *self._others(actions, preferred)]
        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        rounds = max(1, budget.lookaheads // len(arms))
        for n in range(rounds):
            if deadline is not None and n and time.perf_counter() > deadline:
                break
            future = self._rng.getrandbits(63)  # the same dice and players for every arm
            for arm in arms:
                arm.total += self._lookahead(game, player, arm.action, future)
                arm.tries += 1
        best = max(arms[1:], key=lambda a: a.mean, default=arms[0])
        return best.action if best.mean > arms[0].mean + budget.margin else arms[0].action

    def _others(self, actions: list[Action], preferred: Action) -> list[_Arm]:
        seen = str(preferred)
        rest = [a for a in actions if str(a) != seen]
        count = min(self.budget.candidates - 1, len(rest))
        return [_Arm(a) for a in self._rng.sample(rest, count)]

    def _lookahead(self, game: Game, player: str, action: Action, future: int) -> float:
        """Play `action`, then `horizon` decisions by the ruleset AI; score the result."""
        ruleset = game.ruleset
        futures = random.Random(future)
        sim = ruleset.determinise(game, player, SeededDice(futures.getrandbits(63)))
        sim.apply(action, player)
        make = ruleset.agents()["ai"]
        agents = {p: make(futures.getrandbits(32)) for p in ruleset.players}
        for _ in range(self.budget.horizon):
            pending = sim.pending
            if not isinstance(pending, Decision):
                break
            sim.apply(agents[pending.player].choose(sim, pending.player), pending.player)
        return ruleset.evaluate(sim, player)
