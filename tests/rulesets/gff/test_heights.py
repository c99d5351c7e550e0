"""Heights under the optional jumping rules (GFF-R22, R23, R29, R30): they limit sight (a
model up high sees over lower blockers; a tall piece hides what is behind it), give cover
by elevation ("behind sight blockers"), and the close-in moves of a melee read them."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.rulesets.gff.position import position, profile, square, state_of, unit
from warbench.core.geometry import Base
from warbench.rulesets.gff.battlefield import (
    Battlefield,
    eye_height,
    line_blocked,
    unit_in_cover,
    visibility,
)
from warbench.rulesets.gff.movement import close_in

WALL = square(10, 19.5, 38, 20.5, "wall", height=3)  # a 3" sight blocker across the table
PLATFORM = square(20, 6, 28, 12, "platform", height=5)  # south of the wall
HILL = square(20, 24, 28, 30, "hill", height=2)
BARRICADE = square(20, 24, 28, 25.5, "barricade", height=1)


def table(*pieces: dict[str, Any], heights: bool = True) -> Battlefield:
    field = Battlefield.from_data(list(pieces))
    return dataclasses.replace(field, heights=heights)


def spot(x: float, y: float) -> Base:
    return Base((x, y), 1.0)


def test_a_wall_hides_a_model_from_one_on_the_ground() -> None:
    field = table(WALL, PLATFORM)
    assert visibility(spot(24, 16), spot(24, 23), field) == "hidden"


def test_a_model_on_a_platform_sees_over_a_lower_wall() -> None:
    """From 5" up (eyes at 6") over the 3" wall 8.5" away to a model 7.5" behind it: the
    line is still 3.2" high where it leaves the wall."""
    field = table(WALL, PLATFORM)
    assert visibility(spot(24, 11), spot(24, 28), field) == "clear"
    flat = table(WALL, PLATFORM, heights=False)  # without heights the wall blocks as before
    assert visibility(spot(24, 11), spot(24, 28), flat) == "hidden"


def test_a_wall_just_in_front_of_the_target_still_hides_it_from_up_high() -> None:
    """The line from 6" up falls below 3" before it reaches a wall right before the target."""
    field = table(square(10, 30, 38, 31, "wall", height=3), PLATFORM)
    assert visibility(spot(24, 11), spot(24, 31.8), field) == "hidden"


@pytest.mark.parametrize(("piece", "hidden"), [(HILL, True), (PLATFORM, True), (BARRICADE, False)])
def test_tall_pieces_block_sight_between_models_on_the_ground(
    piece: dict[str, Any], hidden: bool
) -> None:
    """Hills (2") and platforms (5") rise over the eyes of ground models (1"); a 1"
    barricade does not. On a flat table none of them blocks."""
    a, b = spot(24, 3) if piece is PLATFORM else spot(24, 21), spot(24, 33)
    if piece is PLATFORM:
        b = spot(24, 15)
    assert (visibility(a, b, table(piece)) == "hidden") is hidden
    assert visibility(a, b, table(piece, heights=False)) == "clear"


def test_a_model_on_a_hill_sees_down_the_other_side() -> None:
    field = table(HILL)
    assert not line_blocked((24, 27), (24, 33), field)
    assert line_blocked((24, 21), (24, 33), field)


def test_cover_by_elevation() -> None:
    """Behind the wall a model has cover from a shooter on the ground, none from one on the
    platform who sees over it; hidden behind a hill it has cover too."""
    field = table(WALL, PLATFORM)
    target = [spot(24, 28)]
    assert unit_in_cover(target, [spot(24, 16)], field)
    assert not unit_in_cover(target, [spot(24, 11)], field)
    behind_hill = [spot(24, 31)]
    assert unit_in_cover(behind_hill, [spot(24, 22)], table(HILL))
    assert not unit_in_cover(behind_hill, [spot(24, 22)], table(HILL, heights=False))


def test_close_in_counts_climbing_toward_its_budget() -> None:
    """3" to close in; the enemy stands on the 5" platform: the mover may not climb 5" with
    it, so it stops at the platform's foot (without heights it would walk 3" onto it)."""
    field = table(PLATFORM)
    ends = []
    for heights in (field, None):
        mover = unit("r1", profile(), (24.0, 3.5))
        enemy = unit("b1", profile(), (24.0, 8.0))
        close_in(state_of(mover, enemy), mover, enemy, 3.0, heights)
        ends.append(mover.models[0].y)
    assert ends[0] <= 6.0 and ends[1] == pytest.approx(6.5)


def test_close_in_does_not_drop_more_than_six_inches() -> None:
    """From a 7" tower's edge toward an enemy below: a 7" drop is not allowed, so it stays."""
    tower = table(square(20, 6, 28, 12, "platform", height=7))
    mover = unit("r1", profile(), (24.0, 11.0))
    enemy = unit("b1", profile(), (24.0, 14.0))
    close_in(state_of(mover, enemy), mover, enemy, 3.0, tower)
    assert mover.models[0].y <= 12.0


def test_the_game_counts_heights_only_with_the_jumping_rules() -> None:
    kwargs: dict[str, Any] = {"terrain": [HILL]}
    flat = position([profile()], [profile()], {"r1": (24, 21), "b1": (24, 33)}, **kwargs)
    high = position(
        [profile()],
        [profile()],
        {"r1": (24, 21), "b1": (24, 33)},
        switches={"jumping": True},
        **kwargs,
    )
    assert not flat.field.heights and high.field.heights
    a, b = spot(24, 21), spot(24, 33)
    assert visibility(a, b, flat.field) == "clear"
    assert visibility(a, b, high.field) == "hidden"


# --- big models (GFF-R32) ---------------------------------------------------------------------

LOW_HILL = square(20, 24, 28, 30, "hill", height=1.5)


@pytest.mark.parametrize(
    ("base", "eyes"),
    [
        (Base((0, 0), 1.0), 1.0),
        (Base((0, 0), 0.8), 1.0),
        (Base((0, 0), 1.25), 1.25),
        (Base((0, 0), 2.5), 2.5),
        (Base((0, 0), 5.0), 4.0),
        (Base((0, 0), 4.0, 2.0), 2.0),
    ],
)
def test_a_models_eyes_are_as_high_as_its_base_is_wide(base: Base, eyes: float) -> None:
    assert eye_height(base) == eyes


def test_a_big_model_sees_over_low_terrain_that_hides_a_small_one() -> None:
    """A 1.5" hill: eyes at 1" see nothing past it; a 2.5" base's eyes at 2.5" see a model
    10" behind it (the line is 1.75" high where it leaves the hill)."""
    field = table(LOW_HILL)
    small, big, target = spot(24, 20), Base((24, 20), 2.5), spot(24, 40)
    assert visibility(small, target, field) == "hidden"
    assert visibility(big, target, field) != "hidden"
    assert visibility(target, big, field) != "hidden"  # and is seen: sight runs both ways


def test_big_models_of_the_factions_see_from_their_base_size() -> None:
    """The Crusher Beast (2.5" base, Tough(6)) over the low hill, a gaunt (1") not."""
    field = table(LOW_HILL)
    beast = unit("r1", profile("Crusher Beast", rules=["Tough(6)"], base=2.5), (24, 20))
    gaunt = unit("r2", profile("Gaunt"), (24, 20))
    target = unit("b1", profile(), (24, 40))
    (seen_by_beast,) = [visibility(a, b, field) for a in beast.bases() for b in target.bases()]
    (seen_by_gaunt,) = [visibility(a, b, field) for a in gaunt.bases() for b in target.bases()]
    assert (seen_by_beast != "hidden", seen_by_gaunt) == (True, "hidden")


def test_without_the_jumping_switch_size_changes_nothing() -> None:
    """On a flat table sight blockers are endless, whatever a model's size (GFF-R29)."""
    field = table(WALL, heights=False)
    assert visibility(Base((24, 16), 4.0), spot(24, 23), field) == "hidden"
