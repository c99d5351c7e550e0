"""DEVELOPMENT OF A TURN through the game: opportunity fire in the middle of a move, light
and general firing with casualties removed together, hand to hand, healing after it, action
points each phase, flanking forces, the queen, goo, explosions, the end of the game."""

from __future__ import annotations

from tests.rulesets.fftt.position import fig, game, state
from warbench.core.game import Decision, GameOver
from warbench.rulesets.fftt import wounds
from warbench.rulesets.fftt.actions import (
    Charge,
    Done,
    Eat,
    Explode,
    Heal,
    Hold,
    Lay,
    Move,
    OpportunityFire,
    Shoot,
)
from warbench.rulesets.fftt.movement import actions_for, move_problem
from warbench.rulesets.fftt.state import DOC, Corpse, Egg, Flank, Goo, Melee
from warbench.rulesets.fftt.table import Piece


def _pending(g: object) -> Decision:
    p = g.pending  # type: ignore[attr-defined]
    assert isinstance(p, Decision)
    return p


def _to_next_phase(g: object) -> None:
    """Everyone says done until the next phase begins."""
    phase = g.state.phase  # type: ignore[attr-defined]
    while g.state.phase == phase:  # type: ignore[attr-defined]
        g.apply(Done(), _pending(g).player)  # type: ignore[attr-defined]


def test_opportunity_fire_is_the_other_players_decision_mid_move() -> None:
    runner = fig("r1", "grunt", 20, 50, facing=90)
    watcher = fig("b1", "terminator", 26, 65)
    s = state(runner, watcher, stage="move")
    g = game(s, [1, 1])
    g.apply(Move("r1", (30.0, 50.0)), "red")
    p = _pending(g)
    assert (p.player, p.kind) == ("blue", "opfire")
    options = [a for a in g.legal_actions("blue") if isinstance(a, OpportunityFire)]
    assert {a.at for a in options} == {0, 1, 2, 3, 4}
    g.apply(OpportunityFire("b1", 2), "blue")
    # hit at once (not simultaneous): the grunt takes its wound at 26,50 and goes on
    assert g.state.figs["r1"].wounds == 1
    assert g.state.figs["b1"].ap == 0
    assert g.state.figs["r1"].pos == (30.0, 50.0)
    assert _pending(g).player == "red"


def test_opportunity_fire_costs_two_actions_and_a_third_is_kept() -> None:
    """R1: "it costs 2 actions ... will not be able to move and fire": a sentinel (3
    actions) keeps one after it, to move or to fire, not both."""
    runner = fig("r1", "grunt", 20, 50, facing=90)
    s = state(runner, fig("b1", "sentinel", 26, 65), stage="move")
    g = game(s, [6, 6])  # a miss
    g.apply(Move("r1", (30.0, 50.0)), "red")
    g.apply(OpportunityFire("b1", 2), "blue")
    assert g.state.figs["b1"].ap == 1 and g.state.figs["r1"].wounds == 0


def test_opportunity_fire_kills_the_mover_where_it_is() -> None:
    runner = fig("r1", "grunt", 20, 50, facing=90, wounds=1)
    s = state(runner, fig("b1", "terminator", 26, 65), stage="move")
    g = game(s, [1, 2])
    g.apply(Move("r1", (30.0, 50.0)), "red")
    g.apply(OpportunityFire("b1", 0), "blue")
    assert g.state.figs["r1"].where == "dead"
    assert g.state.figs["r1"].pos == (22.0, 50.0)


def test_no_opportunity_fire_for_snipers_outside_the_arc_or_without_2_actions() -> None:
    runner = fig("r1", "grunt", 20, 50)
    s = state(
        runner,
        fig("b1", "terminator", 40, 70, facing=0),  # facing away
        fig("b2", "terminator", 50, 70, ap=1),
        fig("b3", "mt", 60, 80),
        stage="move",
    )
    g = game(s)
    g.apply(Move("r1", (30.0, 50.0)), "red")
    assert _pending(g).player == "red"  # nobody could fire: the move went through
    assert g.state.figs["r1"].pos == (30.0, 50.0)


def test_hold_lets_the_move_finish() -> None:
    s = state(fig("r1", "grunt", 20, 50), fig("b1", "terminator", 50, 70), stage="move")
    g = game(s)
    g.apply(Move("r1", (30.0, 50.0)), "red")
    g.apply(Hold(), "blue")
    assert g.state.figs["r1"].pos == (30.0, 50.0)
    assert g.state.figs["r1"].ap == 2


def test_movement_halved_in_terrain_and_walls() -> None:
    grunt = fig("r1", "grunt", 20, 50)
    sentinel = fig("b1", "sentinel", 80, 50)
    tank = fig("b2", "tank", 50, 20)
    s = state(
        grunt,
        sentinel,
        tank,
        pieces=[
            Piece("forest", 20, 40, 40, 60),
            Piece("wall", 10, 45, 15, 46),
            Piece("building", 40, 10, 60, 18),
        ],
        stage="move",
    )
    assert move_problem(s, grunt, (25.0, 50.0)) is None
    assert actions_for(s, grunt, (25.0, 50.0)) == 1
    assert actions_for(s, grunt, (26.0, 50.0)) == 2  # 6 cm through the forest cost 12
    grunt.ap = 1
    assert "costs 12.0 cm" in (move_problem(s, grunt, (26.0, 50.0)) or "")
    walker = fig("r2", "grunt", 12, 50)
    s.figs["r2"] = walker
    assert "low wall" in (move_problem(s, walker, (12.0, 42.0)) or "")
    sentinel.x, sentinel.y = 12.0, 50.0
    assert move_problem(s, sentinel, (12.0, 38.0)) is None  # over the wall, 12 cm of 15
    assert "double doors" in (move_problem(s, tank, (50.0, 17.0)) or "")


def test_light_fire_casualties_are_removed_together() -> None:
    a = fig("r1", "grunt", 50, 40, wounds=1)
    b = fig("b1", "sentinel", 50, 55)
    s = state(a, b, stage="light")
    g = game(s, [1, 1, 1, 1])
    g.apply(Shoot("r1", "b1"), "red")
    assert g.state.figs["b1"].where == "table"  # hit, but it still fires back
    assert _pending(g).player == "blue"
    g.apply(Shoot("b1", "r1"), "blue")
    assert g.state.figs["r1"].where == "dead"
    assert g.state.figs["b1"].where == "dead"


def test_light_firing_only_with_three_actions() -> None:
    s = state(fig("r1", "engineer", 50, 40), fig("r2", "grunt", 40, 40), fig("b1", "hq", 50, 60))
    s.stage = "light"
    g = game(s)
    assert [str(a) for a in g.legal_actions("red")] == ["done", "shoot r2 b1", "surrender"]


def test_charge_then_hand_to_hand_then_healing_after_it() -> None:
    dog = fig("b1", "razor_dog", 50, 50, race="insectoids")
    grunt = fig("r1", "grunt", 50, 42, wounds=1)
    medic = fig("r2", "medic", 52, 42)
    s = state(grunt, medic, dog, stage="move")
    s.part, s.player = 1, "blue"
    dog.sees = ["r1", "r2"]
    g = game(s, [])
    g.apply(Charge("b1", "r1"), "blue")
    if _pending(g).kind == "opfire":
        g.apply(Hold(), "red")
    assert g.state.melees == [Melee("r1", ["b1"])]
    assert g.state.figs["b1"].ap == 3


def test_the_engineer_answers_a_charge_by_shooting_or_fights() -> None:
    engineer = fig("b1", "engineer", 50, 50, race="marines")
    dog = fig("r1", "razor_dog", 50, 48, race="insectoids")
    s = state(engineer, dog, stage="general")
    s.part, s.player = 1, "blue"
    s.melees = [Melee("b1", ["r1"])]
    g = game(s, [1, 2, 3, 1, 1, 1, 1])  # the shot hits; engineer 3+2 beats four dog dice of 1+3
    g.apply(Done(), "blue")
    assert _pending(g).kind == "answer"
    assert {str(a) for a in g.legal_actions("blue")} == {"fight", "answer r1", "surrender"}
    g.apply(g.parse("answer r1"), "blue")
    assert g.state.figs["r1"].wounds == 1
    # having shot, the engineer fights with no action left: a successful defence, no damage
    assert g.state.figs["b1"].wounds == 0


def test_healing_takes_effect_after_hand_to_hand() -> None:
    grunt = fig("r1", "grunt", 50, 40, wounds=1)
    medic = fig("r2", "medic", 52, 40)
    other_medic = fig("r3", "medic", 48, 40)
    s = state(grunt, medic, other_medic, fig("b1", "scanner", 90, 90), stage="move")
    g = game(s)
    g.apply(Heal("r2", "r1"), "red")
    assert g.state.figs["r1"].wounds == 1
    assert g.state.figs["r2"].ap == 1
    assert "costs 2 actions" in (g.check(Heal("r2", "r1")) or "")
    assert "no wound left" in (g.check(Heal("r3", "r1")) or "")
    _to_next_phase(g)
    assert g.state.figs["r1"].wounds == 0


def test_a_doc_general_heals_like_a_medic_or_repairs_like_an_ai() -> None:
    """The chart's 7, "Doc: healing abilities like any medic or AI" (R35): a marine Doc heals
    bio-forms like a medic, a machina Doc repairs mechanical units like a tank."""
    marine_doc = fig("r1", "grunt", 50, 40, ability=DOC)
    s = state(marine_doc, fig("r2", "grunt", 52, 40, wounds=1), fig("b1", "scanner", 90, 90))
    s.stage = "move"
    assert game(s).check(Heal("r1", "r2")) is None
    doc = fig("r1", "terminator", 50, 40, race="machina", ability=DOC)
    hurt = fig("r2", "sentinel", 52, 40, race="machina", wounds=1)
    s = state(doc, hurt, fig("b1", "grunt", 90, 90, race="marines"), stage="move")
    g = game(s)
    assert g.check(Heal("r1", "r2")) is None
    g.apply(Heal("r1", "r2"), "red")
    assert doc.ap == 0 and hurt.wounds == 1  # repaired after hand to hand
    _to_next_phase(g)
    assert g.state.figs["r2"].wounds == 0
    plain = fig("r3", "terminator", 48, 40, race="machina")
    s = state(plain, fig("r2", "sentinel", 50, 40, race="machina", wounds=1), stage="move")
    assert "only medics and tanks heal" in (game(s).check(Heal("r3", "r2")) or "")


def test_action_points_refresh_every_phase() -> None:
    grunt = fig("r1", "grunt", 50, 40, ap=0)
    s = state(grunt, fig("b1", "scanner", 90, 90), stage="move")
    g = game(s)
    assert _pending(g).kind == "move"
    _to_next_phase(g)
    assert g.state.figs["r1"].ap == 3


def test_flanking_forces_enter_on_the_dice_and_never_by_a_scanner() -> None:
    s = state(fig("r1", "grunt", 50, 10), fig("b1", "scanner", 15, 60), stage="light")
    s.turn, s.phase, s.part, s.player = 4, 1, 1, "blue"
    s.figs["r9"] = fig("r9", "grunt", 0, 0)
    s.figs["r9"].where, s.figs["r9"].flank = "flank", 0
    s.flanks = [Flank("red", "west", "Bravo", ["r9"])]
    g = game(s, [5])
    g.apply(Done(), "blue")
    p = _pending(g)
    assert (p.player, p.kind) == ("red", "enter")
    entries = g.legal_actions("red")[:-1]  # all but surrender
    # off the flank only in the army's own zone ("can always appear in his ... zone")
    inland = [a for a in entries if a.at[0] > 10]  # type: ignore[attr-defined]
    assert inland and all(a.at[1] <= 20 for a in inland)  # type: ignore[attr-defined]
    assert all(abs(a.at[1] - 60) >= 20 or a.at[1] <= 20 for a in entries)  # type: ignore[attr-defined]
    assert "scanner b1" in (g.check(g.parse("enter r9 5,60")) or "")
    assert "enemy's deployment zone" in (g.check(g.parse("enter r9 5,90")) or "")


def test_the_queen_eats_and_lays_and_the_egg_hatches_by_the_table() -> None:
    queen = fig("b1", "queen", 50, 50, race="insectoids")
    s = state(fig("r1", "grunt", 10, 10), queen, stage="move")
    s.part, s.player = 1, "blue"
    s.corpses = [Corpse(52.0, 50.0)]
    g = game(s)
    assert "eat a corpse" in (g.check(Lay("b1")) or "")
    g.apply(Eat("b1"), "blue")
    g.apply(Lay("b1"), "blue")
    assert g.state.eggs == [Egg("blue", 50.0, 50.0, 2)]
    assert g.state.corpses == []


def test_bomb_bug_explodes_like_a_grenade() -> None:
    bug = fig("b1", "bomb_bug", 50, 50, race="insectoids")
    s = state(fig("r1", "grunt", 52, 50), fig("r2", "grunt", 53.5, 50), bug, stage="move")
    s.part, s.player = 1, "blue"
    g = game(s)
    g.apply(Explode("b1"), "blue")
    assert g.state.figs["r1"].wounds == 2
    assert g.state.figs["r2"].wounds == 1
    assert g.state.figs["b1"].where == "dead"


def test_a_destroyed_tank_explodes() -> None:
    tank = fig("b1", "tank", 50, 50, wounds=3)
    s = state(fig("r1", "engineer", 50, 20), tank, fig("b2", "sentinel", 53, 50))
    g = game(s, [1, 2])
    g.apply(Shoot("r1", "b1"), "red")
    assert g.state.pending_wounds == {"b1": 1}
    _to_next_phase(g)
    assert g.state.figs["b1"].where == "dead"
    assert g.state.figs["b2"].where == "dead"  # the burst's inner circle


def test_goo_holds_figures_and_wounds_them_in_the_general_fire() -> None:
    grunt = fig("r1", "grunt", 50, 40)
    dog = fig("b1", "razor_dog", 52, 40, race="insectoids")
    s = state(grunt, dog, stage="move")
    s.goo = [Goo(50.0, 40.0, 2)]
    assert "acid goo" in (move_problem(s, grunt, (50.0, 45.0)) or "")
    assert move_problem(s, dog, (55.0, 45.0)) is None  # razor dogs are immune


def test_end_of_game_hqs_and_scanners_count_as_dead() -> None:
    s = state(fig("r1", "grunt", 50, 40), fig("b1", "hq", 50, 80), fig("b2", "scanner", 60, 80))
    s.stage, s.phase, s.part = "general", 3, 1
    s.player = "blue"
    g = game(s)
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.winner == "red"
    assert "blue without figures" in over.reason


def test_an_egg_hatches_at_the_end_of_the_next_turn_by_the_table() -> None:
    queen = fig("b1", "queen", 80, 80, race="insectoids")
    s = state(fig("r1", "grunt", 10, 10), queen)
    s.stage, s.phase, s.part, s.player = "general", 3, 1, "blue"
    s.eggs = [Egg("blue", 60.0, 60.0, 1)]
    g = game(s, [6, 3, 4, 5, 2, 1])  # egg: 6 rolls again, 3 is a razor dog; initiative
    g.apply(Done(), "blue")
    hatched = g.state.figs["be1"]
    assert (hatched.key, hatched.pos, hatched.where) == ("razor_dog", (60.0, 60.0), "table")
    assert g.state.eggs == []


def test_goo_wounds_on_6_or_less_in_the_general_fire() -> None:
    grunt = fig("r1", "grunt", 50, 40)
    s = state(grunt, fig("b1", "scanner", 90, 90), stage="move")
    s.part, s.player = 1, "blue"
    s.goo = [Goo(50.0, 40.0, 2)]
    g = game(s, [3, 3])
    g.apply(Done(), "blue")  # on to the general firing: the goo roll comes first
    assert g.state.figs["r1"].wounds == 1  # removed with the casualties at the phase's end
    assert any(e.text.startswith("acid goo on r1: 2d6 rolled 3+3") for e in g.log)


def test_optional_victory_a_third_lost() -> None:
    dead = fig("r3", "engineer", 50, 30)
    dead.where = "dead"
    s = state(fig("r1", "hq", 50, 10), fig("r2", "grunt", 50, 20), dead, fig("b1", "hq", 50, 90))
    s.stage, s.phase, s.part, s.player = "general", 3, 1, "blue"
    g = game(s, [])
    g.spec = g.spec.model_copy(
        update={"victory": g.spec.victory.model_copy(update={"third_lost": True})}
    )
    s.figs["b2"] = fig("b2", "tank", 60, 90)
    g.apply(Done(), "blue")
    over = g.pending
    assert isinstance(over, GameOver)
    assert over.winner == "blue"
    assert "red lost a third of its forces" in over.reason


def test_general_abilities_from_the_chart() -> None:
    from warbench.rulesets.fftt import hand_to_hand, shooting

    runner_ = fig("r1", "grunt", 50, 40, ability=2)  # Road runner
    s = state(runner_, fig("b1", "terminator", 50, 80, ability=5), stage="move")  # Chameleon
    assert move_problem(s, runner_, (50.0, 52.0)) is None  # 12 cm for one action
    assert runner_.ap == 3
    sharp = fig("r2", "grunt", 50, 60, ability=3)  # Crack shooter
    s.figs["r2"] = sharp
    reasons = [m.reason for m in shooting.shot(s, sharp, s.figs["b1"], indirect=False).modifiers]
    assert reasons == ["crack shooter", "chameleon (always in cover)"]
    iron = fig("r3", "grunt", 10, 10, ability=4)
    glimmer = fig("r4", "grunt", 12, 10, ability=12)
    berserk = fig("r5", "grunt", 14, 10, ability=11)
    assert (iron.max_wounds, glimmer.actions) == (3, 4)
    assert ("berserk", 2) in hand_to_hand.modifiers(berserk, 0)


def test_off_board_support_is_a_switch() -> None:
    grunt = fig("r1", "grunt", 50, 10)
    target = fig("b1", "terminator", 50, 90)
    s = state(grunt, target)
    g = game(s, [3, 4])
    assert "not in play" in (g.check(g.parse("call r1 b1")) or "")
    g.spec = g.spec.model_copy(
        update={"optional": g.spec.optional.model_copy(update={"artillery": True})}
    )
    assert g.check(g.parse("call r1 b1")) is None  # 80 cm: range unlimited
    g.apply(g.parse("call r1 b1"), "red")
    assert g.state.pending_wounds == {"b1": 3}  # a hit: a missile burst on the target


def test_a_lucky_bastard_draws_no_opportunity_fire() -> None:
    s = state(fig("r1", "grunt", 20, 50, ability=9), fig("b1", "terminator", 26, 65), stage="move")
    g = game(s)
    g.apply(Move("r1", (30.0, 50.0)), "red")
    assert _pending(g).player == "red"


def test_a_death_mid_step_keeps_the_hand_to_hand_step_on_its_melee() -> None:
    """A figure dying while the melees are fought (an answering shot, an explosion) ends the
    melees it leaves empty; the step stays on the melee it was fighting, or the next one if
    that one ended (seeded search games once crashed on the shifted index)."""
    figs = [fig(f, "grunt", 10.0 * n, 10.0) for n, f in enumerate(["r1", "r2", "r3"])]
    figs += [
        fig(f, "grunt", 10.0 * n, 12.0, race="marines") for n, f in enumerate(["b1", "b2", "b3"])
    ]
    s = state(*figs)
    g = game(s)
    first, second, third = Melee("b1", ["r1"]), Melee("b2", ["r2"]), Melee("b3", ["r3"])
    s.melees, s.melee_at = [first, second, third], 1
    wounds.kill(g, s, s.figs["r1"], "a test")  # an earlier melee ends
    assert s.melees == [second, third] and s.melees[s.melee_at] is second
    wounds.kill(g, s, s.figs["r2"], "a test")  # the melee being fought ends
    assert s.melees == [third] and s.melees[s.melee_at] is third
