"""What a Table Top Troopers position is worth to a side: the AI's one-turn reading (hits it
can make now, hits it risks next turn, progress toward the operation's objective), exactly,
and `Outlook`, the same reading of every one-piece change of a position in a decision.
"""

from __future__ import annotations

from fractions import Fraction

from warbench.core.dice import exact_outcomes, resolve
from warbench.core.grid import Square
from warbench.rulesets.ttt import attacking
from warbench.rulesets.ttt.state import Piece, State
from warbench.rulesets.ttt.table import Table
from warbench.rulesets.ttt.winning import other

_HIT_ODDS: dict[tuple[int, int, int], float] = {}


def hit_chance(table: Table, attacker: Piece, target: Piece) -> float:
    """P(hit) of attacker on target now, exactly, from the attack's own roll request
    (`attacking.to_hit` reads only the two kinds, the aim and the target square's terrain)."""
    hits = table.hit_chances
    key = (
        attacker.kind,
        attacker.aim == target.id,
        target.kind,
        table.battlefield.terrain[target.square],
    )
    found = hits.get(key)
    if found is None:
        request = attacking.to_hit(table, attacker, target)
        odds_key = (request.modifier_total, request.target or 0, 0)
        if odds_key not in _HIT_ODDS:
            odds = exact_outcomes(lambda dice: resolve(request, dice.faces(request)).success)
            _HIT_ODDS[odds_key] = float(odds.get(True, Fraction(0)))
        found = hits[key] = _HIT_ODDS[odds_key]
    return found


def piece_value(table: Table, piece: Piece) -> float:
    """Captains in Cap the Cap'n, and raiders a move from our bunker, matter most."""
    return piece_values(table, piece.side, piece.kind)[piece.square]


def piece_values(table: Table, side: str, kind: str) -> dict[Square, float]:
    """`piece_value` of a `side` piece of `kind` on each square of the battlefield."""
    found = table.piece_values.get((side, kind))
    if found is None:
        found = table.piece_values[side, kind] = {
            square: _piece_value(table, side, kind, square) for square in table.battlefield.terrain
        }
    return found


def _piece_value(table: Table, side: str, kind: str, square: Square) -> float:
    objective = table.scenario.objective.kind
    if objective == "take_out_captain" and kind == "Captain":
        return 10.0
    if objective == "enter_bunker":
        home = table.homes[other(side)]
        reach = table.profile(kind).move
        if min(square.distance(sq) for sq in home) <= reach:
            return 5.0
    return 1.0


def goal_distance(table: Table, state: State, side: str, square: Square) -> float:
    """Steps (around buildings, through pieces) from `square` to the nearest goal square."""
    return float(goal_field(table, state, side).get(square, far(table)))


def far(table: Table) -> int:
    """The steps `goal_distance` counts for a square no goal can be reached from."""
    return 2 * len(table.battlefield.terrain)


def goal_field(table: Table, state: State, side: str) -> dict[Square, int]:
    """Steps from each square to `side`'s nearest goal: the enemy bunker, the bridge, or the
    enemy (his Captains in Cap the Cap'n)."""
    objective = table.scenario.objective.kind
    goals: frozenset[Square]
    if objective == "enter_bunker":
        goals = table.homes[other(side)]
    elif objective == "hold_bridge":
        goals = table.bridge
    else:
        enemies = state.side_pieces(other(side))
        if objective == "take_out_captain":
            enemies = [p for p in enemies if p.kind == "Captain"] or enemies
        goals = frozenset(p.square for p in enemies)
    return _distance_field(table, goals)


# Keyed by the table's id; each entry holds the table itself so that id is not reused.
_FIELDS: dict[tuple[int, frozenset[Square]], tuple[Table, dict[Square, int]]] = {}


def _distance_field(table: Table, goals: frozenset[Square]) -> dict[Square, int]:
    """Breadth-first steps from the goals over passable squares (kept for a few goal sets)."""
    key = (id(table), goals)
    if key in _FIELDS:
        return _FIELDS[key][1]
    if len(_FIELDS) > 256:
        _FIELDS.clear()
    links = table.battlefield.links
    found = dict.fromkeys(goals, 0)
    frontier = list(goals)
    while frontier:
        reached = []
        for sq in frontier:
            for nxt in links[sq]:
                if nxt not in found:
                    found[nxt] = found[sq] + 1
                    reached.append(nxt)
        frontier = reached
    _FIELDS[key] = (table, found)
    return found


def position_value(table: Table, s: State, side: str) -> float:
    """Expected hits we can make now, minus expected losses next turn, plus objective."""
    mine, theirs = s.side_pieces(side), s.side_pieces(other(side))
    offense = 0.0
    for enemy in theirs:
        best = max(
            (
                hit_chance(table, m, enemy)
                for m in mine
                if m.id not in s.attacked
                and attacking.can_attack_from(table, m)
                and attacking.in_range(table, m, enemy)
            ),
            default=0.0,
        )
        offense += best * piece_value(table, enemy)
    danger = 0.0
    for piece in mine:
        danger += _danger(table, theirs, piece)
    objective = table.scenario.objective.kind
    progress = 0.0
    urgency = 1.0 + s.turn / 40  # a stalemate is no result: press on as the turns go by
    for piece in mine:
        progress -= _progress(table, s, side, urgency, piece)
    if objective == "hold_bridge" and any(p.square in table.bridge for p in mine):
        progress += 3.0
    return 2.0 * offense - 0.5 * danger + progress


def _danger(table: Table, theirs: list[Piece], piece: Piece) -> float:
    """The value `piece` may lose to the enemies that can reach it next turn."""
    survive = 1.0
    for enemy in theirs:
        profile = table.profile(enemy.kind)
        if enemy.square.distance(piece.square) <= profile.range + profile.move:
            survive *= 1.0 - hit_chance(table, enemy, piece)
    return (1.0 - survive) * piece_value(table, piece)


def _progress(table: Table, s: State, side: str, urgency: float, piece: Piece) -> float:
    """How far `piece` is from its goal, weighted (Captains hang back in Cap the Cap'n)."""
    return urgency * _weight(table, piece) * goal_distance(table, s, side, piece.square)


def _weight(table: Table, piece: Piece) -> float:
    objective = table.scenario.objective.kind
    return 0.05 if piece.kind == "Captain" and objective == "take_out_captain" else 0.4


class Outlook:
    """`position_value(table, s, side)` after one piece of `side` is moved or aims, for many
    such changes of one position: the terms of the pieces not changed are worked out once and
    summed in the same order, so every value equals the whole reading's to the last bit."""

    def __init__(self, table: Table, s: State, side: str) -> None:
        self.table, self.s, self.side = table, s, side
        self.mine, self.theirs = s.side_pieces(side), s.side_pieces(other(side))
        self.enemy_values = [piece_value(table, e) for e in self.theirs]
        self.dangers = [_danger(table, self.theirs, p) for p in self.mine]
        urgency = 1.0 + s.turn / 40
        self.urgency = urgency
        self.field, self.far = goal_field(table, s, side), far(table)
        self.progresses = [  # `_progress` of each, from the goal field read once
            urgency * _weight(table, p) * float(self.field.get(p.square, self.far))
            for p in self.mine
        ]
        self.reaches = [
            table.profile(e.kind).range + table.profile(e.kind).move for e in self.theirs
        ]
        self.bridge_bonus = table.scenario.objective.kind == "hold_bridge"
        self.danger, self.progress = 0.0, 0.0  # the sums as the position stands
        for term in self.dangers:
            self.danger += term
        for term in self.progresses:
            self.progress -= term
        if self.bridge_bonus and any(p.square in table.bridge for p in self.mine):
            self.progress += 3.0
        self._best_of_others: dict[str, list[float | None]] = {}
        self._shots = [  # per piece of ours, its hit chance on each enemy in its range, or None
            [
                hit_chance(table, m, e) if attacking.in_range(table, m, e) else None
                for e in self.theirs
            ]
            if self._may_attack(m)
            else [None] * len(self.theirs)
            for m in self.mine
        ]
        self._movers: dict[str, _Mover] = {}

    def _may_attack(self, piece: Piece) -> bool:
        return piece.id not in self.s.attacked and attacking.can_attack_from(self.table, piece)

    def _others_best(self, changed: str) -> list[float | None]:
        """Per enemy, the best hit chance of our pieces other than `changed` (None: none)."""
        found = self._best_of_others.get(changed)
        if found is None:
            rows = [row for m, row in zip(self.mine, self._shots, strict=True) if m.id != changed]
            found = []
            for j in range(len(self.theirs)):
                shots = [c for row in rows if (c := row[j]) is not None]
                found.append(max(shots) if shots else None)
            self._best_of_others[changed] = found
        return found

    def unchanged(self) -> float:
        """The reading of the position as it stands."""
        return self._with(None)

    def moved(self, piece_id: str, to: Square) -> float:
        """The reading with piece `piece_id` moved to `to`, a square it can reach (a move
        clears its aim): `_with`, with all that does not depend on `to` worked out once per
        piece (`_Mover`)."""
        mover = self._movers.get(piece_id) or self._mover(piece_id)
        table = self.table
        terrain = table.battlefield.terrain[to]
        if mover.may_attack and to in table.firing_squares:
            offense = 0.0
            for cover, idle, shot in mover.offense_rows:
                offense += shot if to in cover else idle
        else:
            offense = mover.offense_idle
        rows = mover.rows.get(terrain)
        if rows is None:
            rows = mover.danger_rows(to, terrain)
        survive, col, row = 1.0, to.col, to.row
        for enemy_col, enemy_row, reach, miss in rows:
            if abs(enemy_col - col) + abs(enemy_row - row) <= reach:
                survive *= miss
        danger = mover.danger_before
        danger += (1.0 - survive) * mover.values[to]
        for term in mover.dangers_after:
            danger += term
        progress = mover.progress_before
        progress -= mover.pace * float(self.field.get(to, self.far))
        for term in mover.progresses_after:
            progress -= term
        if self.bridge_bonus and (to in table.bridge or mover.others_on_bridge):
            progress += 3.0
        return 2.0 * offense - 0.5 * danger + progress

    def _mover(self, piece_id: str) -> _Mover:
        found = self._movers[piece_id] = _Mover(self, self.s.pieces[piece_id])
        return found

    def aimed(self, piece_id: str, target: str) -> float:
        """The reading with piece `piece_id` aiming at `target`."""
        old = self.s.pieces[piece_id]
        return self._with(Piece(old.id, old.side, old.kind, old.square, target))

    def _with(self, changed: Piece | None) -> float:
        """The reading with `changed`, one of our pieces aiming (its square, and so its
        danger and progress, as they stand), or of the position as it stands (None)."""
        table = self.table
        offense = 0.0
        if changed is None:
            others: list[float | None] = self._others_best("")
            shoots = False
        else:
            others = self._others_best(changed.id)
            shoots = self._may_attack(changed)
        for enemy, other_best, worth in zip(self.theirs, others, self.enemy_values, strict=True):
            best = other_best
            if changed is not None and shoots and attacking.in_range(table, changed, enemy):
                chance = hit_chance(table, changed, enemy)
                best = chance if best is None or chance > best else best
            offense += (0.0 if best is None else best) * worth
        return 2.0 * offense - 0.5 * self.danger + self.progress


class _Mover:
    """All of a piece's move that does not depend on where it goes: each enemy's offense
    term with and without its shot (aim cleared), the terms of our other
    pieces before and after its own in each sum, and the chance to miss it by the terrain it
    ends on of each enemy that may reach it."""

    def __init__(self, outlook: Outlook, piece: Piece) -> None:
        table = outlook.table
        self.outlook, self.piece = outlook, Piece(piece.id, piece.side, piece.kind, piece.square)
        self.may_attack = piece.id not in outlook.s.attacked
        self.range = table.profile(piece.kind).range
        others = outlook._others_best(piece.id)
        # per enemy: the squares it would have him in range and sight from (sight works
        # both ways), and his offense term if it cannot / can shoot at him
        self.offense_rows: list[tuple[frozenset[Square], float, float]] = []
        self.offense_idle = 0.0
        for e, best, worth in zip(outlook.theirs, others, outlook.enemy_values, strict=True):
            idle = (0.0 if best is None else best) * worth
            chance = hit_chance(table, self.piece, e)
            shot = (chance if best is None or chance > best else best) * worth
            self.offense_rows.append((table.field_of_fire(e.square, self.range), idle, shot))
            self.offense_idle += idle
        index = outlook.mine.index(piece)
        self.danger_before = 0.0
        for term in outlook.dangers[:index]:
            self.danger_before += term
        self.dangers_after = outlook.dangers[index + 1 :]
        self.progress_before = 0.0
        for term in outlook.progresses[:index]:
            self.progress_before -= term
        self.progresses_after = outlook.progresses[index + 1 :]
        self.pace = outlook.urgency * _weight(table, piece)
        self.others_on_bridge = outlook.bridge_bonus and any(
            p.square in table.bridge for p in outlook.mine if p.id != piece.id
        )
        self.rows: dict[str, list[tuple[int, int, int, float]]] = {}  # by terrain
        self.values = piece_values(table, piece.side, piece.kind)  # its own, by square
        farthest = table.allowances(piece.kind)[1][0]  # no move takes it further
        self.threats = [  # the enemies (and their reach) that may reach it after a move
            (e, reach)
            for e, reach in zip(outlook.theirs, outlook.reaches, strict=True)
            if e.square.distance(piece.square) <= reach + farthest
        ]

    def danger_rows(self, to: Square, terrain: str) -> list[tuple[int, int, int, float]]:
        """Per enemy that may reach it (`threats`): his square, his reach (Range + Move),
        and 1 - his hit chance on this piece on `to`, whose `terrain` is all that chance
        reads of it."""
        found = self.rows.get(terrain)
        if found is None:
            table, piece = self.outlook.table, self.piece
            there = Piece(piece.id, piece.side, piece.kind, to, None)
            found = [
                (e.square.col, e.square.row, reach, 1.0 - hit_chance(table, e, there))
                for e, reach in self.threats
            ]
            self.rows[terrain] = found
        return found
