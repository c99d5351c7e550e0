"""The search agent: legal choices, the real game and its dice untouched, no peeking."""

from __future__ import annotations

import pytest

from warbench.ai.search import SearchAgent, outcome
from warbench.core import registry
from warbench.core.game import Decision, GameOver


@pytest.mark.parametrize(
    ("ruleset", "scenario"),
    [
        ("ttt", "cap-the-capn"),
        ("tftww2", "patrol"),
        ("gff", "skirmish"),
        ("fft3", "meeting-engagement"),
    ],
)
def test_search_leaves_the_game_and_its_dice_as_they_were(ruleset: str, scenario: str) -> None:
    rs = registry.get(ruleset)
    game = rs.new_game(rs.load_scenario(scenario), 5)
    twin = rs.new_game(rs.load_scenario(scenario), 5)
    agent = SearchAgent(1, iterations=2)
    for _ in range(3):
        assert isinstance(game.pending, Decision)
        player = game.pending.player
        before = game.state_hash()
        action = agent.choose(game, player)
        assert game.state_hash() == before
        assert game.check(action, player) is None
        game.apply(action, player)
        twin.apply(twin.parse(str(action)), player)
        assert game.state_hash() == twin.state_hash()  # the same dice came next


def test_search_is_reproducible_from_its_seed() -> None:
    rs = registry.get("ttt")
    game = rs.new_game(rs.load_scenario("besiege-the-bunker"), 2)
    first = SearchAgent(9, iterations=30).choose(game, "red")
    assert SearchAgent(9, iterations=30).choose(game, "red") == first


def test_outcome_scores_the_end_and_the_material_before_it() -> None:
    rs = registry.get("ttt")
    game = rs.new_game(rs.load_scenario("besiege-the-bunker"), 2)
    assert outcome(game) == {"red": 0.5, "blue": 0.5}  # nothing fielded yet, nothing lost
    agents = {p: rs.agents()["random"](n) for n, p in enumerate(rs.players)}
    while isinstance(game.pending, Decision):
        player = game.pending.player
        game.apply(agents[player].choose(game, player), player)
    over = game.pending
    assert isinstance(over, GameOver) and over.winner is not None
    assert outcome(game)[over.winner] == 1.0


def test_search_refuses_hidden_information() -> None:
    rs = registry.get("ttt")
    game = rs.new_game(rs.load_scenario("cap-the-capn"), 2)

    class Hidden(type(rs)):  # type: ignore[misc]
        hidden_information = True

    game.ruleset = Hidden()
    with pytest.raises(ValueError, match="will not peek"):
        SearchAgent(1, iterations=1).choose(game, "red")
