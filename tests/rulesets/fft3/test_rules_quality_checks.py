"""Quality Checks for casualties and the victory conditions (ruling R10)."""

from __future__ import annotations

from tests.rulesets.fft3.position import At, play, position, stand, texts
from warbench.core.game import GameOver
from warbench.rulesets.fft3.game import FFT3Game

KILL = [6, 1, 1, 6, 1, 1, 1]  # NATO tank gun, effective range, Soviet front: 1 hit, a 6


def _three_tanks(check: list[int]) -> FFT3Game:
    """Blue destroys two of unit s1's three tanks in its fire phase; `check` scripts the
    casualty check."""
    game = position(
        [At("s1t1", 10, 10), At("s1t2", 12, 10), At("s1t3", 14, 10), At("n1t1", 12, 30, 180)],
        mover="blue",
        faces=KILL + KILL + check,
    )
    play(game, "fire n1t1 gun s1t1", "resolve s1t1")
    game.state.stands["n1t1"].attacks = []  # a second tank's fire, in effect
    play(game, "fire n1t1 gun s1t2", "resolve s1t2")
    return game


def test_a_unit_checks_when_it_first_loses_two_thirds_of_its_stands() -> None:
    game = _three_tanks([4])
    events = play(game, "end")
    check = [e for e in events if e.roll and "casualties" in e.roll.request.label]
    assert len(check) == 1 and "2 stands lost" in check[0].text
    assert not stand(game, "s1t3").alive  # 4 fails at 5+


def test_a_passed_casualty_check_leaves_the_unit() -> None:
    game = _three_tanks([5])
    play(game, "end")
    assert stand(game, "s1t3").alive
    assert game.state.units["s1"].broken_turn == 1


def test_one_roll_for_the_whole_unit_read_with_each_stands_cohesion() -> None:
    game = position(
        [
            At("s1t1", 10, 10),
            At("s1t2", 12, 10),
            At("s1t3", 20, 10),
            At("s1t4", 21.5, 10),
            At("s1t5", 30, 10),
            At("s1t6", 60, 10),
            At("n1t1", 11, 30, 180),
        ],
        mover="blue",
        faces=[5],
    )
    for sid in ("s1t1", "s1t2", "s1t3", "s1t4"):
        game._eliminate(stand(game, sid), "(set up)")
    stand(game, "s1t5").cohesive, stand(game, "s1t6").cohesive = True, False
    events = play(game, "end")
    assert sum(1 for e in events if e.roll and "casualties" in e.roll.request.label) == 1
    assert stand(game, "s1t5").alive  # 5 passes at 5+
    assert not stand(game, "s1t6").alive  # 5 - 1 out of cohesion fails


def test_fewer_losses_than_two_thirds_do_not_check() -> None:
    game = position(
        [At("s1t1", 10, 10), At("s1t2", 12, 10), At("s1t3", 14, 10), At("n1t1", 12, 30, 180)],
        mover="blue",
        faces=KILL,
    )
    events = play(game, "fire n1t1 gun s1t1", "resolve s1t1", "end")
    assert not any(e.roll and "casualties" in e.roll.request.label for e in events)


def test_a_broken_unit_checks_again_in_a_later_turn_it_loses_a_stand() -> None:
    game = position(
        [At("s1t1", 10, 10), At("s1t2", 12, 10), At("s1t3", 14, 10), At("n1t1", 12, 30, 180)],
        mover="blue",
        faces=[*KILL, 5],
    )
    unit = game.state.units["s1"]
    unit.broken_turn = 0  # it first lost 2/3 in an earlier turn
    events = play(game, "fire n1t1 gun s1t1", "resolve s1t1", "end")
    assert sum(1 for e in events if e.roll and "casualties" in e.roll.request.label) == 1
    assert unit.checked_turn == 1


def test_at_most_one_casualty_check_a_turn() -> None:
    game = position(
        [At(f"s1t{n}", 2 * n, 10) for n in range(1, 7)] + [At("n1t1", 11, 30, 180)],
        mover="blue",
        faces=[5],
    )
    for n in range(1, 5):
        game._eliminate(stand(game, f"s1t{n}"), "(set up)")
    game._casualty_checks()
    game._eliminate(stand(game, "s1t5"), "(set up)")
    before = game.dice.remaining  # type: ignore[attr-defined]
    game._casualty_checks()  # a second loss the same turn: no second check
    assert game.dice.remaining == before == 0  # type: ignore[attr-defined]
    assert stand(game, "s1t6").alive


def test_a_broken_force_loses_at_the_end_of_the_turn() -> None:
    game = position(
        [At("s1t1", 10, 10), At("s1t2", 12, 10), At("s1t3", 14, 10), At("n1t1", 12, 30, 180)],
        mover="blue",
        faces=[5],
    )
    game._eliminate(stand(game, "s1t1"), "(set up)")
    game._eliminate(stand(game, "s1t2"), "(set up)")
    play(game, "end")
    pending = game.pending
    assert isinstance(pending, GameOver)
    assert pending.winner == "blue" and "broken" in pending.reason


def test_a_force_with_no_stands_left_loses_at_once() -> None:
    game = position([At("s1t1", 10, 10), At("n1t1", 10, 30, 180)], mover="blue", faces=KILL)
    events = play(game, "fire n1t1 gun s1t1", "resolve s1t1")
    pending = game.pending
    assert isinstance(pending, GameOver) and pending.winner == "blue"
    assert "red has no stands left" in texts(events)[-1]


def test_after_the_last_turn_the_most_objectives_held_wins() -> None:
    game = position(
        [At("s1t1", 10, 10), At("s1t2", 36, 22), At("n1t1", 60, 40, 180)],
        mover="blue",
        changes={"turns": 1},
    )
    play(game, "end")
    pending = game.pending
    assert isinstance(pending, GameOver)
    assert pending.winner == "red" and "holds more objectives" in pending.reason


def test_a_contested_objective_is_held_by_nobody() -> None:
    game = position(
        [At("s1t1", 36, 22), At("n1t1", 36, 26, 180)], mover="blue", changes={"turns": 1}
    )
    play(game, "end")
    pending = game.pending
    assert isinstance(pending, GameOver)
    assert game.state.held == {}
    assert pending.winner is None  # objectives and losses even


def test_the_attacker_must_outhold_the_defender() -> None:
    changes = {"turns": 1, "victory": "attack", "attacker": "red"}
    game = position([At("s1t1", 10, 10), At("n1t1", 36, 26, 180)], mover="blue", changes=changes)
    play(game, "end")
    pending = game.pending
    assert isinstance(pending, GameOver) and pending.winner == "blue"
    game = position([At("s1t1", 36, 22), At("n1t1", 60, 40, 180)], mover="blue", changes=changes)
    play(game, "end")
    pending = game.pending
    assert isinstance(pending, GameOver) and pending.winner == "red"
