"""The state of a Table Top Troopers game: pieces on the squares and where the turn stands."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warbench.core.grid import Square


@dataclass(slots=True)
class Piece:
    """A piece in play: its id (`r1`), side, squad-sheet kind, square, and AIM target."""

    id: str
    side: str
    kind: str
    square: Square
    aim: str | None = None


@dataclass(slots=True)
class State:
    """Everything that changes during a game (the hash and the saves cover all of it)."""

    phase: str  # placement | move | attack | over
    player: str
    to_place: dict[str, list[str]]
    choose_left: dict[str, int]
    pieces: dict[str, Piece] = field(default_factory=dict)
    placed: dict[str, int] = field(default_factory=lambda: {"red": 0, "blue": 0})
    lost: list[str] = field(default_factory=list)
    turn: int = 0
    moved: set[str] = field(default_factory=set)
    moves_left: int = 1
    commanded: bool = False
    attacked: set[str] = field(default_factory=set)
    bridge: dict[str, int] = field(default_factory=lambda: {"red": 0, "blue": 0})
    winner: str | None = None
    reason: str = ""

    def copy(self) -> State:
        """A deep copy (pieces are mutable), field by field (`dataclasses.replace` cost
        three times as much, at every step)."""
        return State(
            phase=self.phase,
            player=self.player,
            to_place={s: list(v) for s, v in self.to_place.items()},
            choose_left=dict(self.choose_left),
            pieces={
                k: Piece(p.id, p.side, p.kind, p.square, p.aim) for k, p in self.pieces.items()
            },
            placed=dict(self.placed),
            lost=list(self.lost),
            turn=self.turn,
            moved=set(self.moved),
            moves_left=self.moves_left,
            commanded=self.commanded,
            attacked=set(self.attacked),
            bridge=dict(self.bridge),
            winner=self.winner,
            reason=self.reason,
        )

    def side_pieces(self, side: str) -> list[Piece]:
        """The pieces of `side` still in play."""
        return [p for p in self.pieces.values() if p.side == side]

    def at(self, square: Square) -> Piece | None:
        """The piece on `square`, if any."""
        for piece in self.pieces.values():
            if piece.square == square:
                return piece
        return None

    def to_json(self) -> dict[str, Any]:
        """JSON data of the whole state."""
        return {
            "phase": self.phase,
            "player": self.player,
            "to_place": self.to_place,
            "choose_left": self.choose_left,
            "pieces": {
                k: {"side": p.side, "kind": p.kind, "square": str(p.square), "aim": p.aim}
                for k, p in sorted(self.pieces.items())
            },
            "placed": self.placed,
            "lost": self.lost,
            "turn": self.turn,
            "moved": sorted(self.moved),
            "moves_left": self.moves_left,
            "commanded": self.commanded,
            "attacked": sorted(self.attacked),
            "bridge": self.bridge,
            "winner": self.winner,
            "reason": self.reason,
        }
