"""Grimdark Future Firefight as a registered ruleset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shapely.geometry import Point

from warbench.ai.random_agent import RandomAgent
from warbench.ai.search import Budget, searcher
from warbench.core.actions import Action
from warbench.core.dice import DiceSource, ReadingPolicy
from warbench.core.game import Game, GameOver
from warbench.core.odds import OddsReport
from warbench.core.preview import PathCost, Reach
from warbench.core.ruleset import AgentFactory, Ruleset
from warbench.core.scene import Area, Figure, Scene
from warbench.rulesets.gff import odds as gff_odds
from warbench.rulesets.gff import parameters as sweep
from warbench.rulesets.gff import preview
from warbench.rulesets.gff import scenario as scenarios
from warbench.rulesets.gff.census import by_unit_type
from warbench.rulesets.gff.evaluation import position_value
from warbench.rulesets.gff.game import GFFGame

# about two rounds ahead: ~0.55 CPU s a decision (docs/sim.md)
SEARCH = Budget(lookaheads=12, horizon=24)


class GrimdarkFutureFirefight(Ruleset):
    """One Page Rules' Grimdark Future: Firefight (the rulebook's free one-page edition)."""

    id = "gff"
    name = "Grimdark Future Firefight"
    version = "1"
    unit = "inch"
    army_upload = "Army Forge export (JSON)"

    scenario_files = scenarios.FILES

    def with_army_list(
        self, scenario: dict[str, Any], side: str, name: str, text: str
    ) -> dict[str, Any]:
        return preview.with_army_list(scenario, side, name, text)

    def new_game(
        self, scenario: dict[str, Any], seed: int | None, dice: DiceSource | None = None
    ) -> Game:
        spec = scenarios.validate(scenario, "scenario")
        return GFFGame(self, scenario, spec, seed, dice)

    def evaluate(self, game: Game, player: str) -> float:
        """A finished game scores its result; an unfinished one is read by `evaluation.py`."""
        if isinstance(game.pending, GameOver):
            return super().evaluate(game, player)
        assert isinstance(game, GFFGame)
        return position_value(game, player)

    def agents(self) -> dict[str, AgentFactory]:
        from warbench.rulesets.gff.ai import FirefightAI

        return {"random": RandomAgent, "ai": FirefightAI, "search": searcher(SEARCH)}

    def odds_options(self) -> Mapping[str, str]:
        return gff_odds.OPTIONS

    def odds(self, options: Mapping[str, str]) -> OddsReport:
        return gff_odds.odds(options)

    def dice_reading(self) -> ReadingPolicy | None:
        return preview.reading()

    def reach(self, game: Game, player: str, piece: str) -> list[Reach]:
        assert isinstance(game, GFFGame)
        return preview.reach(game, player, piece)

    def path_cost(self, game: Game, player: str, action: Action) -> PathCost | None:
        assert isinstance(game, GFFGame)
        return preview.path_cost(game, player, action)

    def ranges(self, game: Game, piece: str) -> list[tuple[str, float]]:
        assert isinstance(game, GFFGame)
        return preview.ranges(game, piece)

    def parameters(self, scenario: dict[str, Any]) -> dict[str, str]:
        return sweep.parameters(scenario)

    def vary(self, scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
        return sweep.vary(scenario, parameter, value)

    def census(self, game: Game) -> dict[str, dict[str, tuple[int, int]]]:
        assert isinstance(game, GFFGame)
        return by_unit_type(game)

    def board_text(self, game: Game) -> str:
        assert isinstance(game, GFFGame)
        s = game.state
        lines = [f'round {s.round}, {s.phase}; table {game.field.width:g}"x{game.field.depth:g}"']
        for n, m in enumerate(s.markers, start=1):
            lines.append(f"  objective {n} at {m.x:g},{m.y:g}: {m.owner or 'neutral'}")
        for u in s.units.values():
            if not u.alive:
                lines.append(f"  {u.name} ({u.side}): destroyed")
                continue
            where = "in reserve" if not u.deployed else "at {:.1f},{:.1f}".format(*u.centre())
            flags = [
                f
                for f, on in (
                    ("shaken", u.shaken),
                    ("activated", u.activated),
                    ("fatigued", u.fatigued),
                )
                if on
            ]
            wounds = sum(m.wounds for m in u.models)
            lines.append(
                f"  {u.name} ({u.side}) {len(u.models)}/{u.profile.size} models {where}"
                f" Q{u.profile.quality}+ D{u.profile.defense}+"
                + (f" wounds {wounds}" if wounds else "")
                + (f" tokens {u.tokens}" if u.tokens else "")
                + (f" [{', '.join(flags)}]" if flags else "")
            )
        return "\n".join(lines)

    def scene(self, game: Game, viewer: str | None = None) -> Scene:
        assert isinstance(game, GFFGame)
        field = game.field
        scene = Scene(game.spec.name, field.width, field.depth, "inch")
        for piece in field.pieces:
            scene.terrain.append(Area(piece.kind, piece.area, piece.name))
        for n, marker in enumerate(game.state.markers, start=1):
            scene.objectives.append(
                Area(
                    "objective",
                    Point(marker.x, marker.y).buffer(1.5),
                    f"{n}: {marker.owner or 'neutral'}",
                )
            )
        for unit in game.state.units.values():
            if not unit.deployed:
                continue
            marks = tuple(m for m, on in (("shaken", unit.shaken),) if on)
            for number, model in enumerate(unit.models):
                scene.figures.append(
                    Figure(
                        unit.id if number == 0 else "",
                        unit.side,
                        model.base(unit.profile.base).shape(),
                        marks=marks if number == 0 else (),
                    )
                )
        return scene
