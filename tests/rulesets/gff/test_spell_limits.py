"""Spells that wound, limit actions or moves, or reach every unit near the target
(GFF-R35): each of Army Forge's wordings is read, and acts in play through the game's dice
and legality checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import (
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
from warbench.rulesets.gff import spells
from warbench.rulesets.gff.actions import Cast, Done
from warbench.rulesets.gff.ai import FirefightAI
from warbench.rulesets.gff.armies import SPELL_POINTS, spell_points


def cast_at_squad(text: str, dice: list[int]) -> Any:
    """`seer_game` with b1 a SQUAD at 24,20; r1 holds, then casts the spell at b1."""
    game = seer_game(text, [SQUAD], {"b1": (24, 20)}, dice)
    play(game, "hold r1", "cast r1 spell b1")
    return game


def laid_on(game: Any, uid: str, text: str) -> None:
    """The spell's lasting effect put on unit `uid` as a successful casting puts it."""
    target = game.state.units[uid]
    spells.affect(Ref(), target, imported(text), target)


# --- reading the texts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            'Target enemy model within 12" must take a morale test. If failed it immediately '
            "takes D3 wounds.",
            {"effect": "test", "then": "wounds", "dice": 3, "wounds": 0},
        ),
        (
            'Target enemy unit within 12" must take a morale test. On a fail it takes 2 hits '
            "with AP(1).",
            {"effect": "test", "then": "hits", "hits": 2, "dice": 0},
        ),
        ('Target enemy unit within 18" takes D3 wounds.', {"effect": "wounds", "dice": 3}),
        ('Target enemy unit within 12" takes 2 wounds.', {"effect": "wounds", "wounds": 2}),
        (
            'Target enemy unit within 12" takes 2D6 hits with AP(1).',
            {"effect": "hits", "dice": 6, "rolled": 2, "hits": 0, "mean_count": 7},
        ),
        (
            'Target enemy unit within 12" takes D3+1 wounds.',
            {"effect": "wounds", "dice": 3, "rolled": 1, "wounds": 1, "mean_count": 3},
        ),
        (
            'Target 2 enemy units within 12" must take a dangerous terrain test.',
            {"effect": "dangerous", "targets": 2, "on_enemies": True},
        ),
        (
            'Target enemy unit within 24" takes D6 automatic hits.',
            {"effect": "hits", "dice": 6, "hits": 0},
        ),
        (
            'Target enemy unit within 18" may only use Hold actions next time it activates.',
            {"effect": "only", "actions": ("hold",), "lasts": "next", "trigger": "activation"},
        ),
        (
            'Target enemy unit within 18" may only Hold or Advance on its next activation.',
            {"effect": "only", "actions": ("hold", "advance"), "trigger": "activation"},
        ),
        (
            'Target enemy unit within 18" cannot Rush or Charge until end of round.',
            {"effect": "only", "actions": ("hold", "advance"), "lasts": "round"},
        ),
        (
            'Target enemy unit within 18" counts as being in difficult terrain next time it moves.',
            {"effect": "difficult", "lasts": "next", "trigger": "move", "on_enemies": True},
        ),
        (
            'Target 2 enemy units within 12" move as if in difficult terrain until end of round.',
            {"effect": "difficult", "lasts": "round", "targets": 2},
        ),
        (
            'Target enemy unit within 18" takes 2 hits, and all other units within 3" of it take '
            "1 hit.",
            {"effect": "hits", "hits": 2, "area": 3, "area_hits": 1, "area_all": True},
        ),
        (
            'Target enemy unit within 18" and all other units within 3" of it take 1 hit.',
            {"effect": "hits", "area": 3, "area_all": True},
        ),
        (
            'Target enemy unit within 18" and all enemy units within 3" of it take 1 hit.',
            {"effect": "hits", "area": 3, "area_all": False},
        ),
        (
            'Target enemy unit within 12" is moved by up to 6" toward the nearest enemy.',
            {"effect": "shift", "value": 6, "toward": "enemy", "on_enemies": True},
        ),
        (
            'Target friendly unit within 12" may make a move of up to 6" toward the caster.',
            {"effect": "shift", "toward": "caster", "on_enemies": False},
        ),
        (
            'Target enemy unit within 18" must take a morale test. If failed you may move it by '
            'up to 6" away from the caster.',
            {"effect": "test", "then": "shift", "value": 6, "toward": "away"},
        ),
        (
            'Pick a point within 18". All units within 3" of it take 2 hits with AP(1).',
            {"effect": "hits", "hits": 2, "point": True, "area": 3, "area_all": True},
        ),
        (
            'Pick a point within 18" of the caster, all enemy units within 3" of that point '
            "take D3 hits.",
            {"effect": "hits", "dice": 3, "point": True, "area_all": False, "on_enemies": True},
        ),
        (
            'Target a point within 12": all friendly units within 6" of it get -1 to hit rolls '
            "until end of round.",
            {"effect": "to_hit", "value": -1, "point": True, "side": "friendly", "area": 6},
        ),
    ],
)
def test_army_forge_texts_that_wound_limit_or_reach_all_are_read(
    text: str, fields: dict[str, Any]
) -> None:
    spell = imported(text)
    assert {k: getattr(spell, k) for k in fields} == fields


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            'Target enemy unit within 12" must take a morale test. If failed it takes D3 wounds '
            "with AP(1).",
            "only Bane, Deadly, Unstoppable act on them, not AP",
        ),
        ('Target enemy unit within 12" takes D3 wounds with AP(1).', "without Defense rolls"),
        ('Target friendly unit within 12" takes D3 wounds.', "not friendly ones"),
        ('Target enemy unit within 12" takes D4 wounds.', "understood:"),
        ('Target enemy unit within 12" takes 7D6 hits.', "understood:"),
        ('Target friendly unit within 12" takes a dangerous terrain test.', "enemy units"),
        ('Target enemy unit within 12" may only Hold next time it shoots.', "understood:"),
        (
            'Target enemy unit within 12" may only Hold, Advance, Rush or Charge next time it '
            "activates.",
            "allows some of hold, advance, rush, charge",
        ),
        (
            'Pick a point within 18". All units within 3" of it take 1 hit, and all other enemy '
            'units within 6" of it take 1 hit.',
            "a point's area is the spell's only area",
        ),
        ('Pick a point within 18".', "understood:"),
        (
            'Target enemy unit within 12" may move by up to 6" toward the nearest tree.',
            "understood:",
        ),
    ],
)
def test_wordings_still_refused_name_what_is_wrong_and_what_is_understood(
    text: str, wanted: str
) -> None:
    message = refused_import(text)
    assert wanted in message
    if wanted == "understood:":
        for shape in ("COUNT wounds", "dangerous terrain test", "may only [use] Hold"):
            assert shape in message


def test_the_points_of_rolled_hits_wounds_limits_and_points() -> None:
    """A D3's mean is 2 hits; a wound counts twice a hit; a limit is flat; a point's area
    counts one more target."""
    assert spell_points(imported('Target enemy unit within 18" takes D3 hits.')) == SPELL_POINTS * 2
    assert (
        spell_points(imported('Target enemy unit within 18" takes 2 wounds.'))
        == SPELL_POINTS * 2 * 2
    )
    halt = imported('Target enemy unit within 18" may only Hold next time it activates.')
    assert spell_points(halt) == SPELL_POINTS
    assert spell_points(imported(POINT)) == SPELL_POINTS * 2


# --- wounds and hits --------------------------------------------------------------------------


def test_a_failed_morale_test_takes_d3_wounds_rolled_on_the_games_dice() -> None:
    """Cast on 4, morale 2 fails (Quality 4), the D3 shows 2: two of three models go."""
    game = cast_at_squad(
        'Target enemy model within 12" must take a morale test. If failed it immediately takes '
        "D3 wounds.",
        [4, 2, 2],
    )
    (d3,) = rolled(game.log, "D3 wounds on b1")
    assert d3.request.sides == 3 and d3.total == 2
    assert len(game.state.units["b1"].models) == 1
    assert rolled(game.log, "Defense") == []
    assert script(game).remaining == 0


def test_a_passed_morale_test_takes_no_wounds() -> None:
    game = cast_at_squad(
        'Target enemy unit within 12" must take a morale test. If failed it takes D3 wounds.',
        [4, 5],
    )
    assert rolled(game.log, "D3 wounds") == [] and len(game.state.units["b1"].models) == 3


def test_a_failed_morale_test_takes_hits_with_the_spells_rules() -> None:
    """On a fail, 2 hits with AP(1): Defense 4 needs 5 after AP; a 5 blocks, a 4 does not."""
    game = cast_at_squad(
        'Target enemy unit within 12" must take a morale test. On a fail it takes 2 hits with '
        "AP(1).",
        [4, 1, 5, 4],
    )
    (defense,) = rolled(game.log, "Defense")
    assert defense.request.dice == 2 and dict(defense.request.modifiers).get("AP(1)") == -1
    assert len(game.state.units["b1"].models) == 2


def test_d6_automatic_hits_are_rolled_then_blocked() -> None:
    """The D6 shows 3: three Defense dice, 1, 1, 6: two wounds."""
    game = cast_at_squad('Target enemy unit within 24" takes D6 automatic hits.', [4, 3, 1, 1, 6])
    (defense,) = rolled(game.log, "Defense")
    assert defense.request.dice == 3
    assert len(game.state.units["b1"].models) == 1


def test_d3_plus_one_wounds_add_one_to_the_die() -> None:
    """The D3 shows 1: two wounds, two of three models go."""
    game = cast_at_squad('Target enemy unit within 12" takes D3+1 wounds.', [4, 1])
    assert rolled(game.log, "D3 wounds on b1")
    assert len(game.state.units["b1"].models) == 1


def test_2d6_hits_roll_two_dice() -> None:
    """2D6 show 1 and 2: three hits, three Defense dice (6, 6, 1): one wound."""
    game = cast_at_squad('Target enemy unit within 12" takes 2D6 hits.', [4, 1, 2, 6, 6, 1])
    (two,) = rolled(game.log, "2D6 hits on b1")
    assert two.request.dice == 2 and two.total == 3
    assert len(game.state.units["b1"].models) == 2


@pytest.mark.parametrize(
    ("rules", "size", "faces", "left"),
    [([], 3, [1, 5, 1], 1), (["Tough(3)"], 1, [1, 2, 3], 1)],
)
def test_a_dangerous_terrain_test_rolls_a_die_per_model_or_per_tough(
    rules: list[str], size: int, faces: list[int], left: int
) -> None:
    """Three models: 1, 5, 1 are two wounds (one model left); one Tough(3) model rolls 3
    dice: one wound, it stands."""
    target = profile("Targets", size=size, rules=rules)
    game = seer_game(
        'Target enemy unit within 12" must take a dangerous terrain test.',
        [target],
        {"b1": (24, 20)},
        [4, *faces],
    )
    play(game, "hold r1", "cast r1 spell b1")
    (test,) = rolled(game.log, "dangerous terrain test, b1")
    assert test.request.dice == 3
    assert len(game.state.units["b1"].models) == left
    assert game.state.units["b1"].models[-1].wounds == (1 if rules else 0)


def test_spell_wounds_are_saved_by_regeneration() -> None:
    """Two wounds on a Regeneration unit: its dice 5 and 1 save one."""
    tough = profile("Trolls", size=3, rules=["Regeneration"])
    game = seer_game(
        'Target enemy unit within 12" takes 2 wounds.', [tough], {"b1": (24, 20)}, [4, 5, 1]
    )
    play(game, "hold r1", "cast r1 spell b1")
    (regen,) = rolled(game.log, "Regeneration")
    assert regen.request.dice == 2
    assert len(game.state.units["b1"].models) == 2


# --- actions allowed --------------------------------------------------------------------------


def test_only_hold_next_activation_refuses_other_actions_then_ends() -> None:
    game = position(
        [SQUAD], [SQUAD], {"r1": (24, 10), "b1": (24, 30)}, player="blue", dice=[1, 1, 1]
    )
    laid_on(
        game, "b1", 'Target enemy unit within 18" may only use Hold actions next time it activates.'
    )
    reason = refusal(game, "advance b1 24,27")
    assert reason is not None and "may only hold" in reason and "idle b1" in reason
    assert "may only hold" in (refusal(game, "charge b1 r1") or "")
    assert refusal(game, "idle b1") is None
    assert not any(str(a).startswith(("advance b1", "rush b1")) for a in game.legal_actions("blue"))
    play(game, "hold b1")
    assert game.state.units["b1"].activated and game.state.units["b1"].effects == ()


def test_may_not_rush_or_charge_until_end_of_round_leaves_hold_and_advance() -> None:
    game = position([SQUAD], [SQUAD], {"r1": (24, 10), "b1": (24, 30)}, player="blue")
    laid_on(game, "b1", 'Target enemy unit within 18" cannot Rush or Charge until end of round.')
    assert "may only hold or advance" in (refusal(game, "rush b1 24,20") or "")
    assert refusal(game, "advance b1 24,26") is None
    spells.end_of_round(game.state)
    assert refusal(game, "rush b1 24,20") is None


# --- difficult terrain ------------------------------------------------------------------------


def test_counting_as_in_difficult_terrain_caps_every_move_at_six_inches() -> None:
    game = position([SQUAD], [SQUAD], {"r1": (24, 10), "b1": (24, 30)}, player="blue")
    assert refusal(game, "rush b1 24,20") is None
    laid_on(
        game,
        "b1",
        'Target enemy unit within 18" counts as being in difficult terrain next time it moves.',
    )
    reason = refusal(game, "rush b1 24,20")
    assert reason is not None and '6"' in reason
    assert refusal(game, "rush b1 24,24.5") is None
    play(game, "rush b1 24,24.5")
    assert game.state.units["b1"].effects == ()


def test_a_charge_in_counted_difficult_terrain_reaches_six_inches_only() -> None:
    game = position([SQUAD], [SQUAD], {"r1": (24, 10), "b1": (24, 19)}, player="blue")
    assert refusal(game, "charge b1 r1") is None
    laid_on(game, "b1", 'Target enemy unit within 18" moves as if in difficult terrain.')
    assert 'charge distance (6")' in (refusal(game, "charge b1 r1") or "")


@pytest.mark.parametrize("rule", ["Strider", "Flying"])
def test_strider_and_flying_ignore_counted_difficult_terrain(rule: str) -> None:
    runner = profile("Runners", size=3, rules=[rule])
    game = position([SQUAD], [runner], {"r1": (24, 10), "b1": (24, 30)}, player="blue")
    laid_on(game, "b1", 'Target enemy unit within 18" moves as if in difficult terrain.')
    assert refusal(game, "rush b1 24,20") is None


# --- areas of both sides ----------------------------------------------------------------------


def test_an_area_of_all_units_reaches_friends_and_foes_near_the_target() -> None:
    """b1 is the target; r2 and b2 within 3" of it take the area's hit, b3 farther none."""
    seer = profile(
        "Seer",
        rules=["Caster(2)"],
        spells=[
            imported(
                'Target enemy unit within 18" takes 2 hits, and all other units within 3" of it '
                "take 1 hit."
            )
        ],
        weapons=[gun()],
    )
    game = position(
        [seer, SQUAD],
        [SQUAD, SQUAD, SQUAD],
        {
            "r1": (24, 10),
            "r2": (20, 22.5),
            "b1": (20, 20),
            "b2": (20, 17.5),
            "b3": (40, 30),
        },
        dice=[4, 1, 1, 1, 1],
    )
    game.state.units["r1"].tokens = 2
    play(game, "hold r1", "cast r1 spell b1")
    defense = rolled(game.log, "Defense")
    assert sorted((r.request.label.split()[1], r.request.dice) for r in defense) == [
        ("b1", 2),
        ("b2", 1),
        ("r2", 1),
    ]
    assert [len(game.state.units[u].models) for u in ("r2", "b1", "b2", "b3")] == [2, 1, 2, 3]


def test_in_area_of_one_side_leaves_the_other_side_out() -> None:
    target, friend, foe = (
        unit("b1", SQUAD, (20, 20)),
        unit("b2", SQUAD, (20, 23)),
        unit("r2", SQUAD, (20, 17)),
    )
    state = state_of(target, friend, foe)
    one_side = imported(
        'Target enemy unit within 18" and all enemy units within 4" of it take 1 hit.'
    )
    both = imported('Target enemy unit within 18" and all other units within 4" of it take 1 hit.')
    assert [u.id for u in spells.in_area(state, one_side, [target])] == ["b2"]
    assert sorted(u.id for u in spells.in_area(state, both, [target])) == ["b2", "r2"]


# --- directed moves out of turn --------------------------------------------------------------


def test_a_move_toward_the_nearest_enemy_runs_straight_at_it() -> None:
    """r2's models stand 20" south of b1's: the move goes due north, any distance to 6"."""
    seer = profile(
        "Seer",
        rules=["Caster(2)"],
        spells=[
            imported(
                'Target friendly unit within 12" may immediately move up to 6" toward the '
                "nearest enemy."
            )
        ],
        weapons=[gun()],
    )
    game = position(
        [seer, SQUAD], [SQUAD], {"r1": (24, 10), "r2": (30, 10), "b1": (30, 30)}, dice=[4]
    )
    game.state.units["r1"].tokens = 2
    play(game, "hold r1", "cast r1 spell r2")
    moves = {str(a) for a in game.legal_actions("red")} - {"done"}
    assert moves == {f"shift r2 31.5,{y:g}" for y in (16, 14.5, 13, 11.5)}
    reason = refusal(game, "shift r2 33,15")
    assert reason is not None and "straight toward the nearest enemy" in reason
    assert "shift r2 31.50,16.00" in reason
    assert 'may move 6"' in (refusal(game, "shift r2 31.5,17") or "")
    play(game, "shift r2 31.5,14")
    assert game.state.units["r2"].centre() == pytest.approx((31.5, 14))


def test_a_failed_test_moves_the_enemy_straight_away_from_the_caster() -> None:
    game = seer_game(
        'Target enemy unit within 18" must take a morale test. If failed you may move it by up '
        'to 6" away from the caster.',
        [SQUAD],
        {"b1": (24, 24)},
        [4, 2],
    )
    play(game, "hold r1", "cast r1 spell b1")
    assert game.state.step["shifts"] == [["b1", 6, "away"]]
    assert isinstance(game.pending, Decision)
    assert 'move b1 by up to 6" away from the caster' in game.pending.prompt
    assert "away from the caster" in (refusal(game, "shift b1 31.5,24") or "")
    play(game, "shift b1 25.5,30")
    assert game.state.units["b1"].centre() == pytest.approx((25.5, 30))


# --- a point --------------------------------------------------------------------------------

POINT = 'Pick a point within 18". All units within 3" of it take 1 hit.'


def point_game(dice: list[int]) -> Any:
    """r1 casts POINT; b1's and r2's models near 21.5,26, b2 far from it."""
    seer = profile("Seer", rules=["Caster(2)"], spells=[imported(POINT)], weapons=[gun()])
    game = position(
        [seer, SQUAD],
        [SQUAD, SQUAD],
        {"r1": (24, 10), "r2": (20, 27.5), "b1": (20, 24), "b2": (30, 26)},
        dice=dice,
    )
    game.state.units["r1"].tokens = 2
    return game


def test_a_spell_at_a_point_reaches_every_unit_near_it_whichever_side() -> None:
    game = point_game([4, 1, 1])
    play(game, "hold r1", "cast r1 spell 21.5,26")
    defense = rolled(game.log, "Defense")
    assert [(r.request.label.split()[1], r.request.dice) for r in defense] == [("b1", 1), ("r2", 1)]
    assert [len(game.state.units[u].models) for u in ("b1", "b2", "r2")] == [2, 3, 2]


def test_a_point_must_be_in_range_and_named_as_x_y() -> None:
    game = point_game([])
    play(game, "hold r1")
    for text in ("cast r1 spell 21.5,40", "cast r1 spell b1", "cast r1 spell 1,2,3"):
        reason = refusal(game, text)
        assert reason is not None and 'within 18"' in reason and "x,y" in reason
    casts = [a for a in game.legal_actions("red") if isinstance(a, Cast)]
    assert {a.target for a in casts} == {"23,24", "30,26", "23,27.5"}


def test_the_ai_does_not_cast_a_point_spell_at_its_own_units_alone() -> None:
    """At 23,27.5 only r2 is within 3": that cast ranks below ending the shooting step."""
    game = point_game([])
    play(game, "hold r1")
    ranked = FirefightAI(0).ranked(game, "red")
    assert isinstance(ranked[0], Cast) and ranked[0].target in ("23,24", "30,26")
    assert ranked.index(Cast("r1", "spell", "23,27.5")) > ranked.index(Done())


# --- a full game ------------------------------------------------------------------------------


def test_an_army_forge_list_with_these_spells_plays_a_full_game(tmp_path: Path) -> None:
    """The AI casts them through a whole game of `warbench play gff` (36" ranges, so that
    its caster finds targets in this seeded game)."""
    book = {
        "Leech": 'Target enemy model within 36" must take a morale test. If failed it '
        "immediately takes D3 wounds.",
        "Snare": 'Target enemy unit within 36" counts as being in difficult terrain next time '
        "it moves.",
        "Halt": 'Target enemy unit within 36" may only use Hold actions next time it activates.',
        "Quake": 'Target enemy unit within 36" takes 2 hits, and all other units within 3" of '
        "it take 1 hit.",
        "Storm": 'Pick a point within 36". All enemy units within 3" of it take 1 hit.',
    }
    text = play_caster_list(
        tmp_path, [{"name": n, "threshold": 1, "effect": e} for n, e in book.items()]
    )
    assert sum(f"casts {name}" in text for name in book) >= 2
    assert "result: " in text
