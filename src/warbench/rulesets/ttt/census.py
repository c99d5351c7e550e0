"""Each side's pieces by squad-sheet kind, fielded and standing (for the simulation lab)."""

from __future__ import annotations

from collections import Counter

from warbench.rulesets.ttt.actions import Place
from warbench.rulesets.ttt.game import TTTGame


def by_unit_type(game: TTTGame) -> dict[str, dict[str, tuple[int, int]]]:
    """GAME SET-UP places every piece with a `place` action: those are the fielded pieces;
    the standing ones are those still on the board."""
    fielded: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    placing = f"{Place.verb} "
    for step in game.steps:
        if not step.action.startswith(placing):
            continue  # parse only the placements: parsing every step cost a tenth of a game
        action = game.parse(step.action)
        if isinstance(action, Place):
            fielded[step.player][action.kind] += 1
    standing = {side: Counter(p.kind for p in game.state.side_pieces(side)) for side in fielded}
    return {
        side: {kind: (n, standing[side][kind]) for kind, n in sorted(kinds.items())}
        for side, kinds in fielded.items()
    }
