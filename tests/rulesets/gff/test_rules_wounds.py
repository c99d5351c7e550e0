"""WOUND EFFECTS, Groups & Wounds, Tough(X), Deadly(X), Regeneration, Bane and Rending.

"Whenever a model takes one or more wounds, place one marker next to it for each. Then the
defender rolls one die, adding the number of markers to the result: 1-5 Shaken ... 6+ Knocked
Out." "Whenever a unit with multiple models takes wounds, each wound kills one model, until
only one last model remains. Only the last model then accumulates wounds and rolls." """

from __future__ import annotations

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import gun, play, position, profile, rolled, square, unit
from warbench.rulesets.gff.attacks import Context, Hit, regenerate, roll_blocks, roll_hits
from warbench.rulesets.gff.shooting import resolve_hits
from warbench.rulesets.gff.wounds import take_wounds

WOUND = Hit(0, False, 0, False)
SHOT = Context(melee=False, distance=5.0)


def deadly(x: int) -> Hit:
    return Hit(0, False, x, False)


# --- groups and the last model ----------------------------------------------------------------


def test_each_wound_kills_one_model_of_a_group_without_a_roll() -> None:
    ref = Ref()
    squad = unit("b1", profile(size=3))
    assert take_wounds(ref, squad, [WOUND, WOUND]) is None
    assert len(squad.models) == 1
    assert squad.models[0].wounds == 0
    assert ref.rolls == []


def test_wounds_beyond_the_group_go_to_the_last_model_which_rolls() -> None:
    ref = Ref([2])
    squad = unit("b1", profile(size=3))
    assert take_wounds(ref, squad, [WOUND] * 4) == "shaken"
    assert [m.wounds for m in squad.models] == [2]
    assert ref.rolls[0].request.modifiers == (("wound markers", 2),)


@pytest.mark.parametrize(
    ("markers", "face", "effect"),
    [
        (0, 1, "shaken"),
        (0, 4, "shaken"),  # 4 + 1 = 5
        (0, 5, "knocked out"),  # 5 + 1 = 6
        (1, 3, "shaken"),  # 3 + 2 = 5
        (1, 4, "knocked out"),  # 4 + 2 = 6
        (4, 1, "knocked out"),  # 1 + 5 = 6
    ],
)
def test_wound_effects_d6_plus_markers_1_to_5_shaken_6_plus_knocked_out(
    markers: int, face: int, effect: str
) -> None:
    """A single model that already carries `markers` takes one more wound."""
    ref = Ref([face])
    hero = unit("b1", profile())
    hero.models[0].wounds = markers
    assert take_wounds(ref, hero, [WOUND]) == effect
    assert hero.alive is (effect == "shaken")
    assert hero.shaken is (effect == "shaken")


def test_several_wounds_at_once_one_roll_with_all_markers() -> None:
    ref = Ref([3])
    hero = unit("b1", profile())
    assert take_wounds(ref, hero, [WOUND] * 3) == "knocked out"  # 3 + 3
    assert len(ref.rolls) == 1


@pytest.mark.parametrize(("shaken", "effect"), [(False, "shaken"), (True, "knocked out")])
def test_shaken_gets_plus_one_to_wound_effect_rolls(shaken: bool, effect: str) -> None:
    ref = Ref([4])
    hero = unit("b1", profile())
    hero.shaken = shaken
    assert take_wounds(ref, hero, [WOUND]) == effect  # 4 + 1 marker (+1 Shaken)


# --- Tough(X) --------------------------------------------------------------------------------


def test_tough_rolls_only_once_it_has_taken_x_wounds() -> None:
    ref = Ref()
    ogre = unit("b1", profile(rules=["Tough(3)"]))
    assert take_wounds(ref, ogre, [WOUND, WOUND]) is None
    assert ogre.models[0].wounds == 2
    assert ref.rolls == []


@pytest.mark.parametrize(("face", "effect"), [(4, "shaken"), (5, "knocked out")])
def test_tough_three_is_knocked_out_on_eight_plus(face: int, effect: str) -> None:
    """The rulebook's example: Tough(3) rolls from 3 wounds and is Knocked Out on 8+."""
    ref = Ref([face])
    ogre = unit("b1", profile(rules=["Tough(3)"]))
    ogre.models[0].wounds = 2
    assert take_wounds(ref, ogre, [WOUND]) == effect
    assert ref.rolls[0].total == face + 3


def test_tough_models_in_a_group_are_removed_after_x_wounds() -> None:
    """Ruling GFF-R5: in a group, a Tough(2) model is removed once it has taken 2 wounds."""
    ref = Ref()
    pack = unit("b1", profile(size=3, rules=["Tough(2)"]))
    take_wounds(ref, pack, [WOUND])
    assert len(pack.models) == 3
    take_wounds(ref, pack, [WOUND, WOUND])
    assert len(pack.models) == 2
    assert [m.wounds for m in pack.models] == [0, 1]


# --- Deadly(X) -------------------------------------------------------------------------------


def test_deadly_wound_is_multiplied_on_one_model_and_not_carried_over() -> None:
    """Deadly(3) against three 1-wound models kills one model, not three."""
    squad = unit("b1", profile(size=3))
    take_wounds(Ref(), squad, [deadly(3)])
    assert len(squad.models) == 2


def test_deadly_wound_multiplied_on_the_last_model() -> None:
    ref = Ref([4])
    ogre = unit("b1", profile(rules=["Tough(3)"]))
    assert take_wounds(ref, ogre, [deadly(3)]) == "shaken"  # 4 + 3 = 7 < 8
    assert ogre.models[0].wounds == 3


def test_deadly_wounds_are_resolved_first() -> None:
    """Two Tough(3) models take a plain wound and a Deadly(3) wound. Deadly first: the first
    model falls to it and the plain wound marks the last one. (Plain first, the Deadly wound
    would finish the marked model and the last model would be untouched.)"""
    ref = Ref()
    pair = unit("b1", profile(size=2, rules=["Tough(3)"]))
    take_wounds(ref, pair, [WOUND, deadly(3)])
    assert [m.wounds for m in pair.models] == [1]


# --- Regeneration, Bane, Rending ----------------------------------------------------------------


def test_regeneration_ignores_each_wound_on_five_plus() -> None:
    ref = Ref([4, 5, 6, 1])
    trolls = unit("b1", profile(size=5, rules=["Regeneration"]))
    left = regenerate(ref, trolls, [WOUND] * 4)
    assert ref.rolls[0].request.dice == 4
    assert len(left) == 2


def test_regeneration_in_an_attack_saves_models() -> None:
    ref = Ref([1, 1, 5, 2])  # two Defense failures, Regeneration 5 and 2
    trolls = unit("b1", profile(size=5, rules=["Regeneration"]))
    resolve_hits(ref, unit("r1", profile()), gun(), [WOUND, WOUND], trolls, SHOT)
    assert len(trolls.models) == 4


def test_no_regeneration_unless_the_unit_has_it() -> None:
    ref = Ref()
    squad = unit("b1", profile(size=5))
    assert len(regenerate(ref, squad, [WOUND] * 2)) == 2
    assert ref.rolls == []


@pytest.mark.parametrize(
    ("rule", "to_hit", "regeneration_dice"),
    [("Bane", 4, 0), ("Unstoppable", 4, 0), ("Rending", 6, 0), ("Rending", 4, 1), ("AP(1)", 6, 1)],
)
def test_bane_unstoppable_and_rending_sixes_ignore_regeneration(
    rule: str, to_hit: int, regeneration_dice: int
) -> None:
    weapon = gun(rules=[rule])
    ref = Ref([to_hit] + [6] * regeneration_dice)
    shooter = unit("r1", profile(quality=4, weapons=[weapon]))
    trolls = unit("b1", profile(size=5, rules=["Regeneration"]), (0.0, 5.0))
    hits = roll_hits(ref, shooter, weapon, 1, trolls, SHOT)
    left = regenerate(ref, trolls, hits)
    assert sum(r.request.dice for r in ref.rolls[1:]) == regeneration_dice
    assert len(left) == 1 - regeneration_dice  # a Regeneration 6 ignores the wound


def test_bane_rerolls_unmodified_defense_sixes() -> None:
    """Defense 4+: 6, 6, 3 → the sixes are re-rolled (2, 6): two wounds instead of one."""
    ref = Ref([6, 6, 3, 2, 6])
    target = unit("b1", profile(size=5, defense=4))
    bane = Hit(0, True, 0, True)
    wounds = roll_blocks(ref, target, [bane] * 3, SHOT, gun(rules=["Bane"]))
    assert ref.rolls[1].request.dice == 2
    assert len(wounds) == 2


def test_bane_does_not_reroll_modified_sixes() -> None:
    """A 5 +1 cover is a modified 6: not re-rolled, it blocks."""
    ref = Ref([5])
    target = unit("b1", profile(size=5, defense=6))
    bane = Hit(0, True, 0, True)
    covered = Context(melee=False, distance=5.0, cover=True)
    assert roll_blocks(ref, target, [bane], covered, gun(rules=["Bane"])) == []
    assert len(ref.rolls) == 1


def test_without_bane_defense_sixes_stand() -> None:
    ref = Ref([6, 6, 3])
    target = unit("b1", profile(size=5, defense=4))
    assert len(roll_blocks(ref, target, [WOUND] * 3, SHOT, gun())) == 1


def test_rending_ap_plus_four_only_on_unmodified_sixes_to_hit() -> None:
    """With the focus spell (+1), a natural 5 is a modified 6: no AP(+4)."""
    weapon = gun(rules=["Rending"], attacks=2)
    ref = Ref([5, 6])
    shooter = unit("r1", profile(quality=4, weapons=[weapon]))
    shooter.focus = True
    hits = roll_hits(ref, shooter, weapon, 2, unit("b1", profile()), SHOT)
    assert sorted(h.ap for h in hits) == [0, 4]


def test_rending_ap_applies_to_the_defense_roll() -> None:
    """Defense 2+ against the Rending 6: a 5 − 4 = 1 fails; a plain hit's 5 blocks."""
    ref = Ref([5, 5])
    target = unit("b1", profile(size=5, defense=2))
    rended = Hit(4, False, 0, True)
    wounds = roll_blocks(ref, target, [rended, WOUND], SHOT, gun(rules=["Rending"]))
    assert wounds == [rended]


def test_regeneration_also_ignores_dangerous_terrain_wounds() -> None:
    game = position(
        [profile(size=2, rules=["Regeneration"], weapons=[gun()])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 40)},
        terrain=[square(20, 13, 30, 17, "minefield")],
        dice=[1, 4, 6],  # dangerous: a 1 (a wound) and a 4; Regeneration: 6
    )
    events = play(game, "advance r1 24.75,16")
    assert len(rolled(events, "Regeneration")) == 1
    assert len(game.state.units["r1"].models) == 2
