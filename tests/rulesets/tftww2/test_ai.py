"""The tftww2 AI beats the random agent in at least 90% of 200 seeded games in every
scenario (the AI on each side in turn, as tests/ai_vs_random.py plays it)."""

from __future__ import annotations

import pytest

from tests.ai_vs_random import ai_wins
from tests.rulesets.tftww2.position import man, new_game, rect, scenario, squad
from warbench.core import registry
from warbench.rulesets.tftww2.actions import Assault, ChargeAt, Climb
from warbench.rulesets.tftww2.ai import SkirmishAI, p_hit
from warbench.rulesets.tftww2.game import TFTGame

GAMES = 200


@pytest.mark.parametrize("scenario", ["patrol", "building-assault", "combined-arms"])
def test_ai_beats_random_in_nine_games_out_of_ten(scenario: str) -> None:
    wins = sum(ai_wins("tftww2", scenario, seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"{scenario}: the AI won {wins} of {GAMES}"


def test_ai_is_registered() -> None:
    assert registry.get("tftww2").agents()["ai"] is SkirmishAI


def test_the_ais_hit_chances_are_3d6_with_4_4s_criticals() -> None:
    assert p_hit(12) == pytest.approx(160 / 216)
    assert p_hit(0) == p_hit(5) == pytest.approx(10 / 216)  # a natural 3-5 always hits
    assert p_hit(18) == p_hit(15) == pytest.approx(206 / 216)  # 16-18 always miss


def _kit_game(kit: dict[str, object]) -> TFTGame:
    """r1 facing north 2.5" behind a blue Pz IV's rear; a blue man far off."""
    data = scenario(
        [squad(man(24, 14) | kit, name="red")], [squad(man(46, 46, facing=180), name="b")]
    )
    data["sides"]["blue"]["vehicles"] = [{"vehicle": "pzkpfw_iv_h", "at": [24, 20], "facing": 0}]
    return new_game(data)


def test_the_ai_charges_an_afv_with_a_panzerfaust_but_not_with_a_bayonet() -> None:
    game = _kit_game({"anti_tank": "panzerfaust"})
    assert SkirmishAI(1).choose(game, "red") == ChargeAt("r1", "bt1")
    game = _kit_game({})
    assert SkirmishAI(1).choose(game, "red") != ChargeAt("r1", "bt1")


def test_the_ai_close_assaults_an_afv_it_touches() -> None:
    game = _kit_game({"anti_tank": "panzerfaust"})
    game.apply(ChargeAt("r1", "bt1"))
    assert SkirmishAI(1).choose(game, "red") == Assault("r1", "bt1")


def test_the_ai_climbs_to_an_enemy_upstairs_in_its_building() -> None:
    house = rect("building", 20, 20, 28, 28, name="house", floors=2)
    game = new_game(
        scenario(
            [squad(man(22, 22), name="red")],
            [squad(man(26, 26), man(46, 46), name="b")],
            terrain=[house],
        )
    )
    game.state.men["b1"].floor = 1
    assert SkirmishAI(1).choose(game, "red") == Climb("r1", 1)
