"""Spell texts of GFF-R39: other dice counts, wounds with the rules that act on them,
templates with dice counts, re-rolls of morale tests, moves toward the nearest objective
and moves a unit must make (a retreat after a failed test), effects tied to a charge,
Defense modifiers for one side's attacks: each read, played through the
game's dice, and refused with a clear error when malformed."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import (
    blade,
    gun,
    play,
    play_caster_list,
    position,
    profile,
    refusal,
    rolled,
    script,
    state_of,
    unit,
)
from tests.rulesets.gff.spell_setup import SQUAD, imported, refused_import, seer_game
from warbench.core.game import Decision
from warbench.rulesets.gff import spell_moves, spells, spells_value
from warbench.rulesets.gff.armies import SPELL_POINTS, spell_points
from warbench.rulesets.gff.attacks import Context, Hit
from warbench.rulesets.gff.morale import morale_test
from warbench.rulesets.gff.movement import block_move_problem
from warbench.rulesets.gff.shooting import resolve_hits
from warbench.rulesets.gff.state import Marker


def cast_at(text: str, dice: list[int], target: Any = SQUAD) -> Any:
    """The seer (r1) holds and casts the imported spell at b1 (`target`, at 24,20)."""
    game = seer_game(text, [target], {"b1": (24, 20)}, dice)
    play(game, "hold r1", "cast r1 spell b1")
    return game


# --- reading the texts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            'Target enemy unit within 12" takes 4D6 hits.',
            {"effect": "hits", "dice": 6, "rolled": 4, "less": 0, "times": 1, "mean_count": 14},
        ),
        (
            'Target enemy unit within 12" takes D3-1 wounds.',
            {"effect": "wounds", "dice": 3, "rolled": 1, "less": 1, "wounds": 0, "mean_count": 1},
        ),
        (
            'Target enemy unit within 18" takes D6x2 hits with AP(1).',
            {"effect": "hits", "dice": 6, "times": 2, "mean_count": 7},
        ),
        (
            'Target enemy unit within 18" takes D3 × 2 hits.',
            {"effect": "hits", "dice": 3, "times": 2, "mean_count": 4},
        ),
        (
            'Target enemy unit within 12" takes D3 wounds with Poison.',
            {"effect": "wounds", "dice": 3, "rules": (("Bane", None),)},
        ),
        (
            'Target enemy unit within 12" takes 1 wound with Deadly(3) and Unstoppable.',
            {"effect": "wounds", "wounds": 1, "rules": (("Deadly", 3), ("Unstoppable", None))},
        ),
        (
            'Target enemy unit within 12" must take a morale test. If failed it takes 2D3-1 '
            "wounds with Bane.",
            {"effect": "test", "then": "wounds", "rolled": 2, "less": 1, "mean_count": 3},
        ),
        (
            'Place a 3" template within 18". All models under it take D3 hits.',
            {"effect": "hits", "template": 3.0, "dice": 3, "mean_count": 2},
        ),
        (
            'Target friendly unit within 12" may re-roll failed morale tests until end of round.',
            {"effect": "reroll", "roll": "morale", "reroll": "failed", "lasts": "round"},
        ),
        (
            'Target enemy unit within 12" must re-roll passed morale tests next time it takes a '
            "morale test.",
            {"effect": "reroll", "roll": "morale", "reroll": "successes", "trigger": "morale"},
        ),
        (
            'Target friendly unit within 12" may re-roll morale tests once.',
            {"effect": "reroll", "roll": "morale", "lasts": "next", "on_enemies": False},
        ),
        (
            'Target friendly unit within 12" may move up to 6" toward the nearest objective.',
            {"effect": "shift", "value": 6, "toward": "objective", "must": False},
        ),
        (
            'Target enemy unit within 12" must move 6".',
            {"effect": "shift", "value": 6, "toward": "any", "must": True, "on_enemies": True},
        ),
        (
            'Target enemy unit within 12" must move 3" toward the nearest enemy unit.',
            {"effect": "shift", "value": 3, "toward": "enemy", "must": True},
        ),
        (
            'Target enemy unit within 18" must take a morale test. If failed it must retreat 6".',
            {"effect": "test", "then": "shift", "value": 6, "toward": "away", "must": True},
        ),
        (
            'Target enemy unit within 18" must take a morale test. If failed it falls back 3" '
            "toward the nearest objective.",
            {"effect": "test", "then": "shift", "value": 3, "toward": "objective", "must": True},
        ),
        (
            'Target friendly unit within 12" gets +1 to hit in melee when charging.',
            {"effect": "to_hit", "value": 1, "when": "charge", "lasts": "round"},
        ),
        (
            'Target friendly unit within 12" gets AP(+2) after a Charge action once.',
            {"effect": "rule", "when": "charge", "lasts": "next", "trigger": "charge"},
        ),
        (
            'Target friendly unit within 12" may re-roll failed hits when it charges next time '
            "they fight in melee.",
            {"effect": "reroll", "roll": "to_hit", "when": "charge", "trigger": "charge"},
        ),
        (
            'Target enemy unit within 12" must take a morale test. If failed it must take a '
            "dangerous terrain test.",
            {"effect": "test", "then": "dangerous"},
        ),
        (
            'Target enemy unit within 12" must take a morale test. If failed it may only use Hold '
            "actions next time it activates.",
            {"effect": "test", "then": "only", "actions": ("hold",), "trigger": "activation"},
        ),
        (
            'Target enemy unit within 12" must take a morale test. If failed it counts as being '
            "in difficult terrain until end of round.",
            {"effect": "test", "then": "difficult", "lasts": "round"},
        ),
        (
            'Target enemy unit within 12" has friendly units get Rending in melee against it '
            "when they charge once.",
            {"effect": "mark", "when": "charge", "trigger": "charged", "on_enemies": True},
        ),
        (
            'Target friendly unit within 12" gets +1 to defense rolls when shot at.',
            {"effect": "defense", "value": 1, "when": "shooting", "lasts": "round"},
        ),
        (
            'Target enemy unit within 12" gets -1 to defense against melee attacks next time '
            "it takes hits.",
            {"effect": "defense", "value": -1, "when": "melee", "lasts": "next"},
        ),
    ],
)
def test_other_dice_and_wounds_with_rules_are_read(text: str, fields: dict[str, Any]) -> None:
    spell = imported(text)
    got = {k: getattr(spell, k) for k in fields}
    if "rules" in got:
        got["rules"] = tuple((r.name, r.rating) for r in spell.rules)
    assert got == fields


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ('Target enemy unit within 12" takes D3 wounds with AP(1).', "not AP"),
        ('Target enemy unit within 12" takes 2 wounds with Blast(3).', "not Blast"),
        ('Target enemy unit within 12" takes 2D3-3 hits.', "may not fall below 0"),
        ('Target enemy unit within 12" takes 7D6 hits.', "understood:"),
        ('Target enemy unit within 12" takes D6x4 hits.', "understood:"),
        ('Target enemy unit within 12" takes D4 wounds.', "understood:"),
        ('Target enemy unit within 12" may re-roll passed morale tests.', "understood:"),
        ('Target enemy unit within 12" must re-roll failed morale tests.', "understood:"),
        (
            'Target friendly unit within 12" may re-roll failed morale tests next time it shoots.',
            "understood:",
        ),
        ('Target enemy unit within 12" must move 14".', "less than or equal to 12"),
        ('Target enemy unit within 12" must move 6" toward the nearest tree.', "understood:"),
        ('Target friendly unit within 12" gets +1 attack when charging.', "not with a attacks"),
        (
            'Target enemy unit within 12" must take a morale test. If failed it may only use '
            "Hold, Advance, Rush or Charge actions.",
            "allows some of hold",
        ),
        (
            'Target enemy unit within 12" must take a morale test. If failed it may not activate.',
            "understood:",
        ),
        (
            'Target friendly unit within 12" gets Furious when charging.',
            "not the unit rule Furious",
        ),
        (
            'Target enemy unit within 12" has friendly units get Furious against them when '
            "charging.",
            "not the unit rule Furious",
        ),
        (
            'Target friendly unit within 12" gets +1 to hit when shooting when charging.',
            "not shooting",
        ),
        (
            'Target friendly unit within 12" may re-roll failed blocks when charging.',
            "not with a reroll spell of defense",
        ),
        (
            'Target friendly unit within 12" gets +1 to hit when charging next time they shoot.',
            "goes with melee, not shooting",
        ),
    ],
)
def test_malformed_counts_and_wound_rules_are_refused(text: str, wanted: str) -> None:
    assert wanted in refused_import(text)


def test_points_follow_the_mean_count_and_the_wound_rules() -> None:
    """D6x2 averages 7 hits; D3-1 wounds 1 wound (twice a hit); Deadly(3) wounds cost
    more than plain ones."""
    assert spell_points(imported('Target enemy unit within 12" takes D6x2 hits.')) == (
        SPELL_POINTS * 7
    )
    assert spell_points(imported('Target enemy unit within 12" takes D3-1 wounds.')) == (
        SPELL_POINTS * 2
    )
    plain = spell_points(imported('Target enemy unit within 12" takes 1 wound.'))
    deadly = spell_points(imported('Target enemy unit within 12" takes 1 wound with Deadly(3).'))
    assert deadly > plain


# --- counts in play ---------------------------------------------------------------------------


def test_4d6_hits_roll_four_dice() -> None:
    """4D6 show 1, 1, 1, 1: four hits, four Defense dice (1, 1, 6, 6): two wounds."""
    game = cast_at('Target enemy unit within 12" takes 4D6 hits.', [4, 1, 1, 1, 1, 1, 1, 6, 6])
    (four,) = rolled(game.log, "4D6 hits on b1")
    assert four.request.dice == 4 and four.request.sides == 6
    (defense,) = rolled(game.log, "Defense")
    assert defense.request.dice == 4
    assert len(game.state.units["b1"].models) == 1
    assert script(game).remaining == 0


@pytest.mark.parametrize(("face", "left"), [(1, 3), (2, 2), (3, 1)])
def test_d3_minus_one_wounds_take_one_from_the_die(face: int, left: int) -> None:
    """The D3 shows 1: no wound; 2: one; 3: two."""
    game = cast_at('Target enemy unit within 12" takes D3-1 wounds.', [4, face])
    assert len(game.state.units["b1"].models) == left
    if face == 1:
        assert any("takes no wounds" in e.text for e in game.log)


def test_d6_times_two_hits_double_the_die() -> None:
    """The D6 shows 2: four hits, four Defense dice (1, 1, 1, 6): three wounds, the last
    model's wound effects (6) Knocked Out."""
    game = cast_at('Target enemy unit within 12" takes D6x2 hits.', [4, 2, 1, 1, 1, 6, 6])
    (defense,) = rolled(game.log, "Defense")
    assert defense.request.dice == 4
    assert not game.state.units["b1"].alive


# --- wounds with rules ------------------------------------------------------------------------

TROLLS = profile("Trolls", size=3, rules=["Regeneration"])


def test_wounds_with_poison_ignore_regeneration() -> None:
    """Two Bane wounds on a Regeneration unit: no Regeneration roll, two models go."""
    game = cast_at('Target enemy unit within 12" takes 2 wounds with Poison.', [4], TROLLS)
    assert rolled(game.log, "Regeneration") == []
    assert len(game.state.units["b1"].models) == 1
    assert script(game).remaining == 0


def test_wounds_without_bane_are_saved_by_regeneration() -> None:
    """The same two wounds without Bane: Regeneration rolls 5 and 1, one model goes."""
    game = cast_at('Target enemy unit within 12" takes 2 wounds.', [4, 5, 1], TROLLS)
    assert rolled(game.log, "Regeneration")
    assert len(game.state.units["b1"].models) == 2


def test_unstoppable_wounds_ignore_regeneration() -> None:
    game = cast_at('Target enemy unit within 12" takes 1 wound with Unstoppable.', [4], TROLLS)
    assert rolled(game.log, "Regeneration") == []
    assert len(game.state.units["b1"].models) == 2


def test_deadly_wounds_multiply_on_one_model() -> None:
    """One Deadly(3) wound on two Tough(3) models: the first takes 3 wounds and goes."""
    ogres = profile("Ogres", size=2, rules=["Tough(3)"])
    game = cast_at('Target enemy unit within 12" takes 1 wound with Deadly(3).', [4], ogres)
    assert len(game.state.units["b1"].models) == 1
    assert game.state.units["b1"].models[0].wounds == 0


def test_a_failed_test_deals_wounds_with_the_spells_rules() -> None:
    """Morale 2 fails; 2D3-1 show 1, 1: one Bane wound, Regeneration not rolled."""
    game = cast_at(
        'Target enemy unit within 12" must take a morale test. If failed it takes 2D3-1 wounds '
        "with Bane.",
        [4, 2, 1, 1],
        TROLLS,
    )
    assert rolled(game.log, "Regeneration") == []
    assert len(game.state.units["b1"].models) == 2
    assert script(game).remaining == 0


# --- templates with dice ----------------------------------------------------------------------


def test_a_template_rolls_its_dice_for_each_model_under_it() -> None:
    """Two models under the template: a D3 each (1 and 3), four hits; Defense 1, 1, 6, 6."""
    game = seer_game(
        'Place a 3" template within 18". All models under it take D3 hits.',
        [SQUAD],
        {"b1": (24, 20)},
        [4, 1, 3, 1, 1, 6, 6],
    )
    play(game, "hold r1", "cast r1 spell 24.75,20")
    assert [r.total for r in rolled(game.log, "D3 hits on b1")] == [1, 3]
    (defense,) = rolled(game.log, "Defense")
    assert defense.request.dice == 4
    assert len(game.state.units["b1"].models) == 1
    assert script(game).remaining == 0


# --- re-rolls of morale tests -----------------------------------------------------------------


def _tested(text: str, faces: list[int], rules: tuple[str, ...] = ()) -> tuple[bool, Ref, Any]:
    """A Quality 4 squad given the spell takes a morale test on `faces`."""
    squad = unit("b1", profile("Squad", size=3, rules=rules), (24, 20))
    spells.affect(Ref(), squad, imported(text), squad)
    ref = Ref(faces)
    return morale_test(ref, state_of(squad), squad), ref, squad


@pytest.mark.parametrize(("faces", "passed"), [([2, 5], True), ([2, 3], False), ([4], True)])
def test_a_failed_morale_test_is_rerolled_and_the_second_result_stands(
    faces: list[int], passed: bool
) -> None:
    """A 2 fails and is re-rolled (5 passes, 3 fails); a 4 passes and is not re-rolled."""
    ok, ref, squad = _tested(
        'Target friendly unit within 12" may re-roll failed morale tests until end of round.',
        faces,
    )
    assert ok is passed
    assert len(ref.rolls) == len(faces)
    assert "re-roll failures" in ref.rolls[0].request.label
    assert squad.effects  # it lasts the round


def test_a_forced_reroll_of_a_passed_test_is_used_up_by_the_test() -> None:
    """A 5 passes, must be re-rolled: the 1 fails; the spell is gone after the test."""
    ok, ref, squad = _tested(
        'Target enemy unit within 12" must re-roll passed morale tests next time it takes a '
        "morale test.",
        [5, 1],
    )
    assert ok is False and len(ref.rolls) == 2
    assert squad.effects == ()


def test_fearless_rolls_after_the_reroll() -> None:
    """2 fails, re-rolled 1 fails, Fearless 4 saves it."""
    ok, ref, _ = _tested(
        'Target friendly unit within 12" may re-roll failed morale tests.', [2, 1, 4], ("Fearless",)
    )
    assert ok is True
    assert [r.request.label.split(":")[0] for r in ref.rolls][-1] == "Fearless"


# --- moves toward the nearest objective, moves a unit must make ----------------------------

RETREAT = 'Target enemy unit within 18" must take a morale test. If failed it must retreat 6".'


def test_a_move_toward_the_nearest_objective_runs_straight_at_it() -> None:
    """r2 stands 12" west of the marker at 42,10: the move goes due east, up to 6"."""
    text = 'Target friendly unit within 12" may move up to 6" toward the nearest objective.'
    seer = profile("Seer", rules=["Caster(2)"], spells=[imported(text)], weapons=[gun()])
    game = position(
        [seer, SQUAD], [SQUAD], {"r1": (24, 10), "r2": (30, 10), "b1": (30, 30)}, dice=[4]
    )
    game.state.markers = [Marker(42, 10), Marker(10, 40)]
    game.state.units["r1"].tokens = 2
    play(game, "hold r1", "cast r1 spell r2")
    ahead = spell_moves.heading(game.state, game.state.units["r2"], "objective")
    assert ahead is not None and ahead[0] > 0.99
    reason = refusal(game, "shift r2 30,16")
    assert reason is not None and "straight toward the nearest objective" in reason
    assert refusal(game, "done") is None
    cx, cy = game.state.units["r2"].centre()
    play(game, f"shift r2 {cx + 6 * ahead[0]:.4f},{cy + 6 * ahead[1]:.4f}")
    assert game.state.units["r2"].centre()[0] == pytest.approx(cx + 6, abs=0.01)


def test_a_failed_test_makes_the_unit_retreat_the_full_inches_away_from_the_caster() -> None:
    """Cast 4, morale 2 fails: b1 must retreat 6"; done is refused; a point a little way
    along the line still moves it the full 6" away from the caster."""
    game = seer_game(RETREAT, [SQUAD], {"b1": (24, 24)}, [4, 2])
    play(game, "hold r1", "cast r1 spell b1")
    assert game.state.step["shifts"] == [["b1", 6, "away", "must"]]
    assert isinstance(game.pending, Decision) and "it must" in game.pending.prompt
    assert 'must move 6"' in (refusal(game, "done") or "")
    assert [str(a) for a in game.legal_actions("red")] == ["shift b1 25.5,30"]
    b1 = game.state.units["b1"]
    ahead = spell_moves.heading(game.state, b1, "away")
    assert ahead is not None
    cx, cy = b1.centre()
    off = refusal(game, f"shift b1 {cx + 1:.2f},{cy - 1:.2f}") or ""
    assert "away from the caster" in off and "done" not in off
    play(game, f"shift b1 {cx + ahead[0]:.4f},{cy + ahead[1]:.4f}")
    x, y = b1.centre()
    assert math.hypot(x - cx, y - cy) == pytest.approx(6, abs=0.01)
    assert "shifts" not in game.state.step


def test_a_failed_test_takes_a_dangerous_terrain_test_instead_of_shaken() -> None:
    """Cast 4, morale 2 fails: a die per model, 1, 5, 1: two wounds; b1 is not Shaken."""
    game = seer_game(
        'Target enemy unit within 12" must take a morale test. If failed it must take a '
        "dangerous terrain test.",
        [SQUAD],
        {"b1": (24, 20)},
        [4, 2, 1, 5, 1],
    )
    play(game, "hold r1", "cast r1 spell b1")
    (test,) = rolled(game.log, "dangerous terrain test, b1")
    assert test.request.dice == 3
    b1 = game.state.units["b1"]
    assert len(b1.models) == 1 and not b1.shaken
    assert script(game).remaining == 0


@pytest.mark.parametrize(("face", "limited"), [(2, True), (5, False)])
def test_a_failed_test_limits_the_next_activation(face: int, limited: bool) -> None:
    game = seer_game(
        'Target enemy unit within 12" must take a morale test. If failed it may only use Hold '
        "actions next time it activates.",
        [SQUAD],
        {"b1": (24, 20)},
        [4, face],
    )
    play(game, "hold r1", "cast r1 spell b1")
    b1 = game.state.units["b1"]
    assert [(e.kind, e.rule) for e in b1.effects] == ([("only", "hold")] if limited else [])
    assert not b1.shaken


@pytest.mark.parametrize(
    ("then", "worth"),
    [("must take a dangerous terrain test", 0.5 * 3 / 6), ("may only use Hold actions", 0.5)],
)
def test_the_ai_values_a_failed_tests_hindrance_as_the_hindrance(then: str, worth: float) -> None:
    """Quality 4 fails half its tests: half a dangerous terrain test of three dice (each
    model worth 1), or half a limit (worth 1, as R38 counts a hindrance)."""
    spell = imported(f'Target enemy unit within 12" must take a morale test. If failed it {then}.')
    caster, target = unit("r1", SQUAD, (24, 10)), unit("b1", SQUAD, (24, 20))
    state = state_of(caster, target)
    got = spells_value.value(state, caster, spell, [target], "b1", lambda u: 1.0, lambda d, a: 1.0)
    assert got == pytest.approx(worth)


def test_a_passed_test_does_not_retreat() -> None:
    game = seer_game(RETREAT, [SQUAD], {"b1": (24, 24)}, [4, 5])
    before = game.state.units["b1"].centre()
    play(game, "hold r1", "cast r1 spell b1")
    assert "shifts" not in game.state.step and game.state.units["b1"].centre() == before


def test_a_forced_move_stops_as_far_as_it_can_go() -> None:
    """b2 stands 7" north of b1: b1's forced 6" north stops short (5"), where a quarter
    inch more would bring it within 1" of b2."""
    game = seer_game(
        'Target enemy unit within 18" must move 6".',
        [SQUAD, SQUAD],
        {"b1": (24, 24), "b2": (24, 31)},
        [4],
    )
    play(game, "hold r1", "cast r1 spell b1")
    b1 = game.state.units["b1"]
    cx, cy = b1.centre()
    assert refusal(game, "done") is not None
    play(game, f"shift b1 {cx},{cy + 1}")
    x, y = b1.centre()
    assert x == pytest.approx(cx) and y - cy == pytest.approx(5)
    farther = block_move_problem(game.state, game.field, b1, (x, y + 0.25), 6.0)
    assert farther is not None


# --- effects tied to a charge ----------------------------------------------------------------

GUARDS = profile("Guards", size=3, weapons=[blade()])


def _charge(text: str, on: str, dice: list[int], *actions: str) -> Any:
    """r1 (a brute with a blade) charges b1 (three guards with blades), the spell's effect
    put on unit `on` first."""
    brute = profile("Brute", weapons=[blade()])
    game = position([brute], [GUARDS], {"r1": (24, 10), "b1": (24, 13)}, dice=dice)
    blessed = game.state.units[on]
    spells.affect(Ref(), blessed, imported(text), blessed)
    play(game, "charge r1 b1", *actions)
    return game


HIT_WHEN_CHARGING = 'Target friendly unit within 12" gets +1 to hit in melee when charging.'


def test_a_to_hit_bonus_when_charging_acts_on_the_charge() -> None:
    """The brute's roll to hit carries the +1; a 3 hits with it (Quality 4); Defense 1."""
    game = _charge(HIT_WHEN_CHARGING, "r1", [3, 1])
    (hit,) = rolled(game.log, "to hit: r1")
    assert ("Spell spell", 1) in hit.request.modifiers
    assert len(game.state.units["b1"].models) == 2


def test_a_to_hit_bonus_when_charging_does_not_act_on_striking_back() -> None:
    """The guards hold the spell and are charged: their strike back (3s) has no +1."""
    game = _charge(HIT_WHEN_CHARGING, "b1", [1, 3, 3, 3], "strike-back")
    (back,) = rolled(game.log, "to hit: b1")
    assert not any(name == "Spell spell" for name, _ in back.request.modifiers)
    assert game.state.units["r1"].alive
    assert game.state.units["b1"].effects  # it lasts the round


def test_ap_when_charging_goes_on_the_charge_hits_then_is_used_up() -> None:
    """To hit 4; the guards' Defense rolls with AP(2); the spell given once is then gone."""
    game = _charge(
        'Target friendly unit within 12" gets AP(+2) when charging once.',
        "r1",
        [4, 5],
        "no-strike-back",
    )
    (block,) = rolled(game.log, "Defense: b1")
    assert ("AP(2)", -2) in block.request.modifiers
    assert len(game.state.units["b1"].models) == 2  # 5 - 2 fails Defense 4
    assert game.state.units["r1"].effects == ()


MARK_WHEN_CHARGING = (
    'Target enemy unit within 12" has friendly units get AP(+1) against them when charging.'
)


def test_a_mark_when_charging_arms_the_units_charging_the_marked_one() -> None:
    """The guards are marked: the brute charging them hits (4) with AP(1); Defense 4 fails."""
    game = _charge(MARK_WHEN_CHARGING, "b1", [4, 4], "no-strike-back")
    (block,) = rolled(game.log, "Defense: b1")
    assert ("AP(1)", -1) in block.request.modifiers
    assert len(game.state.units["b1"].models) == 2


def test_a_mark_when_charging_does_not_arm_a_strike_back() -> None:
    """The brute is marked and charges (1 misses): the guards striking back (4, 4, 4) get
    no AP."""
    game = _charge(MARK_WHEN_CHARGING, "r1", [1, 4, 4, 4, 6, 6, 6], "strike-back")
    (block,) = rolled(game.log, "Defense: r1")
    assert not any(name.startswith("AP") for name, _ in block.request.modifiers)


def test_a_reroll_when_charging_rerolls_the_charge_hits() -> None:
    """To hit 1 is re-rolled: 6 hits; Defense 1."""
    game = _charge(
        'Target friendly unit within 12" may re-roll failed hits when charging.', "r1", [1, 6, 1]
    )
    assert rolled(game.log, "re-rolls 1 to hit dice")
    assert len(game.state.units["b1"].models) == 2


# --- Defense for one side's attacks ----------------------------------------------------------


def _blocks(text: str, melee: bool) -> tuple[Any, Any]:
    """One hit on b1 (the spell's effect on it) from r1's blade or rifle; Defense rolls 4.
    The Defense roll and b1."""
    target, attacker = unit("b1", SQUAD, (24, 20)), unit("r1", SQUAD, (24, 10))
    spells.affect(Ref(), target, imported(text), target)
    ref = Ref([4])
    weapon = blade() if melee else gun()
    resolve_hits(ref, attacker, weapon, [Hit(0, False, 0, False)], target, Context(melee=melee))
    return ref.rolls[0], target


@pytest.mark.parametrize("melee", [True, False])
def test_a_defense_bonus_in_melee_acts_in_melee_alone(melee: bool) -> None:
    roll, _ = _blocks('Target friendly unit within 12" gets +1 to defense in melee.', melee)
    assert (("Spell spell", 1) in roll.request.modifiers) is melee


@pytest.mark.parametrize("melee", [True, False])
def test_a_next_time_defense_malus_against_melee_is_used_up_by_melee_hits_only(
    melee: bool,
) -> None:
    roll, target = _blocks(
        'Target enemy unit within 12" gets -1 to defense against melee attacks next time it '
        "takes hits.",
        melee,
    )
    assert (("Spell spell", -1) in roll.request.modifiers) is melee
    assert (target.effects == ()) is melee


# --- a full game ------------------------------------------------------------------------------


def test_the_ai_plays_a_full_game_casting_these_spells(tmp_path: Path) -> None:
    """`warbench play gff` AI v AI with an imported Caster knowing the new shapes (36"
    ranges): the game ends, forced moves included, and the AI casts them."""
    book = {
        "Rout": 'Target enemy unit within 36" must take a morale test. If failed it must '
        'retreat 6".',
        "Drag": 'Target enemy unit within 36" must move 6".',
        "Swarm": 'Target enemy unit within 36" takes D3-1 wounds with Poison.',
        "Barrage": 'Target enemy unit within 36" takes D6x2 hits.',
        "Rally": 'Target friendly unit within 36" may re-roll failed morale tests.',
        "Onslaught": 'Target friendly unit within 36" gets AP(+1) when charging.',
    }
    text = play_caster_list(
        tmp_path, [{"name": n, "threshold": 1, "effect": e} for n, e in book.items()]
    )
    assert sum(f"casts {name}" in text for name in book) >= 3
    assert "result: " in text
