"""A Fistful of TOWs 3 (introductory rules) as a registered ruleset."""

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
from warbench.core.preview import PathCost
from warbench.core.ruleset import AgentFactory, Ruleset
from warbench.core.scene import Area, Figure, Scene
from warbench.rulesets.fft3 import artillery, preview
from warbench.rulesets.fft3 import odds as fft3_odds
from warbench.rulesets.fft3 import parameters as sweep
from warbench.rulesets.fft3 import scenario as scenarios
from warbench.rulesets.fft3.census import by_unit_type
from warbench.rulesets.fft3.evaluation import position_value
from warbench.rulesets.fft3.game import FFT3Game

# 10 roll-outs of 80 decisions (about a turn of both sides) over 4 candidates (docs/sim.md)
SEARCH = Budget(lookaheads=10, horizon=80, candidates=4)


class FistfulOfTows3(Ruleset):
    """A Fistful of TOWs 3, introductory rules: modern mechanised battles in inches."""

    id = "fft3"
    name = "A Fistful of TOWs 3 (introductory rules)"
    version = "1"
    unit = "inch"

    scenario_files = scenarios.FILES

    def new_game(
        self, scenario: dict[str, Any], seed: int | None, dice: DiceSource | None = None
    ) -> Game:
        spec = scenarios.validate(scenario, "scenario")
        return FFT3Game(self, scenario, spec, seed, dice)

    def evaluate(self, game: Game, player: str) -> float:
        """A finished game scores its result; an unfinished one is read by `evaluation.py`."""
        if isinstance(game.pending, GameOver):
            return super().evaluate(game, player)
        assert isinstance(game, FFT3Game)
        return position_value(game, player)

    def agents(self) -> dict[str, AgentFactory]:
        from warbench.rulesets.fft3.ai import TowsAI

        return {"random": RandomAgent, "ai": TowsAI, "search": searcher(SEARCH)}

    def odds_options(self) -> Mapping[str, str]:
        return fft3_odds.OPTIONS

    def odds(self, options: Mapping[str, str]) -> OddsReport:
        return fft3_odds.odds(options)

    def dice_reading(self) -> ReadingPolicy | None:
        return preview.reading

    def follow_up(self, game: Game, action: Action) -> Action | None:
        return preview.follow_up(action)

    def reach_limits(self, game: Game, player: str, piece: str) -> dict[str, float]:
        assert isinstance(game, FFT3Game)
        return preview.reach_limits(game, player, piece)

    def path_cost(self, game: Game, player: str, action: Action) -> PathCost | None:
        assert isinstance(game, FFT3Game)
        return preview.path_cost(game, player, action)

    def ranges(self, game: Game, piece: str) -> list[tuple[str, float]]:
        assert isinstance(game, FFT3Game)
        return preview.ranges(game, piece)

    def parameters(self, scenario: dict[str, Any]) -> dict[str, str]:
        return sweep.parameters(scenario)

    def vary(self, scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
        return sweep.vary(scenario, parameter, value)

    def census(self, game: Game) -> dict[str, dict[str, tuple[int, int]]]:
        assert isinstance(game, FFT3Game)
        return by_unit_type(game)

    def board_text(self, game: Game) -> str:
        assert isinstance(game, FFT3Game)
        s = game.state
        lines = [
            f"turn {s.turn}, {s.mover if s.turn else ''} {s.phase}; "
            f'table {game.field.width:g}"x{game.field.depth:g}"'
        ]
        for n, (ox, oy) in enumerate(game.spec.objectives, start=1):
            lines.append(f"  objective {n} at {ox:g},{oy:g}: {s.held.get(str(n), 'nobody')}")
        for t in s.templates:
            lines.append(f"  {t.owner}'s artillery template at {t.x:g},{t.y:g}")
        for x in s.stands.values():
            if not x.alive:
                lines.append(f"  {x.name} ({x.player}): eliminated")
                continue
            if not x.deployed:
                lines.append(f"  {x.name} ({x.player}): to deploy")
                continue
            where = (
                f"aboard {x.carried_by}"
                if x.carried_by
                else f"at {x.x:.1f},{x.y:.1f} facing {x.facing:.0f}"
            )
            flags = [
                f
                for f, on in (
                    ("suppressed", x.suppressed),
                    ("overwatch", x.overwatch),
                    ("out of cohesion", not x.cohesive),
                    ("in difficult", not x.carried_by and game.field.in_difficult(x.at)),
                )
                if on
            ]
            lines.append(
                f"  {x.name} ({x.player}) {where}"
                + (
                    f" MP left {x.mp_left():.1f}"
                    if s.phase == "movement" and x.player == s.mover
                    else ""
                )
                + (f" [{', '.join(flags)}]" if flags else "")
            )
        return "\n".join(lines)

    def scene(self, game: Game, viewer: str | None = None) -> Scene:
        assert isinstance(game, FFT3Game)
        field = game.field
        scene = Scene(game.spec.name, field.width, field.depth, "inch")
        for piece in field.pieces:
            scene.terrain.append(Area(piece.kind, piece.area, piece.name))
        for n, (ox, oy) in enumerate(game.spec.objectives, start=1):
            owner = game.state.held.get(str(n), "nobody")
            scene.objectives.append(Area("objective", Point(ox, oy).buffer(1.0), f"{n}: {owner}"))
        for t in game.state.templates:
            scene.templates.append(
                Area("template", Point(t.x, t.y).buffer(artillery.radius()), t.owner)
            )
        for x in game.state.stands.values():
            if not x.on_table:
                continue
            marks = tuple(
                m for m, on in (("suppressed", x.suppressed), ("overwatch", x.overwatch)) if on
            )
            scene.figures.append(
                Figure(
                    x.id, x.player, Point(x.x, x.y).buffer(x.radius), facing=x.facing, marks=marks
                )
            )
        return scene
