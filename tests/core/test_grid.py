"""Square grids: square names, orthogonal distance, neighbours and the squares a line crosses."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.core.grid import Grid, Square, squares_between

DETERMINISTIC = settings(derandomize=True, max_examples=150, deadline=None)

cols = st.integers(min_value=0, max_value=60)
rows = st.integers(min_value=0, max_value=60)
squares = st.builds(Square, cols, rows)
small_squares = st.builds(
    Square, st.integers(min_value=0, max_value=14), st.integers(min_value=0, max_value=14)
)


# -- names --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("square", "text"),
    [
        (Square(0, 0), "A1"),
        (Square(2, 3), "C4"),
        (Square(25, 9), "Z10"),
        (Square(26, 0), "AA1"),
        (Square(27, 4), "AB5"),
        (Square(51, 0), "AZ1"),
        (Square(52, 59), "BA60"),
    ],
)
def test_square_names(square: Square, text: str) -> None:
    assert str(square) == text
    assert Square.parse(text) == square


@DETERMINISTIC
@given(col=cols, row=rows)
def test_parse_str_round_trip(col: int, row: int) -> None:
    square = Square(col, row)
    text = str(square)
    assert text[0].isalpha()
    assert text[-1].isdigit()
    assert Square.parse(text) == square
    assert Square.parse(text.lower()) == square
    assert Square.parse(f"  {text} ") == square


@pytest.mark.parametrize("text", ["", "4C", "C0", "C-1", "C", "12", "C4x", "C 4", "C4.5", "?"])
def test_bad_square_text_rejected(text: str) -> None:
    with pytest.raises(ValueError, match="is not a square") as info:
        Square.parse(text)
    assert "like C4" in str(info.value)
    assert f"'{text}'" in str(info.value)


# -- distance and neighbours -----------------------------------------------------------------


def test_distance_is_orthogonal() -> None:
    a1 = Square.parse("A1")
    assert a1.distance(Square.parse("C4")) == 5
    assert a1.distance(Square.parse("B2")) == 2  # a diagonal step counts two
    assert a1.distance(a1) == 0
    assert Square.parse("E3").distance(Square.parse("B3")) == 3


@DETERMINISTIC
@given(a=squares, b=squares, c=squares)
def test_distance_is_a_metric(a: Square, b: Square, c: Square) -> None:
    assert a.distance(b) == abs(a.col - b.col) + abs(a.row - b.row)
    assert a.distance(b) == b.distance(a)
    assert a.distance(c) <= a.distance(b) + b.distance(c)
    assert (a.distance(b) == 0) == (a == b)


def test_neighbours_are_the_four_orthogonal_squares() -> None:
    c4 = Square.parse("C4")
    assert set(c4.neighbours()) == {Square.parse(t) for t in ("C5", "D4", "C3", "B4")}


@DETERMINISTIC
@given(square=squares)
def test_neighbours_one_step_away(square: Square) -> None:
    around = list(square.around())
    neighbours = square.neighbours()
    assert len(set(neighbours)) == 4
    assert all(square.distance(n) == 1 for n in neighbours)
    assert len(around) == 8
    assert len(set(around)) == 8
    assert square not in around
    assert set(neighbours) <= set(around)
    assert all(max(abs(s.col - square.col), abs(s.row - square.row)) == 1 for s in around)
    diagonals = set(around) - set(neighbours)
    assert all(square.distance(d) == 2 for d in diagonals)


def test_around_corner_square_includes_off_grid() -> None:
    around = set(Square(0, 0).around())
    assert len(around) == 8
    assert sum(1 for s in around if s in Grid(10, 10)) == 3


# -- the grid -----------------------------------------------------------------------------


def test_grid_containment() -> None:
    grid = Grid(16, 8)
    assert Square(0, 0) in grid
    assert Square(15, 7) in grid
    assert Square(16, 7) not in grid
    assert Square(15, 8) not in grid
    assert Square(-1, 0) not in grid
    assert Square(0, -1) not in grid
    assert "A1" not in grid
    assert None not in grid


def test_grid_squares_row_by_row() -> None:
    grid = Grid(3, 2)
    listed = list(grid.squares())
    assert [str(s) for s in listed] == ["A1", "B1", "C1", "A2", "B2", "C2"]
    assert all(s in grid for s in listed)


@DETERMINISTIC
@given(width=st.integers(1, 20), height=st.integers(1, 20))
def test_grid_squares_count(width: int, height: int) -> None:
    grid = Grid(width, height)
    listed = list(grid.squares())
    assert len(listed) == len(set(listed)) == width * height
    assert Square(width, 0) not in grid
    assert Square(0, height) not in grid
    assert Square(width - 1, height - 1) in grid


# -- squares a straight line crosses ------------------------------------------------------------


def _names(found: list[Square]) -> set[str]:
    return {str(s) for s in found}


def test_straight_lines() -> None:
    assert _names(squares_between(Square.parse("A1"), Square.parse("E1"))) == {"B1", "C1", "D1"}
    assert _names(squares_between(Square.parse("C6"), Square.parse("C2"))) == {"C5", "C4", "C3"}
    assert squares_between(Square.parse("A1"), Square.parse("B1")) == []
    assert squares_between(Square.parse("A1"), Square.parse("A1")) == []


def test_exact_diagonal_touches_no_side_squares() -> None:
    found = squares_between(Square.parse("A1"), Square.parse("D4"))
    assert _names(found) == {"B2", "C3"}
    assert squares_between(Square.parse("A1"), Square.parse("B2")) == []
    assert _names(squares_between(Square.parse("E1"), Square.parse("A5"))) == {"D2", "C3", "B4"}


def test_knight_like_line() -> None:
    # centre (0,0) to (1,2): crosses A2 (x < 1/2 while y in (1/2, 1)) and B2
    assert _names(squares_between(Square.parse("A1"), Square.parse("B3"))) == {"A2", "B2"}
    assert _names(squares_between(Square.parse("A1"), Square.parse("C2"))) == {"B1", "B2"}


def test_shallow_line() -> None:
    # (0,0) to (4,1): y = x/4 leaves row 0 at x = 2 exactly (the C1/C2 edge)
    found = squares_between(Square.parse("A1"), Square.parse("E2"))
    assert _names(found) == {"B1", "C1", "C2", "D2"}


@DETERMINISTIC
@given(a=small_squares, b=small_squares)
def test_squares_between_symmetric_and_bounded(a: Square, b: Square) -> None:
    forward = squares_between(a, b)
    assert set(forward) == set(squares_between(b, a))
    assert len(set(forward)) == len(forward)
    assert a not in forward
    assert b not in forward
    for sq in forward:
        assert min(a.col, b.col) <= sq.col <= max(a.col, b.col)
        assert min(a.row, b.row) <= sq.row <= max(a.row, b.row)


@DETERMINISTIC
@given(a=small_squares, length=st.integers(0, 14))
def test_straight_and_diagonal_lines_exactly(a: Square, length: int) -> None:
    b = Square(a.col + length, a.row)
    assert set(squares_between(a, b)) == {Square(a.col + i, a.row) for i in range(1, length)}
    up = Square(a.col, a.row + length)
    assert set(squares_between(a, up)) == {Square(a.col, a.row + i) for i in range(1, length)}
    diagonal = Square(a.col + length, a.row + length)
    expected = {Square(a.col + i, a.row + i) for i in range(1, length)}
    assert set(squares_between(a, diagonal)) == expected


@DETERMINISTIC
@given(a=small_squares, b=small_squares)
def test_squares_between_forms_a_chain(a: Square, b: Square) -> None:
    """Between two squares, the crossed squares (with the ends) are connected by edges or
    by corners (exactly through a corner only on a line through lattice corners)."""
    chain = {a, b, *squares_between(a, b)}
    if a == b:
        return
    reached, frontier = {a}, [a]
    while frontier:
        square = frontier.pop()
        for n in square.around():
            if n in chain and n not in reached:
                reached.add(n)
                frontier.append(n)
    assert reached == chain
