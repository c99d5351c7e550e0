"""Each side's pieces by squad-sheet kind, fielded and standing (for the simulation lab)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from warbench.rulesets.ttt.actions import CODEC, Place
from warbench.rulesets.ttt.game import TTTGame


def by_unit_type(game: TTTGame) -> dict[str, dict[str, tuple[int, int]]]:
    """GAME SET-UP places every piece with a `place` action: those are the fielded pieces;
    the standing ones are those still on the board."""
    fielded: dict[str, Counter[str]] = {"red": Counter(), "blue": Counter()}
    placing = f"{Place.verb} "
    for step in game.steps:
        if not step.action.startswith(placing):
            continue  # parse only the placements: parsing every step cost a tenth of a game
        kind = _placed_kind(step.action)
        if kind is not None:
            fielded[step.player][kind] += 1
    standing = {side: Counter(p.kind for p in game.state.side_pieces(side)) for side in fielded}
    return {
        side: {kind: (n, standing[side][kind]) for kind, n in sorted(kinds.items())}
        for side, kinds in fielded.items()
    }


@lru_cache(maxsize=4096)
def _placed_kind(text: str) -> str | None:
    """The kind a `place` step puts down (the same few texts recur game after game, and
    parsing one cost as much as the rest of the census)."""
    action = CODEC.parse(text)
    return action.kind if isinstance(action, Place) else None
