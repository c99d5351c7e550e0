"""The three balance studies the rulebooks invite (docs/studies.md), reproducible:
`python -m warbench.sim.studies {fft3-ratio,ttt-pieces,gff-points} [--games N] [--jobs J]`.

Each prints its table and writes its plot and JSON under `docs/studies/` (or `--out`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry
from warbench.sim.balance import sweep
from warbench.sim.play import Matchup
from warbench.sim.plot import plot_sweep
from warbench.sim.report import Rate, summarise
from warbench.sim.runner import run

AI = (("red", "ai"), ("blue", "ai"))
app = typer.Typer(help="The balance studies of docs/studies.md.", no_args_is_help=True)
console = Console(highlight=False, markup=False, emoji=False)  # text as it is
OutOpt = Annotated[Path, typer.Option(help="folder for the plot and the JSON")]
GamesOpt = Annotated[int, typer.Option(help="games per point", min=1)]
JobsOpt = Annotated[int, typer.Option(help="worker processes", min=1)]
SeedOpt = Annotated[int, typer.Option(help="seed of every run", min=0)]


def _score(ruleset: str, scenario: dict[str, Any], games: int, seed: int, jobs: int) -> Rate:
    rs = registry.get(ruleset)
    results = run(Matchup(ruleset, scenario, AI), games, seed, jobs)
    return summarise(results, rs.players).score("red")


def _bars(
    labels: list[str], scores: list[Rate], baseline: Rate, title: str, ylabel: str, path: Path
) -> None:
    figure, axes = plt.subplots(figsize=(8, 4.2), dpi=110)
    rates = [s.rate for s in scores]
    errors = [[s.rate - s.low for s in scores], [s.high - s.rate for s in scores]]
    axes.bar(labels, rates, yerr=errors, capsize=4, color="#c44e52", alpha=0.8)
    axes.axhspan(baseline.low, baseline.high, color="grey", alpha=0.2, label="baseline 95%")
    axes.axhline(baseline.rate, color="grey", linestyle="--", linewidth=1, label="baseline")
    axes.set_ylim(0, 1)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=10)
    axes.tick_params(axis="x", labelrotation=30, labelsize=8)
    axes.legend(fontsize=8)
    axes.grid(alpha=0.3, axis="y")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


@app.command("fft3-ratio")
def fft3_ratio(
    games: GamesOpt = 24,
    jobs: JobsOpt = 2,
    seed: SeedOpt = 0,
    low: float = 1.0,
    high: float = 2.5,
    step: float = 0.25,
    out: OutOpt = Path("docs/studies"),
) -> None:
    """The Soviet:NATO stand ratio that makes the meeting engagement even."""
    rs = registry.get("fft3")
    data = rs.load_scenario("meeting-engagement")
    count = round((high - low) / step) + 1
    values = [round(low + n * step, 10) for n in range(count)]
    result = sweep(rs, data, "ratio", values, AI, games, seed, jobs=jobs)
    out.mkdir(parents=True, exist_ok=True)
    plot_sweep(result, out / "fft3-ratio.png")
    (out / "fft3-ratio.json").write_text(json.dumps(result.to_json(), indent=2))
    table = Table("ratio", "Soviet score", "95% Wilson", title="fft3 meeting engagement")
    for point, score in zip(result.points, result.scores(), strict=True):
        table.add_row(f"{point.value:g}", f"{score.rate:.1%}", f"{score.low:.1%}-{score.high:.1%}")
    console.print(table)
    console.print(f"crossing: {result.crossing}")


@app.command("ttt-pieces")
def ttt_pieces(
    games: GamesOpt = 200,
    jobs: JobsOpt = 2,
    seed: SeedOpt = 0,
    out: OutOpt = Path("docs/studies"),
) -> None:
    """Sweep the Settlement: red fields 7 of one kind against blue's free choice of 7."""
    rs = registry.get("ttt")
    base = rs.load_scenario("sweep-the-settlement")
    baseline = _score("ttt", base, games, seed, jobs)
    kinds = sorted(k.split(".", 1)[1] for k in rs.parameters(base) if k.startswith("red."))
    kinds.remove("choose")
    scores = []
    for kind in kinds:
        data = rs.vary(rs.vary(base, "red.choose", 0), f"red.{kind}", 7)
        scores.append(_score("ttt", data, games, seed, jobs))
    out.mkdir(parents=True, exist_ok=True)
    _bars(
        [f"7 {k}" for k in kinds],
        scores,
        baseline,
        f"ttt Sweep the Settlement: red's 7 of a kind v blue's free 7 ({games} games each)",
        "red wins + ½ draws",
        out / "ttt-pieces.png",
    )
    document = {
        "games": games,
        "seed": seed,
        "baseline": baseline.__dict__,
        "kinds": {k: s.__dict__ for k, s in zip(kinds, scores, strict=True)},
    }
    (out / "ttt-pieces.json").write_text(json.dumps(document, indent=2))
    table = Table("red force", "red score", "95% Wilson", title="ttt: is every piece worth 9?")
    table.add_row(
        "free 7 (baseline)", f"{baseline.rate:.1%}", f"{baseline.low:.1%}-{baseline.high:.1%}"
    )
    for kind, score in zip(kinds, scores, strict=True):
        table.add_row(f"7 {kind}", f"{score.rate:.1%}", f"{score.low:.1%}-{score.high:.1%}")
    console.print(table)


@app.command("gff-points")
def gff_points(
    games: GamesOpt = 30,
    jobs: JobsOpt = 2,
    seed: SeedOpt = 0,
    out: OutOpt = Path("docs/studies"),
) -> None:
    """Skirmish: one more of a unit on its side; its score gain per 100 points of its cost."""
    rs = registry.get("gff")
    base = rs.load_scenario("skirmish")
    baseline = _score("gff", base, games, seed, jobs)
    labels, scores, rows = [], [], []
    for parameter, meaning in rs.parameters(base).items():
        side, name = parameter.split(".", 1)
        armies = base["armies"][side]["army"]["units"]
        now = sum(u["name"] == name for u in armies)
        cost = int(meaning.split("(")[1].split(" pts")[0])
        score = _score("gff", rs.vary(base, parameter, now + 1), games, seed, jobs)
        gain = (score.rate - baseline.rate) if side == "red" else (baseline.rate - score.rate)
        labels.append(f"{side} +{name}")
        scores.append(score)
        rows.append(
            {
                "side": side,
                "unit": name,
                "cost": cost,
                "score": score.__dict__,
                "gain": gain,
                "gain_per_100_pts": 100 * gain / cost,
            }
        )
    out.mkdir(parents=True, exist_ok=True)
    _bars(
        labels,
        scores,
        baseline,
        f"gff Skirmish: red's score with one more unit ({games} games each)",
        "red wins + ½ draws",
        out / "gff-points.png",
    )
    document = {"games": games, "seed": seed, "baseline": baseline.__dict__, "units": rows}
    (out / "gff-points.json").write_text(json.dumps(document, indent=2))
    table = Table(
        "side",
        "unit",
        "pts",
        "red score",
        "95% Wilson",
        "gain",
        "gain/100 pts",
        title=f"gff Skirmish: baseline red score {baseline.rate:.1%}",
    )
    for row, score in zip(rows, scores, strict=True):
        table.add_row(
            str(row["side"]),
            str(row["unit"]),
            str(row["cost"]),
            f"{score.rate:.1%}",
            f"{score.low:.1%}-{score.high:.1%}",
            f"{row['gain']:+.1%}",
            f"{row['gain_per_100_pts']:+.1%}",
        )
    console.print(table)


if __name__ == "__main__":
    app()
