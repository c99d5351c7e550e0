"""Build TFT WW2 skirmish positions for game tests: a scenario dict of our own drawing, the
game made from it through the registry, and every die scripted.

Men get their ids from the game as it numbers them: each side's men in squad order, `r1`,
`r2`, ... for red and `b1`, `b2`, ... for blue. Facings are compass degrees (0 = north, +y).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.dice import Roll, ScriptedDice
from warbench.core.events import Event
from warbench.rulesets.tftww2.actions import Done
from warbench.rulesets.tftww2.game import TFTGame

Spec = dict[str, Any]


def man(
    x: float,
    y: float,
    *,
    rank: str = "Private",
    weapon: str = "Rifle",
    close: str = "Attached Bayonet",
    facing: float = 0.0,
    grenades: int = 0,
    radio: bool = False,
    support: str | None = None,
) -> Spec:
    """One man as deployed (a ManSpec of scenario.py)."""
    spec: Spec = {
        "rank": rank,
        "weapon": weapon,
        "close_weapon": close,
        "grenades": grenades,
        "radio": radio,
        "at": [x, y],
        "facing": facing,
    }
    if support is not None:
        spec["support"] = support
    return spec


def squad(*men: Spec, name: str = "", quality: str = "regular") -> Spec:
    """A squad of `men` (a SquadSpec)."""
    return {"name": name or "squad", "quality": quality, "men": list(men)}


def rect(kind: str, x0: float, y0: float, x1: float, y1: float, **extra: Any) -> Spec:
    """A rectangular terrain piece from (x0, y0) to (x1, y1)."""
    return {
        "kind": kind,
        "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        **extra,
    }


def scenario(
    red: Sequence[Spec],
    blue: Sequence[Spec],
    *,
    terrain: Iterable[Spec] = (),
    width: float = 48,
    depth: float = 48,
    first: str = "red",
    victory: Spec | None = None,
    red_edge: str = "south",
    blue_edge: str = "north",
    red_artillery: str | None = None,
    red_missions: int = 0,
) -> Spec:
    """A scenario dict: `red` and `blue` are lists of squads (see `squad`)."""
    red_side: Spec = {"edge": red_edge, "squads": list(red)}
    if red_artillery is not None:
        red_side |= {"artillery": red_artillery, "missions": red_missions}
    return {
        "id": "test",
        "name": "Test position",
        "summary": "a rule test",
        "width": width,
        "depth": depth,
        "terrain": list(terrain),
        "sides": {"red": red_side, "blue": {"edge": blue_edge, "squads": list(blue)}},
        "first": first,
        "victory": victory or {"kind": "casualties", "rounds": 8},
    }


def new_game(data: Spec, dice: Sequence[int] = ()) -> TFTGame:
    """The game of `data`, through the registry, on scripted dice (it makes no set-up roll)."""
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.scenario_from_data(data), 1, ScriptedDice(dice))
    assert isinstance(game, TFTGame)
    return game


def position(
    red: Sequence[Spec], blue: Sequence[Spec], *, dice: Sequence[int] = (), **kw: Any
) -> TFTGame:
    """A game of one red squad of `red` men against one blue squad of `blue` men."""
    return new_game(scenario([squad(*red, name="red")], [squad(*blue, name="blue")], **kw), dice)


# -- dice ------------------------------------------------------------------------------------


def three(total: int) -> list[int]:
    """Three d6 faces with this total (3..18)."""
    assert 3 <= total <= 18
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


def script(game: TFTGame, *faces: int) -> None:
    """The faces the next rolls must use, in order (running out is an error)."""
    game.dice = ScriptedDice(faces)


def dice_left(game: TFTGame) -> int:
    """How many scripted faces are still unused."""
    assert isinstance(game.dice, ScriptedDice)
    return game.dice.remaining


# -- reading what happened -------------------------------------------------------------------


def rolls(events: Iterable[Event], label: str = "") -> list[Roll]:
    """The rolls among `events` whose label starts with `label`."""
    return [e.roll for e in events if e.roll is not None and e.roll.request.label.startswith(label)]


def only_roll(events: Iterable[Event], label: str) -> Roll:
    """The one roll whose label starts with `label`."""
    found = rolls(events, label)
    assert len(found) == 1, [r.request.label for r in rolls(events)]
    return found[0]


def attribute_mods(roll: Roll) -> dict[str, int]:
    """A 3d6 attribute roll's modifiers as the rulebook gives them (to the attribute):
    'short range (within 6") (+3 DEX)' read as {'short range (within 6")': 3}."""
    mods = {}
    for reason, value in roll.request.modifiers:
        mods[reason.rsplit(" (", 1)[0]] = -value
    return mods


def kinds(events: Iterable[Event]) -> list[str]:
    """The kinds of `events`, rolls left out."""
    return [e.kind for e in events if e.kind != "roll"]


def texts(events: Iterable[Event]) -> str:
    """Every event's text, one a line (rolls explained)."""
    return "\n".join(e.text for e in events)


def play(game: TFTGame, *actions: Action) -> list[Event]:
    """Apply `actions` in order; the events of all of them."""
    events = []
    for action in actions:
        events += game.apply(action)
    return events


def done(game: TFTGame, times: int = 1) -> list[Event]:
    """Apply `done` `times` times."""
    return play(game, *[Done()] * times)


def where(game: TFTGame) -> tuple[int, str, str, str]:
    """(round, side whose turn it is, phase, player to decide)."""
    s = game.state
    return s.round, s.side, s.phase, s.player
