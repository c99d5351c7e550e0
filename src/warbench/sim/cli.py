"""`warbench sim` and `warbench balance`: batch play and balance sweeps (typer + rich)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from warbench.core import registry
from warbench.core.ruleset import Ruleset
from warbench.output_paths import check_writable
from warbench.sim.balance import Sweep, parse_range, sweep
from warbench.sim.play import Matchup
from warbench.sim.plot import plot_sweep
from warbench.sim.report import Rate, Summary, summarise, write_csv
from warbench.sim.runner import BACKENDS, Backend, run

console = Console(highlight=False, soft_wrap=True, markup=False, emoji=False)  # text as it is
CORES = os.cpu_count() or 1

RulesetArg = Annotated[str, typer.Argument(help="ruleset id, see `warbench rulesets`")]
ScenarioOpt = Annotated[str | None, typer.Option(help="scenario id or YAML file")]
RedOpt = Annotated[str, typer.Option(help="red's agent (e.g. ai, random)")]
BlueOpt = Annotated[str, typer.Option(help="blue's agent (e.g. ai, random)")]
JobsOpt = Annotated[int, typer.Option(help="worker processes (or Ray CPUs)", min=1)]
SeedOpt = Annotated[int, typer.Option(help="seed of the run: the same seed, the same games", min=0)]
BackendOpt = Annotated[str, typer.Option(help="local (process pool) or ray")]


def _setup(
    ruleset: str, scenario: str | None, red: str, blue: str, backend: str
) -> tuple[Ruleset, dict[str, object], tuple[tuple[str, str], ...], Backend]:
    try:
        rs = registry.get(ruleset)
    except KeyError as err:
        raise typer.BadParameter(str(err.args[0]), param_hint="RULESET") from None
    try:
        data = rs.load_scenario(scenario or rs.scenarios()[0].id)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--scenario") from None
    for side, kind in (("red", red), ("blue", blue)):
        if kind not in rs.agents():
            allowed = ", ".join(rs.agents())
            raise typer.BadParameter(
                f"'{kind}' is not an agent of {rs.id}; allowed: {allowed}", param_hint=f"--{side}"
            )
    if backend not in BACKENDS:
        raise typer.BadParameter(
            f"no backend '{backend}'; allowed: {', '.join(BACKENDS)}", param_hint="--backend"
        )
    chosen: Backend = "ray" if backend == "ray" else "local"
    return rs, data, (("red", red), ("blue", blue)), chosen


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
    )


def _pct(rate: Rate) -> str:
    return f"{rate.rate:6.1%}  [{rate.low:.1%}, {rate.high:.1%}]"


def _ms(seconds: float) -> str:
    """CPU seconds as milliseconds to three significant figures (ttt's agents decide in a tenth
    of a millisecond to one, a search agent in hundreds: "0.000" s said nothing)."""
    ms = seconds * 1000
    if ms <= 0:
        return "0"
    return f"{ms:.{max(0, 2 - math.floor(math.log10(ms)))}f}"


def _print_summary(summary: Summary, title: str) -> None:
    outcomes = Table("outcome", "games", "rate  [95% Wilson]", title=title)
    for name, rate in summary.outcomes.items():
        label = "draws" if name == "draw" else f"{name} wins"
        outcomes.add_row(label, f"{rate.count:g}", _pct(rate))
    console.print(outcomes)
    length = summary.length
    console.print(
        f"game length (decisions): mean {length['mean']:.1f}, median {length['median']:g}, "
        f"min {length['min']:g}, max {length['max']:g}"
    )
    if summary.units:
        units = Table(
            "side",
            "unit type",
            "fielded/game",
            "lost/game",
            "lost",
            "contribution",
            title="casualties by unit type (contribution: correlation of its survivors with "
            "its side's result)",
        )
        for line in summary.units:
            contribution = "—" if line.contribution is None else f"{line.contribution:+.2f}"
            units.add_row(
                line.side,
                line.unit,
                f"{line.fielded:.2f}",
                f"{line.lost:.2f}",
                f"{line.lost_share:.0%}",
                contribution,
            )
        console.print(units)
    if len(summary.agents) > 1:
        agents = Table(
            "agent",
            "seats",
            "score (wins + ½ draws)  [95% Wilson]",
            "CPU ms/decision",
            title="agents over both sides",
        )
        for agent in summary.agents:
            agents.add_row(
                agent.agent, str(agent.score.games), _pct(agent.score), _ms(agent.per_decision)
            )
        console.print(agents)


def sim(
    ruleset: RulesetArg,
    scenario: ScenarioOpt = None,
    red: RedOpt = "ai",
    blue: BlueOpt = "ai",
    games: Annotated[int, typer.Option(help="games to play", min=1)] = 100,
    jobs: JobsOpt = CORES,
    seed: SeedOpt = 0,
    backend: BackendOpt = "local",
    json_out: Annotated[Path | None, typer.Option("--json", help="write the summary")] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="write one row a game")] = None,
    swap: Annotated[bool, typer.Option(help="odd games swap the agents' sides")] = False,
    first: Annotated[
        int, typer.Option(help="number of the first game: a run played in parts", min=0)
    ] = 0,
) -> None:
    """Play many games unattended: outcomes with 95% intervals, length, casualties, and each
    agent's score and CPU time per decision."""
    rs, data, agents, chosen = _setup(ruleset, scenario, red, blue, backend)
    check_writable(json_out, "--json")
    check_writable(csv_out, "--csv")
    matchup = Matchup(rs.id, data, agents, swap)
    with _progress() as bar:
        task = bar.add_task(f"{rs.id} {data['id']}", total=games)
        results = run(matchup, games, seed, jobs, chosen, lambda n: bar.advance(task, n), first)
    summary = summarise(results, rs.players)
    swapped = ", sides swapped in odd games" if swap else ""
    numbers = f", games {first}–{first + games - 1}" if first else ""
    title = f"{rs.id} {data['id']}: red {red} v blue {blue}{swapped}, seed {seed}{numbers}"
    _print_summary(summary, title)
    if json_out is not None:
        document = {
            "ruleset": rs.id,
            "scenario": data["id"],
            "agents": dict(agents),
            "swap": swap,
            "seed": seed,
            "first": first,
            **summary.to_json(),
        }
        json_out.write_text(json.dumps(document, indent=2))
        console.print(f"wrote {json_out}")
    if csv_out is not None:
        write_csv(results, csv_out)
        console.print(f"wrote {csv_out}")


def _print_sweep(result: Sweep) -> None:
    table = Table(
        result.parameter,
        f"{result.player} score [95% Wilson]",
        "red",
        "blue",
        "draws",
        title=f"{result.ruleset} {result.scenario}: {result.player} wins + ½ draws",
    )
    for point, score in zip(result.points, result.scores(), strict=True):
        out = point.summary.outcomes
        table.add_row(
            f"{point.value:g}",
            _pct(score),
            f"{out['red'].count:g}",
            f"{out['blue'].count:g}",
            f"{out['draw'].count:g}",
        )
    console.print(table)
    cross = result.crossing
    if cross is None:
        console.print("50% crossing: none found (the score never crosses 50% in the range)")
    else:
        where = "" if cross.inside else " (outside the range swept: an extrapolation)"
        console.print(
            f"50% crossing: {result.parameter} = {cross.estimate:.3g}, 95% interval "
            f"[{cross.low:.3g}, {cross.high:.3g}]{where}"
        )


def balance(
    ruleset: RulesetArg,
    vary: Annotated[str, typer.Option(help="the parameter to sweep (see --list)")] = "",
    range_: Annotated[
        str, typer.Option("--range", help="START:STOP:STEP, STOP included, e.g. 1:2.5:0.25")
    ] = "",
    scenario: ScenarioOpt = None,
    red: RedOpt = "ai",
    blue: BlueOpt = "ai",
    games: Annotated[int, typer.Option(help="games at each value", min=1)] = 100,
    side: Annotated[str, typer.Option(help="whose win rate to report")] = "red",
    jobs: JobsOpt = CORES,
    seed: SeedOpt = 0,
    backend: BackendOpt = "local",
    plot: Annotated[Path, typer.Option(help="the PNG to write")] = Path("balance.png"),
    json_out: Annotated[Path | None, typer.Option("--json", help="write the sweep")] = None,
    list_: Annotated[bool, typer.Option("--list", help="list the parameters and stop")] = False,
) -> None:
    """Sweep a scenario parameter: win rate at each value, where it crosses 50%, a plot."""
    rs, data, agents, chosen = _setup(ruleset, scenario, red, blue, backend)
    allowed = rs.parameters(data)
    if list_:
        table = Table("parameter", "meaning", title=f"{rs.id} {data['id']}: balance parameters")
        for name, meaning in allowed.items():
            table.add_row(name, meaning)
        console.print(table)
        return
    if vary not in allowed:
        raise typer.BadParameter(
            f"'{vary}' is not a parameter of {rs.id} {data['id']}; allowed: "
            f"{', '.join(allowed) or 'none'}",
            param_hint="--vary",
        )
    try:
        values = parse_range(range_)
        rs.vary(data, vary, values[0])
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--range") from None
    if side not in rs.players:
        raise typer.BadParameter(
            f"no player '{side}'; allowed: {', '.join(rs.players)}", param_hint="--side"
        )
    check_writable(plot, "--plot")
    check_writable(json_out, "--json")
    with _progress() as bar:
        task = bar.add_task(f"{rs.id} {vary}", total=games * len(values))
        try:
            result = sweep(
                rs,
                data,
                vary,
                values,
                agents,
                games,
                seed,
                player=side,
                jobs=jobs,
                backend=chosen,
                progress=lambda n: bar.advance(task, n),
            )
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
    _print_sweep(result)
    plot_sweep(result, plot)
    console.print(f"wrote {plot}")
    if json_out is not None:
        json_out.write_text(json.dumps(result.to_json(), indent=2))
        console.print(f"wrote {json_out}")
