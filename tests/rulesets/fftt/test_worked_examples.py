"""The rulebook's worked examples, reproduced with scripted dice."""

from __future__ import annotations

import pytest

from tests.referee import Ref
from tests.rulesets.fftt.position import fig, game, state
from warbench.rulesets.fftt import hand_to_hand, shooting
from warbench.rulesets.fftt.actions import Done, Fight, WoundAttacker
from warbench.rulesets.fftt.state import Melee


@pytest.mark.parametrize(
    ("faces", "wounds"),
    [((2, 2), 2), ((3, 3), 2), ((4, 4), 2), ((1, 2), 1), ((3, 4), 1), ((4, 5), 0), ((5, 5), 0)],
)
def test_the_engineers_doubles(faces: tuple[int, int], wounds: int) -> None:
    """'an engineer needs eight or less ... if he gets two and two or three and three or four
    and four ... he will have made two wounds, but if he gets less than eight but it is not a
    double ... just one wound.'"""
    engineer = fig("r1", "engineer", 50, 50)
    target = fig("b1", "hq", 50, 70)
    s = state(engineer, target)
    ref = Ref(faces)
    shooting.resolve(ref, s, engineer, target, indirect=False, hold=False)
    assert ref.rolls[0].request.target == 8
    assert target.wounds == wounds


def test_the_grenade_deviation() -> None:
    """'A grenadier shoots a grenade at 20 cm. (weapon skill of 6 plus a -1 modifier for
    shooting at long range), throw 2D6 and gets a 6 ... he needed a 5 or less ... the
    difference is 1 multiplied per 2, which makes 2 cm.'"""
    grenadier = fig("r1", "grenadier", 50, 30)
    target = fig("b1", "hq", 50, 50)
    s = state(grenadier, target)
    ref = Ref([3, 3, 1, 1])  # 6 to hit; direction 2 (ours: straight back toward the firer)
    shooting.resolve(ref, s, grenadier, target, indirect=False, hold=False)
    assert ref.rolls[0].request.target == 5
    assert ref.rolls[0].success is False
    assert ("deviation", "it deviates 2 cm (direction 2)") in ref.events
    burst = next(text for kind, text in ref.events if kind == "burst")
    assert burst.endswith("a grenade burst at 50.0,48.0")
    # the HQ's base (3 cm across) reaches 0.5 cm from the burst: the inner circle, 2 wounds
    assert target.wounds == 2


def test_grenade_deviation_is_2_to_16_cm() -> None:
    grenadier = fig("r1", "grenadier", 50, 45)
    target = fig("b1", "hq", 50, 50)
    s = state(grenadier, target)
    ref = Ref([6, 6, 4, 3])  # 12 against 6: twice 6 is 12 cm
    shooting.resolve(ref, s, grenadier, target, indirect=False, hold=False)
    assert ("deviation", "it deviates 12 cm (direction 7)") in ref.events
    acid = fig("r2", "acid_spitter", 50, 35, race="insectoids")
    s = state(acid, fig("b1", "hq", 50, 50))
    ref = Ref([6, 6, 2, 2])  # long range: needs 3; 12 - 3 = 9, twice is 18: capped at 16
    shooting.resolve(ref, s, acid, s.figs["b1"], indirect=False, hold=False)
    assert ("deviation", "it deviates 16 cm (direction 4)") in ref.events


def _three_grunts_charge_an_engineer(faces: list[int]) -> tuple[Ref, Melee, list[int]]:
    engineer = fig("b1", "engineer", 50, 50, race="marines")
    grunts = [fig(f"r{n}", "grunt", 50 + dx, 48) for n, dx in ((1, -2), (2, 0), (3, 2))]
    s = state(engineer, *grunts)
    melee = Melee("b1", ["r1", "r2", "r3"])
    ref = Ref(faces)
    against, beaten, hits = hand_to_hand.fight(ref, s, melee, answered=False)
    return ref, melee, [len(against), len(beaten), hits]


def test_three_grunts_charging_an_engineer_modifiers() -> None:
    """'The grunts will throw 3D6 with the modifier of +2 each for being two extra combatants,
    and the engineer 1D6 with the modifier of +2 for being Engineer.'"""
    ref, _, _ = _three_grunts_charge_an_engineer([3, 4, 4, 4])
    defence, *attacks = ref.rolls
    assert defence.request.modifiers == (("being Engineer", 2),)
    assert [a.request.modifiers for a in attacks] == [(("two extra combatants", 2),)] * 3


def test_three_superior_grunts_kill_the_engineer() -> None:
    """'If the three dice of the grunts were superior ... he will get three wounds and he
    would be dead'."""
    _, _, (wounds, beaten, _) = _three_grunts_charge_an_engineer([4, 5, 5, 5])
    assert (wounds, beaten) == (3, 0)


def test_two_superior_grunts_and_one_beaten() -> None:
    """'if only two dice of the grunts are superior, the engineer would have two wounds and one
    of the grunts (selected by the defender) would have one wound'."""
    _, _, (wounds, beaten, hits) = _three_grunts_charge_an_engineer([4, 5, 5, 3])
    assert (wounds, beaten, hits) == (2, 1, 1)


def test_one_superior_grunt_through_the_game_with_the_defenders_choice() -> None:
    """'if only one grunt gets a higher score to that of the engineer's, then the engineer and
    one of the grunts would have one wound each' — the defender choosing which."""
    engineer = fig("b1", "engineer", 50, 50, race="marines")
    grunts = [fig(f"r{n}", "grunt", x, y) for n, x, y in ((1, 48, 50), (2, 50, 48), (3, 52, 50))]
    s = state(engineer, *grunts, stage="general")
    s.part = 1
    s.player = "blue"
    s.melees = [Melee("b1", ["r1", "r2", "r3"])]
    engineer.ap = 1  # it cannot answer by shooting (2 actions): it fights
    g = game(s, [4, 5, 3, 3])  # engineer 6; grunts 7, 5, 5
    g.apply(Done(), "blue")
    assert g.pending.kind == "allocate"  # type: ignore[union-attr]
    assert g.pending.player == "blue"  # type: ignore[union-attr]
    assert {str(a) for a in g.legal_actions("blue")} == {"wound r2", "wound r3", "surrender"}
    g.apply(WoundAttacker("r3"), "blue")
    assert g.state.figs["b1"].wounds == 1
    assert g.state.figs["r3"].wounds == 1
    assert g.state.figs["r2"].wounds == 0
    assert Fight() not in g.legal_actions("blue")
