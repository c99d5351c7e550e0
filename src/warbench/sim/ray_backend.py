"""Ray as a `concurrent.futures.Executor`: each submitted batch is a Ray task.

Needs the `distributed` extra (`pip install 'warbench[distributed]'`). `ray.init()` joins
the cluster named by `RAY_ADDRESS`, or starts a local one of `jobs` CPUs."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class RayExecutor(Executor):
    """Submits calls as Ray tasks; shuts Ray down at the end only if it started it."""

    def __init__(self, jobs: int) -> None:
        try:
            import ray
        except ImportError as err:
            raise ValueError(
                "the ray backend needs Ray: pip install 'warbench[distributed]'"
            ) from err
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started and os.environ.get("RAY_ADDRESS"):
            ray.init(log_to_driver=False, logging_level=logging.ERROR)
        elif self._started:
            ray.init(
                num_cpus=jobs,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        self._remote: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run `fn(*args, **kwargs)` as a Ray task; its result comes back as a Future."""
        if fn not in self._remote:
            self._remote[fn] = self._ray.remote(fn)
        future: Future[T] = self._remote[fn].remote(*args, **kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the local Ray this executor started (a cluster it joined is left running)."""
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
            self._started = False
