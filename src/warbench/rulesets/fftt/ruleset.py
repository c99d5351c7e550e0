"""Futuristic Fast Tactics Tabletop as a registered ruleset."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from shapely.geometry import Point, box

from warbench.ai.search import Budget, searcher
from warbench.core.actions import Action
from warbench.core.dice import DiceSource
from warbench.core.game import Game, GameOver
from warbench.core.odds import OddsReport
from warbench.core.preview import PathCost
from warbench.core.ruleset import AgentFactory, Ruleset
from warbench.core.scene import Area, Figure, Scene
from warbench.rulesets.fftt import odds as fftt_odds
from warbench.rulesets.fftt import parameters as sweep
from warbench.rulesets.fftt import preview
from warbench.rulesets.fftt import scenario as scenarios
from warbench.rulesets.fftt.ai import TacticsAI
from warbench.rulesets.fftt.census import by_unit_type
from warbench.rulesets.fftt.determinise import determinise
from warbench.rulesets.fftt.evaluation import position_value
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.lookahead import phase_over
from warbench.rulesets.fftt.profiles import tables
from warbench.rulesets.fftt.random_agent import RandomAgent

# 48 look-aheads to the end of the phase (at most 40 decisions) over the AI's choice and its
# 3 next best (`ranking.py`, `lookahead.py`; docs/sim.md)
SEARCH = Budget(lookaheads=48, horizon=40, candidates=4, until=phase_over)

TERRAIN_DRAWN = {
    "ruins": "rough",
    "rubble": "rough",
    "pool": "water",
    "lake": "water",
    "wall": "wall",
    "vehicle": "bunker",
}


class FFTT(Ruleset):
    """FFTT: sci-fi infantry skirmishes (a Fandom wiki rulebook), distances in cm."""

    id = "fftt"
    name = "Futuristic Fast Tactics Tabletop"
    version = "1"
    unit = "cm"
    hidden_information = True

    scenario_files = scenarios.FILES

    def new_game(
        self, scenario: dict[str, Any], seed: int | None, dice: DiceSource | None = None
    ) -> Game:
        return FFTTGame(self, scenario, scenarios.validate(scenario, "scenario"), seed, dice)

    def agents(self) -> dict[str, AgentFactory]:
        return {"random": RandomAgent, "ai": TacticsAI, "search": searcher(SEARCH)}

    def evaluate(self, game: Game, player: str) -> float:
        """A finished game scores its result; an unfinished one is read by `evaluation.py`."""
        if isinstance(game.pending, GameOver):
            return super().evaluate(game, player)
        assert isinstance(game, FFTTGame)
        return position_value(game, player)

    def determinise(self, game: Game, player: str, dice: DiceSource) -> Game:
        """A fork with what `player` cannot see sampled anew (`determinise.py`)."""
        assert isinstance(game, FFTTGame)
        return determinise(game, player, dice)

    def reach_limits(self, game: Game, player: str, piece: str) -> dict[str, float]:
        assert isinstance(game, FFTTGame)
        return preview.reach_limits(game, player, piece)

    def path_cost(self, game: Game, player: str, action: Action) -> PathCost | None:
        assert isinstance(game, FFTTGame)
        return preview.path_cost(game, player, action)

    def odds_options(self) -> Mapping[str, str]:
        return fftt_odds.OPTIONS

    def odds(self, options: Mapping[str, str]) -> OddsReport:
        return fftt_odds.odds(options)

    def census(self, game: Game) -> dict[str, dict[str, tuple[int, int]]]:
        assert isinstance(game, FFTTGame)
        return by_unit_type(game)

    def parameters(self, scenario: dict[str, Any]) -> dict[str, str]:
        return sweep.parameters(scenario)

    def vary(self, scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
        return sweep.vary(scenario, parameter, value)

    def plant_hidden_marker(
        self, scenario: dict[str, Any], marker: str
    ) -> tuple[dict[str, Any], str]:
        """The marker becomes the label of red's first flanking force, which only red knows
        (in each list red may write, R48)."""
        planted = copy.deepcopy(scenario)
        for force in [planted["forces"]["red"], *planted.get("alternatives", {}).get("red", [])]:
            force["flanks"][0]["label"] = marker
        return planted, "red"

    def board_text(self, game: Game) -> str:
        assert isinstance(game, FFTTGame)
        s = game.state
        sides = "" if s.stage in ("table", "scenery", "side") else f"; {s.south} deploys south"
        lines = [
            f"turn {s.turn} phase {s.phase}, {s.stage}; table {s.table.width:g}x{s.table.depth:g}"
            f" cm{sides}"
        ]
        for n, p in enumerate(s.table.pieces):
            inside = "".join(
                f", {kind} {wall}" + " (open)" * ((n, wall) in s.open_doors)
                for wall, kind in p.openings
            )
            floors = ", two floors" if p.floors > 1 else ""
            lines.append(f"  {p.kind} {p.x0:g},{p.y0:g} to {p.x1:g},{p.y1:g}{inside}{floors}")
        for k in game.key_positions():
            lines.append(
                f"  key position {k['name']} of {k['holder']} at {k['at'][0]:g},{k['at'][1]:g}"
                f" ({k['radius']:g} cm)"
            )
        player = game.pending.player if hasattr(game.pending, "player") else None
        view = game.view(player)
        lines += [f"  your list {entry['text']}" for entry in view.get("lists", [])]
        own = view.get("compose")
        if own:  # R54: what a composition of its own may hold
            points = "; ".join(
                f"{race}: " + ", ".join(f"{key} {fp} FP" for key, fp in profiles.items())
                for race, profiles in own["profiles"].items()
            )
            lines.append(
                f"  or your own, {own['form']} ({own['force_points']} FP, at most "
                f"{own['flank_most']} a flank): {points}; marks PROFILE/MARK: "
                + "; ".join(own["marks"])
            )
        for f in view["figures"]:
            if f["where"] == "table":
                lines.append(
                    f"  {f['id']} {f['side']} {f['name']} at {f['at'][0]:g},{f['at'][1]:g}"
                    f" wounds {f['wounds']} AP {f['ap']}"
                    + (" OUT OF AMMO" if f["out_of_ammo"] else "")
                )
        return "\n".join(lines)

    def scene(self, game: Game, viewer: str | None = None) -> Scene:
        assert isinstance(game, FFTTGame)
        s = game.state
        scene = Scene(game.spec.name, s.table.width or 100, s.table.depth or 100, "cm")
        for n, p in enumerate(s.table.pieces):
            kind = TERRAIN_DRAWN.get(p.kind, p.kind)
            scene.terrain.append(Area(kind, box(p.x0, p.y0, p.x1, p.y1), p.kind))
            boxes = p.opening_boxes(tables().openings)
            for (wall, _), (opening, edges) in zip(p.openings, boxes, strict=True):
                label = opening + " (open)" * ((n, wall) in s.open_doors)  # R40
                scene.terrain.append(Area("road", box(*edges), label))
        view = game.view(viewer)
        for f in view["figures"]:
            if f["where"] == "table":
                radius = s.figs[f["id"]].radius
                scene.figures.append(
                    Figure(f["id"], f["side"], Point(*f["at"]).buffer(radius), facing=f["facing"])
                )
        for g in s.goo:
            scene.templates.append(Area("goo", Point(g.x, g.y).buffer(3.0), "acid goo"))
        for k in game.key_positions():
            label = f"{k['name']} ({k['holder']})"
            scene.objectives.append(Area("objective", Point(*k["at"]).buffer(k["radius"]), label))
        return scene
