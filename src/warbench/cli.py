"""`warbench ...`: list rulesets, play, replay, render (typer + rich)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.core import registry
from warbench.core.actions import Action, MalformedAction
from warbench.core.dice import fresh_seed
from warbench.core.events import Event
from warbench.core.game import Decision, Game, GameOver, IllegalAction
from warbench.core.odds import OddsReport, parse_pairs
from warbench.core.record import Record, RecordError
from warbench.core.render import render as draw
from warbench.core.ruleset import Agent, Ruleset
from warbench.output_paths import check_writable, problem
from warbench.sim.cli import balance, sim

app = typer.Typer(
    help="Referee, play and analyse tabletop miniature wargames.", no_args_is_help=True
)
app.command()(sim)
app.command()(balance)
# Game text (events, boards, prompts, the player's own input in errors) is printed as it is:
# no markup (`[suppressed]` would vanish, `[/x]` would raise), no emoji (`:gun:`).
console = Console(highlight=False, soft_wrap=True, markup=False, emoji=False)
SIDE_STYLE = {"red": "bold red", "blue": "bold blue"}
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")


def _ruleset(ruleset_id: str) -> Ruleset:
    try:
        return registry.get(ruleset_id)
    except KeyError as err:
        raise typer.BadParameter(str(err.args[0]), param_hint="RULESET") from None


@app.command()
def rulesets() -> None:
    """The registered rulesets with their scenarios."""
    table = Table("id", "name", "unit", "scenarios")
    for rs in registry.all_rulesets():
        table.add_row(rs.id, rs.name, rs.unit, "\n".join(s.id for s in rs.scenarios()))
    console.print(table)


@app.command()
def play(
    ruleset: Annotated[str, typer.Argument(help="ruleset id, see `warbench rulesets`")],
    scenario: Annotated[str | None, typer.Option(help="scenario id or YAML file")] = None,
    red: Annotated[str, typer.Option(help="human, random, ai or search")] = "human",
    blue: Annotated[str, typer.Option(help="human, random, ai or search")] = "ai",
    seed: Annotated[int | None, typer.Option(help="dice seed (default: unguessable)")] = None,
    save: Annotated[Path | None, typer.Option(help="write the record here at the end")] = None,
) -> None:
    """Play a game; with two AI sides it runs to the end unattended."""
    rs = _ruleset(ruleset)
    check_writable(save, "--save")
    name = scenario or rs.scenarios()[0].id
    try:
        data = rs.load_scenario(name)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--scenario") from None
    seed = fresh_seed() if seed is None else seed
    game = rs.new_game(data, seed)
    agents: dict[str, Agent | None] = {}
    for side, kind, offset in (("red", red, 1), ("blue", blue, 2)):
        if kind == "human":
            agents[side] = None
        elif kind in rs.agents():
            agents[side] = rs.agents()[kind](seed + offset)
        else:
            allowed = ", ".join(["human", *rs.agents()])
            raise typer.BadParameter(
                f"'{kind}' is not a player kind; allowed: {allowed}", param_hint=f"--{side}"
            )
    console.print(f"{rs.name} — {name} (seed {seed})", style="bold")
    humans = [side for side, agent in agents.items() if agent is None]
    viewer = humans[0] if len(humans) == 1 else None  # whose secrets the screen may show
    _show(game.log, viewer)  # the set-up: generated table, roll-offs
    while isinstance(game.pending, Decision):
        decision = game.pending
        agent = agents[decision.player]
        if agent is None:
            if not _human_turn(rs, game, decision, save):
                break
        else:
            _show(game.apply(agent.choose(game, decision.player), decision.player), viewer)
    pending = game.pending
    if isinstance(pending, GameOver):
        console.print(pending.line())
    if save is not None:
        if not _saved(game, save):
            raise typer.Exit(2)
        console.print(f"record saved to {save}")


def _show(events: list[Event], viewer: str | None = None) -> None:
    """Print the events `viewer` (None: a spectator) may see."""
    for event in events:
        if not event.seen_by(viewer):
            continue
        style = "dim" if event.kind == "roll" else ""
        console.print(f"  {event.text}", style=style)


HELP = """Type an action in its text form (e.g. `{example}`) or its number from the list.
Other commands: help, board, log, actions, save FILE (just save: to the --save file), quit."""


def _saved(game: Game, path: Path) -> bool:
    """Write the record to `path`; a path that cannot be written is said, not a crash."""
    reason = problem(path)
    if reason is None:
        try:
            game.save(path)
            return True
        except OSError as err:
            reason = f"cannot write '{path}': {err.strerror}"
    console.print(f"{reason}; the game is not saved", style="yellow")
    return False


def _save_at_prompt(game: Game, names: list[str], save: Path | None) -> None:
    """`save FILE` at the prompt; a bare `save` writes to the --save file, if one was given,
    else says how it is written (it wrote warbench-save.json wherever the game ran)."""
    path = Path(names[0]) if len(names) == 1 else save
    if len(names) > 1 or path is None:
        given = f"'{' '.join(names)}' is not one file name; " if names else ""
        console.print(
            f"{given}write save FILE, e.g. save game.json (a bare save needs "
            "--save FILE given to warbench play)",
            style="yellow",
        )
        return
    if _saved(game, path):
        console.print(f"saved to {path}; `warbench replay {path}` reads it")


def _human_turn(rs: Ruleset, game: Game, decision: Decision, save: Path | None) -> bool:
    """Prompt one human decision until a legal action is applied; False to stop playing."""
    actions = game.legal_actions(decision.player)
    _list_actions(actions)
    while True:
        style = SIDE_STYLE.get(decision.player, "bold")
        console.print(decision.prompt, style=style)
        try:
            text = input("> ").strip()
        except EOFError:
            return False
        words = text.split()
        if not words:
            continue
        command = words[0].lower()
        if command == "help":
            console.print(HELP.format(example=actions[0] if actions else "pass"))
            now = [game.codec.form(cls) for cls in game.allowed_now()]
            console.print("Actions now: " + "; ".join(now))
            console.print("Every action form: " + "; ".join(game.codec.forms()))
        elif command == "board":
            console.print(rs.board_text(game))
        elif command == "log":
            for event in [e for e in game.log if e.seen_by(decision.player)][-40:]:
                console.print(f"  {event.text}")
        elif command == "actions":
            _list_actions(actions)
        elif command == "save":
            _save_at_prompt(game, words[1:], save)
        elif command == "quit":
            return False
        else:
            action = _read_action(game, text, actions)
            if action is None:
                continue
            try:
                _show(game.apply(action, decision.player), decision.player)
            except IllegalAction as err:
                console.print(str(err), style="yellow")
                continue
            return True


def _read_action(game: Game, text: str, actions: list[Action]) -> Action | None:
    """The action `text` names by its number in the list or by its text form (None, having
    said why, if it names none)."""
    if text.isdigit() and 1 <= int(text) <= len(actions):
        return actions[int(text) - 1]
    if NUMBER.fullmatch(text):  # -1 and 1.5 are numbers, not unknown actions
        console.print(f"no action number {text}; pick 1 to {len(actions)}", style="yellow")
        return None
    try:
        return game.parse(text)
    except MalformedAction as err:
        console.print(str(err), style="yellow")
        return None


def _list_actions(actions: list[Action]) -> None:
    cells = [f"{n:>3}. {a}" for n, a in enumerate(actions, start=1)]
    console.print("  ".join(cells) if len(cells) < 8 else "\n".join(_columns(cells)))


def _columns(cells: list[str], width: int = 100) -> list[str]:
    size = max(len(c) for c in cells) + 2
    per_row = max(1, width // size)
    return [
        "".join(c.ljust(size) for c in cells[i : i + per_row])
        for i in range(0, len(cells), per_row)
    ]


def _load(path: Path, upto: int | None = None) -> Game:
    try:
        record = Record.read(path)
        if upto is not None and not 0 <= upto <= len(record.steps):
            raise typer.BadParameter(
                f"step {upto} is not in the record; it has steps 0 to {len(record.steps)}",
                param_hint="--step",
            )
        game = Game.replay(record, upto=upto)
    except (RecordError, KeyError, ValueError) as err:
        console.print(f"{path}: {err}", style="red")
        raise typer.Exit(2) from None
    return game


def _check_result(path: Path, game: Game) -> None:
    """The record's closing `result` must be the one its steps lead to (exit 2 if not)."""
    claimed = Record.read(path).result
    reached = json.loads(json.dumps(game.record.result))
    if claimed != reached:
        console.print(
            f"{path}: the recorded result {claimed} is not the game's {reached}", style="red"
        )
        raise typer.Exit(2)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a record (JSON)")],
    verify: Annotated[
        bool, typer.Option(help="only check every roll, state hash and the result")
    ] = False,
) -> None:
    """Step through a record; --verify exits 2 if any roll, state hash or the result differs."""
    game = _load(file)
    if verify:
        _check_result(file, game)
        console.print(f"verified: {len(game.steps)} steps, every roll and state hash matches")
        return
    shown = len(game.log) - sum(game.event_counts)  # the set-up's events come first
    if shown:
        console.print("   0. set-up", style="bold")
        for event in game.log[:shown]:
            console.print(f"      {event.text}")
    for number, step in enumerate(game.steps, start=1):
        console.print(f"{number:>4}. {step.player}: {step.action}", style="bold")
        seen = game.event_counts[number - 1]
        for event in game.log[shown : shown + seen]:
            console.print(f"      {event.text}")
        shown += seen
    pending = game.pending
    console.print(pending.line() if isinstance(pending, GameOver) else pending.prompt)


@app.command()
def render(
    file: Annotated[Path, typer.Argument(help="a record (JSON)")],
    out: Annotated[Path, typer.Option("-o", "--out", help="picture to write (.png or .svg)")],
    step: Annotated[int | None, typer.Option(help="draw the table after this step")] = None,
) -> None:
    """Draw the table of a record (at its end, or after --step N)."""
    check_writable(out, "-o")
    game = _load(file, upto=step)
    try:
        draw(game.ruleset.scene(game), out)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="-o") from None
    except OSError as err:
        raise typer.BadParameter(f"cannot write '{out}': {err.strerror}", param_hint="-o") from None
    console.print(f"wrote {out}")


@app.command()
def odds(
    ruleset: Annotated[str, typer.Argument(help="ruleset id, see `warbench rulesets`")],
    options: Annotated[
        list[str] | None, typer.Argument(help="the attack as key=value pairs (see --options)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON for machines")] = False,
    list_options: Annotated[
        bool, typer.Option("--options", help="list this ruleset's options and stop")
    ] = False,
) -> None:
    """Exact odds of one attack, from the rules code itself (docs/odds.md)."""
    rs = _ruleset(ruleset)
    known = rs.odds_options()
    if not known:
        raise typer.BadParameter(f"{rs.name} offers no odds yet", param_hint="RULESET")
    if list_options:
        table = Table("option", "what it takes", title=f"warbench odds {rs.id}")
        for key, text in known.items():
            table.add_row(key, text)
        console.print(table)
        return
    try:
        given = parse_pairs(options or [])
    except ValueError as err:
        hint = f"`warbench odds {rs.id} --options` lists the options and what each takes"
        raise typer.BadParameter(f"{err}; {hint}", param_hint="OPTIONS") from None
    try:
        report = rs.odds(given)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="OPTIONS") from None
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
        return
    _print_odds(report)


def _print_odds(report: OddsReport) -> None:
    console.print(report.title, style="bold")
    for key, text in report.situation:
        console.print(f"  {key}: {text}")
    rolls = Table("roll", "needs", "modifier", "value", title="modifiers")
    for r in report.requested:
        rows = r.modifiers or (("none", 0),)
        for n, (reason, value) in enumerate(rows):
            rolls.add_row(
                r.label if n == 0 else "", r.needs if n == 0 else "", reason, f"{value:+d}"
            )
    console.print(rolls)
    for t in report.tables:
        table = Table("outcome", "probability", "percent", title=t.title)
        for row in t.rows:
            table.add_row(row.name, str(row.probability), f"{row.percent:.2f}%")
        console.print(table)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[Path, typer.Option(help="the SQLite store")] = Path("warbench-games.sqlite"),
) -> None:
    """Referee games in the browser: open http://HOST:PORT/ (docs/server.md)."""
    import uvicorn

    from warbench.server.app import create_app

    console.print(f"warbench serving on http://{host}:{port}/ (store: {db})")
    # an update is ~10 KB of JSON: deflating it cost more CPU than it saved (docs/server.md)
    uvicorn.run(
        create_app(db), host=host, port=port, log_level="warning", ws_per_message_deflate=False
    )


def _add_ruleset_commands() -> None:
    for rs in registry.all_rulesets():
        commands = rs.commands()
        if isinstance(commands, typer.Typer):
            app.add_typer(commands, name=rs.id, help=f"{rs.name}: its own commands")


_add_ruleset_commands()
