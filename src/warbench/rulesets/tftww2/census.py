"""Each side's men by firearm (or support weapon) and AFVs by type, fielded and standing
(for the simulation lab)."""

from __future__ import annotations

from collections import Counter

from warbench.rulesets.tftww2.game import TFTGame


def by_unit_type(game: TFTGame) -> dict[str, dict[str, tuple[int, int]]]:
    """Every man and AFV of the scenario takes the field; standing: still in the fight (not
    incapacitated, dead, fled, surrendered, knocked out, abandoned or exploded)."""
    fielded: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    standing: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    for man in game.state.men.values():
        kind = man.support or man.weapon
        fielded[man.side][kind] += 1
        standing[man.side][kind] += man.active
    for tank in game.state.tanks.values():
        fielded[tank.side][tank.key] += 1
        standing[tank.side][tank.key] += tank.active
    return {
        side: {kind: (n, standing[side][kind]) for kind, n in sorted(kinds.items())}
        for side, kinds in fielded.items()
    }
