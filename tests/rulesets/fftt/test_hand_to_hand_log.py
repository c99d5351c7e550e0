"""HAND TO HAND: a winning score that deals no wounds says why in the log (figures without
an action left, HQs, scanners and MTs deal no damage), so a referee reading 9 against 5 and
no wound sees the rule that applied."""

from __future__ import annotations

from tests.referee import Ref
from tests.rulesets.fftt.position import fig, state
from warbench.rulesets.fftt import hand_to_hand
from warbench.rulesets.fftt.state import Melee
from warbench.rulesets.fftt.wounds import wound


def test_an_attacker_without_actions_left_wins_but_the_log_says_it_deals_no_wounds() -> None:
    engineer = fig("b1", "engineer", 50, 50, race="marines")
    grunt = fig("r1", "grunt", 50, 48)
    grunt.ap = 0
    ref = Ref([1, 6])  # engineer 1 + 2 = 3; grunt 6
    against, beaten, _ = hand_to_hand.fight(ref, state(engineer, grunt), Melee("b1", ["r1"]), False)
    assert (against, beaten) == ([], [])
    assert ("hand_to_hand", "r1 beats b1 but deals no wounds: it has no action left") in ref.events


def test_a_defender_that_deals_no_damage_wins_and_the_log_says_why() -> None:
    hq = fig("b1", "hq", 50, 50, race="marines")
    grunt = fig("r1", "grunt", 50, 48)
    ref = Ref([6, 1])  # HQ 6; grunt 1
    _, beaten, hits = hand_to_hand.fight(ref, state(hq, grunt), Melee("b1", ["r1"]), False)
    assert (len(beaten), hits) == (1, 0)
    name = hq.prof.name
    text = (
        f"b1 beats 1 attacking dice but deals no wounds: a {name} deals no damage in hand to hand"
    )
    assert ("hand_to_hand", text) in ref.events


def test_a_defender_that_answered_by_shooting_is_said_to_have_done_so() -> None:
    engineer = fig("b1", "engineer", 50, 50, race="marines")
    grunt = fig("r1", "grunt", 50, 48)
    ref = Ref([6, 1])
    hand_to_hand.fight(ref, state(engineer, grunt), Melee("b1", ["r1"]), True)
    assert (
        "hand_to_hand",
        "b1 beats 1 attacking dice but deals no wounds: it shot its attacker instead of fighting",
    ) in ref.events


def test_a_winner_that_deals_wounds_adds_nothing_to_the_log() -> None:
    engineer = fig("b1", "engineer", 50, 50, race="marines")
    grunt = fig("r1", "grunt", 50, 48)
    ref = Ref([1, 6])
    against, _, _ = hand_to_hand.fight(ref, state(engineer, grunt), Melee("b1", ["r1"]), False)
    assert against == ["r1", "r1"]  # 6 against 3: doubled, two wounds
    assert not [e for e in ref.events if e[0] == "hand_to_hand"]


def test_wounds_taken_are_counted_in_the_right_number() -> None:
    """The log read "takes 1 wound(s)"."""
    engineer = fig("b1", "engineer", 50, 50, race="marines")
    ref = Ref()
    s = state(engineer)
    wound(ref, s, engineer, 1, "a grenade", hold=False)
    wound(ref, s, engineer, 2, "a grenade", hold=True)
    assert ref.events == [
        ("wound", "b1 (Engineer) takes 1 wound from a grenade"),
        ("wound", "b1 (Engineer) takes 2 wounds from a grenade"),
    ]
