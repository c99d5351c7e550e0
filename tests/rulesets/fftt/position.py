"""Build FFTT positions for rule tests: figures placed by hand on a 100 x 100 cm table with
chosen scenery, the screen down, at a chosen step; the game made through the registry with
every die scripted (the two set-up dice for the attacker come first)."""

from __future__ import annotations

from collections.abc import Sequence

from warbench.core import registry
from warbench.core.dice import ScriptedDice
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.state import Fig, State
from warbench.rulesets.fftt.table import Piece, Table

RACE = {"red": "marines", "blue": "machina"}


def fig(fid: str, key: str, x: float, y: float, **kw: object) -> Fig:
    """A figure on the table: `r...` ids are red, `b...` blue; race from `race=` or RACE."""
    side = "red" if fid.startswith("r") else "blue"
    race = str(kw.pop("race", RACE[side]))
    f = Fig(fid, side, race, key, x=x, y=y, where="table", **kw)  # type: ignore[arg-type]
    if "ap" not in kw:
        f.ap = f.prof.actions
    if "facing" not in kw:
        f.facing = 0.0 if side == "red" else 180.0
    return f


def state(*figs: Fig, pieces: Sequence[Piece] = (), stage: str = "general") -> State:
    """A state in turn 1, phase 1, red moving first, at `stage` (red's part)."""
    races = {"red": RACE["red"], "blue": RACE["blue"]}
    for f in figs:
        races[f.side] = f.race
    return State(
        stage=stage,
        player="red",
        attacker="red",
        table=Table(100.0, 100.0, tuple(pieces)),
        figs={f.id: f for f in figs},
        flanks=[],
        races=races,
        turn=1,
        phase=1,
        revealed=True,
    )


def game(s: State, faces: Sequence[int] = (), scenario: str = "marines-vs-machina") -> FFTTGame:
    """A game whose state is `s`, the dice scripted with `faces`."""
    ruleset = registry.get("fftt")
    g = ruleset.new_game(ruleset.load_scenario(scenario), None, ScriptedDice([6, 1, *faces]))
    assert isinstance(g, FFTTGame)
    g.state = s
    return g
