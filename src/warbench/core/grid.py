"""Square grids (Table Top Troopers): squares, orthogonal distance, sight over cells."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

_SQUARE = re.compile(r"^([A-Za-z]+)(\d+)$")


def column_letters(col: int) -> str:
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


class Square(NamedTuple):
    """A square of the grid: column and row from 0, written like a chess square (`A1`).

    Columns are letters from the left (A..Z, AA..), rows are numbers from the bottom. A
    named tuple, so hashing and comparing squares (the hot path of movement) stay in C.
    """

    col: int
    row: int

    def __str__(self) -> str:
        return f"{column_letters(self.col)}{self.row + 1}"

    def __repr__(self) -> str:
        return f"Square({self})"

    @classmethod
    def parse(cls, text: str) -> Square:
        """Read `C4`-style text; raises ValueError naming the expected form."""
        match = _SQUARE.match(text.strip())
        if not match or int(match.group(2)) < 1:
            raise ValueError(f"'{text}' is not a square; write column letters then row, like C4")
        col = 0
        for ch in match.group(1).upper():
            col = col * 26 + (ord(ch) - ord("A") + 1)
        return cls(col - 1, int(match.group(2)) - 1)

    def distance(self, other: Square) -> int:
        """Orthogonal (no diagonals) distance in squares."""
        return abs(self.col - other.col) + abs(self.row - other.row)

    def neighbours(self) -> tuple[Square, Square, Square, Square]:
        """The four orthogonally adjacent squares (some may be off the grid)."""
        c, r = self.col, self.row
        return (Square(c, r + 1), Square(c + 1, r), Square(c, r - 1), Square(c - 1, r))

    def around(self) -> Iterator[Square]:
        """The eight squares touching this one, diagonals included."""
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if dc or dr:
                    yield Square(self.col + dc, self.row + dr)


@dataclass(frozen=True)
class Grid:
    """A rectangle of squares."""

    width: int
    height: int

    def __contains__(self, square: object) -> bool:
        return (
            isinstance(square, Square)
            and 0 <= square.col < self.width
            and 0 <= square.row < self.height
        )

    def squares(self) -> Iterator[Square]:
        """Every square, row by row from A1."""
        for row in range(self.height):
            for col in range(self.width):
                yield Square(col, row)


def squares_between(a: Square, b: Square) -> list[Square]:
    """Squares whose interior the straight line from centre of `a` to centre of `b` crosses.

    The end squares are excluded. A line that only grazes a corner or runs along an edge
    does not cross the square; the test is exact, in whole numbers.
    """
    crossed: list[Square] = []
    for col in range(min(a.col, b.col), max(a.col, b.col) + 1):
        for row in range(min(a.row, b.row), max(a.row, b.row) + 1):
            sq = Square(col, row)
            if sq != a and sq != b and _crosses_interior(a, b, sq):
                crossed.append(sq)
    return crossed


def _crosses_interior(a: Square, b: Square, sq: Square) -> bool:
    """Whether the segment between the centres of a and b meets the open square `sq`.

    Separating axes, doubled so that every coordinate is whole: the segment misses the open
    square exactly when the square's corners all lie on one closed side of its line (the
    x and y axes are covered by the caller's bounding box, inside which every square's
    interior overlaps the segment's extent whenever the line meets it).
    """
    ax, ay, bx, by = 2 * a.col, 2 * a.row, 2 * b.col, 2 * b.row
    dx, dy = bx - ax, by - ay
    sides = [
        dx * (2 * sq.row + oy - ay) - dy * (2 * sq.col + ox - ax)
        for ox in (-1, 1)
        for oy in (-1, 1)
    ]
    return min(sides) < 0 < max(sides)
