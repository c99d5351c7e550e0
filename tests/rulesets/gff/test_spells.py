"""Spells beyond one target and one round (GFF-R27, GFF-R28): several targets per casting,
modifiers to hit, to Defense and to morale on friends or enemies, lasting until the end of
the round or used up the next time they apply; read from Army Forge's spell texts."""

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
    state_of,
    unit,
)
from tests.rulesets.gff.spell_setup import SQUAD
from warbench.rulesets.gff import spells
from warbench.rulesets.gff.armies import SPELL_POINTS, spell_points
from warbench.rulesets.gff.army_forge import import_army_forge
from warbench.rulesets.gff.morale import morale_test
from warbench.rulesets.gff.profiles import Rule, Spell
from warbench.rulesets.gff.state import SpellEffect

STORM = Spell(name="Storm", cost=1, range=18, effect="hits", hits=2, targets=2)
HEX = Spell(name="Hex", cost=1, range=18, effect="defense", value=-1, side="enemy", lasts="next")
TRANCE = Spell(name="Trance", cost=1, range=12, effect="to_hit", value=1, when="melee")
SEER = profile("Seer", rules=["Caster(2)"], spells=[STORM, HEX, TRANCE], weapons=[gun()])


def _seer_game(dice: list[int]) -> Any:
    game = position(
        [SEER], [SQUAD, SQUAD], {"r1": (24, 10), "b1": (18, 20), "b2": (28, 20)}, dice=dice
    )
    game.state.units["r1"].tokens = 2
    return game


# --- several targets --------------------------------------------------------------------------


def test_a_two_target_spell_hits_each_target_with_its_hits() -> None:
    """Cast 4 (success); b1 blocks neither of its 2 hits, b2 blocks both."""
    game = _seer_game([4, 1, 1, 6, 6])
    play(game, "hold r1", "cast r1 storm b1,b2")
    defense = rolled(game.log, "Defense")
    assert [r.request.label.split(":")[1].split()[0] for r in defense] == ["b1", "b2"]
    assert [len(game.state.units[u].models) for u in ("b1", "b2")] == [1, 3]


def test_the_legal_actions_pick_as_many_targets_as_the_spell_allows() -> None:
    game = _seer_game([])
    play(game, "hold r1")
    casts = {str(a) for a in game.legal_actions("red") if a.verb == "cast"}
    assert "cast r1 storm b1,b2" in casts
    assert "cast r1 hex b1" in casts and "cast r1 hex b1,b2" not in casts


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("cast r1 storm b1,b1", "up to 2 different units"),
        ("cast r1 hex b1,b2", "up to 1 different unit (A,B)"),
        ("cast r1 storm b1,r1", "'r1' is not a target for Storm"),
        ("cast r1 trance b1", "'b1' is not a target for Trance; targets: r1"),
    ],
)
def test_targets_are_checked(text: str, wanted: str) -> None:
    game = _seer_game([])
    play(game, "hold r1")
    reason = refusal(game, text)
    assert reason is not None and wanted in reason


# --- lasting modifiers ------------------------------------------------------------------------


def test_a_defense_debuff_applies_to_the_next_hits_only() -> None:
    """Hex (−1 to Defense next time it takes hits): cast 4; the rifle hits (6) and the
    Defense roll of 4 (a block at Defense 4) fails with the −1; afterwards it is gone."""
    game = _seer_game([4, 6, 4])
    play(game, "hold r1", "cast r1 hex b1")
    assert game.state.units["b1"].effects == (SpellEffect("Hex", "defense", -1, "any", "next"),)
    play(game, "fire r1 rifle b1")
    (block,) = rolled(game.log, "Defense")
    assert ("Hex spell", -1) in block.request.modifiers
    assert not block.success and len(game.state.units["b1"].models) == 2
    assert game.state.units["b1"].effects == ()


def test_a_melee_buff_does_not_help_shooting_and_ends_with_the_round() -> None:
    game = _seer_game([4, 6, 1])
    play(game, "hold r1", "cast r1 trance r1", "fire r1 rifle b1")
    (shot,) = rolled(game.log, "to hit")
    assert not any("Trance" in name for name, _ in shot.request.modifiers)
    assert game.state.units["r1"].effects  # lasts the round, melee only
    spells.end_of_round(game.state)
    assert game.state.units["r1"].effects == ()


def test_a_next_time_melee_buff_helps_the_next_melee_and_is_used_up() -> None:
    """Frenzy (+1 to hit next time it fights in melee): the charger's roll carries it, then it
    is spent; a spell lasting the round stays."""
    brute = profile("Brute", weapons=[blade()])
    game = position([brute], [SQUAD], {"r1": (24, 10), "b1": (24, 13)}, dice=[6, 1])
    charger = game.state.units["r1"]
    charger.effects = (
        SpellEffect("Frenzy", "to_hit", 1, "melee", "next"),
        SpellEffect("Might", "to_hit", 1, "any", "round"),
    )
    play(game, "charge r1 b1")
    (strike,) = rolled(game.log, "to hit")
    assert ("Frenzy spell", 1) in strike.request.modifiers
    assert ("Might spell", 1) in strike.request.modifiers
    assert [e.spell for e in charger.effects] == ["Might"]


@pytest.mark.parametrize(("effects", "passed"), [((), True), (("Dread", -2), False)])
def test_a_morale_debuff_applies_to_the_next_morale_test(
    effects: tuple[Any, ...], passed: bool
) -> None:
    """Quality 4, a 5: passes, unless −2 to the next morale test."""
    target = unit("b1", profile())
    if effects:
        target.effects = (SpellEffect(effects[0], "morale", effects[1], "any", "next"),)
    state = state_of(target)
    assert morale_test(Ref([5]), state, target) is passed
    assert target.effects == ()


def test_several_targets_and_modifiers_are_priced_per_target_and_point() -> None:
    assert spell_points(STORM) == SPELL_POINTS * 2 * 2
    assert spell_points(HEX) == SPELL_POINTS
    big = Spell(name="Doom", cost=2, range=12, effect="defense", value=-2, targets=2)
    assert spell_points(big) == SPELL_POINTS * 2 * 2


# --- Army Forge's spell texts -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            'Target 2 enemy units within 12" take 1 hit with AP(1).',
            {"effect": "hits", "targets": 2, "hits": 1, "rules": (Rule(name="AP", rating=1),)},
        ),
        ('Target 2 enemy units within 12" take 6 hits each.', {"targets": 2, "hits": 6}),
        ('Target enemy model within 12" takes 2 hits with AP(4).', {"targets": 1, "hits": 2}),
        (
            'Target friendly unit within 12" gets +1 to hit until end of round.',
            {"effect": "focus"},
        ),
        (
            'Target 2 friendly units within 12" get +2 to hit rolls next time they fight in melee.',
            {"effect": "to_hit", "value": 2, "when": "melee", "lasts": "next", "targets": 2},
        ),
        (
            'Target 2 enemy units within 18" get -1 to hit rolls next time they shoot.',
            {"effect": "to_hit", "value": -1, "when": "shooting", "side": "enemy"},
        ),
        (
            'Target 2 enemy units within 18" get -1 to defense rolls next time they take hits.',
            {"effect": "defense", "value": -1, "lasts": "next", "on_enemies": True},
        ),
        (
            'Target friendly unit within 12" gets +1 to hit rolls in melee until the end of '
            "the round.",
            {"effect": "to_hit", "when": "melee", "lasts": "round", "on_enemies": False},
        ),
        (
            'Target 2 enemy units within 18" get -2 to their next morale test roll.',
            {"effect": "morale", "value": -2, "lasts": "next", "range": 18},
        ),
    ],
)
def test_army_forge_spell_texts_are_read(text: str, fields: dict[str, Any]) -> None:
    export = caster_export(("Test Spell", text), threshold=2)
    (spell,) = import_army_forge(export, "list.json").units[0].spells
    assert {k: getattr(spell, k) for k in fields} == fields


@pytest.mark.parametrize(
    "text",
    [
        'Target enemy unit within 12" must take a morale test. If failed it must flee 6".',
        'Target 2 enemy units within 18" are pushed 3" away.',
        'Target friendly unit within 12" takes 2 hits.',
    ],
)
def test_unknown_spell_texts_name_the_spell_and_what_is_understood(text: str) -> None:
    with pytest.raises(ValueError) as err:
        import_army_forge(caster_export(("Test Spell", text), threshold=2), "list.json")
    message = str(err.value)
    assert "'Test Spell'" in message and "nothing imported" in message
    assert "understood:" in message or "enemy units, not friendly" in message


def test_an_army_forge_list_with_such_spells_plays_a_full_game(tmp_path: Path) -> None:
    spells = [
        {
            "name": "Twin Bolt",
            "threshold": 1,
            "effect": 'Target 2 enemy units within 18" take 1 hit with AP(1).',
        },
        {
            "name": "Blind",
            "threshold": 1,
            "effect": 'Target 2 enemy units within 18" get -1 to hit rolls next time they shoot.',
        },
        {
            "name": "Ward",
            "threshold": 2,
            "effect": 'Target 2 friendly units within 12" get +1 '
            "to defense rolls until end of round.",
        },
    ]
    output = play_caster_list(tmp_path, spells)
    assert any(f"casts {name}" in output for name in ("Twin Bolt", "Blind", "Ward"))
    assert "result: " in output
