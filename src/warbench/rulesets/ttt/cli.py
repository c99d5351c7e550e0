"""`warbench ttt ...`: Table Top Troopers' own commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warbench.core.words import counted
from warbench.rulesets.ttt.pieces import BASE_POINTS, SPECIALS, TOLERANCE, load_pieces_file

app = typer.Typer(no_args_is_help=True)
console = Console(highlight=False, markup=False, emoji=False)  # text as it is


@app.command()
def cost(file: Annotated[Path, typer.Argument(help="YAML list of pieces")]) -> None:
    """Price custom pieces by MAKING NEW PIECES and check they are created equal (9 ± 2)."""
    try:
        pieces = load_pieces_file(file)
    except ValueError as err:
        console.print(str(err), style="red")
        console.print(
            f"each piece: name, move, range, th, tbh, specials (any of: {', '.join(SPECIALS)}); "
            f"cost = move + range + th + tbh + 3 per special = {BASE_POINTS} ± {TOLERANCE}"
        )
        raise typer.Exit(1) from None
    table = Table("piece", "Move", "Range", "TH", "TBH", "specials", "points")
    for p in pieces.values():
        table.add_row(
            p.name,
            str(p.move),
            str(p.range),
            str(p.th),
            str(p.tbh),
            ", ".join(p.specials) or "-",
            str(p.cost),
        )
    console.print(table)
    equal = f"({BASE_POINTS} ± {TOLERANCE})"
    console.print(f"all {counted(len(pieces), 'piece')} are created equal {equal}")
