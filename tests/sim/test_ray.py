"""The Ray backend against a local `ray.init()`: the same seeds give the same games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import ray

from warbench.core import registry
from warbench.sim.play import GameResult, Matchup
from warbench.sim.runner import run

MATCHUP = (("red", "ai"), ("blue", "ai"))


@pytest.fixture
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def pool_games() -> list[GameResult]:
    """The process pool's games, played before Ray starts (no fork after Ray's threads)."""
    ttt = registry.get("ttt")
    matchup = Matchup("ttt", ttt.load_scenario("cap-the-capn"), MATCHUP)
    return run(matchup, 10, seed=21, jobs=2, backend="local")


def test_ray_plays_the_same_games_as_the_process_pool(
    pool_games: list[GameResult], local_ray: None
) -> None:
    ttt = registry.get("ttt")
    matchup = Matchup("ttt", ttt.load_scenario("cap-the-capn"), MATCHUP)
    on_ray = run(matchup, 10, seed=21, jobs=2, backend="ray")
    assert ray.is_initialized()  # the executor leaves a Ray it did not start running
    assert on_ray == pool_games
    assert len(on_ray) == 10
