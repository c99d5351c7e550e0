"""The search agent: determinised Monte Carlo roll-outs over the game contract.

At each decision it weighs a few candidate actions — the ruleset AI's choice and the next
best by the AI's own ranking (`Ranking.ranked`; when the AI offers no ranking, what it
chooses with other seeds, then a seeded sample of the other legal actions) — by playing each
forward in copies of the game built only from what its player may see
(`Ruleset.determinise`, with the agent's own dice, never the game's), with the ruleset AI
playing both sides to the end of the game or for `horizon` decisions (or fewer, where the
budget's `until` test says the look-ahead has gone far enough, e.g. to the end of a phase),
and scoring where that leaves it with `Ruleset.evaluate`; an AI that remembers what it did
earlier in a phase (`Forking`) plays the agent's side from a copy of that memory. This is a
roll-out policy
improvement step (Bertsekas, Tsitsiklis & Wu 1997): the AI's own choice stays unless another
action does better when the AI plays on from it. Every candidate is played forward against
the same futures (the same dice seed and the same seeded players in each round: common
random numbers), so the comparison is not drowned in the noise of the dice. Rounds go in
halves (successive halving, Karnin et al. 2013): after each, the worse half of the
challengers is dropped, so the budget ends on the close calls. Another candidate overrules
the AI's choice only when its mean score is better by `margin`.

The budget counts look-aheads, so a seed gives the same choices on any machine; an optional
wall-clock cap per decision suits play but gives up that reproducibility.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from warbench.core.actions import Action
from warbench.core.dice import SeededDice
from warbench.core.game import Decision, Game
from warbench.core.ruleset import Agent, AgentFactory


@runtime_checkable
class Ranking(Protocol):
    """A ruleset AI that can rank the legal actions, best first (its choice leads)."""

    def ranked(self, game: Game, player: str) -> list[Action]:
        """Every legal action of `player`, best first by this agent's reckoning."""
        ...


@runtime_checkable
class Forking(Protocol):
    """A ruleset AI that remembers what it did earlier in a phase (which stands it has moved)
    and can hand that memory on, so a look-ahead plays on as it would."""

    def fork(self, seed: int) -> Agent:
        """A copy of this agent, with what it has done so far and its own generator `seed`."""
        ...


@dataclass(frozen=True)
class Budget:
    """How much thinking a decision gets."""

    lookaheads: int = 24  # games played forward per decision, shared among the candidates
    horizon: int = 400  # decisions played after the candidate in each look-ahead
    candidates: int = 3  # the ruleset AI's choice and at most this many less one others
    seconds: float | None = None  # wall-clock cap per decision (play only)
    margin: float = 0.0  # how much better another candidate must score to overrule the AI
    # a look-ahead ends early at the first decision where until(game, look-ahead) holds
    until: Callable[[Game, Game], bool] | None = None

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
        arms = self._candidates(game, player, actions)
        if len(arms) == 1:
            return arms[0].action
        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        left, live = budget.lookaheads, arms
        while left >= len(live) and (deadline is None or time.perf_counter() < deadline):
            halves = max(1, (len(live) - 1).bit_length())  # rounds of halving still to come
            rounds = max(1, left // len(live) // halves)
            for _ in range(rounds):
                future = self._rng.getrandbits(63)  # the same dice and players for every arm
                for arm in live:
                    arm.total += self._lookahead(game, player, arm.action, future)
                    arm.tries += 1
            left -= rounds * len(live)
            if len(live) == 2:
                continue
            challengers = sorted(live[1:], key=lambda a: -a.mean)
            live = [live[0], *challengers[: max(1, len(challengers) // 2)]]
        best = max(arms[1:], key=lambda a: (a.tries, a.mean))
        return best.action if best.mean > arms[0].mean + budget.margin else arms[0].action

    def _candidates(self, game: Game, player: str, actions: list[Action]) -> list[_Arm]:
        """The AI's choice first, then its next best (or its near-ties and a seeded sample of
        the rest)."""
        policy = self._policy
        assert policy is not None
        count = self.budget.candidates
        if isinstance(policy, Ranking):
            ranked = policy.ranked(game, player)
            return [_Arm(a) for a in ranked[:count]]
        chosen = {str(a): a for a in self._near_ties(game, player, count)}
        rest = [a for a in actions if str(a) not in chosen]
        others = self._rng.sample(rest, min(count - len(chosen), len(rest)))
        return [_Arm(a) for a in [*chosen.values(), *others]]

    def _near_ties(self, game: Game, player: str, count: int) -> list[Action]:
        """The AI's choice, then what the AI chooses with other seeds (a seeded AI breaks
        its near-ties by its dice): at most `count` different actions from `2 * count`
        askings, the AI's own alternatives before any other legal action."""
        policy = self._policy
        assert policy is not None
        make = game.ruleset.agents()["ai"]
        found: dict[str, Action] = {}
        for asking in range(2 * count):
            agent = policy if asking == 0 else make(self._rng.getrandbits(32))
            action = agent.choose(game, player)
            found.setdefault(str(action), action)
            if len(found) == count:
                break
        return list(found.values())

    def _lookahead(self, game: Game, player: str, action: Action, future: int) -> float:
        """Play `action`, then up to `horizon` decisions by the ruleset AI (fewer where the
        budget's `until` says so); score the result."""
        ruleset = game.ruleset
        futures = random.Random(future)
        sim = ruleset.determinise(game, player, SeededDice(futures.getrandbits(63)))
        sim.apply(action, player)
        make = ruleset.agents()["ai"]
        agents = {p: make(futures.getrandbits(32)) for p in ruleset.players}
        if isinstance(self._policy, Forking):  # it plays on from what it has done so far
            agents[player] = self._policy.fork(futures.getrandbits(32))
        until = self.budget.until
        for _ in range(self.budget.horizon):
            pending = sim.pending
            if not isinstance(pending, Decision) or (until is not None and until(game, sim)):
                break
            sim.apply(agents[pending.player].choose(sim, pending.player), pending.player)
        return ruleset.evaluate(sim, player)


def searcher(budget: Budget) -> AgentFactory:
    """Search agents thinking with `budget`: a ruleset's `search` entry in `agents()`, with
    the budget it measured to keep a decision under a second (docs/sim.md)."""

    def make(seed: int) -> Agent:
        return SearchAgent(seed, budget)

    return make
