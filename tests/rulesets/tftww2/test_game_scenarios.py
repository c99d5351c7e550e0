"""The shipped scenarios load and play to the end, AI against AI and against the random
agent; the record replays to the same state; broken scenario files are refused with the
field that is wrong."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from shapely.geometry import Point

from warbench.core import registry
from warbench.core.game import Decision, Game, GameOver
from warbench.core.record import Record
from warbench.rulesets.tftww2.game import TFTGame

SHIPPED = ("building-assault", "patrol")
MAX_STEPS = 3000
RESULT = re.compile(r"^result: (red|blue|draw) — .+")


def test_both_scenarios_ship() -> None:
    ruleset = registry.get("tftww2")
    assert set(SHIPPED) <= {info.id for info in ruleset.scenarios()}
    for name in SHIPPED:
        data = ruleset.load_scenario(name)
        game = ruleset.new_game(data, 1)
        assert isinstance(game, TFTGame)
        assert game.state.phase == "orders"
        assert game.state.side == data["first"]
        assert game.state.round == 1
        assert len(game.state.men) == sum(
            len(squad["men"]) for side in data["sides"].values() for squad in side["squads"]
        )


def test_building_assault_gives_the_attacker_artillery_and_a_mortar() -> None:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("building-assault"), 1)
    assert isinstance(game, TFTGame)
    assert game.state.missions == {"red": 2, "blue": 0}
    assert [m.id for m in game.state.men.values() if m.support] == ["r11"]
    assert [m.id for m in game.state.men.values() if m.radio and m.rank == "CO"] == ["r9"]
    # the defenders start inside the farmhouse
    assert all(
        game.table.building("farmhouse").area.contains(_point(m.x, m.y))
        for m in game.state.men.values()
        if m.side == "blue"
    )


def _point(x: float, y: float) -> Point:
    return Point(x, y)


def play_out(scenario: str, red: str, blue: str, seed: int) -> Game:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario(scenario), seed)
    agents = {
        "red": ruleset.agents()[red](seed),
        "blue": ruleset.agents()[blue](seed + 1000),
    }
    for _ in range(MAX_STEPS):
        pending = game.pending
        if isinstance(pending, GameOver):
            return game
        game.apply(agents[pending.player].choose(game, pending.player), pending.player)
    raise AssertionError(f"{scenario} did not end in {MAX_STEPS} actions")


MATCHES = [
    pytest.param(scenario, red, blue, seed, id=f"{scenario}-{red}-{blue}-{seed}")
    for scenario in SHIPPED
    for red, blue, seed in (
        ("ai", "ai", 1),
        ("ai", "ai", 2),
        ("ai", "random", 3),
        ("random", "ai", 4),
    )
]


@pytest.mark.parametrize(("scenario", "red", "blue", "seed"), MATCHES)
def test_a_shipped_scenario_plays_to_the_end_and_replays(
    scenario: str, red: str, blue: str, seed: int
) -> None:
    game = play_out(scenario, red, blue, seed)
    pending = game.pending
    assert isinstance(pending, GameOver)
    assert RESULT.match(pending.line()), pending.line()
    assert isinstance(game, TFTGame)
    assert game.state.round <= game.spec.victory.rounds
    record = game.record
    assert record.result is not None
    assert record.result["winner"] == pending.winner
    replayed = Game.replay(Record.from_json(record.to_json()))
    assert replayed.state_hash() == game.state_hash()
    assert isinstance(replayed.pending, GameOver)
    assert replayed.pending.line() == pending.line()


def test_a_game_saved_mid_way_loads_at_the_same_decision(tmp_path: Path) -> None:
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.load_scenario("patrol"), 5)
    ai = ruleset.agents()["ai"](5)
    for _ in range(25):
        pending = game.pending
        assert not isinstance(pending, GameOver)
        game.apply(ai.choose(game, pending.player))
    path = tmp_path / "patrol.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.state_hash() == game.state_hash()
    assert loaded.pending == game.pending
    # the seeded dice go on alike
    pending = game.pending
    assert isinstance(pending, Decision)
    action = ai.choose(game, pending.player)
    assert [e.text for e in loaded.apply(action)] == [e.text for e in game.apply(action)]


def test_the_ai_agents_are_reproducible_from_their_seeds() -> None:
    first = play_out("patrol", "ai", "random", 7)
    second = play_out("patrol", "ai", "random", 7)
    assert [s.action for s in first.steps] == [s.action for s in second.steps]
    assert first.state_hash() == second.state_hash()


# -- broken scenario files ----------------------------------------------------------------------


def shipped_data() -> dict[str, Any]:
    path = Path(__file__).parents[3] / "src/warbench/rulesets/tftww2/data/scenarios/patrol.yaml"
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    return data


def refusal(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    with pytest.raises(ValueError) as err:
        registry.get("tftww2").load_scenario(str(path))
    return str(err.value)


def test_a_good_scenario_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(yaml.safe_dump(shipped_data(), allow_unicode=True))
    assert registry.get("tftww2").load_scenario(str(path))["id"] == "patrol"


def test_an_unknown_weapon_is_refused(tmp_path: Path) -> None:
    data = shipped_data()
    data["sides"]["blue"]["squads"][0]["men"][3]["weapon"] = "Panzerschreck"
    message = refusal(tmp_path, data)
    assert "broken.yaml" in message
    assert "blue German rifle squad: 'Panzerschreck' is not a ranged weapon; known:" in message
    assert "Rifle" in message and "LMG" in message


def test_a_close_combat_weapon_in_the_firearm_slot_is_refused(tmp_path: Path) -> None:
    data = shipped_data()
    data["sides"]["red"]["squads"][0]["men"][2]["close_weapon"] = "SMG"
    message = refusal(tmp_path, data)
    assert "red US rifle squad: 'SMG' is not a close combat weapon; known:" in message


def test_a_man_off_the_table_is_refused(tmp_path: Path) -> None:
    data = shipped_data()
    data["sides"]["red"]["squads"][0]["men"][0]["at"] = [10.0, 49.5]
    message = refusal(tmp_path, data)
    assert "red US rifle squad: a man at 10,49.5 is off table" in message


def test_hold_building_naming_a_missing_building_is_refused(tmp_path: Path) -> None:
    data = shipped_data()
    data["victory"] = {"kind": "hold_building", "rounds": 8, "building": "church"}
    message = refusal(tmp_path, data)
    assert "victory names building 'church', but the buildings are: barn" in message


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["sides"]["red"]["squads"][0]["men"][0].update(rank="Sergeant"), "rank"),
        (lambda d: d["sides"]["blue"].update(edge="up"), "sides.blue.edge"),
        (lambda d: d["terrain"][0].update(kind="swamp"), "terrain.0.kind"),
        (lambda d: d["victory"].update(rounds=0), "victory.rounds"),
        (lambda d: d["sides"]["red"]["squads"][0]["men"][0].update(colour="red"), "colour"),
    ],
    ids=["rank", "edge", "terrain-kind", "rounds", "unknown-field"],
)
def test_a_bad_field_is_named(tmp_path: Path, change: Any, field: str) -> None:
    data = shipped_data()
    change(data)
    message = refusal(tmp_path, data)
    assert field in message
    if field in ("rank", "colour"):
        assert f"sides.red.squads.0.men.0.{field}" in message


def test_a_record_of_broken_scenario_data_is_refused() -> None:
    data = shipped_data()
    data["sides"]["red"]["squads"][0]["men"][0]["weapon"] = "Phaser"
    with pytest.raises(ValueError, match="'Phaser' is not a ranged weapon"):
        registry.get("tftww2").scenario_from_data(data)
