"""The search agent: looks ahead in forks through the rules code, never touches the game."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from warbench.ai.search import Budget, Forking, Ranking, SearchAgent
from warbench.core import registry
from warbench.core.actions import Action, ActionCodec
from warbench.core.dice import DiceSource, SeededDice
from warbench.core.game import Decision, Game, GameOver, OpenGame, Pending
from warbench.core.ruleset import Agent, AgentFactory, Ruleset, ScenarioModel
from warbench.core.scene import Scene

SEARCHABLE = ["ttt", "fft3", "gff", "tftww2", "fftt"]
OPENING = {
    "ttt": "cap-the-capn",
    "fft3": "meeting-engagement",
    "gff": "skirmish",
    "tftww2": "patrol",
    "fftt": "marines-vs-machina",
}

# -- a toy game where the look-ahead must beat a short-sighted AI ------------------------------


@dataclass(frozen=True)
class Take(Action):
    """Take 1 or 2 counters; whoever takes the last one wins."""

    verb = "take"
    count: int


@dataclass
class _Pile:
    left: int
    player: str = "red"
    winner: str | None = None
    taken: list[int] = field(default_factory=list)

    def copy(self) -> _Pile:
        return replace(self, taken=list(self.taken))


class _PileGame(OpenGame):
    codec = ActionCodec([Take])
    state: _Pile

    def __init__(self, ruleset: Ruleset, left: int, dice: DiceSource | None) -> None:
        super().__init__(ruleset, {"left": left}, 1, dice)
        self.state = _Pile(left)
        self.start()

    @property
    def pending(self) -> Pending:
        if self.state.winner:
            return GameOver(self.state.winner, "took the last counter")
        return Decision(self.state.player, "take", "take 1 or 2")

    def legal_actions(self, player: str) -> list[Action]:
        if self.state.winner or player != self.state.player:
            return []
        return [Take(n) for n in (1, 2) if n <= self.state.left]

    def _illegal(self, action: Action, player: str) -> str | None:
        assert isinstance(action, Take)
        return None if 1 <= action.count <= min(2, self.state.left) else "take 1 or 2"

    def _resolve(self, action: Action, player: str) -> None:
        assert isinstance(action, Take)
        s = self.state
        s.left -= action.count
        s.taken.append(action.count)
        if s.left == 0:
            s.winner = player
        s.player = "blue" if player == "red" else "red"

    def state_data(self) -> dict[str, Any]:
        return {"left": self.state.left, "player": self.state.player}


class _TakeOne(Agent):
    """Short-sighted: always takes one."""

    def __init__(self, seed: int) -> None:
        del seed

    def choose(self, game: Game, player: str) -> Action:
        return Take(1)


class _PileRuleset(Ruleset):
    id = "pile"
    name = "Pile"
    version = "1"
    unit = "square"

    def shipped_scenarios(self) -> dict[str, ScenarioModel]:
        return {}

    def read_scenario(self, path: Path) -> ScenarioModel:
        raise ValueError("no files")

    def check_scenario(self, data: dict[str, Any]) -> ScenarioModel:
        raise ValueError("no scenarios")

    def new_game(
        self, scenario: dict[str, Any], seed: int | None, dice: DiceSource | None = None
    ) -> Game:
        return _PileGame(self, int(scenario["left"]), dice)

    def agents(self) -> dict[str, AgentFactory]:
        return {"ai": _TakeOne}

    def scene(self, game: Game, viewer: str | None = None) -> Scene:
        raise NotImplementedError

    def board_text(self, game: Game) -> str:
        return str(game.state_data())


class _ScoredPile(_PileRuleset):
    """Weighs an unfinished pile as even."""

    def evaluate(self, game: Game, player: str) -> float:
        return super().evaluate(game, player) if isinstance(game.pending, GameOver) else 0.0


def test_search_finds_the_win_the_ai_misses() -> None:
    # 4 left, both sides then taking one at a time: after red takes 1 blue takes the last
    # counter, after red takes 2 red does. Only a look-ahead sees it.
    game = _ScoredPile().new_game({"left": 4}, 1)
    agent = SearchAgent(3, Budget(lookaheads=8, horizon=10, candidates=2))
    assert agent.choose(game, "red") == Take(2)
    assert _TakeOne(0).choose(game, "red") == Take(1)


class _RanksTakeOneFirst(_TakeOne):
    """Short-sighted, but ranks every legal action (the search agent's candidates)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked = 0

    def ranked(self, game: Game, player: str) -> list[Action]:
        self.asked += 1
        return sorted(game.legal_actions(player), key=lambda a: str(a))


class _RankedPile(_ScoredPile):
    def agents(self) -> dict[str, AgentFactory]:
        return {"ai": _RanksTakeOneFirst}


def test_search_takes_its_candidates_from_the_ai_ranking() -> None:
    game = _RankedPile().new_game({"left": 4}, 1)
    agent = SearchAgent(3, Budget(lookaheads=8, horizon=10, candidates=2))
    assert agent.choose(game, "red") == Take(2)
    policy = agent._policy
    assert isinstance(policy, _RanksTakeOneFirst) and isinstance(policy, Ranking)
    assert policy.asked == 1
    # with one candidate there is nothing to weigh: the AI's first choice stands
    alone = SearchAgent(3, Budget(lookaheads=8, horizon=10, candidates=1))
    assert alone.choose(game, "red") == Take(1)


class _Greedy(_TakeOne):
    """Takes as many as it may: what a forked AI has learned, in this toy."""

    def choose(self, game: Game, player: str) -> Action:
        assert isinstance(game, _PileGame)
        return Take(min(2, game.state.left))


class _ForksGreedy(_RanksTakeOneFirst):
    """Ranks like `_RanksTakeOneFirst`; its forks play greedily."""

    forks = 0

    def fork(self, seed: int) -> Agent:
        _ForksGreedy.forks += 1
        return _Greedy(seed)


class _ForkedPile(_ScoredPile):
    def agents(self) -> dict[str, AgentFactory]:
        return {"ai": _ForksGreedy}


def test_an_ai_that_forks_plays_the_agents_side_of_every_look_ahead() -> None:
    # 4 left: with fresh AIs (taking one) only taking 2 wins (above); with red's side played
    # by the greedy fork both candidates win, so the AI's first choice stands
    game = _ForkedPile().new_game({"left": 4}, 1)
    agent = SearchAgent(3, Budget(lookaheads=8, horizon=10, candidates=2))
    _ForksGreedy.forks = 0
    assert agent.choose(game, "red") == Take(1)
    assert isinstance(agent._policy, Forking)
    assert _ForksGreedy.forks == 8  # one per look-ahead


class _Dithers(_TakeOne):
    """Ranks nothing; breaks its tie between taking 1 and 2 by its seed."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.take = 1 + seed % 2

    def choose(self, game: Game, player: str) -> Action:
        return Take(self.take)


class _DitheringPile(_ScoredPile):
    def agents(self) -> dict[str, AgentFactory]:
        return {"ai": _Dithers}


def test_an_ai_without_a_ranking_offers_its_near_ties_before_other_actions() -> None:
    game = _DitheringPile().new_game({"left": 9}, 1)
    offered: list[Action] = [Take(n) for n in range(1, 10)]  # as if all were legal
    agent = SearchAgent(3, Budget(lookaheads=4, horizon=2, candidates=3))
    agent._policy = _Dithers(0)
    arms = agent._candidates(game, "red", offered)
    assert [a.action for a in arms[:2]] == [Take(1), Take(2)]  # its choice, then the tie
    assert len({str(a.action) for a in arms}) == 3
    steady = SearchAgent(3, Budget(lookaheads=4, horizon=2, candidates=3))
    steady._policy = _TakeOne(0)  # never dithers: the rest are a seeded sample
    arms = steady._candidates(_ScoredPile().new_game({"left": 9}, 1), "red", offered)
    assert arms[0].action == Take(1) and len({str(a.action) for a in arms}) == 3


def test_search_sees_as_far_as_its_horizon() -> None:
    # 6 left, then one at a time: after red takes 2, red takes the last counter 4 decisions
    # on; after red takes 1 blue does, 5 decisions on. A horizon of 3 sees neither end.
    game = _RankedPile().new_game({"left": 6}, 1)
    far = SearchAgent(5, Budget(lookaheads=8, horizon=4, candidates=2))
    near = SearchAgent(5, Budget(lookaheads=8, horizon=3, candidates=2))
    assert far.choose(game, "red") == Take(2)
    assert near.choose(game, "red") == Take(1)


def test_search_stops_its_lookaheads_where_the_budget_says() -> None:
    # as above, but each look-ahead stops once 3 counters are left: neither end is seen
    game = _RankedPile().new_game({"left": 6}, 1)

    def three_left(root: Game, sim: Game) -> bool:
        assert root is game and sim is not game
        return bool(sim.state_data()["left"] <= 3)

    stopped = SearchAgent(5, Budget(lookaheads=8, horizon=4, candidates=2, until=three_left))
    assert stopped.choose(game, "red") == Take(1)


def test_search_with_no_horizon_falls_back_to_the_ai() -> None:
    # with no look-ahead every candidate scores alike and the AI's choice stands
    game = _ScoredPile().new_game({"left": 5}, 1)
    agent = SearchAgent(3, Budget(lookaheads=4, horizon=0, candidates=2))
    assert agent.choose(game, "red") == Take(1)


def test_budget_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="at least 1 look-ahead"):
        Budget(lookaheads=0)
    with pytest.raises(ValueError, match="horizon"):
        Budget(horizon=-1)


def test_hidden_information_is_never_forked_for_search() -> None:
    class Hidden(_PileRuleset):
        hidden_information = True

    ruleset = Hidden()
    game = ruleset.new_game({"left": 5}, 1)
    with pytest.raises(NotImplementedError, match="hidden information"):
        ruleset.determinise(game, "red", SeededDice(1))


def test_a_finished_game_scores_its_result() -> None:
    ruleset = _PileRuleset()
    game = ruleset.new_game({"left": 2}, 1)
    game.apply(Take(2), "red")
    assert ruleset.evaluate(game, "red") == 1.0
    assert ruleset.evaluate(game, "blue") == -1.0
    with pytest.raises(NotImplementedError, match="cannot weigh"):
        ruleset.evaluate(ruleset.new_game({"left": 2}, 1), "red")


# -- the rulesets that offer search -------------------------------------------------------


def _opened(ruleset_id: str, seed: int, steps: int) -> Game:
    """A game a few AI moves in, so the search has a real position to weigh."""
    ruleset = registry.get(ruleset_id)
    game = ruleset.new_game(ruleset.load_scenario(OPENING[ruleset_id]), seed)
    agents = {p: ruleset.agents()["ai"](seed + n) for n, p in enumerate(ruleset.players)}
    for _ in range(steps):
        pending = game.pending
        assert isinstance(pending, Decision)
        game.apply(agents[pending.player].choose(game, pending.player), pending.player)
    return game


@pytest.mark.parametrize("ruleset_id", SEARCHABLE)
def test_search_chooses_a_legal_action_reproducibly_and_leaves_the_game_alone(
    ruleset_id: str,
) -> None:
    game = _opened(ruleset_id, 4, 12)
    pending = game.pending
    assert isinstance(pending, Decision)
    before = (game.state_hash(), len(game.steps), len(game.log))
    budget = Budget(lookaheads=4, horizon=6, candidates=2)
    first = SearchAgent(11, budget).choose(game, pending.player)
    assert (game.state_hash(), len(game.steps), len(game.log)) == before
    assert game.check(first, pending.player) is None
    assert SearchAgent(11, budget).choose(game, pending.player) == first
    agent = registry.get(ruleset_id).agents()["search"](11)
    assert isinstance(agent, SearchAgent) and agent.budget.seconds is None  # reproducible


@pytest.mark.parametrize("ruleset_id", SEARCHABLE)
def test_evaluate_reads_an_unfinished_game_from_both_sides(ruleset_id: str) -> None:
    ruleset = registry.get(ruleset_id)
    game = _opened(ruleset_id, 2, 30)
    red, blue = ruleset.evaluate(game, "red"), ruleset.evaluate(game, "blue")
    assert -1.0 < red < 1.0
    assert -1.0 < blue < 1.0


@pytest.mark.parametrize("ruleset_id", SEARCHABLE)
def test_search_leaves_the_game_dice_to_come_as_they_were(ruleset_id: str) -> None:
    """The look-ahead rolls its own dice: the game's next rolls are the ones a twin gets."""
    ruleset = registry.get(ruleset_id)
    game = ruleset.new_game(ruleset.load_scenario(OPENING[ruleset_id]), 5)
    twin = ruleset.new_game(ruleset.load_scenario(OPENING[ruleset_id]), 5)
    agent = SearchAgent(1, Budget(lookaheads=2, horizon=4, candidates=2))
    for _ in range(3):
        pending = game.pending
        assert isinstance(pending, Decision)
        action = agent.choose(game, pending.player)
        game.apply(action, pending.player)
        twin.apply(twin.parse(str(action)), pending.player)
        assert game.state_hash() == twin.state_hash()


@pytest.mark.parametrize("ruleset_id", SEARCHABLE)
@pytest.mark.parametrize("steps", [0, 7, 20])
def test_the_ai_ranking_leads_with_the_ai_choice(ruleset_id: str, steps: int) -> None:
    game = _opened(ruleset_id, 3, steps)
    pending = game.pending
    assert isinstance(pending, Decision)
    make = registry.get(ruleset_id).agents()["ai"]
    ranking = make(9)
    assert isinstance(ranking, Ranking)
    ranked = ranking.ranked(game, pending.player)
    assert ranked[0] == make(9).choose(game, pending.player)
    assert all(game.check(a, pending.player) is None for a in ranked)
    assert len(set(map(str, ranked))) == len(ranked)
