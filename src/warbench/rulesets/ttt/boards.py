"""Boards (ours, data/boards/) and joining them edge to edge into one battlefield."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import yaml
from pydantic import BaseModel, ConfigDict, model_validator

from warbench.core.grid import Grid, Square, squares_between
from warbench.rulesets.ttt.terrain import most_detrimental, terrain_table


class Board(BaseModel):
    """One TTT board as authored (ours, or a player's NEW BOARD): a character map and legend."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int
    name: str
    legend: dict[str, tuple[str, ...]]
    rows: tuple[str, ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @model_validator(mode="after")
    def _well_formed(self) -> Board:
        widths = {len(r) for r in self.rows}
        if len(widths) != 1:
            raise ValueError(f"board {self.id}: rows have different lengths {sorted(widths)}")
        for char in {c for r in self.rows for c in r}:
            if char not in self.legend:
                raise ValueError(f"board {self.id}: '{char}' is not in the legend")
        for char, kinds in self.legend.items():
            for kind in kinds:
                if kind not in terrain_table():
                    raise ValueError(
                        f"board {self.id}: legend '{char}' names unknown terrain '{kind}'; "
                        f"known: {', '.join(terrain_table())}"
                    )
        return self

    def kinds_at(self, col: int, row: int) -> frozenset[str]:
        """Terrain types on a square of this board (row 0 is the bottom row)."""
        return frozenset(self.legend[self.rows[self.height - 1 - row][col]])


@cache
def board(number: int) -> Board:
    """Board #number from data/boards/."""
    path = resources.files(__package__).joinpath(f"data/boards/board{number}.yaml")
    if not path.is_file():
        raise ValueError(f"there is no board #{number}; shipped boards are #1 to #6")
    return Board.model_validate(yaml.safe_load(path.read_text()))


@dataclass(frozen=True)
class Placed:
    """A board placed on the table with its bottom-left square at `origin`."""

    board: Board
    origin: Square

    def __contains__(self, sq: Square) -> bool:
        return (
            self.origin.col <= sq.col < self.origin.col + self.board.width
            and self.origin.row <= sq.row < self.origin.row + self.board.height
        )


@dataclass
class Battlefield:
    """The boards of an operation joined edge to edge: terrain per square and sight lines."""

    boards: tuple[Placed, ...]
    grid: Grid
    kinds: dict[Square, frozenset[str]]
    terrain: dict[Square, str]
    _sight: dict[tuple[Square, Square], bool] = field(default_factory=dict)
    links: dict[Square, tuple[Square, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Precompute, for each square, the passable squares a step away (the hot path)."""
        self.links = {
            sq: tuple(n for n in sq.neighbours() if self.passable(n)) for sq in self.terrain
        }

    @classmethod
    def join(cls, layout: Sequence[tuple[Board, Square]]) -> Battlefield:
        """Join boards at their bottom-left squares: edge to edge into a rectangle, no overlap."""
        placed = tuple(Placed(b, origin) for b, origin in layout)
        kinds: dict[Square, frozenset[str]] = {}
        for p in placed:
            for row in range(p.board.height):
                for col in range(p.board.width):
                    sq = Square(p.origin.col + col, p.origin.row + row)
                    if sq in kinds:
                        raise ValueError(f"board #{p.board.id} overlaps another board at {sq}")
                    kinds[sq] = p.board.kinds_at(col, row)
        if min(s.col for s in kinds) != 0 or min(s.row for s in kinds) != 0:
            raise ValueError("the boards must start at A1 (origin 0,0)")
        width = max(s.col for s in kinds) + 1
        height = max(s.row for s in kinds) + 1
        if len(kinds) != width * height:
            raise ValueError("the boards must join edge to edge into one rectangle")
        terrain = {sq: most_detrimental(k) for sq, k in kinds.items()}
        return cls(placed, Grid(width, height), kinds, terrain)

    def passable(self, sq: Square) -> bool:
        """On the table and not an object that may not be moved through."""
        kind = self.terrain.get(sq)
        return kind is not None and terrain_table()[kind].passable

    def region(self, start: Square, kind: str) -> frozenset[Square]:
        """The connected squares of one terrain type containing `start` (a bunker, a bridge)."""
        if self.terrain.get(start) != kind:
            raise ValueError(f"{start} is not {kind} (it is {self.terrain.get(start)})")
        found, frontier = {start}, [start]
        while frontier:
            for nxt in frontier.pop().neighbours():
                if nxt not in found and self.terrain.get(nxt) == kind:
                    found.add(nxt)
                    frontier.append(nxt)
        return frozenset(found)

    def of_kind(self, kind: str) -> frozenset[Square]:
        """Every square whose applicable terrain is `kind`."""
        return frozenset(sq for sq, k in self.terrain.items() if k == kind)

    def sight(self, a: Square, b: Square) -> bool:
        """Line of sight: blocked only by objects that cannot be moved through (ATTACKING)."""
        key = (a, b) if a <= b else (b, a)
        clear = self._sight.get(key)
        if clear is None:
            clear = all(self.passable(sq) for sq in squares_between(a, b))
            self._sight[key] = clear
        return clear
