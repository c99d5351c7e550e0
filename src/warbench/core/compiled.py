"""The one way compiled code is made: numba's `njit`, its machine code cached on disk beside
the compiled function's module, for the kernels rulesets keep bit-equal to their Python."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba


def compiled(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` compiled by numba, its machine code cached on disk beside its module."""
    found: Callable[..., Any] = numba.njit(cache=True)(function)
    return found
