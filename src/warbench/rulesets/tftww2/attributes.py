"""A man's attributes now: his troop type's (2.0), all halved once he is wounded (4.5)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from warbench.rulesets.tftww2.profiles import characters
from warbench.rulesets.tftww2.state import Man


@dataclass(frozen=True)
class Attributes:
    """STR, INT, DEX, LDR and MOV as they stand."""

    strength: int
    intelligence: int
    dexterity: int
    leadership: int
    mov: int


def attributes(man: Man) -> Attributes:
    """The troop type's attributes, halved (rounded down) when wounded."""
    return rank_attributes(man.rank, man.wounded)


@cache
def rank_attributes(rank: str, wounded: bool) -> Attributes:
    """A troop type's attributes, halved (rounded down) when wounded."""
    p = characters()[rank]
    values = (p.strength, p.intelligence, p.dexterity, p.leadership, p.movement)
    if wounded:
        values = tuple(v // 2 for v in values)  # type: ignore[assignment]
    return Attributes(*values)
