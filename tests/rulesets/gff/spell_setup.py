"""Set-ups the Army Forge spell tests share: a spell read from its text (or why it is
refused), the squad it is cast at, and a game with a Caster(2) seer knowing it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.rulesets.gff.position import caster_export, gun, position, profile
from warbench.rulesets.gff.army_forge import import_army_forge
from warbench.rulesets.gff.profiles import Spell

SQUAD = profile("Squad", size=3)


def imported(text: str) -> Spell:
    """The spell Army Forge's text reads as (named "Spell")."""
    (spell,) = import_army_forge(caster_export(("Spell", text)), "list.json").units[0].spells
    return spell


def refused_import(text: str) -> str:
    """Why importing the spell's text is refused (the message names the spell and says
    nothing is imported)."""
    with pytest.raises(ValueError) as err:
        imported(text)
    message = str(err.value)
    assert "'Spell'" in message and "nothing imported" in message
    return message


def seer_game(
    text: str, blue: list[Any], at: dict[str, Any], dice: list[int], red: Sequence[Any] = ()
) -> Any:
    """r1 a Caster(2) with 2 tokens knowing the imported spell, at 24,10; the other units of
    `red` and `blue` placed `at`."""
    seer = profile("Seer", rules=["Caster(2)"], spells=[imported(text)], weapons=[gun()])
    game = position([seer, *red], blue, {"r1": (24, 10), **at}, dice=dice)
    game.state.units["r1"].tokens = 2
    return game
