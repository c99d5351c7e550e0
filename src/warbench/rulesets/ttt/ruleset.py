"""Table Top Troopers as a registered ruleset."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shapely.geometry import Point, box

from warbench.ai.random_agent import RandomAgent
from warbench.ai.search import Budget, searcher
from warbench.core.actions import Action
from warbench.core.dice import DiceSource
from warbench.core.game import Game, GameOver
from warbench.core.grid import Square, column_letters
from warbench.core.odds import OddsReport
from warbench.core.preview import PathCost, Reach
from warbench.core.ruleset import AgentFactory, Ruleset, ScenarioModel
from warbench.core.scene import Area, Figure, Scene
from warbench.rulesets.ttt import cli as ttt_cli
from warbench.rulesets.ttt import odds as ttt_odds
from warbench.rulesets.ttt import parameters as sweep
from warbench.rulesets.ttt import preview
from warbench.rulesets.ttt import scenario as scenarios
from warbench.rulesets.ttt.ai import TrooperAI
from warbench.rulesets.ttt.census import by_unit_type
from warbench.rulesets.ttt.evaluation import position_value
from warbench.rulesets.ttt.game import TTTGame
from warbench.rulesets.ttt.table import Table

# roll-outs to the end of the game: ~0.4 CPU s a decision (docs/sim.md)
SEARCH = Budget()


class TableTopTroopers(Ruleset):
    """Ken Maher's Table Top Troopers (2001-2002): square boards, d6 against To-Be-Hit."""

    id = "ttt"
    name = "Table Top Troopers"
    version = "1"
    unit = "square"

    scenario_word = "operation"

    scenario_files = scenarios.FILES

    def read_scenario(self, path: Path) -> ScenarioModel:
        spec = scenarios.read_file(path)
        Table.build(spec)
        return spec

    def check_scenario(self, data: dict[str, Any]) -> ScenarioModel:
        spec = scenarios.validate(data, "scenario")
        Table.build(spec)
        return spec

    def new_game(
        self, scenario: dict[str, Any], seed: int | None, dice: DiceSource | None = None
    ) -> Game:
        table = Table.build(scenarios.validate(scenario, "scenario"))
        return TTTGame(self, scenario, table, seed, dice)

    def evaluate(self, game: Game, player: str) -> float:
        """A finished game scores its result; an unfinished one is read by `evaluation.py`."""
        if isinstance(game.pending, GameOver):
            return super().evaluate(game, player)
        assert isinstance(game, TTTGame)
        return position_value(game, player)

    def agents(self) -> dict[str, AgentFactory]:
        return {"random": RandomAgent, "ai": TrooperAI, "search": searcher(SEARCH)}

    def parameters(self, scenario: dict[str, Any]) -> dict[str, str]:
        return sweep.parameters(scenario)

    def vary(self, scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
        return sweep.vary(scenario, parameter, value)

    def census(self, game: Game) -> dict[str, dict[str, tuple[int, int]]]:
        assert isinstance(game, TTTGame)
        return by_unit_type(game)

    def commands(self) -> object | None:
        return ttt_cli.app

    def odds_options(self) -> Mapping[str, str]:
        return ttt_odds.OPTIONS

    def odds(self, options: Mapping[str, str]) -> OddsReport:
        return ttt_odds.odds(options)

    def reach(self, game: Game, player: str, piece: str) -> list[Reach]:
        assert isinstance(game, TTTGame)
        return preview.reach(game, player, piece)

    def path_cost(self, game: Game, player: str, action: Action) -> PathCost | None:
        assert isinstance(game, TTTGame)
        return preview.path_cost(game, player, action)

    def ranges(self, game: Game, piece: str) -> list[tuple[str, float]]:
        assert isinstance(game, TTTGame)
        return preview.ranges(game, piece)

    def board_text(self, game: Game) -> str:
        """Rows from the top; terrain letters, pieces by id; the key follows."""
        assert isinstance(game, TTTGame)
        field = game.table.battlefield
        letters = {
            "plain": ".",
            "woods": "W",
            "river": "~",
            "rocky": "R",
            "swamp": "S",
            "building": "#",
            "bridge": "=",
            "bunker": "B",
        }
        at = {p.square: p.id for p in game.state.pieces.values()}
        lines = []
        for row in reversed(range(field.grid.height)):
            cells = []
            for col in range(field.grid.width):
                sq = Square(col, row)
                cells.append(at.get(sq, letters[field.terrain[sq]]).rjust(3))
            lines.append(f"{row + 1:>3} " + "".join(cells))
        lines.append("    " + "".join(column_letters(c).rjust(3) for c in range(field.grid.width)))
        lines.append(
            "key: . plain  W woods  R rocky  S swamp  ~ river  # building  = bridge  B bunker"
        )
        for piece in sorted(game.state.pieces.values(), key=lambda p: p.id):
            prof = game.table.profile(piece.kind)
            lines.append(
                f"  {piece.id} {piece.side} {piece.kind} at {piece.square}: Move "
                f"{prof.move} Range {prof.range} TH {prof.th} TBH {prof.tbh}"
                + (f" aiming at {piece.aim}" if piece.aim else "")
            )
        return "\n".join(lines)

    def scene(self, game: Game, viewer: str | None = None) -> Scene:
        assert isinstance(game, TTTGame)
        field = game.table.battlefield
        scene = Scene(
            game.table.scenario.name, field.grid.width, field.grid.height, "square", grid=True
        )
        for sq, kind in field.terrain.items():
            if kind != "plain":
                scene.terrain.append(Area(kind, box(sq.col, sq.row, sq.col + 1, sq.row + 1)))
        for side, home in game.table.homes.items():
            for sq in home:
                cell = box(sq.col, sq.row, sq.col + 1, sq.row + 1)
                scene.objectives.append(Area("bunker", cell, f"{side} home"))
        if game.table.scenario.objective.kind == "hold_bridge":
            for sq in game.table.bridge:
                cell = box(sq.col, sq.row, sq.col + 1, sq.row + 1)
                scene.objectives.append(Area("bridge", cell, "bridge"))
        for piece in game.state.pieces.values():
            base = Point(piece.square.col + 0.5, piece.square.row + 0.5).buffer(0.38)
            marks = (f"aim {piece.aim}",) if piece.aim else ()
            scene.figures.append(Figure(f"{piece.id}\n{piece.kind}", piece.side, base, marks=marks))
        return scene
