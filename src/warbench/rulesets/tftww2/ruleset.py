"""The TFT WW2 man-to-man skirmish rules as a registered ruleset."""

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
from warbench.rulesets.tftww2 import odds as tftww2_odds
from warbench.rulesets.tftww2 import preview
from warbench.rulesets.tftww2 import scenario as scenarios
from warbench.rulesets.tftww2.ai import SkirmishAI
from warbench.rulesets.tftww2.census import by_unit_type
from warbench.rulesets.tftww2.evaluation import position_value
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.state import MAN_BASE

# roll-outs to the end of the game: ~0.4 CPU s a decision on patrol (docs/sim.md)
SEARCH = Budget()


class TFTWW2(Ruleset):
    """Man to Man Skirmish Rules, a WW2 variant of The Fantasy Trip (a TFT mailing-list post)."""

    id = "tftww2"
    name = "TFT WW2 skirmish"
    version = "2"  # 2: floors, windows, spent weapons and fuel (records of 1 replay no more)
    unit = "inch"

    scenario_files = scenarios.FILES

    def new_game(
        self, scenario: dict[str, Any], seed: int | None, dice: DiceSource | None = None
    ) -> Game:
        return TFTGame(self, scenario, scenarios.checked(scenario), seed, dice)

    def evaluate(self, game: Game, player: str) -> float:
        """A finished game scores its result; an unfinished one is read by `evaluation.py`."""
        if isinstance(game.pending, GameOver):
            return super().evaluate(game, player)
        assert isinstance(game, TFTGame)
        return position_value(game, player)

    def agents(self) -> dict[str, AgentFactory]:
        return {"random": RandomAgent, "ai": SkirmishAI, "search": searcher(SEARCH)}

    def odds_options(self) -> Mapping[str, str]:
        return tftww2_odds.OPTIONS

    def odds(self, options: Mapping[str, str]) -> OddsReport:
        return tftww2_odds.odds(options)

    def dice_reading(self) -> ReadingPolicy | None:
        return preview.reading

    def reach_limits(self, game: Game, player: str, piece: str) -> dict[str, float]:
        assert isinstance(game, TFTGame)
        return preview.reach_limits(game, player, piece)

    def path_cost(self, game: Game, player: str, action: Action) -> PathCost | None:
        assert isinstance(game, TFTGame)
        return preview.path_cost(game, player, action)

    def ranges(self, game: Game, piece: str) -> list[tuple[str, float]]:
        assert isinstance(game, TFTGame)
        return preview.ranges(game, piece)

    def census(self, game: Game) -> dict[str, dict[str, tuple[int, int]]]:
        assert isinstance(game, TFTGame)
        return by_unit_type(game)

    def board_text(self, game: Game) -> str:
        assert isinstance(game, TFTGame)
        s = game.state
        lines = [f"round {s.round}, {s.side}'s turn, {s.phase}"]
        for squad in s.squads.values():
            flag = " FLEEING" if squad.fleeing else ""
            lines.append(f"  {squad.name} ({squad.side}){flag}, casualties {squad.casualties}")
            for m in s.men.values():
                if m.squad == squad.id:
                    state = m.status if not m.active else ("wounded" if m.wounded else "ok")
                    jam = " jammed" if m.jam else ""
                    lines.append(
                        f"    {m.id} {m.rank} {m.weapon}{jam} at {m.x:.1f},{m.y:.1f} "
                        f"facing {m.facing:.0f}° {m.stance} {state}"
                        + (f" ({m.action})" if m.action else "")
                    )
        for t in s.tanks.values():
            flags = [
                f
                for f, on in (
                    ("immobilised", t.immobilised),
                    ("gun out", t.gun_out),
                    ("MGs out", t.mgs_out),
                    ("jammed", bool(t.jam)),
                    ("reversing", t.reversing),
                )
                if on
            ]
            lines.append(
                f"  {t.id} {t.side} {t.key} at {t.x:.1f},{t.y:.1f} facing "
                f"{t.facing:.0f}° {t.status}" + (f" ({', '.join(flags)})" if flags else "")
            )
        return "\n".join(lines)

    def scene(self, game: Game, viewer: str | None = None) -> Scene:
        assert isinstance(game, TFTGame)
        table = game.table
        scene = Scene(game.spec.name, table.width, table.depth, "inch")
        for piece in table.pieces:
            kind = "forest" if piece.kind == "woods" else piece.kind
            scene.terrain.append(Area(kind, piece.area, piece.name))
        for m in game.state.men.values():
            if m.status in ("ok",):
                marks = tuple(
                    x for x, on in (("prone", m.stance == "prone"), ("wounded", m.wounded)) if on
                )
                scene.figures.append(
                    Figure(
                        m.id,
                        m.side,
                        Point(m.x, m.y).buffer(MAN_BASE / 2),
                        facing=m.facing,
                        marks=marks,
                    )
                )
        for t in game.state.tanks.values():
            if t.active:
                scene.figures.append(Figure(t.id, t.side, t.base().shape(), facing=t.facing))
        return scene
