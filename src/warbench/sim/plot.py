"""The picture of a sweep: a player's score against the parameter, with 95% bands (PNG)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from warbench.sim.balance import Sweep


def plot_sweep(result: Sweep, path: Path) -> None:
    """Score with its Wilson band at each value, the 50% line, and the crossing with its
    interval when the fit finds one."""
    values = [p.value for p in result.points]
    scores = result.scores()
    figure, axes = plt.subplots(figsize=(7, 4.2), dpi=110)
    axes.fill_between(
        values, [s.low for s in scores], [s.high for s in scores], alpha=0.25, label="95% Wilson"
    )
    axes.plot(values, [s.rate for s in scores], marker="o", label=f"{result.player} score")
    axes.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    cross = result.crossing
    if cross is not None and cross.inside:
        axes.axvline(cross.estimate, color="black", linewidth=1)
        axes.axvspan(cross.low, cross.high, color="black", alpha=0.08)
        axes.set_title(
            f"{result.ruleset} {result.scenario}: 50% at {result.parameter} = "
            f"{cross.estimate:.3g} [{cross.low:.3g}, {cross.high:.3g}]",
            fontsize=10,
        )
    else:
        axes.set_title(f"{result.ruleset} {result.scenario}: no 50% crossing in range", fontsize=10)
    games = result.points[0].summary.games if result.points else 0
    axes.set_xlabel(result.parameter)
    axes.set_ylabel(f"{result.player} wins + ½ draws ({games} games a point)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend(loc="best", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
