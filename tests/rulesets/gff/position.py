"""Build Grimdark Future Firefight positions for rule tests.

Two ways in:

- `position(...)`: a real `GFFGame` on an explicit table (an open one by default, so no
  battlefield generation rolls), whose set-up rolls are the first faces of the script
  (`SETUP`: D3 → 3 objectives, deployment roll-off red 4 / blue 3 → red first); the state is
  then overwritten: units placed where the test says, deployed, round 1, activation phase.
- `Ref` with `unit(...)`: a tiny referee that rolls through `ScriptedDice` and records what is
  emitted, to call the rule functions (`attacks.roll_hits`, `wounds.take_wounds`, ...) directly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from warbench.cli import app
from warbench.core.actions import Action
from warbench.core.dice import Roll, ScriptedDice
from warbench.core.events import Event
from warbench.core.game import Decision
from warbench.rulesets.gff.game import GFFGame
from warbench.rulesets.gff.profiles import ArmyList, Equipment, Spell, UnitProfile, Weapon
from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight
from warbench.rulesets.gff.state import Model, State, Unit

Point = tuple[float, float]

SETUP = [1, 4, 3]  # objectives D3 = 1 (3 markers); deployment roll-off: red 4, blue 3
OPEN: tuple[dict[str, Any], ...] = ()


def gun(
    name: str = "Rifle", range: int = 24, attacks: int = 1, rules: Sequence[str] = ()
) -> Weapon:
    """A ranged weapon."""
    return Weapon(name=name, range=range, attacks=attacks, rules=tuple(rules))


def blade(name: str = "Blade", attacks: int = 1, rules: Sequence[str] = ()) -> Weapon:
    """A melee weapon (range 0)."""
    return Weapon(name=name, range=0, attacks=attacks, rules=tuple(rules))


def profile(
    name: str = "Trooper",
    *,
    size: int = 1,
    quality: int = 4,
    defense: int = 4,
    rules: Sequence[str] = (),
    weapons: Sequence[Weapon] = (),
    spells: Sequence[Spell] = (),
    base: float = 1.0,
) -> UnitProfile:
    """A unit profile: every model carries every weapon in `weapons`."""
    return UnitProfile(
        name=name,
        size=size,
        quality=quality,
        defense=defense,
        cost=10,
        equipment=tuple(Equipment(count=size, weapon=w) for w in weapons),
        rules=tuple(rules),
        spells=tuple(spells),
        base=base,
    )


def row(x: float, y: float, count: int, gap: float = 1.5, *, vertical: bool = False) -> list[Point]:
    """`count` model positions in a line from (x, y), `gap` apart centre to centre."""
    return [(x, y + i * gap) if vertical else (x + i * gap, y) for i in range(count)]


def _spots(where: Point | list[Point], count: int) -> list[Point]:
    """One point (models in a row from it) or a list with one point per model."""
    if isinstance(where, list):
        assert len(where) == count, f"{count} models, {len(where)} positions"
        return where
    return row(where[0], where[1], count)


def unit(uid: str, prof: UnitProfile, where: Point | list[Point] = (0.0, 0.0)) -> Unit:
    """A deployed unit for direct rule calls; its side is read from its id (`r…`/`b…`)."""
    side = "red" if uid.startswith("r") else "blue"
    models = []
    for n, (x, y) in enumerate(_spots(where, prof.size), start=1):
        weapons = tuple(item.weapon for item in prof.equipment if n <= item.count)
        models.append(Model(f"{uid}.{n}", x, y, weapons))
    return Unit(uid, side, prof, models, deployed=True)


def state_of(*units: Unit, starting: dict[str, int] | None = None) -> State:
    """A bare State in round 1 holding `units`."""
    counts = {s: sum(u.side == s for u in units) for s in ("red", "blue")}
    return State(
        phase="activate",
        player="red",
        units={u.id: u for u in units},
        round=1,
        starting_units=starting or counts,
    )

    def kinds(self) -> list[str]:
        """The kinds of the events emitted, in order."""
        return [k for k, _ in self.events]


def scenario_data(
    red: Sequence[UnitProfile],
    blue: Sequence[UnitProfile],
    terrain: Sequence[dict[str, Any]] | None = OPEN,
    switches: Mapping[str, bool] | None = None,
) -> dict[str, Any]:
    """A scenario with inline armies (no force organisation) on a 48"×48" table, with the
    optional rules in `switches` (pushing, jumping)."""

    def army(side: str, units: Sequence[UnitProfile]) -> dict[str, Any]:
        return {
            "army": ArmyList(
                name=f"{side} test army", faction="test", units=tuple(units)
            ).model_dump(mode="json")
        }

    data: dict[str, Any] = {
        "id": "test",
        "name": "Test position",
        "summary": "a rule test",
        "points": 1000,
        "force_org": False,
        "armies": {"red": army("red", red), "blue": army("blue", blue)},
    }
    if terrain is not None:
        data["terrain"] = [dict(t) for t in terrain]
    data.update(switches or {})
    return data


def new_game(
    red: Sequence[UnitProfile],
    blue: Sequence[UnitProfile],
    dice: Sequence[int],
    terrain: Sequence[dict[str, Any]] | None = OPEN,
    switches: Mapping[str, bool] | None = None,
) -> GFFGame:
    """A fresh game at its first decision; `dice` must begin with the set-up faces."""
    # the ruleset itself rather than registry.get("gff"), which imports every ruleset
    ruleset = GrimdarkFutureFirefight()
    data = scenario_data(red, blue, terrain, switches)
    game = ruleset.new_game(data, 1, ScriptedDice(dice))
    assert isinstance(game, GFFGame)
    return game


def position(
    red: Sequence[UnitProfile],
    blue: Sequence[UnitProfile],
    at: Mapping[str, Point | list[Point]],
    *,
    dice: Sequence[int] = (),
    terrain: Sequence[dict[str, Any]] = OPEN,
    player: str = "red",
    round: int = 1,
    switches: Mapping[str, bool] | None = None,
) -> GFFGame:
    """A game in round `round`, `player` to activate; units `r1, r2, …` / `b1, …` in list
    order, each placed at a point (models in a row 1.5" apart) or at one point per model.
    Units missing from `at` stay off the table. `dice` are the faces after `SETUP`."""
    game = new_game(red, blue, [*SETUP, *dice], terrain, switches)
    s = game.state
    s.edges = {"red": "south", "blue": "north"}
    s.markers_to_place = 0
    s.phase, s.player, s.round = "activate", player, round
    s.deploy_first = "red"
    for uid, where in at.items():
        u = s.units[uid]
        for model, (x, y) in zip(u.models, _spots(where, len(u.models)), strict=True):
            model.x, model.y = x, y
        u.deployed = True
    return game


def caster_export(*spells: tuple[str, str], threshold: int = 1) -> str:
    """An Army Forge export of one Caster(2), "Seer", knowing `spells` (name, effect text)."""
    caster = {
        "selectionId": "s1",
        "armyId": "a",
        "name": "Seer",
        "size": 1,
        "quality": 4,
        "defense": 4,
        "cost": 40,
        "rules": [{"key": "caster", "name": "Caster", "rating": "2"}],
        "loadout": [],
        "spells": [
            {"name": name, "threshold": threshold, "effectSkirmish": text} for name, text in spells
        ],
    }
    return json.dumps({"gameSystem": "gff", "name": "L", "units": [caster]})


def script(game: GFFGame) -> ScriptedDice:
    """The game's scripted dice (to check every face was used)."""
    assert isinstance(game.dice, ScriptedDice)
    return game.dice


def play(game: GFFGame, *actions: str) -> list[Event]:
    """Apply actions in their text form, as whoever the game is waiting for."""
    events: list[Event] = []
    for text in actions:
        events += game.apply(game.parse(text))
    return events


def decision(game: GFFGame) -> tuple[str, str]:
    """Whose decision the game waits for, and its kind."""
    pending = game.pending
    assert isinstance(pending, Decision), f"the game is over: {pending}"
    return pending.player, pending.kind


def refusal(game: GFFGame, text: str) -> str | None:
    """Why the game refuses the action `text` now (None if it is legal)."""
    action: Action = game.parse(text)
    return game.check(action)


def rolls(events: Sequence[Event]) -> list[Roll]:
    """The rolls among `events`."""
    return [e.roll for e in events if e.roll is not None]


def rolled(events: Sequence[Event], label: str) -> list[Roll]:
    """The rolls whose label contains `label`."""
    return [r for r in rolls(events) if label in r.request.label]


def square(
    x0: float, y0: float, x1: float, y1: float, kind: str, height: float | None = None
) -> dict[str, Any]:
    """A rectangular terrain piece of `kind` (data/terrain.yaml), of `height` if given."""
    piece: dict[str, Any] = {"kind": kind, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
    if height is not None:
        piece["height"] = height
    return piece


def play_caster_list(tmp_path: Path, spells: list[dict[str, Any]]) -> str:
    """The output of a full AI-v-AI `warbench play gff` (seed 2) whose blue army is the test
    Army Forge export with its first unit made a Caster(3) and `spells` as its spellbook."""
    data = json.loads((Path(__file__).parent / "data" / "army_forge_valid.json").read_text())
    data["units"][0]["rules"].append({"key": "caster", "name": "Caster", "rating": "3"})
    data["spells"] = spells
    (tmp_path / "list.json").write_text(json.dumps(data))
    scenario = tmp_path / "forge.yaml"
    scenario.write_text(
        "id: forge\nname: Forge game\nsummary: an imported list\npoints: 200\n"
        "armies:\n  red: {faction: ashen-wardens, list: skirmish}\n"
        "  blue: {army_forge: list.json}\n"
    )
    args = ["play", "gff", "--scenario", str(scenario), "--red", "ai", "--blue", "ai"]
    result = CliRunner().invoke(app, [*args, "--seed", "2"])
    assert result.exit_code == 0, result.output
    return result.output
