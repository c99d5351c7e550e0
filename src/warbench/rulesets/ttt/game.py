"""TURN SUMMARY: the flow of a Table Top Troopers game as decisions and their resolution.

On each turn a player moves any 1 piece (or AIMs with it), then attacks with any of their
pieces that have an enemy in range, moved or not. Each Captain in play lets them move two
other pieces in its place; that Captain does not move that turn (ruling TTT-R6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.core.dice import DiceSource
from warbench.core.game import Decision, GameOver, OpenGame, Pending
from warbench.core.grid import Square
from warbench.core.words import counted
from warbench.rulesets.ttt import attacking, setup
from warbench.rulesets.ttt.actions import CODEC, Aim, Attack, End, Move, Pass, Place
from warbench.rulesets.ttt.movement import reachable
from warbench.rulesets.ttt.state import Piece, State
from warbench.rulesets.ttt.table import Table
from warbench.rulesets.ttt.winning import decided, hold_bridge, other

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset

ALLOWED: dict[str, tuple[type[Action], ...]] = {
    "placement": (Place,),
    "move": (Move, Aim, Pass),
    "attack": (Attack, End),
}
"""The actions each step of the game allows."""


class TTTGame(OpenGame):
    """One operation of Table Top Troopers."""

    codec = CODEC
    state: State

    def __init__(
        self,
        ruleset: Ruleset,
        scenario: dict[str, Any],
        table: Table,
        seed: int | None,
        dice: DiceSource | None = None,
    ) -> None:
        super().__init__(ruleset, scenario, seed, dice)
        self.table = table
        self._reach: dict[str, dict[Square, int]] = {}  # per piece, for the current state
        spec = table.scenario
        self.state = State(
            phase="placement",
            player=spec.first,
            to_place={s: list(spec.forces[s].pieces) for s in ("red", "blue")},
            choose_left={s: spec.forces[s].choose for s in ("red", "blue")},
        )
        self.start()

    # -- decisions -----------------------------------------------------------------
    @property
    def pending(self) -> Pending:
        s = self.state
        if s.phase == "over":
            return GameOver(s.winner, s.reason)
        if s.phase == "placement":
            left = len(s.to_place[s.player]) + s.choose_left[s.player]
            return Decision(s.player, "place", f"{s.player}: place a piece ({left} to place)")
        if s.phase == "move":
            return Decision(
                s.player,
                "move",
                (
                    f"{s.player}, turn {s.turn + 1}: move or aim a piece "
                    f"({counted(s.moves_left, 'move')} left), "
                    "or pass to attack"
                ),
            )
        return Decision(s.player, "attack", f"{s.player}: attack with a piece, or end the turn")

    def legal_actions(self, player: str) -> list[Action]:
        s = self.state
        if s.phase == "over" or player != s.player:
            return []
        actions: list[Action] = []
        if s.phase == "placement":
            for kind in setup.placeable_kinds(self.table, s, player):
                actions += [Place(kind, sq) for sq in setup.zone(self.table, s, player, kind)]
        elif s.phase == "move":
            for piece in self._movers():
                actions += [Move(piece.id, sq) for sq in self._reachable(piece)]
                actions += [Aim(piece.id, t.id) for t in attacking.targets(self.table, s, piece)]
            actions.append(Pass())
        else:
            for piece in self._attackers():
                actions += [Attack(piece.id, t.id) for t in attacking.targets(self.table, s, piece)]
            actions.append(End())
        return actions

    def _reachable(self, piece: Piece) -> dict[Square, int]:
        found = self._reach.get(piece.id)
        if found is None:
            found = self._reach[piece.id] = reachable(self.table, self.state, piece)
        return found

    def _movers(self) -> list[Piece]:
        s = self.state
        return [
            p
            for p in s.side_pieces(s.player)
            if p.id not in s.moved and not (s.commanded and p.kind == "Captain")
        ]

    def _may_still_move(self) -> str:
        movers = ", ".join(p.id for p in self._movers()) or "none"
        return f"pieces that may still move or aim: {movers} (or pass)"

    def _attackers(self) -> list[Piece]:
        s = self.state
        return [p for p in s.side_pieces(s.player) if p.id not in s.attacked]

    # -- legality ----------------------------------------------------------------------
    def allowed_now(self) -> tuple[type[Action], ...]:
        return ALLOWED[self.state.phase]

    def _illegal(self, action: Action, player: str) -> str | None:
        s = self.state
        if not isinstance(action, ALLOWED[s.phase]):
            allowed = ", ".join(CODEC.form(c) for c in ALLOWED[s.phase])
            return f"now is the {s.phase} step; allowed: {allowed}"
        if isinstance(action, Place):
            return self._illegal_place(action, player)
        if isinstance(action, Move | Aim | Attack):
            piece = s.pieces.get(action.piece)
            if piece is None or piece.side != player:
                own = ", ".join(sorted(p.id for p in s.side_pieces(player))) or "none"
                why = self._not_one(action.piece, "yours")
                return f"{why}; your pieces in play: {own}"
        if isinstance(action, Move):
            return self._illegal_move(s.pieces[action.piece], action)
        if isinstance(action, Aim):
            return self._illegal_aim(s.pieces[action.piece], action)
        if isinstance(action, Attack):
            return self._illegal_attack(s.pieces[action.piece], action)
        return None

    def _illegal_place(self, action: Place, player: str) -> str | None:
        kinds = setup.placeable_kinds(self.table, self.state, player)
        if action.kind not in kinds:
            meant = [k for k in kinds if k.lower() == action.kind.lower()]
            hint = f" (kinds are written as on the squad sheet: {meant[0]})" if meant else ""
            return f"you cannot place a {action.kind} now{hint}; you may place: {', '.join(kinds)}"
        squares = setup.zone(self.table, self.state, player, action.kind)
        if action.to not in squares:
            shown = " ".join(str(q) for q in squares[:24]) + (" ..." if len(squares) > 24 else "")
            grid = self.table.battlefield.grid
            there = self.state.at(action.to)
            if action.to not in grid:
                corner = Square(grid.width - 1, grid.height - 1)
                why = f"{action.to} is not on the board (A1 to {corner})"
            elif there is not None:
                why = f"{action.to} is taken by {there.id} ({there.side} {there.kind})"
            else:
                why = f"{action.to} is outside your placement area"
            return f"{why}; allowed: {shown}"
        return None

    def _illegal_move(self, piece: Piece, action: Move) -> str | None:
        s = self.state
        if piece.id in s.moved:
            return f"{piece.id} has already moved or aimed this turn; {self._may_still_move()}"
        if s.commanded and piece.kind == "Captain":
            return (
                f"{piece.id} is commanding: a Captain does not move when it moves others; "
                f"{self._may_still_move()}"
            )
        options = self._reachable(piece)
        if action.to not in options:
            profile = self.table.profile(piece.kind)
            cannot = (
                f"is already on {action.to}"
                if action.to == piece.square
                else f"cannot reach {action.to} from {piece.square}"
            )
            return (
                f"{piece.id} ({piece.kind}, Move {profile.move}) {cannot}; it can reach: "
                f"{' '.join(str(q) for q in sorted(options)) or 'nowhere'}"
            )
        return None

    def _illegal_aim(self, piece: Piece, action: Aim) -> str | None:
        s = self.state
        if piece.id in s.moved:
            return (
                f"{piece.id} has already moved or aimed this turn (AIM counts as the move); "
                f"{self._may_still_move()}"
            )
        if s.commanded and piece.kind == "Captain":
            return (
                f"{piece.id} is commanding and cannot aim (AIM counts as a move); "
                f"{self._may_still_move()}"
            )
        return self._illegal_target(piece, action.target, "aim at")

    def _illegal_attack(self, piece: Piece, action: Attack) -> str | None:
        if piece.id in self.state.attacked:
            ready = [p.id for p in self._attackers()]
            return (
                f"{piece.id} has already attacked this turn; pieces that may still attack: "
                f"{', '.join(ready) or 'none'} (or end the turn)"
            )
        return self._illegal_target(piece, action.target, "attack")

    def _illegal_target(self, piece: Piece, target_id: str, verb: str) -> str | None:
        target = self.state.pieces.get(target_id)
        if target is None or target.side == piece.side:
            why = self._not_one(target_id, "an enemy")
            options = [t.id for t in attacking.targets(self.table, self.state, piece)]
            return f"{why}; {piece.id} may {verb}: {', '.join(options) or 'nobody'}"
        if not attacking.can_attack_from(self.table, piece):
            return f"{piece.id} is in a river and may not attack"
        if not attacking.in_range(self.table, piece, target):
            options = [t.id for t in attacking.targets(self.table, self.state, piece)]
            return (
                f"{target.id} at {target.square} is not in range and sight of {piece.id} at "
                f"{piece.square} (Range {self.table.profile(piece.kind).range}, no diagonals); "
                f"{piece.id} may {verb}: {', '.join(options) or 'nobody'}"
            )
        return None

    def _not_one(self, pid: str, wanted: str) -> str:
        """Why `pid` is not the piece in play that was `wanted` ("yours", "an enemy"):
        bagged, a piece of the other side, or no piece at all."""
        s = self.state
        piece = s.pieces.get(pid)
        if pid in s.lost:
            return f"{pid} has been bagged and is out of play"
        if piece is not None:
            return f"{pid} is {piece.side}'s {piece.kind}, not {wanted}"
        return f"there is no piece '{pid}'"

    # -- resolution --------------------------------------------------------------------
    def _resolve(self, action: Action, player: str) -> None:
        self._reach.clear()
        if isinstance(action, Place):
            self._place(action, player)
        elif isinstance(action, Move):
            self._move(action, player)
        elif isinstance(action, Aim):
            piece = self.state.pieces[action.piece]
            piece.aim = action.target
            self.emit("aim", f"{piece.id} aims at {action.target} (+1 to hit it this turn)")
            self._spend_move(piece)
        elif isinstance(action, Pass):
            self.emit("pass", f"{player} moves no more pieces")
            self._to_attacks()
        elif isinstance(action, Attack):
            self._attack(action)
        else:
            self._end_turn()
        self._check_decided()

    def _place(self, action: Place, player: str) -> None:
        s = self.state
        if action.kind in s.to_place[player]:
            s.to_place[player].remove(action.kind)
        else:
            s.choose_left[player] -= 1
        s.placed[player] += 1
        pid = f"{player[0]}{s.placed[player]}"
        s.pieces[pid] = Piece(pid, player, action.kind, action.to)
        self.emit("place", f"{player} places {action.kind} {pid} on {action.to}")
        opponent = other(player)
        if len(s.to_place[opponent]) + s.choose_left[opponent] > 0:
            s.player = opponent
        elif len(s.to_place[player]) + s.choose_left[player] == 0:
            s.phase, s.player = "move", self.table.scenario.first
            self.emit("setup", f"all pieces placed; {s.player} placed first and goes first")

    def _move(self, action: Move, player: str) -> None:
        piece = self.state.pieces[action.piece]
        start = piece.square
        piece.square, piece.aim = action.to, None
        self.emit("move", f"{piece.id} ({piece.kind}) moves {start} → {action.to}")
        self._spend_move(piece)

    def _spend_move(self, piece: Piece) -> None:
        s = self.state
        first = not s.moved
        s.moved.add(piece.id)
        captains = sum(1 for p in s.side_pieces(s.player) if p.kind == "Captain")
        if first and captains and piece.kind != "Captain":
            s.commanded = True
            s.moves_left = 2 * captains - 1
            self.emit(
                "command",
                (
                    f"{counted(captains, 'Captain')} in play: {s.player} may move "
                    f"{2 * captains} pieces this turn; Captains stay put"
                ),
            )
        else:
            s.moves_left -= 1
        if s.moves_left <= 0 or not self._movers():
            self._to_attacks()

    def _to_attacks(self) -> None:
        self.state.phase = "attack"
        if not any(attacking.targets(self.table, self.state, p) for p in self._attackers()):
            self._end_turn()

    def _attack(self, action: Attack) -> None:
        s = self.state
        piece, target = s.pieces[action.piece], s.pieces[action.target]
        s.attacked.add(piece.id)
        roll = self.roll(attacking.to_hit(self.table, piece, target))
        if roll.success:
            del s.pieces[target.id]
            s.lost.append(target.id)
            for p in s.pieces.values():
                if p.aim == target.id:
                    p.aim = None
            self.emit("hit", f"{piece.id} bags {target.side} {target.kind} {target.id}")
        else:
            self.emit("miss", f"{piece.id} misses {target.id}")
        if decided(self.table, s) is None and not any(
            attacking.targets(self.table, s, p) for p in self._attackers()
        ):
            self._end_turn()

    def _end_turn(self) -> None:
        s = self.state
        result = hold_bridge(self.table, s, s.player)
        if result:
            self._finish(*result)
            return
        for piece in s.side_pieces(s.player):
            piece.aim = None
        s.turn += 1
        self.emit("turn", f"{s.player} ends turn {s.turn}")
        s.player = other(s.player)
        s.phase, s.moved, s.attacked = "move", set(), set()
        s.moves_left, s.commanded = 1, False
        if s.turn >= self.table.scenario.turn_limit:
            self._finish(None, f"no winner after {s.turn} turns (turn limit)")

    def _check_decided(self) -> None:
        if self.state.phase in ("over", "placement"):
            return
        result = decided(self.table, self.state)
        if result:
            self._finish(*result)

    def _finish(self, winner: str | None, reason: str) -> None:
        self.state.phase, self.state.winner, self.state.reason = "over", winner, reason
        self.emit("over", f"game over: {reason}")

    # -- state -------------------------------------------------------------------------
    def state_data(self) -> dict[str, Any]:
        return self.state.to_json()

    def _restore(self, snapshot: object) -> None:
        super()._restore(snapshot)
        self._reach.clear()

    def _detach(self) -> None:
        self._reach = {}
