"""Running many games: batches of at least ~100 ms over a `concurrent.futures.Executor`
(a process pool by default, Ray for clusters), results in game order whatever the jobs."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Literal

from warbench.sim.play import GameResult, Matchup, play, play_batch, spawn_seeds

Backend = Literal["local", "ray"]
BACKENDS: tuple[Backend, ...] = ("local", "ray")
BATCH_SECONDS = 0.1
"""The least work sent to a worker at once: one batch of games takes at least this long."""


def batch_size(seconds_per_game: float) -> int:
    """Games per batch so that a batch takes at least `BATCH_SECONDS`."""
    return max(1, math.ceil(BATCH_SECONDS / max(seconds_per_game, 1e-6)))


def make_executor(backend: Backend, jobs: int) -> Executor:
    """A process pool of `jobs` workers, or Ray tasks (`warbench[distributed]`)."""
    if backend == "local":
        return ProcessPoolExecutor(max_workers=jobs)
    if backend == "ray":
        from warbench.sim.ray_backend import RayExecutor

        return RayExecutor(jobs)
    raise ValueError(f"no backend '{backend}'; allowed: {', '.join(BACKENDS)}")


def run(
    matchup: Matchup,
    games: int,
    seed: int,
    jobs: int = 1,
    backend: Backend = "local",
    progress: Callable[[int], None] | None = None,
    first: int = 0,
) -> list[GameResult]:
    """Play `games` games of `matchup` from `seed`, numbered from `first` (so a long run can be
    played in parts that give the same games); `progress(n)` is told as n more finish.

    The first game is played here to time a game and size the batches; with one local job
    the rest are played here too, otherwise sent to the backend's executor."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if backend not in BACKENDS:
        raise ValueError(f"no backend '{backend}'; allowed: {', '.join(BACKENDS)}")
    if first < 0:
        raise ValueError(f"the first game's number must be at least 0, not {first}")
    seeds = spawn_seeds(seed, first + games, len(matchup.agents))[first:]
    if not seeds:
        return []
    tell = progress or (lambda n: None)
    start = time.perf_counter()
    results = [play(matchup, seeds[0])]
    tell(1)
    size = batch_size(time.perf_counter() - start)
    batches = [seeds[i : i + size] for i in range(1, len(seeds), size)]
    if backend == "local" and jobs == 1:
        for batch in batches:
            results += play_batch(matchup, batch)
            tell(len(batch))
    elif batches:
        with make_executor(backend, jobs) as executor:
            futures: list[Future[list[GameResult]]] = [
                executor.submit(play_batch, matchup, batch) for batch in batches
            ]
            for future in as_completed(futures):
                done = future.result()
                results += done
                tell(len(done))
    return sorted(results, key=lambda r: r.index)
