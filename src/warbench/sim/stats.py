"""Statistics of a batch of games: Wilson score intervals and where a win rate crosses 50%."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (Wilson 1927); (0, 1) with no trials.

    `successes` may be fractional (a draw counted as half a win)."""
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, not {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Crossing:
    """Where a logistic fit of the win rate against a parameter crosses 50%, with a 95%
    interval (delta method); `inside` says whether it lies within the values swept."""

    estimate: float
    low: float
    high: float
    inside: bool


def crossing(
    values: Sequence[float], successes: Sequence[float], trials: Sequence[int]
) -> Crossing | None:
    """Fit P(win) = 1 / (1 + exp(-(a + b x))) to the points by maximum likelihood (IRLS) and
    return where it equals 1/2, x = -a/b. When the fit breaks down (no slope, or the points
    separate perfectly) the crossing is interpolated between the two values around 50%, the
    interval being those two values; None when the rates never cross 50%."""
    if not len(values) == len(successes) == len(trials) or len(values) < 2:
        raise ValueError("need at least two points, each a value, its successes and trials")
    x = np.asarray(values, dtype=float)
    n = np.asarray(trials, dtype=float)
    k = np.asarray(successes, dtype=float)
    if len(set(values)) < 2 or n.sum() == 0:
        return None
    design = np.column_stack([np.ones_like(x), x])
    beta = np.zeros(2)
    converged = False
    for _ in range(50):
        p = 1 / (1 + np.exp(-(design @ beta)))
        weight = np.clip(n * p * (1 - p), 1e-9, None)
        information = design.T @ (design * weight[:, None])
        step = np.linalg.solve(information, design.T @ (k - n * p))
        beta = beta + step
        if np.max(np.abs(step)) < 1e-9:
            converged = True
            break
    p = 1 / (1 + np.exp(-(design @ beta)))
    information = design.T @ (design * np.clip(n * p * (1 - p), 1e-12, None)[:, None])
    covariance = np.linalg.pinv(information)
    a, b = float(beta[0]), float(beta[1])
    if not converged or not math.isfinite(a + b) or abs(b) < 1e-9:
        return _bracket(x, k / np.clip(n, 1, None))
    estimate = -a / b
    gradient = np.array([-1 / b, a / (b * b)])
    spread = Z95 * math.sqrt(max(0.0, float(gradient @ covariance @ gradient)))
    inside = bool(x.min() <= estimate <= x.max())
    return Crossing(estimate, estimate - spread, estimate + spread, inside)


def _bracket(x: np.ndarray, rates: np.ndarray) -> Crossing | None:
    order = np.argsort(x)
    xs, rs = x[order], rates[order]
    for x0, x1, r0, r1 in zip(xs, xs[1:], rs, rs[1:], strict=False):
        if r0 != r1 and (r0 - 0.5) * (r1 - 0.5) <= 0:
            estimate = float(x0 + (0.5 - r0) * (x1 - x0) / (r1 - r0))
            return Crossing(estimate, float(x0), float(x1), True)
    return None
