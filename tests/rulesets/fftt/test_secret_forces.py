"""GAME STEPS, "write secretly the race and composition of your force" (R48): in
`behind-the-screen` each side's force is drawn by its own secret die, and nothing the other
player or a spectator gets (the lobby's listing, views, the scene, events, errors) names the
race before the screen comes down. The planted markers are the drawn race's words."""

from __future__ import annotations

import json

import pytest

from warbench.core import registry
from warbench.core.game import Decision, Game
from warbench.rulesets.fftt.actions import Charge, Deploy, Shoot
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.profiles import forces
from warbench.rulesets.fftt.random_agent import RandomAgent
from warbench.rulesets.fftt.scenario import validate
from warbench.rulesets.fftt.state import other

RULESET = registry.get("fftt")
SCREEN = "behind-the-screen"
RACES = ("marines", "machina", "insectoids")


def _markers(race: str, against: str) -> set[str]:
    """Words that name `race` and not `against`: its name and its own profiles' names."""
    own = {p.name.lower() for p in forces()[race].values()}
    theirs = {p.name.lower() for p in forces()[against].values()}
    return {race} | {name for name in own - theirs if len(name) > 2}  # "mt" is in words


def _sent_to(game: Game, viewer: str | None) -> str:
    scene = RULESET.scene(game, viewer)
    return "\n".join(
        [
            json.dumps(game.view(viewer)),
            scene.title,
            *(f.label for f in scene.figures),
            *(e.text for e in game.log if e.seen_by(viewer)),
        ]
    ).lower()


def test_the_lobby_names_no_race_for_the_secret_battle() -> None:
    (info,) = [i for i in RULESET.scenarios() if i.id == SCREEN]
    listed = f"{info.id} {info.name} {info.summary}".lower()
    assert not [race for race in RACES if race in listed]
    # the matchup scenarios name theirs: the players agree the matchup (R48)
    matchup = next(i for i in RULESET.scenarios() if i.id == "marines-vs-machina")
    assert "marines" in matchup.id and "Machina" in matchup.summary


def test_each_side_draws_its_force_by_its_own_secret_die() -> None:
    drawn: set[tuple[str, str]] = set()
    for seed in range(12):
        g = RULESET.new_game(RULESET.load_scenario(SCREEN), seed)
        assert isinstance(g, FFTTGame)
        for side in ("red", "blue"):
            (roll,) = [e for e in g.log if e.roll and "secret force" in e.text and side in e.text]
            assert roll.visible_to == frozenset({side})
            race = g.state.races[side]
            (told,) = [e for e in g.log if e.kind == "setup" and e.visible_to == frozenset({side})]
            assert told.text.endswith(race)
            assert g.spec.forces[side].race == race and not g.spec.alternatives
            assert {f.race for f in g.state.figs.values() if f.side == side} == {race}
            drawn.add((side, race))
    assert drawn == {(side, race) for side in ("red", "blue") for race in RACES}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_hidden_race_never_leaks_before_the_screen_comes_down(seed: int) -> None:
    g = RULESET.new_game(RULESET.load_scenario(SCREEN), seed)
    assert isinstance(g, FFTTGame)
    races = dict(g.state.races)
    agents = {"red": RandomAgent(seed), "blue": RandomAgent(seed + 1)}
    checked = 0
    while isinstance(g.pending, Decision) and not g.state.revealed:
        player = g.pending.player
        for owner in ("red", "blue"):
            enemy = other(owner)
            if races[owner] == races[enemy]:
                continue  # the same race on both sides: nothing of it to hide
            words = _markers(races[owner], races[enemy])
            for viewer in (enemy, None):
                sent = _sent_to(g, viewer)
                assert not [w for w in words if w in sent], (owner, viewer, g.state.stage)
            # the errors the enemy gets, for acting out of turn or naming hidden figures
            hidden = next(f.id for f in g.state.figs.values() if f.side == owner)
            mine = next(f.id for f in g.state.figs.values() if f.side == enemy)
            for action in (Deploy(hidden, (50.0, 50.0)), Shoot(mine, hidden), Charge(mine, hidden)):
                reason = (g.check(action, enemy) or "").lower()
                assert not [w for w in words if w in reason], reason
                checked += 1
        g.apply(agents[player].choose(g, player), player)
    assert g.state.revealed and checked
    for viewer in ("red", "blue", None):
        assert g.view(viewer)["races"] == races  # the screen is down: both are told


def test_alternatives_are_checked_like_the_forces() -> None:
    data = RULESET.load_scenario(SCREEN)
    data["alternatives"]["red"][0]["figures"].append({"profile": "grunt"})
    with pytest.raises(ValueError, match=r"red \(force 2\): machina have no 'grunt'"):
        validate(data, "test")
    data = RULESET.load_scenario(SCREEN)
    data["alternatives"]["green"] = data["alternatives"].pop("red")
    with pytest.raises(ValueError, match="alternatives may be given for red and blue"):
        validate(data, "test")
