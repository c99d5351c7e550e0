"""Spells of re-rolls, lasting dangerous terrain, conditions on the action and templates
(GFF-R37): each of the wordings is read, and acts in play through the game's dice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.odds_check import assert_monte_carlo_agrees, assert_readings_exact
from tests.referee import Ref
from tests.rulesets.gff.position import (
    blade,
    gun,
    play,
    play_caster_list,
    position,
    profile,
    rolled,
    script,
    unit,
)
from tests.rulesets.gff.spell_setup import SQUAD, imported, refused_import, seer_game
from warbench.rulesets.gff import spells
from warbench.rulesets.gff.armies import factions
from warbench.rulesets.gff.army_forge_spells import default_spells
from warbench.rulesets.gff.attacks import Context
from warbench.rulesets.gff.odds import WOUNDS, expected_wounds, odds
from warbench.rulesets.gff.odds import query as odds_query
from warbench.rulesets.gff.shooting import solution
from warbench.rulesets.gff.spell_grants import armed

SHOOTERS = profile("Shooters", weapons=[gun(attacks=3)])


def laid_on(game: Any, uid: str, text: str) -> None:
    """The spell's lasting effect put on unit `uid` as a successful casting puts it."""
    target = game.state.units[uid]
    spells.affect(Ref(), target, imported(text), target)


def shooting(text: str, on: str, dice: list[int], shooter: Any = SHOOTERS) -> Any:
    """r1 (three attacks) at 24,10 holds and fires at b1, a SQUAD at 24,20, after the spell
    was laid on `on`."""
    game = position([shooter], [SQUAD], {"r1": (24, 10), "b1": (24, 20)}, dice=dice)
    laid_on(game, on, text)
    play(game, "hold r1", "fire r1 rifle b1")
    return game


# --- reading the texts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            'Target friendly unit within 12" may re-roll results of 1 when shooting until end '
            "of round.",
            {"effect": "reroll", "reroll": "ones", "roll": "to_hit", "when": "shooting"},
        ),
        (
            'Target friendly unit within 12" may re-roll 1s to hit next time they shoot.',
            {"reroll": "ones", "roll": "to_hit", "lasts": "next", "trigger": "shooting"},
        ),
        (
            'Target friendly unit within 12" may re-roll failed hits in melee once.',
            {"reroll": "failed", "roll": "to_hit", "when": "melee", "trigger": "once"},
        ),
        (
            'Target friendly unit within 12" may re-roll failed Defense rolls.',
            {"reroll": "failed", "roll": "defense", "lasts": "round", "on_enemies": False},
        ),
        (
            'Target enemy unit within 12" must re-roll successful blocks next time it takes hits.',
            {"reroll": "successes", "roll": "defense", "trigger": "hits", "on_enemies": True},
        ),
        (
            'Target enemy unit within 18" must re-roll blocks.',
            {"reroll": "successes", "roll": "defense", "lasts": "round"},
        ),
        (
            'Target enemy unit within 12" must re-roll unmodified Defense results of 6 next time '
            "they take hits.",
            {"reroll": "sixes", "roll": "defense"},
        ),
        (
            'Target enemy unit within 18" counts as being in dangerous terrain next time it moves.',
            {"effect": "in_dangerous", "lasts": "next", "trigger": "move", "on_enemies": True},
        ),
        (
            'Target 2 enemy units within 12" count as being in dangerous terrain.',
            {"effect": "in_dangerous", "lasts": "round", "targets": 2},
        ),
        (
            'Target friendly unit within 12" gets +1 to hit next time they shoot when using a '
            "Hold action.",
            {"effect": "to_hit", "value": 1, "when": "hold", "lasts": "next"},
        ),
        (
            'Target friendly unit within 12" gets AP(+1) when shooting after an Advance action.',
            {"effect": "rule", "when": "advance", "lasts": "round"},
        ),
        (
            'Up to two friendly units within 12" get +6" range when using Hold actions once.',
            {"effect": "range", "value": 6, "when": "hold", "targets": 2},
        ),
        (
            'Place a 3" template within 18". All models under it take 1 hit with AP(1).',
            {"effect": "hits", "hits": 1, "point": True, "template": 3.0, "area_all": True},
        ),
        (
            'Place a 5" template within 12" in line of sight: every enemy model under it takes '
            "1 wound.",
            {"effect": "wounds", "wounds": 1, "template": 5.0, "area_all": False},
        ),
    ],
)
def test_rerolls_dangerous_terrain_conditions_and_templates_are_read(
    text: str, fields: dict[str, Any]
) -> None:
    spell = imported(text)
    assert {k: getattr(spell, k) for k in fields} == fields


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ('Target friendly unit within 12" may re-roll successful hits.', "understood:"),
        ('Target friendly unit within 12" may re-roll results of 1.', "understood:"),
        (
            'Target friendly unit within 12" gets +1 to defense when using Hold actions.',
            "a condition on the action goes with",
        ),
        (
            'Target friendly unit within 12" gets Furious when using Hold actions.',
            "not with the unit rule Furious",
        ),
        (
            'Target friendly unit within 12" gets +1 to hit in melee when using Hold actions.',
            "goes with shooting, not melee",
        ),
        (
            'Place a 3" template within 18". All models under it get -1 to hit.',
            "deals hits or wounds to each model under it",
        ),
    ],
)
def test_wordings_refused_name_what_is_wrong(text: str, wanted: str) -> None:
    assert wanted in refused_import(text)


def test_no_shipped_spell_is_refused() -> None:
    """Every spell of our factions and of the default spellbook is one of the effects the
    game plays, and each has targets or a point to be cast at."""
    shipped = [s for f in factions().values() for u in f.units for s in u.spells]
    shipped += default_spells()
    assert shipped
    for spell in shipped:
        assert spell.effect in ("hits", "shield", "focus")
        assert spells.target_choices(spell, ["b1", "b2"])


# --- re-rolls in play -------------------------------------------------------------------------


def test_a_reroll_of_ones_to_hit_rerolls_only_the_ones() -> None:
    """To hit 1, 3, 5: only the 1 is rolled again (4): two hits, Defense 1, 1: two wounds."""
    game = shooting(
        'Target friendly unit within 12" may re-roll results of 1 when shooting until end of '
        "round.",
        "r1",
        [1, 3, 5, 4, 1, 1],
    )
    (first,) = rolled(game.log, "to hit:")
    assert "(re-roll 1s: Spell)" in first.request.label
    (again,) = rolled(game.log, "re-rolls 1 to hit dice")
    assert again.request.dice == 1 and again.request.target == first.request.target
    assert len(game.state.units["b1"].models) == 1
    assert game.state.units["r1"].effects  # until the end of the round
    assert script(game).remaining == 0


def test_must_reroll_successful_blocks_then_is_used_up() -> None:
    """To hit 5, 5, 1: two hits; Defense 4, 2: the block (4) is rolled again (1): two
    wounds; the spell is gone after those Defense rolls."""
    game = shooting(
        'Target enemy unit within 12" must re-roll successful blocks next time it takes hits.',
        "b1",
        [5, 5, 1, 4, 2, 1],
    )
    (again,) = rolled(game.log, "re-rolls 1 defense dice")
    assert again.faces == (1,)
    assert len(game.state.units["b1"].models) == 1
    assert game.state.units["b1"].effects == ()


def test_a_die_a_spell_rerolled_is_not_rerolled_again_by_bane() -> None:
    """Defense 6, 2 against a Bane rifle: the spell re-rolls the 6 (6 again); Bane does
    not re-roll it a second time: one block, one wound."""
    poisoned = profile("Shooters", weapons=[gun(attacks=2, rules=["Bane"])])
    game = shooting(
        'Target enemy unit within 18" must re-roll blocks.', "b1", [5, 5, 6, 2, 6], poisoned
    )
    assert rolled(game.log, "Bane:") == []
    assert len(game.state.units["b1"].models) == 2


def test_the_exact_mean_counts_the_reroll_of_ones_only() -> None:
    """Quality 4 re-rolling 1s hits 1/2 + 1/6 × 1/2 = 7/12; Defense 4 lets half through:
    7/24 wounds an attack (re-rolling every failure would make it 3/8)."""
    shooter = unit("r1", profile("Shooter", weapons=[gun()]), (24, 10))
    target = unit("b1", SQUAD, (24, 20))
    laid_on_unit = imported(
        'Target friendly unit within 12" may re-roll results of 1 when shooting until end of round.'
    )
    spells.affect(Ref(), shooter, laid_on_unit, shooter)
    mean = expected_wounds(shooter, gun(), 1, target, Context(melee=False, distance=10))
    assert mean == pytest.approx(7 / 24)


# --- lasting dangerous terrain ----------------------------------------------------------------


def test_dangerous_terrain_next_time_it_moves_rolls_for_every_model_then_ends() -> None:
    """b1 advances: three dice (1, 5, 5): one wound; the spell is used up."""
    game = position(
        [SQUAD], [SQUAD], {"r1": (24, 10), "b1": (24, 30)}, player="blue", dice=[1, 5, 5]
    )
    laid_on(
        game,
        "b1",
        'Target enemy unit within 18" counts as being in dangerous terrain next time it moves.',
    )
    play(game, "advance b1 24,27")
    (test,) = rolled(game.log, "dangerous terrain: b1")
    assert test.request.dice == 3 and "(Spell)" in test.request.label
    assert len(game.state.units["b1"].models) == 2
    assert game.state.units["b1"].effects == ()


def test_dangerous_terrain_until_end_of_round_rolls_once_an_activation() -> None:
    """Activating counts as in it (one die per model); the move after rolls no more."""
    game = position(
        [SQUAD], [SQUAD], {"r1": (24, 10), "b1": (24, 30)}, player="blue", dice=[5, 5, 5]
    )
    laid_on(game, "b1", 'Target enemy unit within 18" counts as being in dangerous terrain.')
    play(game, "advance b1 24,27")
    assert len(rolled(game.log, "dangerous terrain: b1")) == 1
    assert game.state.units["b1"].effects  # until the end of the round
    spells.end_of_round(game.state)
    assert game.state.units["b1"].effects == ()


def test_flying_ignores_counted_dangerous_terrain() -> None:
    flyers = profile("Flyers", size=3, rules=["Flying"])
    game = position([SQUAD], [flyers], {"r1": (24, 10), "b1": (24, 30)}, player="blue")
    laid_on(game, "b1", 'Target enemy unit within 18" counts as being in dangerous terrain.')
    play(game, "advance b1 24,27")
    assert rolled(game.log, "dangerous terrain") == []


# --- conditions on the action -----------------------------------------------------------------


@pytest.mark.parametrize(("action", "helped"), [("hold r1", True), ("advance r1 24,12", False)])
def test_a_modifier_after_a_hold_action_helps_only_a_held_shooting(
    action: str, helped: bool
) -> None:
    """+1 to hit next time it shoots after Hold: on the Hold's shooting, then used up; an
    Advance's shooting neither gets it nor uses it up."""
    game = position([SHOOTERS], [SQUAD], {"r1": (24, 10), "b1": (24, 20)}, dice=[1, 1, 1])
    laid_on(
        game,
        "r1",
        'Target friendly unit within 12" gets +1 to hit next time they shoot when using a Hold '
        "action.",
    )
    play(game, action, "fire r1 rifle b1")
    (hit,) = rolled(game.log, "to hit:")
    assert (("Spell spell", 1) in hit.request.modifiers) == helped
    assert bool(game.state.units["r1"].effects) != helped


def test_weapon_rules_and_range_after_an_advance_go_on_only_when_it_moved() -> None:
    shooter = unit("r1", SHOOTERS, (24, 10))
    for text in (
        'Target friendly unit within 12" gets AP(+1) when shooting after an Advance action.',
        'Target friendly unit within 12" gets +6" range when using Advance actions.',
    ):
        spells.affect(Ref(), shooter, imported(text), shooter)
    target = unit("b1", SQUAD, (24, 40))
    field = position([SHOOTERS], [SQUAD], {}).field
    (rifle,) = SHOOTERS.equipment
    assert armed(shooter, rifle.weapon).rating("AP") is None
    assert not solution(field, shooter, rifle.weapon, target).attacks
    shooter.moved = True
    assert armed(shooter, rifle.weapon).rating("AP") == 1
    assert solution(field, shooter, rifle.weapon, target).attacks


# --- templates --------------------------------------------------------------------------------


def test_a_template_hits_each_model_under_it() -> None:
    """A 3" template at 24.75,20 covers two of the squad's bases (1" bases 1.5" apart):
    two hits; Defense 1, 1: two wounds."""
    game = seer_game(
        'Place a 3" template within 18". All models under it take 1 hit.',
        [SQUAD],
        {"b1": (24, 20)},
        [4, 1, 1],
    )
    play(game, "hold r1", "cast r1 spell 24.75,20")
    (defense,) = rolled(game.log, "Defense")
    assert defense.request.dice == 2
    assert len(game.state.units["b1"].models) == 1
    assert script(game).remaining == 0


def test_the_log_and_the_state_say_which_dice_are_rerolled() -> None:
    game = position([SHOOTERS], [SQUAD], {"r1": (24, 10), "b1": (24, 20)})
    ref = Ref()
    target = game.state.units["b1"]
    text = 'Target enemy unit within 12" must re-roll successful blocks next time it takes hits.'
    spells.affect(ref, target, imported(text), target)
    assert ref.events[-1][1].endswith(
        "gets re-rolls of its successes on Defense until it next takes hits"
    )
    assert ["Spell", "reroll", 0, "any", "next", "defense:successes", "hits"] in json.loads(
        json.dumps(game.state_data())
    )["units"]["b1"]["effects"]


def test_a_reroll_of_failed_hits_in_melee_once_is_used_up_by_the_melee() -> None:
    """To hit 2 (a miss) is rolled again (5): a hit; Defense 1: a wound; the spell is gone."""
    brute = profile("Brute", weapons=[blade()])
    game = position([brute], [SQUAD], {"r1": (24, 10), "b1": (24, 13)}, dice=[2, 5, 1])
    laid_on(game, "r1", 'Target friendly unit within 12" may re-roll failed hits in melee once.')
    play(game, "charge r1 b1")
    (again,) = rolled(game.log, "re-rolls 1 to hit dice")
    assert again.faces == (5,)
    assert len(game.state.units["b1"].models) == 2
    assert game.state.units["r1"].effects == ()


# --- exact odds -------------------------------------------------------------------------------

ODDS = {"attacker": "Warden Brothers", "target": "Warden Brothers", "range": "12"}


@pytest.mark.parametrize(
    ("spells_on", "text"),
    [
        ("spells", "re-roll 1s to hit"),
        ("spells", "re-roll failed to hit,Poison"),
        ("target-spells", "re-roll 1s defense"),
        ("target-spells", "re-roll successes defense"),
    ],
)
def test_readings_stay_exact_with_rerolls(spells_on: str, text: str) -> None:
    """The reduced readings give what every ordered roll gives: 1s kept apart when a spell
    re-rolls them, and a die re-rolled once (Bane after a spell's re-roll)."""
    opts = {**ODDS, "models": "1", "target-models": "1", spells_on: text}
    assert_readings_exact(odds_query(opts))


def test_rerolls_change_the_odds_as_they_say() -> None:
    """Re-rolling 1s to hit wounds more than nothing, less than re-rolling every failure;
    forcing the target to re-roll its blocks wounds more; the odds name them."""
    mean = {
        text: _mean_wounds({**ODDS, "spells": text})
        for text in ("", "re-roll 1s to hit", "re-roll failed to hit")
    }
    assert mean[""] < mean["re-roll 1s to hit"] < mean["re-roll failed to hit"]
    assert _mean_wounds({**ODDS, "target-spells": "re-roll successes defense"}) > mean[""]
    (_, attacker), *_ = odds({**ODDS, "spells": "re-roll 1s to hit"}).situation
    assert attacker.endswith("spells: re-roll 1s to hit")


def test_unknown_reroll_options_are_refused_naming_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="re-roll 1s"):
        odds({**ODDS, "spells": "re-roll 3s to hit"})


def test_exact_odds_with_a_reroll_agree_with_monte_carlo() -> None:
    assert_monte_carlo_agrees(odds_query({**ODDS, "spells": "re-roll 1s to hit"}), seed=7)


def _mean_wounds(opts: dict[str, str]) -> float:
    return float(sum(int(r.name) * r.probability for r in odds(opts).table(WOUNDS).rows))


def test_the_ai_plays_a_full_game_casting_these_spells(tmp_path: Path) -> None:
    """`warbench play gff` AI v AI with an imported Caster knowing the four shapes: the
    game ends and the AI casts them."""
    book = {
        "Steady Aim": 'Target friendly unit within 18" may re-roll results of 1 when shooting.',
        "Quicksand": 'Target enemy unit within 24" counts as being in dangerous terrain.',
        "Sniper Trance": 'Target friendly unit within 18" gets +1 to hit next time they shoot '
        "when using a Hold action.",
        "Fire Burst": 'Place a 3" template within 24". All models under it take 1 hit.',
    }
    text = play_caster_list(
        tmp_path, [{"name": n, "threshold": 1, "effect": e} for n, e in book.items()]
    )
    assert sum(f"casts {name}" in text for name in book) >= 2
    assert "result: " in text


def test_relentless_after_a_hold_acts_only_when_the_unit_has_not_moved() -> None:
    shooter = unit("r1", SHOOTERS, (24, 10))
    text = 'Target friendly unit within 12" gets Relentless when shooting after a Hold action.'
    spells.affect(Ref(), shooter, imported(text), shooter)
    assert shooter.all_have("Relentless")
    shooter.moved = True
    assert not shooter.all_have("Relentless")
