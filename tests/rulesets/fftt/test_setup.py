"""GAME STEPS before the first turn, and the hidden information: the attacker by dice, the
table, the scenery in six zones, the sides, the deployment behind the screen, the flanking
forces kept secret."""

from __future__ import annotations

import json
import random

import pytest

from warbench.core import registry
from warbench.core.dice import ScriptedDice, SeededDice
from warbench.core.game import Decision, IllegalAction
from warbench.rulesets.fftt.actions import (
    ChooseSide,
    ChooseTable,
    Deploy,
    First,
    PlaceScenery,
    Shoot,
)
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.scenario import validate


def _game(seed: int = 4, scenario: str = "marines-vs-machina") -> FFTTGame:
    ruleset = registry.get("fftt")
    g = ruleset.new_game(ruleset.load_scenario(scenario), seed)
    assert isinstance(g, FFTTGame)
    return g


def _to_deployment(g: FFTTGame, width: int = 100, depth: int = 100) -> None:
    g.apply(ChooseTable(width, depth))
    g.apply(PlaceScenery())
    g.apply(ChooseSide("south"))


def test_the_attacker_is_diced_and_chooses_the_table() -> None:
    ruleset = registry.get("fftt")
    g = ruleset.new_game(
        ruleset.load_scenario("marines-vs-machina"), None, ScriptedDice([3, 3, 2, 5])
    )
    assert g.state.attacker == "blue"  # type: ignore[attr-defined]
    pending = g.pending
    assert isinstance(pending, Decision)
    assert (pending.player, pending.kind) == ("blue", "table")
    assert len(g.legal_actions("blue")) == 9 + 1  # the nine sizes, and surrender
    with pytest.raises(IllegalAction, match="80, 100, 120 cm, not 90 by 100"):
        g.apply(ChooseTable(90, 100))


def test_a_wrong_side_or_first_player_names_the_word_given() -> None:
    """They said only "choose south or north" and "choose red or blue"."""
    g = _game()
    g.apply(ChooseTable(100, 100))
    g.apply(PlaceScenery())
    assert g.check(ChooseSide("west")) == (
        "'west' is not a side to deploy on; choose south or north"
    )
    g.apply(ChooseSide("south"))
    _deploy_all(g, g.state.attacker)
    _deploy_all(g, "blue" if g.state.attacker == "red" else "red")
    assert g.check(First("green")) == "'green' is not a player; choose red or blue to move first"


@pytest.mark.parametrize("seed", range(6))
def test_scenery_in_six_zones_of_5_to_25_cm(seed: int) -> None:
    g = _game(seed)
    g.apply(ChooseTable(120, 80))
    g.apply(PlaceScenery())
    table = g.state.table
    for row in range(2):
        for col in range(3):
            x0, y0 = col * 40, row * 40
            inside = [
                p
                for p in table.pieces
                if p.kind != "wall" and x0 <= p.x0 and p.x1 <= x0 + 40 and y0 <= p.y0 <= y0 + 40
            ]
            assert inside, f"zone {row * 3 + col + 1} has no scenery"
    for p in table.pieces:
        if p.kind != "wall":
            assert 5 <= p.x1 - p.x0 <= 25 and 5 <= p.y1 - p.y0 <= 25


def test_deployment_zone_10_cm_on_an_80_cm_table_else_20() -> None:
    g = _game()
    _to_deployment(g, 100, 80)
    assert g.state.table.zone_depth == 10
    attacker = g.state.attacker
    fid = next(f.id for f in g.state.figs.values() if f.side == attacker and f.where == "reserve")
    edge_y = 5.0 if g.state.edge(attacker) == "south" else 75.0
    assert g.check(Deploy(fid, (50.0, edge_y))) is None
    assert "10 cm deep" in (g.check(Deploy(fid, (50.0, 40.0))) or "")
    g2 = _game()
    _to_deployment(g2, 100, 100)
    assert g2.state.table.zone_depth == 20


def _deploy_all(g: FFTTGame, player: str) -> None:
    rng = random.Random(1)
    while (
        isinstance(g.pending, Decision)
        and g.pending.player == player
        and g.pending.kind == "deploy"
    ):
        g.apply(rng.choice(g.legal_actions(player)[:-1]), player)  # not the last, surrender


def test_deployment_behind_the_screen_then_revealed() -> None:
    g = _game()
    _to_deployment(g)
    attacker = g.state.attacker
    defender = "blue" if attacker == "red" else "red"
    _deploy_all(g, attacker)
    seen = g.view(defender)
    assert all(f["side"] == defender for f in seen["figures"])
    assert attacker not in seen["races"]
    assert not any(attacker == f["side"] for f in g.view(None).get("figures", []))
    deploys = [e for e in g.log if e.kind == "deploy"]
    assert deploys and all(not e.seen_by(defender) and not e.seen_by(None) for e in deploys)
    _deploy_all(g, defender)
    assert g.state.revealed
    sides = {f["side"] for f in g.view(defender)["figures"] if f["where"] == "table"}
    assert sides == {"red", "blue"}


def test_the_first_initiative_is_diced_before_deployment() -> None:
    """R59: GAME STEPS, "Write secretly ... • Dice for initiative • Deploy the forces": turn
    1's 2D6 are thrown once the forces are written, in the open, and its winner decides who
    moves first when the screen has come down; later turns dice at their beginning."""
    g = _game()
    _to_deployment(g)
    kinds = [(e.kind, e.text.split(":")[0]) for e in g.log]
    assert kinds[-2:] == [("roll", "initiative turn 1")] * 2
    assert all(e.seen_by("red") and e.seen_by("blue") and e.seen_by(None) for e in g.log[-2:])
    red, blue = (int(e.text.split("= ")[-1]) for e in g.log[-2:])
    _deploy_all(g, g.state.attacker)
    _deploy_all(g, "blue" if g.state.attacker == "red" else "red")
    assert not any(e.kind == "roll" for e in g.log[len(kinds) :])  # no dice thrown since
    pending = g.pending
    assert isinstance(pending, Decision) and pending.kind == "first"
    assert pending.player == ("red" if red > blue else "blue")
    assert g.state.initiative == ""  # spent: turn 2 dices anew


def test_the_table_is_drawn_for_each_viewer_behind_the_screen() -> None:
    """A player sees his own figures as he deploys them; the enemy and spectators do not."""
    g = _game()
    _to_deployment(g)
    attacker = g.state.attacker
    defender = "blue" if attacker == "red" else "red"
    _deploy_all(g, attacker)
    ruleset = registry.get("fftt")

    def sides(viewer: str | None) -> set[str]:
        return {f.side for f in ruleset.scene(g, viewer).figures}

    assert sides(attacker) == {attacker}
    assert sides(defender) == set()
    assert sides(None) == set()
    _deploy_all(g, defender)
    assert sides(defender) == sides(None) == {"red", "blue"}


def test_flanking_forces_stay_secret_until_they_enter() -> None:
    ruleset = registry.get("fftt")
    scenario, owner = ruleset.plant_hidden_marker(
        ruleset.load_scenario("marines-vs-machina"), "SECRET-LABEL"
    )
    g = ruleset.new_game(scenario, 9)
    assert isinstance(g, FFTTGame)
    flankers = g.state.flanks[0].figures
    assert owner == "red"
    assert "SECRET-LABEL" in json.dumps(g.view("red"))
    for viewer in ("blue", None):
        text = json.dumps(g.view(viewer))
        assert "SECRET-LABEL" not in text
        assert not any(f["id"] in flankers for f in g.view(viewer)["figures"])
    # an order naming a hidden figure gets the same answer as one naming no figure at all
    _to_deployment(g)
    _deploy_all(g, g.state.attacker)
    _deploy_all(g, "blue" if g.state.attacker == "red" else "red")
    while g.state.stage in ("first",):
        g.apply(g.legal_actions(g.pending.player)[0])  # type: ignore[union-attr]
    mine = g.state.side_figs("blue")
    if mine and g.state.player == "blue":
        hidden = g.check(Shoot(mine[0].id, flankers[0]))
        none = g.check(Shoot(mine[0].id, "r999"))
        assert hidden == none


def test_flanking_force_limits_and_hq_are_checked() -> None:
    data = registry.get("fftt").load_scenario("marines-vs-machina")
    data["forces"]["red"]["flanks"][0]["figures"].append({"profile": "grunt"})
    data["forces"]["red"]["figures"].pop()  # still 20 FP, but 6 on the flank
    with pytest.raises(ValueError, match="at most a quarter"):
        validate(data, "test")
    data = registry.get("fftt").load_scenario("marines-vs-machina")
    data["forces"]["blue"]["figures"] = [
        f for f in data["forces"]["blue"]["figures"] if f["profile"] != "hq"
    ]
    with pytest.raises(ValueError, match="at least one HQ"):
        validate(data, "test")


def test_a_seeded_game_plays_to_its_end() -> None:
    ruleset = registry.get("fftt")
    g = ruleset.new_game(ruleset.load_scenario("machina-vs-insectoids"), None, SeededDice(3))
    make = ruleset.agents()["ai"]
    agents = {"red": make(1), "blue": make(2)}
    while isinstance(g.pending, Decision):
        player = g.pending.player
        g.apply(agents[player].choose(g, player), player)
    assert g.pending.line().startswith("result: ")


def test_generals_are_rolled_secretly_and_the_battle_plays_on() -> None:
    ruleset = registry.get("fftt")
    data = ruleset.load_scenario("marines-vs-insectoids")
    data["optional"] = {"generals": True, "artillery": True}
    data["forces"]["red"]["general"] = {"figure": 1, "name": "Sgt. Rock"}
    data["forces"]["blue"]["general"] = {"figure": 0, "name": "Brood Mother", "ability": 11}
    g = ruleset.new_game(data, 12)
    assert isinstance(g, FFTTGame)
    assert g.state.figs["b1"].ability == 11
    assert 2 <= g.state.figs["r2"].ability <= 12
    told = [e for e in g.log if e.kind == "general"]
    assert [sorted(e.visible_to or ()) for e in told] == [["red"], ["blue"]]
    assert "Sgt. Rock" not in json.dumps(g.view("blue")) + json.dumps(g.view(None))
    make = ruleset.agents()
    agents = {"red": make["ai"](1), "blue": make["random"](2)}
    while isinstance(g.pending, Decision):
        player = g.pending.player
        g.apply(agents[player].choose(g, player), player)
    assert g.pending.line().startswith("result: ")


def test_the_shipped_generals_and_artillery_battle_plays_to_the_end_ai_against_ai() -> None:
    """`marines-vs-insectoids-generals`: both generals named and thrown on the chart for
    their owner alone, artillery called by the AI, experience counted, a result."""
    ruleset = registry.get("fftt")
    data = ruleset.load_scenario("marines-vs-insectoids-generals")
    assert data["optional"] == {"generals": True, "artillery": True, "experience": True}
    g = ruleset.new_game(data, 0)
    assert isinstance(g, FFTTGame)
    told = [e for e in g.log if e.kind == "general"]
    assert [sorted(e.visible_to or ()) for e in told] == [["red"], ["blue"]]
    assert told[0].text.startswith("Sergeant Kowalski (r2) is a")
    assert told[1].text.startswith("Mother Hive (b1) is a")
    make = ruleset.agents()["ai"]
    agents = {"red": make(0), "blue": make(1)}
    while isinstance(g.pending, Decision):
        player = g.pending.player
        g.apply(agents[player].choose(g, player), player)
    assert g.pending.line().startswith("result: ")
    assert any(step.action.startswith("call ") for step in g.steps)
    assert g.experience()
