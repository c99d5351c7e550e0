"""Spells that grant special rules or change moves (GFF-R31): each shape of Army Forge's
texts is read, acts in play, and is used up by its trigger (or lasts the round)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import (
    blade,
    caster_export,
    gun,
    play,
    play_caster_list,
    position,
    profile,
    refusal,
    rolled,
    square,
    state_of,
    unit,
)
from tests.rulesets.gff.spell_setup import SQUAD
from warbench.rulesets.gff import spells
from warbench.rulesets.gff.armies import SPELL_POINTS, spell_points
from warbench.rulesets.gff.army_forge import import_army_forge
from warbench.rulesets.gff.attacks import Context, Hit
from warbench.rulesets.gff.morale import morale_test
from warbench.rulesets.gff.movement import allowance
from warbench.rulesets.gff.profiles import Rule, Spell
from warbench.rulesets.gff.shooting import resolve_hits, solution
from warbench.rulesets.gff.spell_grants import armed
from warbench.rulesets.gff.state import Unit


def _export(*texts: str) -> str:
    return caster_export(*((f"Spell {i}", t) for i, t in enumerate(texts)))


def imported(text: str) -> Spell:
    """The spell Army Forge's text reads as."""
    (spell,) = import_army_forge(_export(text), "list.json").units[0].spells
    return spell


def bless(target: Unit, text: str) -> None:
    """Put the imported spell's effect on `target`, as a successful casting does."""
    spells.affect(Ref(), target, imported(text), target)


# --- reading the texts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fields", "effects"),
    [
        (
            'Up to two friendly units within 12" get Furious once.',
            {"effect": "rule", "targets": 2, "trigger": "once"},
            [("rule", "Furious", "charge")],
        ),
        (
            'Up to three friendly units within 12" get Regeneration once.',
            {"targets": 3},
            [("rule", "Regeneration", "wounds")],
        ),
        (
            'One friendly unit within 12" gets Rending and AP(+1) in melee once.',
            {"targets": 1, "when": "melee"},
            [("rule", "Rending", "melee"), ("rule", "AP", "melee")],
        ),
        (
            'Up to three enemy units within 18" lose AP(1) when shooting once.',
            {"rules": (Rule(name="AP", rating=-1),), "when": "shooting", "on_enemies": True},
            [("rule", "AP", "shooting")],
        ),
        (
            'Up to three friendly units within 12" move +2" on Advance and +4" on Rush/Charge '
            "actions once.",
            {"effect": "move", "value": 2, "far": 4, "targets": 3},
            [("move", "", "move")],
        ),
        (
            'Up to two enemy units within 18" have friendly units get Relentless against them '
            "once.",
            {"effect": "mark", "targets": 2, "on_enemies": True},
            [("mark", "Relentless", "shot_at")],
        ),
        (
            'One enemy unit within 18" has friendly units get Bane when attacking against it once.',
            {"effect": "mark", "when": "any"},
            [("mark", "Bane", "attacked")],
        ),
        (
            'Up to three enemy units within 18" have friendly units get Rending in melee against '
            "them once.",
            {"effect": "mark", "when": "melee"},
            [("mark", "Rending", "melee")],
        ),
        (
            'Up to three friendly units within 12" get +1 to hit rolls when shooting once.',
            {"effect": "to_hit", "when": "shooting", "lasts": "next"},
            [("to_hit", "", "")],
        ),
        (
            'Up to two enemy units within 18" get -1 to defense rolls once.',
            {"effect": "defense", "value": -1, "lasts": "next"},
            [("defense", "", "")],
        ),
        (
            'Up to two enemy units within 9" each take 4 hits.',
            {"effect": "hits", "hits": 4, "targets": 2},
            [],
        ),
        (
            'One enemy unit within 12" gets Immobile next time it is activated.',
            {"trigger": "activation", "on_enemies": True},
            [("rule", "Immobile", "activation")],
        ),
    ],
)
def test_army_forge_v3_5_wordings_are_read(
    text: str, fields: dict[str, Any], effects: list[tuple[str, str, str]]
) -> None:
    """ "Up to two ... once", number words, marks on enemies ("have friendly units get X
    against them"), "lose AP(X)", "move +2" on Advance and +4" on Rush/Charge"."""
    spell = imported(text)
    assert {k: getattr(spell, k) for k in fields} == fields
    if spell.effect != "hits":
        assert [(e.kind, e.rule, e.trigger) for e in spells.lasting(spell)] == effects


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            'Target 2 friendly units within 12" get Furious next time they charge.',
            {"effect": "rule", "rules": (Rule(name="Furious"),), "trigger": "charge"},
        ),
        (
            'Target 3 friendly units within 12" get Regeneration next time they take wounds.',
            {"targets": 3, "rules": (Rule(name="Regeneration"),), "trigger": "wounds"},
        ),
        (
            'Target friendly unit within 12" gets Rending next time it fights in melee.',
            {"rules": (Rule(name="Rending"),), "when": "melee", "trigger": "melee"},
        ),
        (
            'Target 2 friendly units within 12" get Poison next time they fight in melee.',
            {"rules": (Rule(name="Bane"),), "when": "melee", "on_enemies": False},
        ),
        (
            'Target 3 friendly units within 12" get Stealth next time they are shot at.',
            {"rules": (Rule(name="Stealth"),), "trigger": "shot_at", "when": "any"},
        ),
        (
            'Target friendly unit within 18" gets Relentless next time it shoots.',
            {"rules": (Rule(name="Relentless"),), "when": "shooting", "trigger": "shooting"},
        ),
        (
            'Target 2 enemy units within 18" get AP(-2) next time they fight in melee, '
            "to a min. of AP(0).",
            {"rules": (Rule(name="AP", rating=-2),), "when": "melee", "on_enemies": True},
        ),
        (
            'Target friendly unit within 12" gets AP(+1) when shooting until end of round.',
            {"rules": (Rule(name="AP", rating=1),), "when": "shooting", "lasts": "round"},
        ),
        (
            'Target friendly unit within 12" gets the Fearless rule until the end of the round.',
            {"rules": (Rule(name="Fearless"),), "lasts": "round", "trigger": None},
        ),
        (
            'Target friendly unit within 12" gets Fearless and Strider.',
            {"rules": (Rule(name="Fearless"), Rule(name="Strider")), "lasts": "round"},
        ),
        (
            'Target enemy unit within 12" gets Slow next time it moves.',
            {"rules": (Rule(name="Slow"),), "trigger": "move", "on_enemies": True},
        ),
        (
            'Target friendly unit within 6" gets Impact(3) next time it charges.',
            {"rules": (Rule(name="Impact", rating=3),), "trigger": "charge"},
        ),
        (
            'Target friendly unit within 12" gets Counter next time it is charged.',
            {"rules": (Rule(name="Counter"),), "when": "melee", "trigger": "charged"},
        ),
        (
            'Target friendly unit within 12" gets Fearless next time it takes a morale test.',
            {"rules": (Rule(name="Fearless"),), "trigger": "morale"},
        ),
        (
            'Target 2 friendly units within 12" move +3" next time they Advance, or +6" next '
            "time they Rush/Charge.",
            {"effect": "move", "value": 3, "far": 6, "trigger": "move", "on_enemies": False},
        ),
        (
            'Target 2 enemy units within 18" move -3" next time they Move, or -6" next time '
            "they Advance/Charge.",
            {"effect": "move", "value": -3, "far": -6, "on_enemies": True},
        ),
        (
            'Target enemy unit within 12" moves -2" next time it moves.',
            {"effect": "move", "value": -2, "far": -2, "lasts": "next"},
        ),
        (
            'Target friendly unit within 12" moves +4" next time it Rushes/Charges.',
            {"effect": "move", "value": 0, "far": 4},
        ),
        (
            'Target 2 friendly units within 12" get +6" range next time they shoot.',
            {"effect": "range", "value": 6, "trigger": "shooting", "targets": 2},
        ),
        (
            'Target enemy unit within 18" gets -6" range until end of round.',
            {"effect": "range", "value": -6, "lasts": "round", "on_enemies": True},
        ),
        (
            'Target friendly unit within 12" moves +2" until end of round.',
            {"effect": "move", "value": 2, "far": 2, "lasts": "round", "trigger": None},
        ),
    ],
)
def test_army_forge_texts_granting_rules_and_moves_are_read(
    text: str, fields: dict[str, Any]
) -> None:
    spell = imported(text)
    assert {k: getattr(spell, k) for k in fields} == fields


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ('Target 3 friendly units within 12" get Frenzy next time they charge.', "'Frenzy'"),
        ('Target friendly unit within 12" gets Tough(3) next time it takes hits.', "Tough"),
        ('Target friendly unit within 12" gets Ambush.', "may not grant Ambush"),
        ('Target friendly unit within 12" gets Indirect next time it shoots.', "Indirect"),
        ('Target friendly unit within 12" gets Furious next time it sings.', "understood:"),
        ('Target friendly unit within 12" gets Impact next time it charges.', "needs a rating"),
        ('One friendly unit within 12" gets Grounded Reinforcement once.', "'Grounded Rein"),
        (
            'One enemy unit within 18" has friendly units get Stealth against it once.',
            "a mark may not give attackers Stealth",
        ),
    ],
)
def test_rules_a_spell_may_not_grant_are_named_with_those_it_may(text: str, wanted: str) -> None:
    with pytest.raises(ValueError) as err:
        import_army_forge(_export(text), "list.json")
    message = str(err.value)
    assert "'Spell 0'" in message and wanted in message and "nothing imported" in message
    if not any(w in wanted for w in ("understood:", "rating", "mark")):
        assert "spells may grant: AP, Bane, Blast, Counter, Deadly, Fast" in message


def test_poison_is_read_as_bane_in_hits_and_in_units_rules() -> None:
    spell = imported('Target enemy unit within 12" takes 2 hits with Poison.')
    assert spell.rules == (Rule(name="Bane"),)
    assert Rule.parse("Poison", "weapon") == Rule(name="Bane")


def test_granted_rules_and_moves_are_priced() -> None:
    furious = imported('Target 2 friendly units within 12" get Furious next time they charge.')
    assert spell_points(furious) == SPELL_POINTS * 2
    quick = imported(
        'Target 2 friendly units within 12" move +3" next time they Advance, or +6" next time '
        "they Rush/Charge."
    )
    assert spell_points(quick) == SPELL_POINTS * 2


# --- granted unit rules in play -------------------------------------------------------------


def _charge_game(dice: list[int], defender: Any = SQUAD) -> Any:
    brute = profile("Brute", weapons=[blade()])
    return position([brute], [defender], {"r1": (24, 10), "b1": (24, 13)}, dice=dice)


def test_furious_next_time_they_charge_adds_a_hit_on_a_six_then_is_used_up() -> None:
    """To hit 6 (+1 Furious hit); Defense 1, 1: two wounds; then the spell is gone."""
    game = _charge_game([6, 1, 1])
    charger = game.state.units["r1"]
    bless(charger, 'Target 2 friendly units within 12" get Furious next time they charge.')
    assert charger.all_have("Furious")
    play(game, "charge r1 b1")
    assert ("hits", "1 extra hit from unmodified 6s") in [
        (e.kind, e.text) for e in game.log if e.kind == "hits"
    ]
    assert len(game.state.units["b1"].models) == 1
    assert charger.effects == () and not charger.all_have("Furious")


def test_furious_is_kept_while_the_unit_is_charged_instead() -> None:
    """Granted "next time they charge", it is not used up by being charged."""
    game = _charge_game([1])
    defender = game.state.units["b1"]
    bless(defender, 'Target friendly unit within 12" gets Furious next time it charges.')
    play(game, "charge r1 b1")
    assert defender.all_have("Furious")


def test_regeneration_next_time_they_take_wounds_saves_then_is_used_up() -> None:
    """Defense 1: a wound, Regeneration 5 saves it; the next wound (Defense 1) is taken,
    with no Regeneration roll."""
    target = unit("r1", SQUAD)
    shooter = unit("b1", profile(weapons=[gun()]))
    bless(target, 'Target friendly unit within 12" gets Regeneration next time it takes wounds.')
    ref = Ref([1, 5, 1])
    hit = [Hit(0, False, 0, False)]
    resolve_hits(ref, shooter, gun(), hit, target, Context(melee=False))
    assert len(target.models) == 3 and target.effects == ()
    resolve_hits(ref, shooter, gun(), hit, target, Context(melee=False))
    assert len(target.models) == 2
    assert [r.request.label.split(":")[0] for r in ref.rolls] == [
        "Defense",
        "Regeneration",
        "Defense",
    ]


def test_regeneration_is_not_used_up_by_hits_that_are_all_blocked() -> None:
    target = unit("r1", SQUAD)
    bless(target, 'Target friendly unit within 12" gets Regeneration next time it takes wounds.')
    resolve_hits(
        Ref([6]), unit("b1", SQUAD), gun(), [Hit(0, False, 0, False)], target, Context(False)
    )
    assert target.all_have("Regeneration")


def test_stealth_next_time_they_are_shot_at_lasts_the_shooting_then_ends() -> None:
    """Both of the shooter's weapons at b1 over 9" carry Stealth's −1; then it is gone."""
    shooter = profile("Shooter", weapons=[gun(), gun("Pistol", range=18)])
    game = position([shooter], [SQUAD], {"r1": (24, 4), "b1": (24, 20)}, dice=[1, 1])
    target = game.state.units["b1"]
    bless(target, 'Target 3 friendly units within 12" get Stealth next time they are shot at.')
    play(game, "hold r1", "fire r1 rifle b1", "fire r1 pistol b1")
    shots = rolled(game.log, "to hit")
    assert all(('Stealth over 9"', -1) in r.request.modifiers for r in shots) and len(shots) == 2
    assert target.effects == ()


def test_relentless_next_time_they_shoot_then_used_up_with_the_activation() -> None:
    """Over 9", a 6 to hit makes an extra hit with the granted Relentless."""
    game = position(
        [profile("Shooter", weapons=[gun()])],
        [SQUAD],
        {"r1": (24, 4), "b1": (24, 20)},
        dice=[6, 6, 6],
    )
    shooter = game.state.units["r1"]
    bless(shooter, 'Target friendly unit within 18" gets Relentless next time it shoots.')
    play(game, "hold r1", "fire r1 rifle b1")
    assert any(e.text == "1 extra hit from unmodified 6s" for e in game.log)
    assert shooter.effects == ()


def test_impact_next_time_they_charge_rolls_its_dice_then_is_used_up() -> None:
    """Impact(2) on one model: 2 dice (2+ each a hit), then the blade."""
    game = _charge_game([2, 2, 1, 1, 1, 1])
    charger = game.state.units["r1"]
    bless(charger, 'Target friendly unit within 6" gets Impact(2) next time it charges.')
    play(game, "charge r1 b1")
    (impact,) = rolled(game.log, "Impact(2)")
    assert impact.successes == 2
    assert charger.rating("Impact") is None


def test_counter_next_time_they_are_charged_strikes_first() -> None:
    """The charged unit's blade gets Counter: it strikes before the chargers."""
    guard = profile("Guard", size=3, weapons=[blade()])
    game = _charge_game([1, 1, 1, 1], defender=guard)
    defender = game.state.units["b1"]
    bless(defender, 'Target friendly unit within 12" gets Counter next time it is charged.')
    play(game, "charge r1 b1")
    assert any(e.kind == "counter" for e in game.log)
    assert defender.effects == ()


def test_fearless_next_time_they_take_a_morale_test() -> None:
    """Quality 4: a 2 fails, Fearless on a 4 turns it into a pass; used up after."""
    target = unit("b1", profile())
    bless(target, 'Target friendly unit within 12" gets Fearless next time it takes a morale test.')
    assert morale_test(Ref([2, 4]), state_of(target), target)
    assert target.effects == ()


def test_a_rule_granted_until_the_end_of_the_round_stays_until_then() -> None:
    target = unit("b1", profile())
    bless(target, 'Target friendly unit within 12" gets Fearless until end of round.')
    assert morale_test(Ref([2, 4]), state_of(target), target)
    assert target.all_have("Fearless")
    spells.end_of_round(state_of(target))
    assert not target.all_have("Fearless")


# --- granted weapon rules in play -----------------------------------------------------------


def test_rending_next_time_they_fight_in_melee_goes_on_melee_weapons_only() -> None:
    """To hit 6 with the granted Rending: AP(4) on the Defense roll; then it is gone."""
    game = _charge_game([6, 1])
    charger = game.state.units["r1"]
    bless(charger, 'Target friendly unit within 12" gets Rending next time it fights in melee.')
    assert armed(charger, gun()) == gun()
    play(game, "charge r1 b1")
    (block,) = rolled(game.log, "Defense")
    assert ("AP(4)", -4) in block.request.modifiers
    assert charger.effects == ()


def test_poison_next_time_they_fight_in_melee_is_bane() -> None:
    """A hit, a Defense 6 re-rolled for Bane (1): a wound."""
    game = _charge_game([4, 6, 1])
    charger = game.state.units["r1"]
    bless(charger, 'Target 2 friendly units within 12" get Poison next time they fight in melee.')
    play(game, "charge r1 b1")
    assert rolled(game.log, "Bane: b1 Squad re-rolls 1")
    assert len(game.state.units["b1"].models) == 2 and charger.effects == ()


def test_ap_debuff_on_enemy_weapons_stops_at_zero_and_is_used_up() -> None:
    """The charged unit's AP(1) blade strikes back with AP(−2): no AP at all."""
    guard = profile("Guard", size=3, weapons=[blade(rules=["AP(1)"])])
    game = _charge_game([1, 4, 1, 1, 1, 1], defender=guard)
    defender = game.state.units["b1"]
    bless(
        defender,
        'Target 2 enemy units within 18" get AP(-2) next time they fight in melee, to a min. '
        "of AP(0).",
    )
    assert armed(defender, guard.equipment[0].weapon).rating("AP") is None
    play(game, "charge r1 b1", "strike-back")
    (block,) = rolled(game.log, "Defense: r1")
    assert not any(name.startswith("AP") for name, _ in block.request.modifiers)
    assert defender.effects == ()


def test_unstoppable_weapons_ignore_an_ap_debuff_but_take_a_bonus() -> None:
    target = unit("b1", SQUAD)
    axe = blade("Axe", rules=["AP(2)", "Unstoppable"])
    bless(target, 'Target enemy unit within 18" gets AP(-2) next time it fights in melee.')
    assert armed(target, axe).rating("AP") == 2
    bless(target, 'Target friendly unit within 18" gets AP(+1) in melee until end of round.')
    assert armed(target, axe).rating("AP") == 3


def test_rending_next_time_it_attacks_goes_on_ranged_weapons_too() -> None:
    """A 6 to hit with the rifle: AP(4); used up when the shooting activation ends."""
    game = position(
        [profile("Shooter", weapons=[gun()])], [SQUAD], {"r1": (24, 4), "b1": (24, 12)}, dice=[6, 1]
    )
    shooter = game.state.units["r1"]
    bless(shooter, 'Target friendly unit within 12" gets Rending next time it attacks.')
    events = play(game, "hold r1", "fire r1 rifle b1")
    (block,) = rolled(events, "Defense")
    assert ("AP(4)", -4) in block.request.modifiers
    assert shooter.effects == ()


def test_a_rule_granted_until_it_next_takes_hits_is_used_up_even_when_all_are_blocked() -> None:
    target = unit("r1", SQUAD)
    bless(target, 'Target friendly unit within 12" gets Regeneration next time it takes hits.')
    resolve_hits(
        Ref([6]), unit("b1", SQUAD), gun(), [Hit(0, False, 0, False)], target, Context(False)
    )
    assert target.effects == () and len(target.models) == 3


def test_the_log_says_what_a_granted_rule_does_and_until_when() -> None:
    ref = Ref()
    target = unit("r1", SQUAD)
    spells.affect(
        ref, target, imported('Target friendly unit within 12" gets Furious once.'), target
    )
    spells.affect(
        ref,
        target,
        imported('Target friendly unit within 12" gets AP(+1) in melee until end of round.'),
        target,
    )
    assert ref.events == [
        ("spell", "Spell 0: r1 Squad gets Furious until it next charges"),
        ("spell", "Spell 0: r1 Squad gets AP(+1) in melee until the end of the round"),
    ]


def test_ap_bonus_when_shooting_lasts_the_round() -> None:
    game = position(
        [profile("Shooter", weapons=[gun()])], [SQUAD], {"r1": (24, 4), "b1": (24, 12)}, dice=[4, 1]
    )
    shooter = game.state.units["r1"]
    bless(shooter, 'Target friendly unit within 12" gets AP(+1) when shooting until end of round.')
    play(game, "hold r1", "fire r1 rifle b1")
    (block,) = rolled(game.log, "Defense")
    assert ("AP(1)", -1) in block.request.modifiers
    assert shooter.effects  # until the end of the round


def test_a_range_spell_reaches_further_the_next_time_they_shoot() -> None:
    """The 24" rifle at a target 28" away: out of range, then in range with +6"; the spell
    is used up with the activation."""
    game = position(
        [profile("Shooter", weapons=[gun()])], [SQUAD], {"r1": (24, 4), "b1": (24, 33)}, dice=[1]
    )
    shooter, target = game.state.units["r1"], game.state.units["b1"]
    assert solution(game.field, shooter, gun(), target).attacks == 0
    bless(shooter, 'Target 2 friendly units within 12" get +6" range next time they shoot.')
    assert solution(game.field, shooter, gun(), target).attacks == 1
    play(game, "hold r1", "fire r1 rifle b1")
    assert shooter.effects == ()
    assert solution(game.field, shooter, gun(), target).attacks == 0


def test_the_kept_fire_solutions_see_a_range_spell() -> None:
    """The game keeps fire solutions while nobody moves (for speed); a range spell cast
    since changes them: the 24" rifle reaches the target 28" away only with the +6"."""
    game = position(
        [profile("Shooter", weapons=[gun()])], [SQUAD], {"r1": (24, 4), "b1": (24, 33)}, dice=[1]
    )
    shooter, target = game.state.units["r1"], game.state.units["b1"]
    rifle = shooter.models[0].weapons[0]
    assert game.fire_solution(shooter, rifle, target).attacks == 0
    bless(shooter, 'Target 2 friendly units within 12" get +6" range next time they shoot.')
    assert game.fire_solution(shooter, rifle, target).attacks == 1


def test_a_mark_gives_the_units_shooting_at_it_relentless_once() -> None:
    """Relentless against the marked unit over 9": a 6 makes an extra hit; the mark is used
    up when the shooting ends."""
    game = position(
        [profile("Shooter", weapons=[gun()])],
        [SQUAD],
        {"r1": (24, 4), "b1": (24, 20)},
        dice=[6, 6, 6],
    )
    target = game.state.units["b1"]
    bless(
        target,
        'Up to two enemy units within 18" have friendly units get Relentless against them once.',
    )
    play(game, "hold r1", "fire r1 rifle b1")
    assert any(e.text == "1 extra hit from unmodified 6s" for e in game.log)
    assert target.effects == ()


def test_a_mark_gives_the_chargers_bane_then_is_used_up() -> None:
    game = _charge_game([4, 6, 1])
    target = game.state.units["b1"]
    bless(
        target,
        'One enemy unit within 18" has friendly units get Bane when attacking against it once.',
    )
    assert not game.state.units["r1"].effects  # on the marked unit, not on the attackers
    play(game, "charge r1 b1")
    assert rolled(game.log, "Bane: b1 Squad re-rolls 1")
    assert target.effects == ()


def test_losing_ap_when_shooting_once() -> None:
    """The enemy's AP(1) rifle loses its AP for its next shooting."""
    rifle = gun(rules=["AP(1)"])
    game = position(
        [profile("Shooter", weapons=[rifle])], [SQUAD], {"r1": (24, 4), "b1": (24, 12)}, dice=[4, 1]
    )
    shooter = game.state.units["r1"]
    bless(shooter, 'Up to three enemy units within 18" lose AP(1) when shooting once.')
    play(game, "hold r1", "fire r1 rifle b1")
    (block,) = rolled(game.log, "Defense")
    assert not any(name.startswith("AP") for name, _ in block.request.modifiers)
    assert shooter.effects == ()


def test_immobile_until_the_units_next_activation_ends() -> None:
    game = position([SQUAD], [SQUAD], {"r1": (10, 4), "b1": (40, 40)})
    target = game.state.units["r1"]
    bless(target, 'One enemy unit within 12" gets Immobile next time it is activated.')
    x, y = target.centre()
    assert "Hold" in (refusal(game, f"advance r1 {x:g},{y + 3:g}") or "")
    play(game, "hold r1")
    assert target.effects == () and target.activated


def test_furious_once_is_used_by_the_next_charge() -> None:
    game = _charge_game([6, 1, 1])
    charger = game.state.units["r1"]
    bless(charger, 'Up to two friendly units within 12" get Furious once.')
    play(game, "charge r1 b1")
    assert len(game.state.units["b1"].models) == 1 and charger.effects == ()


# --- moves ----------------------------------------------------------------------------------


def test_a_move_spell_lengthens_the_next_move_then_is_used_up() -> None:
    game = position([SQUAD], [SQUAD], {"r1": (10, 4), "b1": (40, 40)})
    mover = game.state.units["r1"]
    bless(
        mover,
        'Target 2 friendly units within 12" move +3" next time they Advance, or +6" next time '
        "they Rush/Charge.",
    )
    assert (allowance(mover, "advance"), allowance(mover, "rush")) == (9.0, 18.0)
    x, y = mover.centre()
    play(game, f"rush r1 {x:g},{y + 17:g}")
    assert mover.effects == () and allowance(mover, "rush") == 12.0


def test_a_move_debuff_shortens_the_enemys_next_move() -> None:
    game = position([SQUAD], [SQUAD], {"r1": (10, 4), "b1": (40, 40)})
    mover = game.state.units["r1"]
    bless(mover, 'Target enemy unit within 12" moves -3" next time it moves.')
    x, y = mover.centre()
    reason = refusal(game, f"advance r1 {x:g},{y + 5:g}")
    assert reason is not None and 'may move 3"' in reason
    play(game, f"advance r1 {x:g},{y + 3:g}")
    assert mover.effects == () and allowance(mover, "advance") == 6.0


def test_flying_next_time_they_move_skips_dangerous_terrain_then_is_used_up() -> None:
    """Across a minefield: no dangerous-terrain dice are rolled (none are scripted)."""
    field = [square(8, 6, 16, 8, "minefield")]
    game = position([SQUAD], [SQUAD], {"r1": (10, 4), "b1": (40, 40)}, terrain=field)
    mover = game.state.units["r1"]
    bless(mover, 'Target 2 friendly units within 12" get Flying next time they move.')
    x, y = mover.centre()
    play(game, f"rush r1 {x:g},{y + 6:g}")
    assert not rolled(game.log, "dangerous") and mover.effects == ()


def test_slow_granted_to_an_enemy_slows_its_next_move() -> None:
    target = unit("b1", profile())
    bless(target, 'Target enemy unit within 12" gets Slow next time it moves.')
    assert allowance(target, "rush") == 8.0


def test_a_move_spell_cast_in_play_shows_in_the_state() -> None:
    """Cast 4: the ally's next move is longer; the state data says so."""
    text = 'Target friendly unit within 12" moves +2" next time it moves.'
    seer = profile("Seer", rules=["Caster(2)"], spells=[imported(text)])
    game = position(
        [seer, SQUAD], [SQUAD], {"r1": (10, 4), "r2": (14, 4), "b1": (40, 40)}, dice=[4]
    )
    game.state.units["r1"].tokens = 2
    play(game, "hold r1", "cast r1 spell-0 r2")
    assert allowance(game.state.units["r2"], "advance") == 8.0
    data = game.state_data()["units"]["r2"]["effects"]
    assert data == [["Spell 0", "move", 2, "any", "next", 2, "move"]]


def test_an_army_forge_list_with_rule_and_move_spells_plays_a_full_game(tmp_path: Path) -> None:
    spells = [
        {
            "name": "Blood Rage",
            "threshold": 1,
            "effect": 'Target 2 friendly units within 12" get Furious next time they charge.',
        },
        {
            "name": "Quicksand",
            "threshold": 1,
            "effect": 'Target 2 enemy units within 18" move -3" next time they Advance, or -6" '
            "next time they Rush/Charge.",
        },
        {
            "name": "Holy Tears",
            "threshold": 1,
            "effect": 'Target 2 friendly units within 12" get Poison next time they fight in '
            "melee.",
        },
        {
            "name": "Bad Omen",
            "threshold": 2,
            "effect": 'Up to two enemy units within 18" have friendly units get Furious against '
            "them once.",
        },
        {
            "name": "Fateful Guidance",
            "threshold": 2,
            "effect": 'Up to two friendly units within 12" get Relentless once.',
        },
    ]
    output = play_caster_list(tmp_path, spells)
    assert any(f"casts {n}" in output for n in ("Blood Rage", "Quicksand", "Holy Tears"))
    assert "result: " in output
