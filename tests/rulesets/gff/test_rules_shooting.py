"""SHOOTING, cover, and the special rules of ranged attacks: "Models in range and line of sight
may fire all ranged weapons, and may fire at up to two different targets with different
weapon types. Shooting models take one quality test per attack, and each success is a hit.
For each hit defending units roll one die trying to score their Defense value or higher to
block, and each fail causes one wound." """

from __future__ import annotations

import pytest

from tests.referee import Ref
from tests.rulesets.gff.position import (
    blade,
    decision,
    gun,
    play,
    position,
    profile,
    refusal,
    rolled,
    script,
    square,
    unit,
)
from warbench.rulesets.gff.attacks import Context, roll_hits
from warbench.rulesets.gff.quality import successes

RUINS = square(20, 18, 28, 24, "ruins")  # cover terrain around (24, 21)
WALL = square(22, 15, 24.2, 16, "wall")  # hides the centre line from (24, 10) to (24, 21)
BUILDING = square(20, 14, 28, 17, "building")  # hides (24, 21) from (24, 10) entirely


# --- one quality test per attack, one Defense roll per hit -----------------------------------


def test_one_quality_test_per_attack_of_each_model_in_range() -> None:
    """Three models with an A2 24" rifle: the two within 24" fire (4 dice), the third
    (25" away) does not; two hits, one blocked: the five-model target loses one model."""
    red = profile(size=3, quality=4, weapons=[gun(attacks=2)])
    blue = profile(size=5, defense=4)
    game = position(
        [red],
        [blue],
        {"r1": [(24, 4), (24, 5.5), (24, 7)], "b1": (24, 30)},
        dice=[4, 4, 3, 1, 3, 5],
    )
    events = play(game, "hold r1", "fire r1 rifle b1")
    (to_hit,) = rolled(events, "to hit")
    assert to_hit.request.dice == 4
    (defense,) = rolled(events, "Defense")
    assert defense.request.dice == 2
    assert len(game.state.units["b1"].models) == 4
    assert script(game).remaining == 0


def test_defense_one_die_per_hit_each_failure_a_wound() -> None:
    red = profile(quality=4, weapons=[gun(attacks=3)])
    blue = profile(size=5, defense=4)
    game = position([red], [blue], {"r1": (24, 10), "b1": (20, 20)}, dice=[5, 5, 5, 4, 3, 2])
    events = play(game, "hold r1", "fire r1 rifle b1")
    (defense,) = rolled(events, "Defense")
    assert defense.request.dice == 3
    assert defense.successes == 1
    assert len(game.state.units["b1"].models) == 3  # two wounds, two models


# --- cover -----------------------------------------------------------------------------------


def test_cover_terrain_gives_plus_one_defense_against_shooting() -> None:
    """Defense 5+ inside ruins: a 4 blocks (4 + 1 cover)."""
    red = profile(weapons=[gun()])
    blue = profile(defense=5)
    game = position(
        [red], [blue], {"r1": (24, 10), "b1": (24, 21)}, dice=[4, 4, 3], terrain=[RUINS]
    )
    events = play(game, "hold r1", "fire r1 rifle b1")
    (defense,) = rolled(events, "Defense")
    assert ("cover", 1) in defense.request.modifiers
    assert game.state.units["b1"].models[0].wounds == 0
    assert script(game).remaining == 1  # no wound effects roll


@pytest.mark.parametrize(
    ("spots", "covered"),
    [
        ([(22.0, 21.0), (24.0, 21.0), (26.0, 21.0)], True),  # all three fully inside
        ([(22.0, 21.0), (24.0, 21.0), (30.0, 21.0)], True),  # two of three
        ([(24.0, 21.0), (30.0, 21.0), (31.5, 21.0)], False),  # one of three
        ([(27.8, 21.0), (24.0, 21.0), (22.0, 21.0)], True),  # two fully inside, one partly
        ([(27.8, 21.0), (29.3, 21.0), (24.0, 21.0)], False),  # partly inside is not inside
    ],
)
def test_cover_needs_most_models_fully_inside(
    spots: list[tuple[float, float]], covered: bool
) -> None:
    game = position(
        [profile(weapons=[gun()])],
        [profile(size=3, defense=5)],
        {"r1": (24, 10), "b1": spots},
        dice=[4, 4],
        terrain=[RUINS],
    )
    play(game, "hold r1", "fire r1 rifle b1")
    assert len(game.state.units["b1"].models) == (3 if covered else 2)


@pytest.mark.parametrize(("x", "covered"), [(28.0, True), (28.2, False)])
def test_single_model_needs_to_be_mostly_inside_cover(x: float, covered: bool) -> None:
    """A 1" base centred on the ruins' edge is half inside: mostly; 0.2" further it is not."""
    game = position(
        [profile(weapons=[gun()])],
        [profile(defense=5)],
        {"r1": (24, 10), "b1": (x, 21)},
        dice=[4, 4, 3],
        terrain=[RUINS],
    )
    play(game, "hold r1", "fire r1 rifle b1")
    assert game.state.units["b1"].models[0].wounds == (0 if covered else 1)


def test_sight_blockers_give_cover_against_shooting() -> None:
    """The target is seen past the end of a wall, but its centre is hidden: +1 Defense."""
    red = profile(weapons=[gun()])
    blue = profile(defense=5)
    game = position([red], [blue], {"r1": (24, 10), "b1": (24, 21)}, dice=[4, 4, 3], terrain=[WALL])
    play(game, "hold r1", "fire r1 rifle b1")
    assert game.state.units["b1"].models[0].wounds == 0
    assert script(game).remaining == 1


def test_no_cover_in_open_ground() -> None:
    red = profile(weapons=[gun()])
    blue = profile(defense=5)
    game = position([red], [blue], {"r1": (24, 10), "b1": (24, 21)}, dice=[4, 4, 3])
    play(game, "hold r1", "fire r1 rifle b1")
    assert game.state.units["b1"].models[0].wounds == 1
    assert game.state.units["b1"].shaken


def test_cover_does_not_help_against_melee() -> None:
    """Charged inside ruins, Defense 5+ fails on a 4: cover only counts against shooting."""
    red = profile(weapons=[blade()])
    blue = profile(defense=5)
    game = position(
        [red], [blue], {"r1": (24, 13), "b1": (24, 21)}, dice=[4, 4, 3], terrain=[RUINS]
    )
    events = play(game, "charge r1 b1")
    (defense,) = rolled(events, "Defense")
    assert defense.request.modifiers == ()
    assert game.state.units["b1"].models[0].wounds == 1


# --- targets, range and line of sight ----------------------------------------------------------


def three_guns_three_targets() -> list[str]:
    red = profile(weapons=[gun("Rifle"), gun("Pistol"), gun("Launcher")])
    game = position(
        [red],
        [profile(), profile(), profile()],
        {"r1": (24, 10), "b1": (18, 20), "b2": (24, 20), "b3": (30, 20)},
        dice=[1, 1],
    )
    play(game, "hold r1", "fire r1 rifle b1", "fire r1 pistol b2")
    return [
        refusal(game, "fire r1 launcher b3") or "",
        refusal(game, "fire r1 launcher b1") or "legal",
        refusal(game, "fire r1 rifle b2") or "",
    ]


def test_fire_at_up_to_two_targets_a_third_is_refused() -> None:
    third, _, _ = three_guns_three_targets()
    assert "already fires at two targets" in third


def test_a_third_weapon_may_fire_at_one_of_the_two_targets() -> None:
    _, again, _ = three_guns_three_targets()
    assert again == "legal"


def test_each_weapon_fires_once() -> None:
    _, _, twice = three_guns_three_targets()
    assert "already fired" in twice


@pytest.mark.parametrize(("y", "legal"), [(35.0, True), (35.5, False)])
def test_target_must_be_in_range(y: float, legal: bool) -> None:
    """A 24" rifle: the target 24" away edge to edge may be shot, 24.5" may not."""
    game = position(
        [profile(weapons=[gun(range=24)])],
        [profile(), profile()],
        {"r1": (24, 10), "b1": (24, y), "b2": (35, 12)},
    )
    play(game, "hold r1")
    reason = refusal(game, "fire r1 rifle b1")
    if legal:
        assert reason is None
    else:
        assert reason is not None and "range" in reason


def test_target_must_be_in_line_of_sight() -> None:
    game = position(
        [profile(weapons=[gun(), gun("Pistol")])],
        [profile(), profile()],
        {"r1": (24, 10), "b1": (24, 21), "b2": (35, 12)},
        terrain=[BUILDING],
    )
    play(game, "hold r1")
    reason = refusal(game, "fire r1 rifle b1")
    assert reason is not None and "line of sight" in reason
    assert refusal(game, "fire r1 rifle b2") is None


# --- actions: Hold and Advance can shoot, Rush cannot ----------------------------------------


@pytest.mark.parametrize(
    ("action", "shoots"),
    [("hold r1", True), ("advance r1 24,14", True), ("rush r1 24,14", False)],
)
def test_hold_and_advance_can_shoot_rush_cannot(action: str, shoots: bool) -> None:
    game = position([profile(weapons=[gun()])], [profile()], {"r1": (24, 10), "b1": (24, 30)})
    play(game, action)
    if shoots:
        assert decision(game) == ("red", "shoot")
        assert refusal(game, "fire r1 rifle b1") is None
    else:
        assert decision(game) == ("blue", "activate")
        assert game.state.units["r1"].activated
        assert refusal(game, "fire r1 rifle b1") is not None


# --- Indirect --------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "hits"), [("hold r1", 1), ("advance r1 24,12", 0)])
def test_indirect_gets_minus_one_to_hit_after_moving(action: str, hits: int) -> None:
    mortar = gun("Mortar", rules=["Indirect"])
    game = position(
        [profile(quality=4, weapons=[mortar])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 25)},
        dice=[4, 6],
    )
    events = play(game, action, "fire r1 mortar b1")
    (to_hit,) = rolled(events, "to hit")
    assert successes(to_hit) == hits


def test_indirect_needs_no_line_of_sight() -> None:
    mortar = gun("Mortar", rules=["Indirect"])
    game = position(
        [profile(weapons=[gun(), mortar])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 21)},
        terrain=[BUILDING],
    )
    play(game, "hold r1")
    assert refusal(game, "fire r1 rifle b1") is not None
    assert refusal(game, "fire r1 mortar b1") is None


def test_indirect_ignores_cover_from_sight_blockers() -> None:
    """Behind the end of a wall (cover against a rifle), Defense 5+ fails on a 4 vs Indirect."""
    mortar = gun("Mortar", rules=["Indirect"])
    game = position(
        [profile(weapons=[mortar])],
        [profile(defense=5)],
        {"r1": (24, 10), "b1": (24, 21)},
        dice=[4, 4, 3],
        terrain=[WALL],
    )
    events = play(game, "hold r1", "fire r1 mortar b1")
    (defense,) = rolled(events, "Defense")
    assert defense.request.modifiers == ()
    assert game.state.units["b1"].models[0].wounds == 1


def test_indirect_still_gets_cover_terrain() -> None:
    mortar = gun("Mortar", rules=["Indirect"])
    game = position(
        [profile(weapons=[mortar])],
        [profile(defense=5)],
        {"r1": (24, 10), "b1": (24, 21)},
        dice=[4, 4],
        terrain=[RUINS],
    )
    play(game, "hold r1", "fire r1 mortar b1")
    assert game.state.units["b1"].models[0].wounds == 0


# --- Limited ---------------------------------------------------------------------------------


def test_limited_weapon_fires_once_per_game() -> None:
    grenade = gun("Grenade", range=12, rules=["Limited"])
    game = position(
        [profile(weapons=[gun(), grenade])],
        [profile()],
        {"r1": (24, 10), "b1": (24, 20)},
        dice=[1],
    )
    play(game, "hold r1")
    assert refusal(game, "fire r1 grenade b1") is None
    play(game, "fire r1 grenade b1", "done", "idle b1")
    assert game.state.round == 2
    play(game, "hold r1")
    reason = refusal(game, "fire r1 grenade b1")
    assert reason is not None and "Limited" in reason
    assert refusal(game, "fire r1 rifle b1") is None


# --- Blast(X) --------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "multiplied"), [(2, 2), (5, 3)])
def test_blast_multiplies_each_hit_up_to_the_models_in_the_target(
    size: int, multiplied: int
) -> None:
    launcher = gun("Launcher", rules=["Blast(3)"])
    game = position(
        [profile(weapons=[launcher])],
        [profile(size=size)],
        {"r1": (24, 10), "b1": (20, 25)},
        dice=[4, *[6] * multiplied],
    )
    events = play(game, "hold r1", "fire r1 launcher b1")
    (defense,) = rolled(events, "Defense")
    assert defense.request.dice == multiplied
    assert script(game).remaining == 0


def test_blast_ignores_cover() -> None:
    launcher = gun("Launcher", rules=["Blast(3)"])
    game = position(
        [profile(weapons=[launcher])],
        [profile(defense=5)],
        {"r1": (24, 10), "b1": (24, 21)},
        dice=[4, 4, 3],
        terrain=[RUINS],
    )
    events = play(game, "hold r1", "fire r1 launcher b1")
    (defense,) = rolled(events, "Defense")
    assert defense.request.modifiers == ()
    assert game.state.units["b1"].models[0].wounds == 1


def test_blast_hits_are_split_between_enemy_units_within_three_inches() -> None:
    """b2 (2 models, 1.5" from b1) is in the blast, b3 (4" away) is not: Blast(3) makes the
    hit 3 hits (3 models): one to each, the odd one where the defender says."""
    launcher = gun("Launcher", rules=["Blast(3)"])
    game = position(
        [profile(weapons=[launcher])],
        [profile(), profile(size=2), profile()],
        {"r1": (24, 10), "b1": (24, 20), "b2": (26.5, 20), "b3": (24, 25)},
        dice=[4, 6, 6, 6],
    )
    texts = [e.text for e in play(game, "hold r1", "fire r1 launcher b1")]
    assert "Blast(3): 1 hit becomes 3" in texts  # not "1 hit(s) become 3"
    assert "1 odd hit among 2 units: the defender chooses" in texts
    # 3 hits between 2 units: one each, and the defender decides who takes the odd one
    assert decision(game) == ("blue", "blast-split")
    assert refusal(game, "take b3") is not None  # b3 is not within 3"
    events = play(game, "take b1")
    assert "b2 Trooper takes 0 wounds" in [e.text for e in events]
    blocks = [
        (r.request.label.split(" blocks")[0], r.request.dice) for r in rolled(events, "Defense")
    ]
    assert blocks == [("Defense: b1 Trooper", 2), ("Defense: b2 Trooper", 1)]


def test_the_defender_may_give_the_odd_blast_hit_to_the_other_unit() -> None:
    launcher = gun("Launcher", rules=["Blast(3)"])
    game = position(
        [profile(weapons=[launcher])],
        [profile(), profile(size=2), profile()],
        {"r1": (24, 10), "b1": (24, 20), "b2": (26.5, 20), "b3": (24, 25)},
        dice=[4, 6, 6, 6],
    )
    events = play(game, "hold r1", "fire r1 launcher b1", "take b2")
    blocks = [
        (r.request.label.split(" blocks")[0], r.request.dice) for r in rolled(events, "Defense")
    ]
    assert blocks == [("Defense: b1 Trooper", 1), ("Defense: b2 Trooper", 2)]
    assert script(game).remaining == 0


# --- Relentless, Stealth, Surge, Reliable, Unstoppable -----------------------------------------


@pytest.mark.parametrize(("y", "hits"), [(21.0, 2), (20.0, 1)])
def test_relentless_six_deals_an_extra_hit_over_nine_inches(y: float, hits: int) -> None:
    """10" away a 6 to hit is two hits; at exactly 9" it is one."""
    game = position(
        [profile(rules=["Relentless"], weapons=[gun()])],
        [profile(size=3)],
        {"r1": (24, 10), "b1": (24, y)},
        dice=[6, *[6] * hits],
    )
    events = play(game, "hold r1", "fire r1 rifle b1")
    assert sum(r.request.dice for r in rolled(events, "Defense")) == hits


@pytest.mark.parametrize(("y", "hits"), [(21.0, 0), (20.0, 1)])
def test_stealth_gives_minus_one_to_hit_from_over_nine_inches(y: float, hits: int) -> None:
    game = position(
        [profile(quality=4, weapons=[gun()])],
        [profile(rules=["Stealth"])],
        {"r1": (24, 10), "b1": (24, y)},
        dice=[4, 6],
    )
    events = play(game, "hold r1", "fire r1 rifle b1")
    (to_hit,) = rolled(events, "to hit")
    assert successes(to_hit) == hits


def test_surge_six_deals_an_extra_hit_only_the_original_counts_as_a_six() -> None:
    """Surge and Rending: a 6 makes two hits; only the original one gets Rending's AP(+4)."""
    weapon = gun(rules=["Surge", "Rending"])
    ref = Ref([6])
    shooter = unit("r1", profile(weapons=[weapon]))
    target = unit("b1", profile(), (0.0, 5.0))
    hits = roll_hits(ref, shooter, weapon, 1, target, Context(melee=False, distance=4.0))
    assert sorted(h.ap for h in hits) == [0, 4]


def test_surge_no_extra_hit_on_a_five() -> None:
    weapon = gun(rules=["Surge"])
    ref = Ref([5])
    shooter = unit("r1", profile(quality=4, weapons=[weapon]))
    target = unit("b1", profile(), (0.0, 5.0))
    assert len(roll_hits(ref, shooter, weapon, 1, target, Context(melee=False))) == 1


def test_reliable_attacks_at_quality_two() -> None:
    weapon = gun(rules=["Reliable"], attacks=3)
    ref = Ref([1, 2, 3])
    shooter = unit("r1", profile(quality=6, weapons=[weapon]))
    target = unit("b1", profile(), (0.0, 5.0))
    hits = roll_hits(ref, shooter, weapon, 3, target, Context(melee=False))
    assert ref.rolls[0].request.target == 2
    assert len(hits) == 2


def test_unstoppable_ignores_negative_modifiers() -> None:
    """Indirect after moving (−1) at a Stealth target over 9" (−1): Unstoppable hits on a 4."""
    weapon = gun(rules=["Unstoppable", "Indirect"])
    ref = Ref([4])
    shooter = unit("r1", profile(quality=4, weapons=[weapon]))
    target = unit("b1", profile(rules=["Stealth"]), (0.0, 20.0))
    ctx = Context(melee=False, distance=19.0, moved=True)
    hits = roll_hits(ref, shooter, weapon, 1, target, ctx)
    assert ref.rolls[0].request.modifiers == ()
    assert len(hits) == 1


def test_unstoppable_keeps_positive_modifiers() -> None:
    weapon = gun(rules=["Unstoppable"])
    ref = Ref([3])
    shooter = unit("r1", profile(quality=4, weapons=[weapon]))
    shooter.focus = True
    target = unit("b1", profile(), (0.0, 5.0))
    assert len(roll_hits(ref, shooter, weapon, 1, target, Context(melee=False))) == 1


def test_unstoppable_ignores_regeneration() -> None:
    game = position(
        [profile(weapons=[gun(rules=["Unstoppable"])])],
        [profile(rules=["Regeneration"])],
        {"r1": (24, 10), "b1": (24, 20)},
        dice=[4, 1, 5],
    )
    events = play(game, "hold r1", "fire r1 rifle b1")
    assert rolled(events, "Regeneration") == []
    assert not game.state.units["b1"].alive  # 5 + 1 marker: Knocked Out
