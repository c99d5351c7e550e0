"""The odds shown before a player confirms (`core.preview.action_odds`) always answer: an
action whose rules roll again until the dice differ (gff's deployment roll-off after the
edge is chosen) is refused as too many outcomes once `MAX_SECONDS` have passed, where the
exact dice, reading their first face each time, would otherwise tie for ever."""

from __future__ import annotations

import pytest

from warbench.core import preview, registry
from warbench.core.game import Decision


def test_a_roll_off_that_ties_for_ever_is_cut_off_by_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(preview, "MAX_SECONDS", 0.2)
    ruleset = registry.get("gff")
    game = ruleset.new_game(ruleset.load_scenario("skirmish"), 3)
    pending = game.pending
    assert isinstance(pending, Decision)
    edge = next(a for a in game.legal_actions(pending.player) if str(a).startswith("edge "))
    before = game.state_hash()
    with pytest.raises(preview.TooManyOutcomes, match="too many outcomes to work out"):
        preview.action_odds(ruleset, game, edge, pending.player)
    assert game.state_hash() == before  # the odds are worked out on copies only
