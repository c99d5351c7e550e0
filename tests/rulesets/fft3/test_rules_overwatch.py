"""Overwatch: "Any stand that is eligible to fire may instead take an Overwatch marker. This
allows the stand to fire during its opponent's next movement phase. However, all overwatch
attacks are at -1 to hit." The non-moving player decides, in the middle of the move, at
which point of the path to fire."""

from __future__ import annotations

from collections.abc import Sequence

from tests.rulesets.fft3.position import At, legal, play, position, stand, texts
from warbench.core.game import Decision
from warbench.rulesets.fft3.game import FFT3Game


def _watching(faces: Sequence[int] = ()) -> FFT3Game:
    """Blue NATO tank at 36,40 facing south took overwatch; red's turn to move a tank."""
    game = position(
        [At("n1t1", 36, 40, 180), At("s1t1", 10, 10), At("s1t2", 11.5, 10)],
        phase="movement",
        mover="red",
        faces=faces,
    )
    stand(game, "n1t1").overwatch = True
    return game


def test_a_stand_that_could_fire_takes_a_marker_instead() -> None:
    game = position([At("n1t1", 36, 40, 180), At("s1t1", 36, 20)], mover="blue")
    play(game, "overwatch n1t1")
    assert stand(game, "n1t1").overwatch
    reason = legal(game, "fire n1t1 gun s1t1")
    assert reason is not None and "overwatch" in reason


def test_a_stand_that_fired_cannot_take_a_marker() -> None:
    game = position([At("n1t1", 36, 40, 180), At("s1t1", 36, 20)], mover="blue")
    play(game, "fire n1t1 gun s1t1")
    assert legal(game, "overwatch n1t1") is not None


def test_the_enemy_move_stops_for_the_overwatching_players_decision() -> None:
    game = _watching()
    play(game, "move s1t1 20,10")
    pending = game.pending
    assert isinstance(pending, Decision)
    assert pending.player == "blue" and pending.kind == "overwatch"
    assert stand(game, "s1t1").at == (10, 10)  # not moved yet
    # blue chooses the point along the move
    assert legal(game, "owfire n1t1 gun 5") is None
    assert legal(game, "owfire n1t1 gun 10.5") is not None  # beyond the move's 10"


def test_overwatch_fire_is_at_minus_one_and_at_the_chosen_point() -> None:
    """At 5" along the move the tank is at 15,10; range from 36,40 is about 35.4" edge to
    edge: long (−1), NATO +1, overwatch −1. Dice 5, 5, 4: 5−1 = 4 hits twice, 4−1 = 3 misses.
    Penetration 14 − 2 (long) − 10 front = 2 dice per hit: 1, 2, 3, 1: no effect."""
    game = _watching([5, 5, 4, 1, 2, 3, 1])
    play(game, "move s1t1 20,10")
    events = play(game, "owfire n1t1 gun 5")  # the last overwatcher: the move resolves
    assert not stand(game, "n1t1").overwatch
    rolls = [e.roll for e in events if e.roll is not None]
    to_hit = rolls[0]
    assert dict(to_hit.request.modifiers) == {"long range": -1, "quality": 1, "overwatch": -1}
    assert to_hit.successes == 2
    assert stand(game, "s1t1").alive and stand(game, "s1t1").at == (20, 10)
    assert any("no effect" in t for t in texts(events))


def test_a_stand_destroyed_by_overwatch_stops_where_it_was_hit() -> None:
    game = _watching([6, 6, 6, 6, 1, 1, 1, 1, 1])
    play(game, "move s1t1 20,10", "owfire n1t1 gun 4")
    tank = stand(game, "s1t1")
    assert not tank.alive and tank.at == (14, 10)
    assert game.pending.kind == "movement"  # type: ignore[union-attr]


def test_no_decision_when_no_overwatching_stand_could_fire() -> None:
    woods = {"kind": "woods", "polygon": [[0, 20], [72, 20], [72, 30], [0, 30]]}
    game = position(
        [At("n1t1", 36, 40, 180), At("s1t1", 10, 10), At("s1t2", 11.5, 10)],
        phase="movement",
        terrain=[woods],
    )
    stand(game, "n1t1").overwatch = True
    play(game, "move s1t1 20,10")
    assert game.pending.kind == "movement"  # type: ignore[union-attr]
    assert stand(game, "s1t1").at == (20, 10)


def test_missiles_do_not_fire_overwatch() -> None:
    """Footnote 11: missile overwatch is one of the options left out of the introductory
    rules."""
    game = position(
        [At("n1v1", 36, 40, 180), At("s1t1", 30, 12), At("s1t2", 31.5, 12)], phase="movement"
    )
    stand(game, "n1v1").overwatch = True
    play(game, "move s1t1 36,12")  # about 27" off: beyond the gun's 16" x 1.5
    assert game.pending.kind == "movement"  # type: ignore[union-attr]
    assert stand(game, "n1v1").overwatch  # the missile's 40" would reach, but may not fire


def test_several_overwatchers_declare_before_any_fire_and_may_pass() -> None:
    game = position(
        [
            At("n1t1", 36, 40, 180),
            At("n1t2", 30, 40, 180),
            At("s1t1", 10, 10),
            At("s1t2", 11.5, 10),
        ],
        phase="movement",
        faces=[1, 1, 1],
    )
    stand(game, "n1t1").overwatch = stand(game, "n1t2").overwatch = True
    play(game, "move s1t1 20,10", "owfire n1t1 gun 8")
    assert game.pending.kind == "overwatch"  # type: ignore[union-attr]
    events = play(game, "pass")
    assert stand(game, "n1t2").overwatch  # kept its marker for a later move this phase
    assert sum(e.roll is not None for e in events) == 1


def test_unused_markers_lapse_at_the_end_of_the_enemy_movement_phase() -> None:
    game = _watching()
    play(game, "end")
    assert not stand(game, "n1t1").overwatch


def test_overwatch_attacks_do_not_use_up_the_next_turns_attack() -> None:
    game = _watching([1, 1, 1])
    play(game, "move s1t1 20,10", "owfire n1t1 gun 5")
    assert stand(game, "n1t1").attacks == []
