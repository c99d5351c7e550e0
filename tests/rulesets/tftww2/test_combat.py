"""4.0 Combat, 4.1 ranged and 4.2 close combat modifiers, 4.4 criticals, 4.5 damage, parry and
riposte — with scripted dice, and exact odds through the same code."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.referee import Ref
from warbench.core.dice import DiceSource, exact_outcomes
from warbench.rulesets.tftww2.combat import (
    ActionName,
    Fighter,
    HitResult,
    NotPossible,
    can_parry,
    can_riposte,
    clear_jam,
    close_combat_exchange,
    close_combat_modifiers,
    damage_effect,
    parry,
    ranged_modifiers,
    roll_damage,
    to_hit,
    wounded_attributes,
)
from warbench.rulesets.tftww2.profiles import CharacterProfile, WeaponProfile, characters, weapons

# 3d6 totals 3..18: how many of the 216 outcomes give each (counted by hand: 1 3 6 10 15 21
# 25 27 27 25 21 15 10 6 3 1).
WAYS = dict(
    zip(range(3, 19), [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1], strict=True)
)


def three(total: int) -> list[int]:
    """Three d6 faces with this total."""
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


def W(name: str) -> WeaponProfile:
    return weapons()[name]


def rm(weapon: str, distance: float = 10.0, **kw: Any) -> list[tuple[str, int]]:
    return ranged_modifiers(weapon=W(weapon), distance=distance, **kw)


def values(mods: list[tuple[str, int]]) -> list[int]:
    return [v for _, v in mods]


# --- 4.1 ranged weapon modifiers -------------------------------------------------------------


def test_no_modifiers_at_middle_range_in_the_open() -> None:
    assert rm("Rifle", 10) == []


@pytest.mark.parametrize(("distance", "short"), [(0.0, True), (6.0, True), (6.01, False)])
def test_short_range_plus_3_within_6(distance: float, short: bool) -> None:
    mods = rm("Pistol", distance)
    assert (("short range" in mods[0][0] and mods[0][1] == 3) if mods else False) is short


@pytest.mark.parametrize(
    ("weapon", "edge"), [("Rifle", 30), ("Pistol", 12), ("SMG", 18), ("LMG", 60), ("Grenade", 12)]
)
def test_extreme_range_minus_6_beyond_effective_range(weapon: str, edge: int) -> None:
    assert rm(weapon, edge) == []
    beyond = rm(weapon, edge + 0.5)
    assert values(beyond) == [-6]
    assert "extreme range" in beyond[0][0]


def test_aimed_shot_plus_4() -> None:
    assert rm("Rifle", aimed=True) == [("aimed shot", 4)]
    assert rm("Pistol", aimed=True) == [("aimed shot", 4)]


@pytest.mark.parametrize("weapon", ["Automatic Rifle", "SMG", "LMG", "HMG"])
def test_no_aimed_shot_with_automatic_weapons(weapon: str) -> None:
    with pytest.raises(NotPossible, match="no automatic weapons"):
        rm(weapon, aimed=True)


def test_aimed_and_snap_shot_together_are_not_possible() -> None:
    with pytest.raises(NotPossible, match="not both"):
        rm("Rifle", aimed=True, snap_shot=True)


def test_target_moved_fast_minus_2() -> None:
    assert rm("Rifle", target_moved_fast=True) == [("target moved fast", -2)]


@pytest.mark.parametrize(
    ("weapon", "penalty"),
    [("Rifle", -6), ("Automatic Rifle", -4), ("Pistol", -2), ("SMG", -2), ("Grenade", None)],
)
def test_snap_shot_penalty_by_weapon(weapon: str, penalty: int | None) -> None:
    mods = rm(weapon, snap_shot=True)
    assert values(mods) == ([] if penalty is None else [penalty])


@pytest.mark.parametrize("weapon", ["LMG", "HMG"])
def test_machine_guns_cannot_snap_shoot(weapon: str) -> None:
    with pytest.raises(NotPossible, match="snap shot"):
        rm(weapon, snap_shot=True)


def test_target_prone_minus_3() -> None:
    assert rm("Rifle", target_prone=True) == [("target prone", -3)]


@pytest.mark.parametrize(
    ("cover", "full", "shot", "expected"),
    [
        ("soft", False, False, -2),
        ("soft", False, True, -2),
        ("soft", True, True, -2),
        ("soft", True, False, -6),
        ("hard", False, False, -4),
        ("hard", False, True, -4),
        ("hard", True, True, -4),
    ],
)
def test_cover(cover: str, full: bool, shot: bool, expected: int) -> None:
    mods = rm("Rifle", cover=cover, full_cover=full, target_shot_last_round=shot)
    assert values(mods) == [expected]
    assert cover in mods[0][0]


def test_full_hard_cover_when_the_target_did_not_shoot_is_not_possible() -> None:
    with pytest.raises(NotPossible, match="full hard cover") as err:
        rm("Rifle", cover="hard", full_cover=True, target_shot_last_round=False)
    assert isinstance(err.value, ValueError)
    assert "NP" in err.value.reason


def test_full_cover_needs_cover() -> None:
    with pytest.raises(ValueError, match="full_cover"):
        rm("Rifle", full_cover=True)


@pytest.mark.parametrize("gap", [0.0, 3.5, 4.0])
def test_additional_target_minus_2_within_4_of_the_previous(gap: float) -> None:
    mods = rm("Pistol", additional_target=True, distance_from_previous=gap)
    assert mods == [("additional target", -2)]


@pytest.mark.parametrize(("gap", "shown"), [(4.1, "4.1"), (4.001, "4.1"), (4.47213595, "4.5")])
def test_additional_target_beyond_4_is_not_possible(gap: float, shown: str) -> None:
    """The refusal names the gap to a tenth, rounded up (never '4.0' for a gap over 4)."""
    with pytest.raises(
        NotPossible, match=f'within 4" of the previous target \\(this one is {shown}"\\)'
    ):
        rm("Pistol", additional_target=True, distance_from_previous=gap)


def test_additional_target_needs_the_distance_from_the_previous() -> None:
    with pytest.raises(ValueError, match="distance_from_previous"):
        rm("Pistol", additional_target=True)


def test_one_shot_weapons_and_snap_shots_have_no_additional_target() -> None:
    with pytest.raises(NotPossible, match="1 shot per round"):
        rm("Rifle", additional_target=True, distance_from_previous=1.0)
    with pytest.raises(NotPossible, match="Snap Shot"):
        rm("SMG", snap_shot=True, additional_target=True, distance_from_previous=1.0)


def test_additional_auto_weapon_target_stacks_a_further_minus_2() -> None:
    mods = rm("SMG", additional_target=True, additional_auto_target=True, distance_from_previous=2)
    assert mods == [("additional auto weapon target", -2), ("additional target", -2)]
    with pytest.raises(NotPossible, match='within 4"'):
        rm("LMG", additional_target=True, additional_auto_target=True, distance_from_previous=5)


def test_additional_auto_weapon_target_needs_an_automatic_weapon_and_a_further_target() -> None:
    with pytest.raises(NotPossible, match="not automatic"):
        rm("Pistol", additional_target=True, additional_auto_target=True, distance_from_previous=1)
    with pytest.raises(ValueError, match="set additional_target"):
        rm("SMG", additional_auto_target=True, distance_from_previous=1)


@pytest.mark.parametrize("weapon", ["Bayonet/Knife", "Attached Bayonet", "Improvised"])
def test_close_combat_weapons_make_no_ranged_attack(weapon: str) -> None:
    with pytest.raises(NotPossible, match="close combat weapon"):
        rm(weapon)


def test_negative_distance_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        rm("Rifle", -1)


def test_modifiers_combine() -> None:
    mods = rm("Pistol", 5, aimed=True, target_prone=True, cover="soft", target_moved_fast=True)
    assert sum(values(mods)) == 3 + 4 - 2 - 3 - 2


@given(
    st.sampled_from(["Rifle", "Automatic Rifle", "Pistol", "SMG", "LMG", "HMG", "Grenade"]),
    st.floats(min_value=0, max_value=100, allow_nan=False),
)
def test_range_bands_follow_the_distance(weapon: str, distance: float) -> None:
    mods = dict(rm(weapon, distance))
    short = any(k.startswith("short range") for k in mods)
    extreme = any(k.startswith("extreme range") for k in mods)
    assert short is (distance <= 6)
    eff = W(weapon).effective_range
    assert eff is not None
    assert extreme is (distance > eff)


# --- 4.0 to hit and 4.4 criticals -------------------------------------------------------------


@pytest.mark.parametrize(("total", "hit"), [(6, True), (11, True), (12, True), (13, False)])
def test_to_hit_is_3d6_at_most_dex(total: int, hit: bool) -> None:
    ref = Ref(three(total))
    result = to_hit(ref, "to hit", 12)
    assert result == HitResult(hit, None, total)
    assert ref.rolls[0].request.dice == 3
    assert ref.events == []


@pytest.mark.parametrize(
    ("mods", "last_hit"), [([("short range", 3)], 15), ([("snap shot", -6)], 6), ([], 12)]
)
def test_to_hit_modifiers_change_the_dex_needed(mods: list[tuple[str, int]], last_hit: int) -> None:
    assert to_hit(Ref(three(last_hit)), "x", 12, mods).hit
    assert not to_hit(Ref(three(last_hit + 1)), "x", 12, mods).hit


def test_to_hit_log_names_dex_and_each_modifier() -> None:
    ref = Ref([3, 3, 3])
    to_hit(ref, "to hit: A → B", 12, [("short range", 3), ("target prone", -3)])
    text = ref.rolls[0].explain()
    assert "DEX 12" in text
    assert "short range (+3 DEX)" in text and "target prone (-3 DEX)" in text
    assert "needs 12 or less" in text


CRITS: dict[str, dict[int, str]] = {
    "ranged": {16: "misfire", 17: "jam", 18: "jam-hard"},
    "close": {16: "automatic_miss", 17: "dropped", 18: "broken"},
    "thrown": {16: "automatic_miss", 17: "automatic_miss", 18: "explodes_in_hand"},
}


@pytest.mark.parametrize("attack", ["ranged", "close", "thrown"])
@pytest.mark.parametrize(
    ("total", "critical"), [(3, "killed"), (4, "double_damage"), (5, "automatic_hit")]
)
def test_critical_hits_3_4_5_hit_whatever_the_dex(attack: Any, total: int, critical: str) -> None:
    ref = Ref(three(total))
    result = to_hit(ref, "x", 12, [("hopeless", -20)], attack=attack)
    assert result == HitResult(True, critical, total)  # type: ignore[arg-type]
    assert ref.events[0][0] == "critical"


@pytest.mark.parametrize("attack", ["ranged", "close", "thrown"])
@pytest.mark.parametrize("total", [16, 17, 18])
def test_critical_failures_16_17_18_miss_whatever_the_dex(attack: Any, total: int) -> None:
    ref = Ref(three(total))
    result = to_hit(ref, "x", 12, [("point blank", 20)], attack=attack)
    assert result == HitResult(False, CRITS[attack][total], total)  # type: ignore[arg-type]
    assert ref.events[0][0] == "critical"


def _hits(dex: int, mods: Sequence[tuple[str, int]] = ()) -> Fraction:
    def experiment(dice: DiceSource) -> bool:
        return to_hit(Ref(dice=dice), "x", dex, mods).hit

    return exact_outcomes(experiment).get(True, Fraction(0))


@pytest.mark.parametrize(
    ("dex", "mods", "ways"),
    [
        (12, (), sum(WAYS[t] for t in range(3, 13))),  # 160
        (12, (("snap shot", -6),), 1 + 3 + 6 + 10),  # DEX 6
        (2, (), 1 + 3 + 6),  # only the critical 3, 4, 5
        (20, (), 216 - 10),  # all but the critical 16, 17, 18
    ],
)
def test_exact_odds_to_hit_agree_with_a_hand_count(
    dex: int, mods: tuple[tuple[str, int], ...], ways: int
) -> None:
    assert _hits(dex, mods) == Fraction(ways, 216)


def test_exact_odds_dex_12_is_20_in_27() -> None:
    assert _hits(12) == Fraction(160, 216) == Fraction(20, 27)


@given(
    st.tuples(*[st.integers(1, 6)] * 3),
    st.integers(1, 20),
    st.lists(st.integers(-8, 8), max_size=4),
)
def test_to_hit_hits_iff_critical_or_at_most_modified_dex(
    faces: tuple[int, int, int], dex: int, mods: list[int]
) -> None:
    result = to_hit(Ref(faces), "x", dex, [(f"m{i}", m) for i, m in enumerate(mods)])
    natural = sum(faces)
    assert result.total == natural
    expected = natural <= 5 or (natural <= 15 and natural <= dex + sum(mods))
    assert result.hit is expected
    assert (result.critical is not None) is (natural <= 5 or natural >= 16)


# --- jams ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("int_", "hard", "total", "cleared"),
    [
        (10, False, 10, True),
        (10, False, 11, False),
        (10, True, 6, True),
        (10, True, 7, False),
        (3, True, 5, True),  # natural 3-5 always succeed
        (20, False, 16, False),  # natural 16-18 always fail
    ],
)
def test_clear_jam_is_an_int_roll_minus_4_when_hard(
    int_: int, hard: bool, total: int, cleared: bool
) -> None:
    ref = Ref(three(total))
    assert clear_jam(ref, "clear", int_, hard) is cleared
    assert "INT" in ref.rolls[0].explain()


# --- 4.5 damage and 6.4 cover reductions -----------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "kw", "damage"),
    [
        ([6, 5, 4, 3], {}, 18),
        ([6, 5, 4, 3], {"double": True}, 36),
        ([6, 5, 4, 3], {"halve": True}, 9),
        ([1, 2], {"halve": True}, 1),  # 3 halved rounds down
        ([6, 5, 4, 3], {"reduction_per_die": 4}, 2 + 1 + 0 + 0),  # hard cover, 6.4
        ([6, 6, 5, 1], {"reduction_per_die": 6}, 0),  # building, 6.4
        ([6, 6, 6, 5], {"reduction_per_die": 4, "halve": True}, 3),  # (2+2+2+1) // 2
        ([6, 5, 4, 3], {"double": True, "halve": True}, 18),
    ],
)
def test_roll_damage(faces: list[int], kw: dict[str, Any], damage: int) -> None:
    ref = Ref(faces)
    assert roll_damage(ref, "damage", len(faces), **kw) == damage
    assert ref.events[-1][0] == "damage"
    assert ref.script.remaining == 0


def test_roll_damage_logs_each_reduced_die() -> None:
    ref = Ref([6, 5, 4, 3])
    roll_damage(ref, "dmg", 4, reduction_per_die=4)
    assert "6+5+4+3" in ref.events[0][1] and "2+1+0+0" in ref.events[0][1]


def test_roll_damage_refuses_no_dice_and_negative_reduction() -> None:
    with pytest.raises(ValueError, match="at least one die"):
        roll_damage(Ref(), "x", 0)
    with pytest.raises(ValueError, match="negative"):
        roll_damage(Ref([1]), "x", 1, reduction_per_die=-1)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=8), st.integers(0, 6))
def test_cover_reduction_is_per_die_and_never_below_zero(faces: list[int], cut: int) -> None:
    got = roll_damage(Ref(faces), "x", len(faces), reduction_per_die=cut)
    assert got == sum(max(0, f - cut) for f in faces)
    assert 0 <= got <= sum(faces)


@pytest.mark.parametrize(
    ("damage", "effect"),
    [
        (0, "none"),
        (1, "wounded"),
        (6, "wounded"),
        (7, "incapacitated"),
        (12, "incapacitated"),
        (13, "dead"),
    ],
)
def test_damage_effect_boundaries_str_12(damage: int, effect: str) -> None:
    assert damage_effect(damage, 12, wounded=False) == effect


@pytest.mark.parametrize(
    ("damage", "effect"),
    [(5, "wounded"), (6, "incapacitated"), (11, "incapacitated"), (12, "dead")],
)
def test_damage_effect_odd_str_11_compares_exactly_with_half(damage: int, effect: str) -> None:
    assert damage_effect(damage, 11, wounded=False) == effect


def test_wounded_twice_is_incapacitated() -> None:
    assert damage_effect(6, 12, wounded=True) == "incapacitated"
    # the wounded Private's STR is halved to 6: 3 is a second wound, 7 kills
    assert damage_effect(3, 6, wounded=True) == "incapacitated"
    assert damage_effect(7, 6, wounded=True) == "dead"
    assert damage_effect(0, 6, wounded=True) == "none"


def test_damage_effect_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        damage_effect(-1, 12, wounded=False)
    with pytest.raises(ValueError):
        damage_effect(3, 0, wounded=False)


SEVERITY = {"none": 0, "wounded": 1, "incapacitated": 2, "dead": 3}


@given(st.integers(0, 40), st.integers(0, 40), st.integers(1, 20), st.booleans())
def test_more_damage_is_never_less_severe(a: int, b: int, strength: int, wounded: bool) -> None:
    low, high = sorted((a, b))
    assert (
        SEVERITY[damage_effect(low, strength, wounded)]
        <= SEVERITY[damage_effect(high, strength, wounded)]
    )


@pytest.mark.parametrize(
    ("troop", "halved"),
    [("Private", (6, 5, 6, 4, 4)), ("NCO", (7, 6, 6, 6, 4)), ("CO", (5, 7, 6, 7, 4))],
)
def test_wounded_attributes_are_halved(troop: str, halved: tuple[int, ...]) -> None:
    p = wounded_attributes(characters()[troop])
    assert (p.strength, p.intelligence, p.dexterity, p.leadership, p.movement) == halved
    assert p.name == troop


def test_wounded_attributes_round_down() -> None:
    odd = CharacterProfile.model_validate(
        {"name": "odd", "STR": 11, "INT": 9, "DEX": 13, "LDR": 7, "MOV": 5}
    )
    p = wounded_attributes(odd)
    assert (p.strength, p.intelligence, p.dexterity, p.leadership, p.movement) == (5, 4, 6, 3, 2)


# --- 4.0 / 4.2 close combat ----------------------------------------------------------------------


def test_charging_into_combat_minus_3() -> None:
    assert close_combat_modifiers(True) == [("charging into combat", -3)]
    assert close_combat_modifiers(False) == []


@pytest.mark.parametrize(
    ("weapon", "action", "allowed"),
    [
        ("Attached Bayonet", "close_combat", True),
        ("Rifle Butt/Club", "close_combat", True),
        ("Bayonet/Knife", "close_combat", False),
        ("Improvised", "close_combat", False),
        ("Attached Bayonet", "charge", False),
        ("Attached Bayonet", "pivot", False),
        ("Rifle Butt/Club", "run", False),
        ("Rifle", "close_combat", False),
        (None, "close_combat", False),
    ],
)
def test_can_parry(weapon: str | None, action: ActionName, allowed: bool) -> None:
    assert can_parry(None if weapon is None else W(weapon), action) is allowed


@pytest.mark.parametrize(
    ("weapon", "action", "allowed"),
    [
        ("Bayonet/Knife", "close_combat", True),
        ("Improvised", "close_combat", True),
        ("Bayonet/Knife", "charge", False),
        ("Bayonet/Knife", "pivot", False),
        ("Pistol", "close_combat", False),
        (None, "close_combat", False),
    ],
)
def test_can_riposte(weapon: str | None, action: ActionName, allowed: bool) -> None:
    assert can_riposte(None if weapon is None else W(weapon), action) is allowed


@pytest.mark.parametrize(
    ("total", "dex", "ok"), [(12, 12, True), (13, 12, False), (5, 1, True), (16, 30, False)]
)
def test_parry_is_a_dex_roll_with_natural_3_to_5_and_16_to_18(
    total: int, dex: int, ok: bool
) -> None:
    ref = Ref(three(total))
    assert parry(ref, "parry", dex) is ok
    assert "DEX" in ref.rolls[0].explain()


def fighter(name: str, weapon: str | None, action: ActionName, dex: int = 12) -> Fighter:
    return Fighter(name, dex, None if weapon is None else W(weapon), action)


def test_hit_parried_does_no_damage() -> None:
    ref = Ref([*three(9), *three(12)])
    blows = close_combat_exchange(
        ref,
        fighter("A", "Bayonet/Knife", "close_combat"),
        fighter("B", "Attached Bayonet", "close_combat"),
    )
    assert len(blows) == 1
    assert blows[0].hit.hit and blows[0].parried and blows[0].damage == 0
    assert not blows[0].lands
    assert ref.script.remaining == 0


def test_hit_not_parried_rolls_the_weapons_damage() -> None:
    ref = Ref([*three(9), *three(13), 3, 4])
    blows = close_combat_exchange(
        ref,
        fighter("A", "Bayonet/Knife", "close_combat"),
        fighter("B", "Rifle Butt/Club", "close_combat"),
    )
    assert [(b.hit.hit, b.parried, b.damage) for b in blows] == [(True, False, 7)]
    assert ref.script.remaining == 0


def test_no_parry_without_a_parrying_weapon_or_the_close_combat_action() -> None:
    for defender in (
        fighter("B", "Bayonet/Knife", "close_combat"),
        fighter("B", "Attached Bayonet", "pivot"),
    ):
        ref = Ref([*three(9), 1, 2])
        blows = close_combat_exchange(ref, fighter("A", "Bayonet/Knife", "close_combat"), defender)
        assert blows[0].damage == 3 and not blows[0].parried
        assert ref.script.remaining == 0


def test_charge_is_minus_3_and_doubles_damage() -> None:
    ref = Ref([*three(9), *three(14), 2, 3, 4])
    blows = close_combat_exchange(
        ref,
        fighter("A", "Attached Bayonet", "charge"),
        fighter("B", "Attached Bayonet", "close_combat"),
    )
    assert ("charging into combat (-3 DEX)", 3) in ref.rolls[0].request.modifiers
    assert blows[0].damage == 18
    assert ref.script.remaining == 0


def test_charge_miss_draws_a_riposte_the_charger_cannot_parry() -> None:
    ref = Ref([*three(10), *three(8), 2, 2, 2])  # 10 misses at DEX 12 - 3
    blows = close_combat_exchange(
        ref,
        fighter("A", "Attached Bayonet", "charge"),
        fighter("B", "Attached Bayonet", "close_combat"),
    )
    assert [b.riposte for b in blows] == [False, True]
    assert not blows[0].hit.hit
    assert (blows[1].striker, blows[1].target, blows[1].damage) == ("B", "A", 6)
    assert not blows[1].parried
    assert ref.script.remaining == 0


def test_riposte_may_be_parried_and_earns_no_riposte() -> None:
    ref = Ref([*three(14), *three(7), *three(11)])
    blows = close_combat_exchange(
        ref,
        fighter("A", "Rifle Butt/Club", "close_combat"),
        fighter("B", "Bayonet/Knife", "close_combat"),
    )
    assert len(blows) == 2
    assert blows[1].riposte and blows[1].hit.hit and blows[1].parried and blows[1].damage == 0
    assert ref.script.remaining == 0


def test_riposte_missing_ends_the_exchange() -> None:
    ref = Ref([*three(14), *three(14)])
    blows = close_combat_exchange(
        ref,
        fighter("A", "Bayonet/Knife", "close_combat"),
        fighter("B", "Bayonet/Knife", "close_combat"),
    )
    assert [b.hit.hit for b in blows] == [False, False]
    assert ref.script.remaining == 0


@pytest.mark.parametrize("action", ["pivot", "charge"])
def test_no_riposte_unless_the_defender_chose_close_combat(action: ActionName) -> None:
    ref = Ref(three(14))
    blows = close_combat_exchange(
        ref, fighter("A", "Bayonet/Knife", "close_combat"), fighter("B", "Bayonet/Knife", action)
    )
    assert len(blows) == 1
    assert ref.script.remaining == 0


def test_the_defender_may_decline_the_riposte() -> None:
    ref = Ref(three(14))
    blows = close_combat_exchange(
        ref,
        fighter("A", "Bayonet/Knife", "close_combat"),
        fighter("B", "Bayonet/Knife", "close_combat"),
        riposte=False,
    )
    assert len(blows) == 1


@pytest.mark.parametrize("total", [17, 18])
def test_a_dropped_or_broken_weapon_cannot_parry_the_riposte(total: int) -> None:
    ref = Ref([*three(total), *three(9), 3, 3])
    blows = close_combat_exchange(
        ref,
        fighter("A", "Attached Bayonet", "close_combat"),
        fighter("B", "Bayonet/Knife", "close_combat"),
    )
    assert blows[0].hit.critical == ("dropped" if total == 17 else "broken")
    assert blows[1].damage == 6 and not blows[1].parried
    assert ref.script.remaining == 0


def test_close_combat_critical_16_is_an_automatic_miss() -> None:
    ref = Ref(three(16))
    blows = close_combat_exchange(
        ref,
        fighter("A", "Bayonet/Knife", "close_combat", dex=30),
        fighter("B", None, "run"),
    )
    assert blows[0].hit == HitResult(False, "automatic_miss", 16)


def test_close_combat_critical_3_kills_without_a_damage_roll() -> None:
    ref = Ref(three(3))
    blows = close_combat_exchange(
        ref,
        fighter("A", "Bayonet/Knife", "close_combat", dex=1),
        fighter("B", "Bayonet/Knife", "run"),
    )
    assert blows[0].killed and blows[0].damage == 0
    assert ref.script.remaining == 0


def test_close_combat_critical_3_can_be_parried() -> None:
    ref = Ref([*three(3), *three(10)])
    blows = close_combat_exchange(
        ref,
        fighter("A", "Bayonet/Knife", "close_combat"),
        fighter("B", "Attached Bayonet", "close_combat"),
    )
    assert blows[0].parried and not blows[0].killed


def test_close_combat_critical_4_doubles_damage() -> None:
    ref = Ref([*three(4), 5, 6])
    blows = close_combat_exchange(
        ref, fighter("A", "Bayonet/Knife", "close_combat"), fighter("B", "Bayonet/Knife", "run")
    )
    assert blows[0].damage == 22


def test_close_combat_critical_5_hits_whatever_the_dex() -> None:
    ref = Ref([*three(5), 1, 1])
    blows = close_combat_exchange(
        ref, fighter("A", "Bayonet/Knife", "close_combat", dex=1), fighter("B", None, "run")
    )
    assert blows[0].hit == HitResult(True, "automatic_hit", 5) and blows[0].damage == 2


@pytest.mark.parametrize(
    ("attacker", "reason"),
    [
        (("Bayonet/Knife", "walk_and_snap_shot"), "Charge, Close combat or Pivot"),
        (("Rifle", "close_combat"), "no close combat weapon"),
        ((None, "close_combat"), "no close combat weapon"),
    ],
)
def test_who_can_attack_in_close_combat(attacker: tuple[Any, Any], reason: str) -> None:
    with pytest.raises(NotPossible, match=reason):
        close_combat_exchange(Ref(), fighter("A", *attacker), fighter("B", None, "run"))


def test_pivot_may_attack_in_close_combat() -> None:
    ref = Ref([*three(12), 1, 1])
    blows = close_combat_exchange(
        ref, fighter("A", "Bayonet/Knife", "pivot"), fighter("B", None, "run")
    )
    assert blows[0].damage == 2
