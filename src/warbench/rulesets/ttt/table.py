"""The fixed parts of a game: the joined boards, the squad sheet, and the operation."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from warbench.core.grid import Square
from warbench.core.words import counted
from warbench.rulesets.ttt.boards import Battlefield, board
from warbench.rulesets.ttt.pieces import PieceProfile, squad_sheet
from warbench.rulesets.ttt.scenario import SIDES, Scenario
from warbench.rulesets.ttt.setup import room
from warbench.rulesets.ttt.terrain import terrain_table


@dataclass(eq=False)
class Table:
    """What does not change while an operation is played."""

    scenario: Scenario
    battlefield: Battlefield
    sheet: dict[str, PieceProfile]
    homes: dict[str, frozenset[Square]]
    bridge: frozenset[Square]
    _fields_of_fire: dict[tuple[Square, int], frozenset[Square]] = field(default_factory=dict)
    _allowances: dict[str, tuple[dict[Square, int], tuple[int, ...]]] = field(default_factory=dict)
    _steps: dict[tuple[str, int], dict[Square, tuple[Square, ...]]] = field(default_factory=dict)
    # The AI's readings that depend on the table alone (`position.py`): P(hit) by attacker
    # kind, aimed at the target, target kind and the terrain of its square; a piece's value
    # by side and kind, on each square.
    hit_chances: dict[tuple[str, bool, str, str], float] = field(default_factory=dict)
    piece_values: dict[tuple[str, str], dict[Square, float]] = field(default_factory=dict)
    firing_squares: frozenset[Square] = field(init=False)
    """The squares a piece may attack from (TERRAIN: not a river)."""

    def __post_init__(self) -> None:
        effects = terrain_table()
        self.firing_squares = frozenset(
            sq for sq, kind in self.battlefield.terrain.items() if effects[kind].attack
        )

    @classmethod
    def build(cls, scenario: Scenario) -> Table:
        """The table of an operation, shared by every game of it (its caches are pure)."""
        return _built(scenario.model_dump_json())

    @classmethod
    def _build(cls, scenario: Scenario) -> Table:
        """Join the boards and check the operation fits them; ValueError says what does not."""
        own = {b.id: b for b in scenario.new_boards}
        layout = [
            (own[b.board] if b.board in own else board(b.board), Square(b.at[0], b.at[1]))
            for b in scenario.boards
        ]
        battlefield = Battlefield.join(layout)
        sheet = dict(squad_sheet())
        for extra in scenario.extra_pieces:
            if extra.name in sheet:
                raise ValueError(f"extra piece '{extra.name}' is already on the squad sheet")
            sheet[extra.name] = extra
        for side in SIDES:
            if side not in scenario.forces or side not in scenario.placement:
                raise ValueError(f"{scenario.id}: forces and placement must name {side}")
            for kind in scenario.forces[side].pieces:
                if kind not in sheet:
                    raise ValueError(
                        f"{scenario.id}: {side} piece '{kind}' is not on the squad sheet "
                        f"({', '.join(sheet)})"
                    )
        homes: dict[str, frozenset[Square]] = {}
        for side, text in scenario.homes.items():
            homes[side] = battlefield.region(Square.parse(text), "bunker")
        needs_homes = scenario.objective.kind == "enter_bunker" or any(
            p.rule == "adjacent_to_home" for p in scenario.placement.values()
        )
        if needs_homes and set(homes) != set(SIDES):
            raise ValueError(f"{scenario.id}: this operation needs homes (bunkers) for both sides")
        bridge = battlefield.of_kind("bridge")
        if scenario.objective.kind == "hold_bridge" and not bridge:
            raise ValueError(f"{scenario.id}: Capture the Crossing needs a board with a bridge")
        for side, rule in scenario.placement.items():
            if rule.rule == "board" and rule.board >= len(battlefield.boards):
                raise ValueError(
                    f"{scenario.id}: {side} places on board index {rule.board}, but the "
                    f"operation has {counted(len(battlefield.boards), 'board')} (indices from 0)"
                )
            if rule.rule == "corner" and not battlefield.passable(Square.parse(rule.corner)):
                raise ValueError(f"{scenario.id}: corner {rule.corner} is not on open ground")
        table = cls(scenario, battlefield, sheet, homes, bridge)
        room(table)
        return table

    def allowances(self, kind: str) -> tuple[dict[Square, int], tuple[int, ...]]:
        """The squares a `kind` may move when each square's terrain applies (TERRAIN), and
        the distinct values that takes, largest first."""
        found = self._allowances.get(kind)
        if found is None:
            profile, effects = self.sheet[kind], terrain_table()
            per_square = {
                sq: effects[t].allowance(profile) for sq, t in self.battlefield.terrain.items()
            }
            found = (per_square, tuple(sorted(set(per_square.values()), reverse=True)))
            self._allowances[kind] = found
        return found

    def steps(self, kind: str, cap: int) -> dict[Square, tuple[Square, ...]]:
        """Per square, the passable neighbours a `kind` may step to under a path cap of
        `cap` squares (their terrain allows it at least that far: `movement.reachable`)."""
        key = (kind, cap)
        found = self._steps.get(key)
        if found is None:
            allowance = self.allowances(kind)[0]
            found = self._steps[key] = {
                sq: tuple(n for n in links if allowance[n] >= cap)
                for sq, links in self.battlefield.links.items()
            }
        return found

    def field_of_fire(self, square: Square, reach: int) -> frozenset[Square]:
        """Squares within `reach` of `square`, no diagonals, in line of sight (ATTACKING)."""
        key = (square, reach)
        found = self._fields_of_fire.get(key)
        if found is None:
            board = self.battlefield
            found = frozenset(
                other
                for other in board.terrain
                if other != square
                and square.distance(other) <= reach
                and board.sight(square, other)
            )
            self._fields_of_fire[key] = found
        return found

    def profile(self, kind: str) -> PieceProfile:
        """The squad-sheet line of a kind of piece."""
        return self.sheet[kind]


@lru_cache(maxsize=64)
def _built(scenario_json: str) -> Table:
    return Table._build(Scenario.model_validate_json(scenario_json))
