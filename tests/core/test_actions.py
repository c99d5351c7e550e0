"""Actions: small immutable typed values with a stable text form, parsed back by a codec."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.core.actions import Action, ActionCodec, MalformedAction
from warbench.core.grid import Square
from warbench.rulesets.ttt.actions import CODEC, Aim, Attack, End, Move, Pass, Place

DETERMINISTIC = settings(derandomize=True, max_examples=150, deadline=None)

squares = st.builds(
    Square, st.integers(min_value=0, max_value=60), st.integers(min_value=0, max_value=60)
)
# ids and kinds are single words: anything printable without whitespace
words = st.text(
    alphabet=st.characters(
        whitelist_categories=("Lu", "Ll", "Nd", "Pd"), whitelist_characters="_'"
    ),
    min_size=1,
    max_size=12,
)


# -- the text form of Table Top Troopers' actions ----------------------------------------------


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Move("r1", Square.parse("C4")), "move r1 C4"),
        (Attack("r2", "b3"), "attack r2 b3"),
        (Aim("r2", "b3"), "aim r2 b3"),
        (Pass(), "pass"),
        (End(), "end"),
        (Place("Recon", Square.parse("A1")), "place Recon A1"),
        (Place("Shot-Gun", Square.parse("AB12")), "place Shot-Gun AB12"),
    ],
)
def test_ttt_text_form(action: Action, text: str) -> None:
    assert str(action) == text
    assert CODEC.parse(text) == action
    assert type(CODEC.parse(text)) is type(action)


def test_parse_is_lenient_about_verb_case_square_case_and_spaces() -> None:
    assert CODEC.parse("  MOVE   r1   c4 ") == Move("r1", Square(2, 3))
    assert CODEC.parse("Pass") == Pass()


@DETERMINISTIC
@given(piece=words, to=squares)
def test_move_round_trip(piece: str, to: Square) -> None:
    action = Move(piece, to)
    assert CODEC.parse(str(action)) == action


@DETERMINISTIC
@given(piece=words, target=words)
def test_attack_and_aim_round_trip(piece: str, target: str) -> None:
    for action in (Attack(piece, target), Aim(piece, target)):
        parsed = CODEC.parse(str(action))
        assert parsed == action
        assert type(parsed) is type(action)


@DETERMINISTIC
@given(kind=words, to=squares)
def test_place_round_trip(kind: str, to: Square) -> None:
    action = Place(kind, to)
    text = str(action)
    assert text == f"place {kind} {to}"
    assert CODEC.parse(text) == action


def test_codec_knows_its_own_actions_only() -> None:
    assert CODEC.knows(Move("r1", Square(0, 0)))
    assert CODEC.knows(Pass())
    assert not CODEC.knows(_Shoot(1.0, (1.0, 2.0)))


def test_forms_list_every_action() -> None:
    forms = CODEC.forms()
    assert "move PIECE TO" in forms
    assert "place KIND TO" in forms
    assert "attack PIECE TARGET" in forms
    assert "pass" in forms
    assert "end" in forms
    assert len(forms) == 6


# -- malformed text -------------------------------------------------------------------------


def test_unknown_verb_lists_allowed_forms() -> None:
    with pytest.raises(MalformedAction) as info:
        CODEC.parse("fly r1 C4")
    message = str(info.value)
    assert "unknown action 'fly'" in message
    for form in CODEC.forms():
        assert form in message


def test_unknown_verb_names_the_forms_allowed_now_first() -> None:
    """It listed every verb of the ruleset, those of later steps among them, all alike."""
    now = [Move, Aim, Pass]
    with pytest.raises(MalformedAction) as info:
        CODEC.parse("fly r1 C4", lambda: now)
    assert str(info.value) == (
        "unknown action 'fly'; allowed now: move PIECE TO; aim PIECE TARGET; pass "
        "(at other decisions: place, attack, end)"
    )
    with pytest.raises(MalformedAction, match=r"^empty action; no action is allowed now$"):
        CODEC.parse("", lambda: [])
    assert CODEC.parse("pass", lambda: pytest.fail("asked though the action is known")) == Pass()


def test_empty_text_lists_allowed_forms() -> None:
    with pytest.raises(MalformedAction, match="empty action") as info:
        CODEC.parse("   ")
    assert "move PIECE TO" in str(info.value)


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("move r1", "move PIECE TO"),
        ("move r1 C4 C5", "move PIECE TO"),
        ("attack r1", "attack PIECE TARGET"),
        ("pass now", "pass"),
        ("place Recon", "place KIND TO"),
    ],
)
def test_wrong_argument_count_shows_the_form(text: str, form: str) -> None:
    with pytest.raises(MalformedAction) as info:
        CODEC.parse(text)
    message = str(info.value)
    assert f"write: {form}" in message
    assert text in message


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("move", "'move' gives no argument, move takes 2;"),
        ("move r1", "'move r1' gives 1 argument, move takes 2;"),
        ("move r1 C4 C5", "'move r1 C4 C5' gives 3 arguments, move takes 2;"),
        ("pass now", "'pass now' gives 1 argument, pass takes none;"),
    ],
)
def test_wrong_argument_count_is_counted_in_words(text: str, counted: str) -> None:
    """It read "'move' has 0 argument(s)"."""
    with pytest.raises(MalformedAction) as info:
        CODEC.parse(text)
    assert str(info.value).startswith(counted)


@pytest.mark.parametrize("square", ["C0", "4C", "C", "C4.5", "12,3"])
def test_bad_square_is_malformed(square: str) -> None:
    with pytest.raises(MalformedAction) as info:
        CODEC.parse(f"move r1 {square}")
    message = str(info.value)
    assert message.startswith("TO in")
    assert f"'{square}' is not a square" in message
    assert "like C4" in message


def test_malformed_action_is_a_value_error() -> None:
    assert issubclass(MalformedAction, ValueError)


# -- immutability ----------------------------------------------------------------------------


def test_actions_are_immutable() -> None:
    move = Move("r1", Square(2, 3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.piece = "r2"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.to = Square(0, 0)  # type: ignore[misc]
    assert move == Move("r1", Square(2, 3))


def test_actions_are_hashable_and_compare_by_value() -> None:
    actions = {
        Move("r1", Square(2, 3)),
        Move("r1", Square(2, 3)),
        Move("r1", Square(2, 4)),
        Attack("r1", "b1"),
        Aim("r1", "b1"),
        Pass(),
        Pass(),
        End(),
    }
    assert len(actions) == 6
    attack: Action = Attack("r1", "b1")
    assert attack != Aim("r1", "b1")  # same fields, different actions
    assert {Pass(): 1}[Pass()] == 1


# -- float and point fields --------------------------------------------------------------------


@dataclass(frozen=True)
class _Shoot(Action):
    """A continuous-table action: a float and a point."""

    verb = "shoot"
    x: float
    at: tuple[float, float]


@dataclass(frozen=True)
class _Count(Action):
    verb = "count"
    n: int
    to: Square


_CODEC = ActionCodec([_Shoot, _Count])


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (_Shoot(12.5, (12.5, 30.0)), "shoot 12.5 12.5,30"),
        (_Shoot(0.0, (-3.25, 0.5)), "shoot 0 -3.25,0.5"),
        (_Shoot(100.0, (1.0, 2.0)), "shoot 100 1,2"),
    ],
)
def test_float_and_point_text(action: _Shoot, text: str) -> None:
    assert str(action) == text
    assert _CODEC.parse(text) == action


def test_int_and_square_fields() -> None:
    action = _Count(3, Square.parse("B7"))
    assert str(action) == "count 3 B7"
    assert _CODEC.parse("count 3 b7") == action


# table measurements to a tenth of the unit: the text form must keep them exactly
tenths = st.integers(min_value=-99_999, max_value=99_999).map(lambda n: n / 10)


@DETERMINISTIC
@given(x=tenths, ax=tenths, ay=tenths)
def test_float_fields_round_trip(x: float, ax: float, ay: float) -> None:
    action = _Shoot(x, (ax, ay))
    text = str(action)
    assert len(text.split()) == 3
    assert _CODEC.parse(text) == action


def test_float_fields_round_trip_at_full_precision() -> None:
    for x in (1234567.0, 0.1234567, 12.3456789):
        action = _Shoot(x, (x, -x))
        assert _CODEC.parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("shoot 1 12.5", "AT", "not a point; write x,y"),
        ("shoot 1 1,2,3", "AT", "not a point"),
        ("shoot one 1,2", "X", "one"),
        ("shoot 1 a,b", "AT", "a"),
        ("count 2.5 B7", "N", "2.5"),
    ],
)
def test_bad_numbers_are_malformed(text: str, field: str, message: str) -> None:
    with pytest.raises(MalformedAction) as info:
        _CODEC.parse(text)
    assert str(info.value).startswith(f"{field} in '{text}'")
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("shoot nan 1,2", "X", "'nan' is not a number; write one like 12.5"),
        ("shoot inf 1,2", "X", "'inf' is not a number"),
        ("shoot abc 1,2", "X", "'abc' is not a number; write one like 12.5"),
        ("shoot 1 nan,nan", "AT", "'nan,nan' is not a point; write x,y like 12.5,30"),
        ("shoot 1 1,-inf", "AT", "'1,-inf' is not a point"),
        ("shoot 1 1,abc", "AT", "'1,abc' is not a point; write x,y like 12.5,30"),
        ("count x B7", "N", "'x' is not a whole number; write one like 3"),
    ],
)
def test_numbers_must_be_finite_and_are_named_in_plain_words(
    text: str, field: str, message: str
) -> None:
    """`nan` once reached tftww2's walk cost and crashed the CLI (`walk r2 nan,nan 90`);
    Python's own "could not convert string to float" reached players."""
    with pytest.raises(MalformedAction) as info:
        _CODEC.parse(text)
    assert str(info.value).startswith(f"{field} in '{text}': ")
    assert message in str(info.value)
    assert "could not convert" not in str(info.value)
