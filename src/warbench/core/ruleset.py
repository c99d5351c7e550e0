"""What a ruleset is: its identity, its scenarios, and how it starts a game and draws one."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol

from warbench.core import preview
from warbench.core.actions import Action
from warbench.core.dice import DiceSource, ReadingPolicy
from warbench.core.game import Game, GameOver
from warbench.core.odds import OddsReport
from warbench.core.scenario_files import ScenarioFiles
from warbench.core.scene import Scene

Unit = Literal["cm", "inch", "square"]


class ScenarioModel(Protocol):
    """A ruleset's validated scenario (a pydantic model with these fields)."""

    @property
    def id(self) -> str:
        """Its id."""
        ...

    @property
    def name(self) -> str:
        """Its name."""
        ...

    @property
    def summary(self) -> str:
        """One line about it."""
        ...

    def model_dump(self, *, mode: str) -> dict[str, Any]:
        """The scenario as data."""
        ...


class Agent(ABC):
    """A player that is not a person: chooses one action at a decision."""

    @abstractmethod
    def choose(self, game: Game, player: str) -> Action:
        """The action this agent takes for `player` at `game.pending`."""


AgentFactory = Callable[[int], Agent]


@dataclass(frozen=True)
class ScenarioInfo:
    """A named scenario a ruleset ships."""

    id: str
    name: str
    summary: str


class Ruleset(ABC):
    """One rulebook made playable. Found by id through `warbench.core.registry`."""

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str]
    unit: ClassVar[Unit]
    players: ClassVar[tuple[str, ...]] = ("red", "blue")
    hidden_information: ClassVar[bool] = False

    scenario_word: ClassVar[str] = "scenario"  # the rulebook's word: "operation", "mission"
    army_upload: ClassVar[str | None] = None  # the army list files it takes, e.g. Army Forge's

    scenario_files: ClassVar[ScenarioFiles[Any]]  # its scenario model and shipped files

    def shipped_scenarios(self) -> Mapping[str, ScenarioModel]:
        """The scenarios this ruleset ships, by id."""
        return self.scenario_files.shipped()

    def read_scenario(self, path: Path) -> ScenarioModel:
        """A scenario file (YAML), validated; ValueError names each broken field."""
        spec: ScenarioModel = self.scenario_files.read_file(path)
        return spec

    def check_scenario(self, data: dict[str, Any]) -> ScenarioModel:
        """Scenario data (as stored in a record), validated."""
        spec: ScenarioModel = self.scenario_files.validate(data, "scenario")
        return spec

    def scenarios(self) -> list[ScenarioInfo]:
        """The scenarios this ruleset ships."""
        return [ScenarioInfo(s.id, s.name, s.summary) for s in self.shipped_scenarios().values()]

    def load_scenario(self, name_or_path: str) -> dict[str, Any]:
        """A shipped scenario by id, or a YAML file by path, validated; returns its data."""
        shipped = self.shipped_scenarios()
        if name_or_path in shipped:
            spec = shipped[name_or_path]
        elif self.is_path(name_or_path):
            spec = self.read_scenario(Path(name_or_path))
        else:
            raise ValueError(
                f"no {self.name} {self.scenario_word} '{name_or_path}'; shipped: "
                f"{', '.join(shipped)} (or give a .yaml file)"
            )
        return spec.model_dump(mode="json")

    def with_army_list(
        self, scenario: dict[str, Any], side: str, name: str, text: str
    ) -> dict[str, Any]:
        """`scenario` with `side`'s army replaced by an uploaded army list file (`name`, its
        `text`), validated; ValueError names every problem (see `army_upload`)."""
        raise ValueError(f"{self.name} takes no uploaded army lists")

    def scenario_from_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """Validate scenario data (as stored in a record) and return it normalised."""
        return self.check_scenario(data).model_dump(mode="json")

    @abstractmethod
    def new_game(
        self, scenario: dict[str, Any], seed: int | None, dice: DiceSource | None = None
    ) -> Game:
        """A fresh game of `scenario` with dice from `seed` (or the given source)."""

    @abstractmethod
    def agents(self) -> dict[str, AgentFactory]:
        """Agents by name (`random`, `ai`, ...), each built from a seed."""

    @abstractmethod
    def scene(self, game: Game, viewer: str | None = None) -> Scene:
        """The table as shapes to draw, as `viewer` may see it (None: a spectator). Rulesets
        without hidden information draw everything for everyone."""

    @abstractmethod
    def board_text(self, game: Game) -> str:
        """The table as text for a terminal player (`board` at the prompt)."""

    def evaluate(self, game: Game, player: str) -> float:
        """How well `player` stands, from -1 (lost) through 0 (even) to 1 (won): what a
        search agent maximises at the end of a look-ahead. A finished game scores its result;
        a ruleset that offers search weighs an unfinished one by its own victory conditions."""
        pending = game.pending
        if isinstance(pending, GameOver):
            return 0.0 if pending.winner is None else (1.0 if pending.winner == player else -1.0)
        raise NotImplementedError(f"{self.id} cannot weigh an unfinished game for search")

    def determinise(self, game: Game, player: str, dice: DiceSource) -> Game:
        """A game to look ahead in, built only from what `player` may see, with `dice`.

        Without hidden information that is a fork of the game. A ruleset with hidden
        information overrides it to sample the hidden parts consistently with the view, so a
        search agent never peeks."""
        if self.hidden_information:
            raise NotImplementedError(f"{self.id} cannot yet sample its hidden information")
        return game.fork(dice)

    def commands(self) -> object | None:
        """A typer app of this ruleset's own commands (`warbench <id> ...`), if any."""
        return None

    def odds_options(self) -> Mapping[str, str]:
        """The `key=value` options of `warbench odds <id>`, each with what it takes, in the
        rulebook's words; empty when this ruleset offers no odds (docs/odds.md)."""
        return {}

    def odds(self, options: Mapping[str, str]) -> OddsReport:
        """The exact odds of one attack described by `options` (see `odds_options`), from
        this ruleset's own rules code run with the exact dice. ValueError names a bad option
        and what is allowed."""
        raise NotImplementedError(f"{self.name} offers no odds yet")

    def dice_reading(self) -> ReadingPolicy | None:
        """How this ruleset's rules read their dice in play (`warbench.core.dice.Reading`),
        so `action_odds` enumerates classes of rolls; None: face by face (always exact)."""
        return None

    def follow_up(self, game: Game, action: Action) -> Action | None:
        """The action that carries out `action` when it only declares something to be
        resolved later (fft3: fire is resolved by `resolve TARGET`); None by default."""
        return None

    def action_odds(self, game: Game, action: Action, player: str) -> OddsReport:
        """The exact odds of `action` by `player` now, from what `player` may see
        (`warbench.core.preview.action_odds`); ValueError says why there are none."""
        return preview.action_odds(self, game, action, player)

    def reach(self, game: Game, player: str, piece: str) -> list[preview.Reach]:
        """Where `piece` may move now, one `Reach` per kind of move. The default asks the
        rules' check over a grid round the piece (`warbench.core.preview.reach`), as far as
        `reach_limits` says; a ruleset on a grid (ttt: squares with their cost) overrides it."""
        origin = None
        for figure in self.scene(game, player).figures:
            if figure.label.split()[:1] == [piece]:
                centre = figure.base.centroid
                origin = (float(centre.x), float(centre.y))
                break
        limits = self.reach_limits(game, player, piece)
        return preview.reach(game, player, piece, origin, limits)

    def reach_limits(self, game: Game, player: str, piece: str) -> dict[str, float]:
        """The farthest `piece` may get in a straight move of each verb, from its centre in
        the ruleset's unit (no legal end point lies farther); a verb left out is found by
        scanning bearings with the rules' check."""
        return {}

    def path_cost(self, game: Game, player: str, action: Action) -> preview.PathCost | None:
        """What the move `action` costs by the ruleset's own movement code, legal or not
        (shown for the point under the pointer); None for an action that is no move or a
        ruleset that does not price moves."""
        return None

    def ranges(self, game: Game, piece: str) -> list[tuple[str, float]]:
        """The range bands of `piece`'s weapons as (label, distance in the ruleset's unit),
        drawn round it when it is selected; empty when the ruleset does not say."""
        return []

    def census(self, game: Game) -> dict[str, dict[str, tuple[int, int]]]:
        """For the simulation lab: each side's pieces by unit type as (fielded, standing) —
        how many took the field in this game so far and how many are still in play. Empty
        when the ruleset does not count its pieces."""
        return {}

    def parameters(self, scenario: dict[str, Any]) -> dict[str, str]:
        """For balance sweeps: the parameters `vary` can set in `scenario`, with what each
        means (a side's force ratio, a unit's points or count). Empty when there are none."""
        return {}

    def vary(self, scenario: dict[str, Any], parameter: str, value: float) -> dict[str, Any]:
        """`scenario` rewritten with `parameter` at `value`, validated; ValueError names what
        is wrong and what is allowed."""
        allowed = ", ".join(self.parameters(scenario)) or "none"
        raise ValueError(f"{self.id} has no parameter '{parameter}'; allowed: {allowed}")

    def plant_hidden_marker(
        self, scenario: dict[str, Any], marker: str
    ) -> tuple[dict[str, Any], str]:
        """For the conformance suite: `scenario` with `marker` written into data only the
        returned player may see (a secret roster entry, a flanking force, an ambush reserve).
        Every ruleset with hidden information implements it."""
        raise NotImplementedError(f"{self.id} has no hidden information to plant a marker in")

    @staticmethod
    def is_path(name_or_path: str) -> bool:
        """Whether a `--scenario` argument names a file rather than a shipped scenario."""
        return name_or_path.endswith((".yaml", ".yml")) or Path(name_or_path).exists()
