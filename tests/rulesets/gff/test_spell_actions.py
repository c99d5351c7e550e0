"""Spells that give extra attacks, moves out of turn, forced morale tests and area effects
(GFF-R33): each shape of Army Forge's texts is read, and acts in play through the game's
dice and decisions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import (
    blade,
    decision,
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
from tests.rulesets.gff.spell_setup import SQUAD, imported, refused_import, seer_game
from warbench.core.game import Decision, Game
from warbench.rulesets.gff import spells
from warbench.rulesets.gff.ai import FirefightAI
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight

# --- reading the texts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        (
            'Target 2 friendly units within 12" get +1 attack next time they fight in melee.',
            {"effect": "attacks", "value": 1, "when": "melee", "trigger": "melee", "targets": 2},
        ),
        (
            'Target friendly unit within 12" gets +2 attacks when shooting until end of round.',
            {"effect": "attacks", "value": 2, "when": "shooting", "lasts": "round"},
        ),
        (
            'One friendly unit within 12" gets +1 attack with melee weapons once.',
            {"effect": "attacks", "when": "melee", "trigger": "once"},
        ),
        (
            'Target friendly unit within 12" may immediately move by up to 6".',
            {"effect": "shift", "value": 6, "on_enemies": False},
        ),
        (
            'Pick one enemy unit within 18", which must take a morale test. If failed, it '
            "becomes fatigued.",
            {"effect": "test", "then": "fatigued", "range": 18, "on_enemies": True},
        ),
        (
            'Pick up to two enemy units within 18", which must take a morale test. If failed you '
            'may move it by up to 6" in a straight line in any direction.',
            {"effect": "test", "then": "shift", "value": 6, "targets": 2},
        ),
        (
            'Target enemy unit within 12" must take a morale test.',
            {"effect": "test", "then": "shaken"},
        ),
        (
            'All enemy units within 6" of the caster take 2 hits with AP(1).',
            {"effect": "hits", "hits": 2, "everyone": True, "range": 6},
        ),
        (
            'Target enemy unit within 18" and all enemy units within 3" of it take 2 hits.',
            {"effect": "hits", "hits": 2, "area": 3, "area_hits": 0},
        ),
        (
            'Target enemy unit within 18" takes 3 hits, and all other enemy units within 6" of '
            "it take 1 hit.",
            {"effect": "hits", "hits": 3, "area": 6, "area_hits": 1},
        ),
        (
            'Target friendly unit within 12" and all friendly units within 6" of it get +1 to '
            "hit rolls when shooting next time they shoot.",
            {"effect": "to_hit", "area": 6, "side": "friendly"},
        ),
        (
            'Pick up to two friendly units within 12", which get Furious once (next time the '
            "effect would apply).",
            {"effect": "rule", "targets": 2, "trigger": "once"},
        ),
        (
            'Pick up to three friendly units within 12", which moves +2" when using Advance '
            'actions and +4" when using Rush/Charge actions once (next time the effect would '
            "apply).",
            {"effect": "move", "value": 2, "far": 4, "targets": 3},
        ),
        (
            'Pick up to three enemy units within 18", which friendly units get Rending against '
            "once (next time the effect would apply).",
            {"effect": "mark", "targets": 3},
        ),
    ],
)
def test_army_forge_texts_of_attacks_moves_tests_and_areas_are_read(
    text: str, fields: dict[str, Any]
) -> None:
    spell = imported(text)
    assert {k: getattr(spell, k) for k in fields} == fields


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            'Target enemy unit within 12" must take a morale test. If failed it must flee 6".',
            "understood:",
        ),
        (
            'Target enemy unit within 12" and all friendly units within 6" of it take 1 hit.',
            "reaches friendly",
        ),
        ('All 2 enemy units within 6" take 1 hit.', "'all' takes no number"),
        ('Target friendly unit within 12" may immediately move by up to 18".', "equal to 12"),
        ('Target friendly unit within 12" gets +5 attacks next time it shoots.', "(+1 to +3)"),
        ('Target friendly unit within 12" gets +1 attack next time it sings.', "understood:"),
    ],
)
def test_texts_still_not_understood_are_named_with_the_shapes_understood(
    text: str, wanted: str
) -> None:
    message = refused_import(text)
    assert wanted in message
    if wanted == "understood:":
        for shape in (
            "attack(s)",
            "may immediately move by up to X",
            "must take a morale test",
            "and all",
        ):
            assert shape in message


# --- extra attacks ----------------------------------------------------------------------------


def test_an_extra_attack_next_time_they_fight_in_melee_then_used_up() -> None:
    """One Brute with a 1-attack blade rolls 2 dice to hit; the spell is gone after."""
    brute = profile("Brute", weapons=[blade(), gun()])
    game = position([brute], [SQUAD], {"r1": (24, 10), "b1": (24, 13)}, dice=[1, 1, 1])
    charger = game.state.units["r1"]
    spells.affect(
        Ref(),
        charger,
        imported('Target friendly unit within 12" gets +1 attack next time it fights in melee.'),
        charger,
    )
    play(game, "charge r1 b1")
    (to_hit,) = rolled(game.log, "to hit")
    assert to_hit.request.dice == 2 and "Blade x2" in to_hit.request.label
    assert charger.effects == ()


def test_extra_attacks_when_shooting_multiply_by_the_models_firing() -> None:
    """Three models with a 1-attack rifle and +2 attacks fire 9 dice; melee keeps 1."""
    squad = profile("Squad", size=3, weapons=[gun(), blade()])
    game = position([squad], [SQUAD], {"r1": (20, 10), "b1": (24, 20)}, dice=[1] * 9)
    shooter = game.state.units["r1"]
    spell = imported(
        'Target friendly unit within 12" gets +2 attacks when shooting until end of round.'
    )
    spells.affect(Ref(), shooter, spell, shooter)
    play(game, "hold r1", "fire r1 rifle b1")
    (to_hit,) = rolled(game.log, "to hit")
    assert to_hit.request.dice == 9
    assert shooter.effects, "until the end of the round"


# --- moves out of turn ------------------------------------------------------------------------


def test_a_move_out_of_turn_is_the_casters_players_decision() -> None:
    """Cast on 4: red decides where r2 goes (up to 6"), then red's shooting step resumes."""
    game = seer_game(
        'Target friendly unit within 12" may immediately move by up to 6".',
        [SQUAD],
        {"r2": (30, 10), "b1": (24, 30)},
        [4],
        red=[SQUAD],
    )
    play(game, "hold r1", "cast r1 spell r2")
    assert decision(game) == ("red", "spell-move")
    legal = [str(a) for a in game.legal_actions("red")]
    assert "done" in legal and any(a.startswith("shift r2 ") for a in legal)
    assert 'may move 6"' in (refusal(game, "shift r2 30,20") or "")
    assert "you move Squad" not in (refusal(game, "shift b1 24,30") or "")
    assert "r2" in (refusal(game, "shift b1 24,30") or "")
    before = game.state.units["r2"].centre()
    play(game, "shift r2 31.5,16")
    after = game.state.units["r2"].centre()
    assert after == pytest.approx((before[0], before[1] + 6))
    assert decision(game) == ("red", "shoot")
    assert not game.state.units["r2"].activated


def test_a_failed_morale_test_lets_the_caster_move_the_enemy_unit() -> None:
    """Deep Hypnosis: b1 tests (Quality 4) on a 2 and fails; red moves it 6" away."""
    game = seer_game(
        'Pick one enemy unit within 18", which must take a morale test. If failed you may move '
        'it by up to 6" in a straight line in any direction.',
        [SQUAD],
        {"b1": (24, 24)},
        [4, 2],
    )
    play(game, "hold r1", "cast r1 spell b1")
    assert decision(game) == ("red", "spell-move")
    assert rolled(game.log, "morale: b1")
    play(game, "shift b1 25.5,30")
    assert game.state.units["b1"].centre()[1] == pytest.approx(30)
    assert decision(game) == ("red", "shoot")


def test_a_passed_morale_test_asks_nothing_and_done_leaves_a_unit_put() -> None:
    game = seer_game(
        'Pick up to two enemy units within 18", which must take a morale test. If failed you '
        'may move it by up to 6" in a straight line in any direction.',
        [SQUAD, SQUAD],
        {"b1": (20, 24), "b2": (30, 24)},
        [4, 5, 1],
    )
    play(game, "hold r1", "cast r1 spell b1,b2")
    assert decision(game) == ("red", "spell-move")
    assert game.state.step["shifts"] == [["b2", 6]]
    play(game, "done")
    assert game.state.units["b2"].centre() == pytest.approx((21.5 + 10, 24))
    assert decision(game) == ("red", "shoot")


# --- forced morale tests ----------------------------------------------------------------------


def test_a_forced_morale_test_makes_it_fatigued_on_a_failure() -> None:
    game = seer_game(
        'Pick one enemy unit within 18", which must take a morale test. If failed, it becomes '
        "fatigued.",
        [SQUAD],
        {"b1": (24, 24)},
        [4, 3],
    )
    play(game, "hold r1", "cast r1 spell b1")
    target = game.state.units["b1"]
    assert target.fatigued and not target.shaken
    assert decision(game) == ("red", "shoot")


@pytest.mark.parametrize(("shaken", "wanted"), [(False, "shaken"), (True, "routs")])
def test_a_plain_forced_morale_test_shakes_or_routs(shaken: bool, wanted: str) -> None:
    """As the rulebook's morale test: failed → Shaken; already Shaken → routs."""
    game = seer_game(
        'Target enemy unit within 12" must take a morale test.',
        [SQUAD],
        {"b1": (24, 20)},
        [4, 1],
    )
    target = game.state.units["b1"]
    target.shaken = shaken
    play(game, "hold r1", "cast r1 spell b1")
    if wanted == "shaken":
        assert target.shaken and target.alive
    else:
        assert not target.alive


# --- area effects -----------------------------------------------------------------------------


def test_an_area_around_the_target_hits_the_units_near_it() -> None:
    """b1 is the target, b2 within 3" of it takes the hits too, b3 farther does not."""
    game = seer_game(
        'Target enemy unit within 18" takes 2 hits, and all other enemy units within 3" of it '
        "take 1 hit.",
        [SQUAD, SQUAD, SQUAD],
        {"b1": (20, 20), "b2": (20, 22.5), "b3": (20, 30)},
        [4, 1, 1, 1],
    )
    play(game, "hold r1", "cast r1 spell b1")
    defense = rolled(game.log, "Defense")
    assert [(r.request.label.split()[1], r.request.dice) for r in defense] == [("b1", 2), ("b2", 1)]
    assert [len(game.state.units[u].models) for u in ("b1", "b2", "b3")] == [1, 2, 3]


def test_all_enemy_units_in_range_of_the_caster_are_the_targets() -> None:
    """`cast r1 spell all`: b1 and b2 within 6" take a hit each, b3 at 20" none."""
    game = seer_game(
        'All enemy units within 6" take 1 hit each.',
        [SQUAD, SQUAD, SQUAD],
        {"b1": (20, 14), "b2": (28, 14), "b3": (24, 30)},
        [4, 1, 1],
    )
    play(game, "hold r1")
    casts = [str(a) for a in game.legal_actions("red") if str(a).startswith("cast")]
    assert casts == ["cast r1 spell all"]
    assert "cast it at all" in (refusal(game, "cast r1 spell b1") or "")
    play(game, "cast r1 spell all")
    assert [len(game.state.units[u].models) for u in ("b1", "b2", "b3")] == [2, 2, 3]


def test_an_area_buff_reaches_friends_near_the_target() -> None:
    target, near, far = (
        unit("r2", SQUAD, (20, 20)),
        unit("r3", SQUAD, (20, 24)),
        unit("r4", SQUAD, (20, 40)),
    )
    spell = imported(
        'Target friendly unit within 12" and all friendly units within 6" of it get +1 to hit '
        "rolls when shooting next time they shoot."
    )
    state = state_of(target, near, far)
    assert spells.in_area(state, spell, [target]) == [near]


# --- a full game ----------------------------------------------------------------------------


HYPNOSIS = (
    'Pick up to two enemy units within 18", which must take a morale test. If failed you may '
    'move it by up to 6" in a straight line in any direction.'
)
FURY = 'Target 2 friendly units within 12" get +1 attack next time they fight in melee.'
NOVA = 'All enemy units within 12" of the caster take 1 hit each.'
BLINK = 'Target friendly unit within 12" may immediately move by up to 6".'


def test_an_army_forge_list_with_these_spells_plays_a_full_game(tmp_path: Path) -> None:
    """The AI casts them and decides the moves out of turn through a whole game."""
    book = {"Hypnosis": HYPNOSIS, "Fury": FURY, "Nova": NOVA, "Blink": BLINK}
    text = play_caster_list(
        tmp_path, [{"name": n, "threshold": 1, "effect": e} for n, e in book.items()]
    )
    assert any(f"casts {name}" in text for name in book)
    assert "result: " in text


def _to_a_move_out_of_turn(scenario: dict[str, Any]) -> GFFGame:
    """An AI-v-AI game at its first `spell-move` decision (the first of seeds 1-10 whose
    game casts the spell with success)."""
    ruleset = GrimdarkFutureFirefight()
    for seed in range(1, 11):
        game = ruleset.new_game(scenario, seed)
        assert isinstance(game, GFFGame)
        agents = {p: FirefightAI(n) for n, p in enumerate(ruleset.players)}
        while isinstance(game.pending, Decision) and game.pending.kind != "spell-move":
            player = game.pending.player
            game.apply(agents[player].choose(game, player), player)
        if isinstance(game.pending, Decision):
            return game
    raise AssertionError("no game of seeds 1-10 offered a move out of turn")


def test_a_game_saved_at_a_move_out_of_turn_loads_and_replays(tmp_path: Path) -> None:
    """With the caster list: the game saved at a `spell-move` decision loads with the same
    state, decision and legal actions, plays on alike, and its record replays."""
    data = json.loads((Path(__file__).parent / "data" / "army_forge_valid.json").read_text())
    data["units"][0]["rules"].append({"key": "caster", "name": "Caster", "rating": "3"})
    data["spells"] = [{"name": "Blink", "threshold": 1, "effect": BLINK}]
    ruleset = GrimdarkFutureFirefight()
    scenario = ruleset.with_army_list(
        ruleset.load_scenario("skirmish"), "blue", "list.json", json.dumps(data)
    )
    game = _to_a_move_out_of_turn(scenario)
    path = tmp_path / "mid.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.state_hash() == game.state_hash() and loaded.pending == game.pending
    assert loaded.legal_actions("blue") == game.legal_actions("blue")
    for both in (game, loaded):
        agents = {p: FirefightAI(7 + n) for n, p in enumerate(ruleset.players)}
        while isinstance(both.pending, Decision):
            player = both.pending.player
            both.apply(agents[player].choose(both, player), player)
    assert loaded.record.to_json() == game.record.to_json()
    replayed = Game.replay(game.record)
    assert [s.hash for s in replayed.steps] == [s.hash for s in game.steps]
