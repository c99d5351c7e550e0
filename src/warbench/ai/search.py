"""A generic search agent: open-loop Monte Carlo tree search (UCT) over the game contract.

Each iteration plays on a private copy of the game with fresh dice of the agent's own (so it
never learns the game's dice to come), down the tree by UCB1 — widening each node's children
progressively, since continuous games offer many candidate actions — then a playout by the
ruleset's own heuristic agent (`ai`, else random moves) of at most `ROLLOUT_STEPS` decisions,
scored at the end by the result, or before it by the material each side still has (the
ruleset's `census`). Nodes are keyed by the actions taken
(open loop), so chance outcomes that differ between iterations share statistics. Each
node's first child is the heuristic agent's choice, so a short budget plays like it and a
longer one looks past it. The action most visited at the root is played. Games with hidden
information need a determinisation that samples what the view does not show; this agent
refuses them rather than peek.
"""

from __future__ import annotations

import copy
import math
import random
import time
from dataclasses import dataclass, field

from warbench.core.actions import Action
from warbench.core.dice import SeededDice
from warbench.core.game import Decision, Game, GameOver
from warbench.core.ruleset import Agent

BUDGET_SECONDS = 1.0
ROLLOUT_STEPS = 60
EXPLORATION = 0.7


@dataclass
class Node:
    """Statistics of one action sequence: visits and the value to the player who moved."""

    visits: int = 0
    value: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)

    def ucb(self, parent_visits: int) -> float:
        """UCB1 (Auer et al. 2002)."""
        if self.visits == 0:
            return math.inf
        mean = self.value / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(parent_visits) / self.visits)


def outcome(game: Game) -> dict[str, float]:
    """Each player's value of the position: 1 for a win, 0 for a loss, ½ for a draw; before
    the end, ½ plus half the difference of its share of pieces standing and its foes'."""
    pending = game.pending
    players = game.ruleset.players
    if isinstance(pending, GameOver):
        if pending.winner is None:
            return dict.fromkeys(players, 0.5)
        return {p: 1.0 if p == pending.winner else 0.0 for p in players}
    census = game.ruleset.census(game)
    share = {}
    for p in players:
        counts = census.get(p, {}).values()
        fielded = sum(f for f, _ in counts)
        share[p] = sum(s for _, s in counts) / fielded if fielded else 1.0
    values = {}
    for p in players:
        foes = [share[q] for q in players if q != p]
        values[p] = 0.5 + 0.5 * (share[p] - sum(foes) / max(1, len(foes)))
    return values


class SearchAgent(Agent):
    """MCTS with a time budget per decision (`budget` seconds, or `iterations` if given)."""

    def __init__(
        self, seed: int, budget: float = BUDGET_SECONDS, iterations: int | None = None
    ) -> None:
        self._rng = random.Random(seed)
        self.budget = budget
        self.iterations = iterations
        self._policy: Agent | None = None

    def choose(self, game: Game, player: str) -> Action:
        """The most visited root action after searching for the budget."""
        if game.ruleset.hidden_information:
            raise ValueError(
                f"the search agent cannot play {game.ruleset.id}: it has hidden information "
                "and the agent will not peek at what its view does not show"
            )
        actions = game.legal_actions(player)
        if not actions:
            raise ValueError(f"{player} has no legal action at {game.pending}")
        if len(actions) == 1:
            return actions[0]
        by_text = {str(a): a for a in actions}
        factory = game.ruleset.agents().get("ai")
        self._policy = factory(self._rng.getrandbits(32)) if factory else None
        root = Node()
        sandbox = self._sandbox(game)
        deadline = time.perf_counter() + self.budget
        done = 0
        while (done < self.iterations) if self.iterations else time.perf_counter() < deadline:
            self._iterate(sandbox, root)
            done += 1
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))
        return by_text[best[0]]

    def _sandbox(self, game: Game) -> Game:
        """A private copy of the game: the ruleset shared, the log and dice left behind."""
        memo: dict[int, object] = {
            id(game.ruleset): game.ruleset,
            id(game.dice): SeededDice(self._rng.getrandbits(63)),
            id(game.log): [],
            id(game.steps): [],
            id(game.event_counts): [],
        }
        sandbox = copy.deepcopy(game, memo)
        sandbox.track_hashes = False
        return sandbox

    def _iterate(self, sandbox: Game, root: Node) -> None:
        snapshot = sandbox._snapshot()
        sandbox.dice = SeededDice(self._rng.getrandbits(63))
        path: list[tuple[Node, str]] = []
        node = root
        try:
            while isinstance(sandbox.pending, Decision):
                mover = sandbox.pending.player
                legal = {str(a): a for a in sandbox.legal_actions(mover)}
                if not legal:
                    break
                known = [k for k in node.children if k in legal]
                width = 1 + int(math.sqrt(node.visits))
                fresh = [k for k in legal if k not in node.children]
                if fresh and (len(known) < width or not known):
                    key = self._first(sandbox, mover, legal) if not node.children else ""
                    key = key if key in fresh else self._rng.choice(fresh)
                    node.children[key] = Node()
                    expanded = True
                else:
                    key = max(known, key=lambda k: node.children[k].ucb(node.visits + 1))
                    expanded = False
                sandbox.apply(legal[key], mover)
                path.append((node.children[key], mover))
                node = node.children[key]
                if expanded:
                    break
            self._rollout(sandbox)
            values = outcome(sandbox)
        finally:
            sandbox._restore(snapshot)
            sandbox.log.clear()
            sandbox.steps.clear()
            sandbox.event_counts.clear()
        root.visits += 1
        for child, mover in path:
            child.visits += 1
            child.value += values[mover]

    def _first(self, sandbox: Game, mover: str, legal: dict[str, Action]) -> str:
        """A node's first child: the heuristic agent's choice (the search's prior)."""
        if self._policy is None:
            return ""
        snapshot = sandbox._snapshot()  # an agent may look ahead on the game it is given
        key = str(self._policy.choose(sandbox, mover))
        sandbox._restore(snapshot)
        return key if key in legal else ""

    def _rollout(self, sandbox: Game) -> None:
        for _ in range(ROLLOUT_STEPS):
            pending = sandbox.pending
            if not isinstance(pending, Decision):
                return
            player = pending.player
            if self._policy is not None:
                sandbox.apply(self._policy.choose(sandbox, player), player)
                continue
            legal = sandbox.legal_actions(player)
            if not legal:
                return
            sandbox.apply(self._rng.choice(legal), player)
