"""The state's copy (each step's snapshot) is deep: changing the copy leaves the original."""

from __future__ import annotations

import copy

from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight


def test_a_copy_of_the_state_shares_no_step_data_and_equals_a_deep_copy() -> None:
    game = GrimdarkFutureFirefight().new_game(
        GrimdarkFutureFirefight().load_scenario("skirmish"), 1
    )
    state = game.state  # type: ignore[attr-defined]
    state.step = {"blast": {"units": ["b1"], "hits": [[1, False, 0, False]]}, "fired": ["gun"]}
    twin = state.copy()
    assert twin.step == copy.deepcopy(state.step)
    twin.step["blast"]["hits"][0][0] = 9
    twin.step["fired"].append("rifle")
    twin.units["r1"].models[0].x += 1
    assert state.step == {
        "blast": {"units": ["b1"], "hits": [[1, False, 0, False]]},
        "fired": ["gun"],
    }
    assert state.units["r1"].models[0].x != twin.units["r1"].models[0].x
