"""The FFTT AI, one for every force: shooters keep their actions for targets in sight and
go for cover; close-combat figures charge; fire is focused on the figure nearest death;
opportunity fire when the odds are good; medics and tanks heal; the queen eats and lays."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import cache
from typing import Any

from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.ruleset import Agent
from warbench.rulesets.fftt import movement, shooting
from warbench.rulesets.fftt.actions import (
    Answer,
    CallSupport,
    Charge,
    ChooseSide,
    ChooseTable,
    Climb,
    Deploy,
    Done,
    Eat,
    Enter,
    Explode,
    Fight,
    First,
    Heal,
    Hold,
    Lay,
    Lob,
    Move,
    OpportunityFire,
    Shoot,
    Surrender,
    WoundAttacker,
    WriteForce,
)
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.move_choice import (
    COVER,
    GUARD,
    HEIGHT,
    KEY,
    Bounds,
    best_move,
    key_role,
)
from warbench.rulesets.fftt.profiles import tables
from warbench.rulesets.fftt.sight import can_see
from warbench.rulesets.fftt.state import Fig, State, other
from warbench.rulesets.fftt.table import KEPT, Point, dist

HOPELESS = 4  # R47: surrender when the enemy in sight has four times the fighting FPs left
# R52: a race's share of wins against an enemy of any race, equally likely, AI against AI
# with `behind-the-screen`'s lists (40 seeded battles a pairing; a mirror counted as a half)
STRENGTH = {"machina": 0.73, "marines": 0.58, "insectoids": 0.19}


@cache
def chance(needed: int) -> Fraction:
    """P(2D6 <= needed)."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= needed)
    return Fraction(ways, 36)


class TacticsAI(Agent):
    """A heuristic player for any of the three forces."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._keys: list[dict[str, Any]] = []
        self._bounds = Bounds()  # the move bounds kept from one decision to the next
        self._needs: tuple[object, dict[tuple[object, ...], int]] = (None, {})

    def choose(self, game: Game, player: str) -> Action:
        assert isinstance(game, FFTTGame)
        s = game.state
        self._keys = game.key_positions() if s.stage == "move" else []
        if s.stage == "table":  # R52: a race still to be written is "": no hint of it
            return ChooseTable(80, 80) if s.races[player] == "insectoids" else ChooseTable(100, 80)
        if s.stage == "side":
            return ChooseSide("south")
        if s.stage == "force":
            return self._write(game, player)
        if s.stage == "first":
            return First(other(player))
        if s.stage == "deploy":
            return self._deploy(game, s, player)
        if s.stage == "move":  # only the actions it weighs are listed
            return self._move(game, s, player)
        if s.stage == "enter":
            return self._enter(game, s, player)
        if s.stage in ("light", "general"):
            return self._fire(game, s, player)
        legal = game.legal_actions(player)
        if s.stage == "opfire":
            return self._opfire(s, legal)
        if s.stage == "answer":
            return self._answer(s, legal)
        if s.stage == "allocate":
            return self._allocate(s, legal)
        return legal[0]

    def ranked(self, game: Game, player: str) -> list[Action]:
        """Its choice, then the next best for the search agent (`ranking.py`)."""
        from warbench.rulesets.fftt.ranking import ranked  # it builds on this AI

        assert isinstance(game, FFTTGame)
        return ranked(self, game, player)

    @staticmethod
    def hopeless(game: FFTTGame, player: str, enemies: list[Fig] | None = None) -> bool:
        """R47: after the first turn, the player's fighting FPs (flanking forces to come
        included) are a quarter or less of the fighting FPs of the enemy on the table
        (`enemies`: its figures there, if the caller has them)."""
        s = game.state
        if not s.revealed or s.turn < 2:
            return False
        theirs = sum(
            f.fp
            for f in (s.side_figs(other(player)) if enemies is None else enemies)
            if not (f.prof.hq or f.prof.scanner or f.out_of_ammo)
        )
        return theirs > 0 and game.fighting_strength(player) * HOPELESS <= theirs

    # -- setup -------------------------------------------------------------------------------
    def _write(self, game: FFTTGame, player: str) -> Action:
        """R52: a list of the race strongest against an unknown enemy (`STRENGTH`), among
        several such lists a seeded draw; the table does not enter into it."""
        lists = [a for a in game.legal_actions(player) if isinstance(a, WriteForce)]
        best = max(STRENGTH[a.race] for a in lists)
        return self._rng.choice([a for a in lists if STRENGTH[a.race] == best])

    def _deploy(self, game: FFTTGame, s: State, player: str) -> Action:
        """The first figure still to deploy (that can), in cover if it can be."""
        for fig in s.figs.values():
            if fig.side == player and fig.where == "reserve":
                mine = game.figure_options((fig.id,), (Deploy,))
                if mine:
                    covered = [a for a in mine if isinstance(a, Deploy) and s.table.covered(a.at)]
                    return self._rng.choice(covered or mine)
        raise AssertionError(f"{player} has no figure to deploy")

    def _enter(self, game: FFTTGame, s: State, player: str) -> Action:
        """A flanking figure enters about 15 cm from an enemy (ties broken by the text of the
        action), by the first legal way in when no enemy stands on the table: the ways in
        are ranked first, then tested in that order. The figures of a flank share their ways
        in: each point's gap is worked out once."""
        enters = [a for a in game.candidates(player) if isinstance(a, Enter)]
        spots = [e.pos for e in s.side_figs(other(player))]
        if not spots:
            return next(a for a in enters if game.check(a, player) is None)
        gap_at: dict[Point, float] = {}
        for a in enters:
            if a.at not in gap_at:
                gap_at[a.at] = min([abs(dist(a.at, p) - 15) for p in spots])
        gaps = [gap_at[a.at] for a in enters]
        best: list[Action] = []  # the legal ways in at the least gap
        least = math.inf
        for n in sorted(range(len(enters)), key=gaps.__getitem__):
            if gaps[n] > least:
                break
            if game.check(enters[n], player) is None:
                least = gaps[n]
                best.append(enters[n])
        return min(best, key=str)

    # -- firing ------------------------------------------------------------------------------
    def _value(self, s: State, target: Fig, hit: Fraction) -> float:
        """Expected worth of a hit: FPs, more for a figure near death, none for overkill."""
        left = target.max_wounds - target.wounds - s.pending_wounds.get(target.id, 0)
        if left <= 0:
            return 0.0
        worth = target.fp / left
        if target.prof.hq:
            worth += 1.0
        return float(hit) * worth

    def _fire(self, game: FFTTGame, s: State, player: str) -> Action:
        """The legal shot, bug going off or support call worth most (above 0.05; the first
        listed of equal ones); a grenadier lobs only where it may not shoot. The candidates
        are scored first, then tested best first; a support call's worth is worked out once
        for every caller of a side and skill (all it depends on of the caller)."""
        ranked: list[tuple[float, int, Action]] = []
        supports: dict[tuple[str, int | None, str], float | None] = {}
        mine = s.side_figs(player)
        for n, a in enumerate(game.candidates(player)):
            if isinstance(a, CallSupport):
                caller = s.figs[a.figure]
                key = (caller.side, caller.prof.skill, a.target)
                if key not in supports:
                    supports[key] = self._fire_score(s, player, a, mine)
                score = supports[key]
            else:
                score = self._fire_score(s, player, a, mine)
            if score is not None and score > 0.05:
                ranked.append((-score, n, a))
        ranked.sort(key=lambda r: (r[0], r[1]))
        for _, _, a in ranked:
            if game.check(a, player) is not None:
                continue
            if isinstance(a, Lob) and game.check(Shoot(a.figure, a.target), player) is None:
                continue
            return a
        return Done()

    def _fire_score(
        self, s: State, player: str, a: Action, mine: list[Fig] | None = None
    ) -> float | None:
        """The worth of a firing step candidate (None for `done`); `mine`: the player's
        figures on the table, if the caller has them."""
        if isinstance(a, Shoot | Lob):
            firer, target = s.figs[a.figure], s.figs[a.target]
            needed = self._needed(s, firer, target, indirect=isinstance(a, Lob))
            at = (target.x, target.y)
            if firer.prof.template and any(
                dist((f.x, f.y), at) < 5 for f in (s.side_figs(player) if mine is None else mine)
            ):
                return 0.0  # do not drop a grenade on friends
            return self._value(s, target, chance(needed))
        if isinstance(a, Explode):
            return self._explode_score(s, s.figs[a.bug])
        if isinstance(a, CallSupport):
            return self._support_score(s, s.figs[a.figure], s.figs[a.target])
        return None

    def _needed(self, s: State, firer: Fig, target: Fig, *, indirect: bool) -> int:
        """The 2D6 score `firer`'s shot at `target` needs (`shooting.shot`), kept while
        neither moves and the firer takes no wound and gains no experience (all else it
        depends on stays a figure's): the AI scores every shot again at each of its firing
        decisions."""
        table, kept = self._needs
        if table is not s.table:
            kept = {}
            self._needs = (s.table, kept)
        key = (
            firer.id,
            target.id,
            indirect,
            firer.x,
            firer.y,
            target.x,
            target.y,
            firer.wounds,
            firer.xp,
        )
        needed = kept.get(key)
        if needed is None:
            if len(kept) >= KEPT:
                kept.clear()
            needed = kept[key] = shooting.shot(s, firer, target, indirect=indirect).needed
        return needed

    def _support_score(self, s: State, caller: Fig, target: Fig) -> float:
        """Off-board support (R34): the caller's unmodified skill, a missile burst on the
        target, worth every enemy it would wound; never with a friend under it."""
        circles = tables().bursts["missile"]
        outer = circles[-1][0]
        at = (target.x, target.y)
        if any(dist((f.x, f.y), at) <= outer + f.radius for f in s.side_figs(caller.side)):
            return 0.0
        hit = chance(caller.prof.skill or 0)
        score = 0.0
        for e in s.side_figs(target.side):
            near = dist((e.x, e.y), at) - e.radius
            dealt = next((n for r, n in circles if near <= r), 0)
            score += self._value(s, e, hit) * dealt
        return score

    def _explode_score(self, s: State, bug: Fig) -> float:
        foes = sum(1 for e in s.side_figs(other(bug.side)) if dist(e.pos, bug.pos) <= 4)
        friends = sum(
            1 for f in s.side_figs(bug.side) if f is not bug and dist(f.pos, bug.pos) <= 4
        )
        return float(foes - friends) if foes else 0.0

    # -- movement ----------------------------------------------------------------------------
    def _move(self, game: FFTTGame, s: State, player: str) -> Action:
        """In order: surrender if `hopeless` (R47); heal, eat or lay; a bomb bug going off
        among enemies; a healer going to the wounded; the best charge; the best move of the
        figures whose moves it weighs, found best first (`move_choice.best_move`)."""
        mine = s.side_figs(player)
        enemies = s.side_figs(other(player))
        if self.hopeless(game, player, enemies):
            return Surrender()
        acts = game.figure_options(
            (f.id for f in mine),
            (Heal, Eat, Lay, Explode, Charge, Climb),
            keep=lambda a: not isinstance(a, Charge) or self._wants_charge(s, a),
            sides=(mine, enemies),
        )
        for a in acts:
            if isinstance(a, Heal | Eat | Lay):
                return a
        for a in acts:
            if isinstance(a, Explode) and self._explode_score(s, s.figs[a.bug]) > 0:
                return a
        tend = self._to_the_wounded(game, s, mine)
        if tend is not None:
            return tend
        charges = [a for a in acts if isinstance(a, Charge)]  # the charges it wants
        if charges:
            return min(charges, key=lambda a: (-self._charge_odds(s, a), str(a)))
        if not enemies:
            return Done()
        for a in acts:
            if isinstance(a, Climb) and self._climb_pays(s, s.figs[a.figure], enemies):
                return a
        movers = self.movers(s, mine, enemies)
        spots = [(e.x, e.y) for e in enemies]
        nearest = {f.id: min([dist((f.x, f.y), p) for p in spots]) for f in movers}

        def exact(fig: Fig, to: Point) -> float | None:
            return self._move_score(s, fig, to, spots, nearest[fig.id])

        best = best_move(game, movers, nearest, spots, self._keys, self._rng, exact, self._bounds)
        return Done() if best is None else best

    def movers(self, s: State, mine: list[Fig], enemies: list[Fig]) -> list[Fig]:
        """The figures whose moves it weighs: the others' moves would all score nothing
        (HQs, scanners, shooters out of ammo), or they stay to fire."""
        placed = mine + enemies
        return [
            f
            for f in mine
            if f.ap >= 1
            and not (f.prof.hq or f.prof.scanner or (f.prof.armed and f.out_of_ammo))
            and not self._has_target(s, f, enemies, placed)
        ]

    def _to_the_wounded(self, game: FFTTGame, s: State, mine: list[Fig]) -> Action | None:
        """A medic or tank with the actions to move and heal goes to a wounded friend."""
        for healer in mine:
            kind = FFTTGame.heals(healer)
            if kind is None or healer.ap < 3:
                continue
            hurt = [
                f
                for f in mine
                if f is not healer and f.wounds and (kind == "repair") == f.prof.mechanical
            ]
            if not hurt:
                continue
            for a in game.figure_options((healer.id,), (Move,)):
                assert isinstance(a, Move)
                if movement.actions_for(s, healer, a.to) > 1:
                    continue
                for f in hurt:
                    if dist(a.to, f.pos) <= healer.radius + f.radius + movement.CONTACT:
                        return a
        return None

    @staticmethod
    def _targets(s: State, fig: Fig, enemies: list[Fig], level: int) -> int:
        """How many enemies in long range `fig` would see from floor `level`."""
        was, fig.level = fig.level, level
        try:
            reach = fig.prof.long
            return sum(1 for e in enemies if dist(fig.pos, e.pos) <= reach and can_see(s, fig, e))
        finally:
            fig.level = was

    def _climb_pays(self, s: State, fig: Fig, enemies: list[Fig]) -> bool:
        """R50, the higher-shooter rule: a shooter climbs to the upper floor when it sees no
        enemy in range below and some from above, with an action left to fire; it comes
        down when it sees none from above (upstairs it cannot leave the building)."""
        prof = fig.prof
        if not prof.armed or fig.out_of_ammo or prof.hq or prof.scanner:
            return False
        if fig.level == 0:
            return (
                fig.ap >= 2
                and self._targets(s, fig, enemies, 0) == 0
                and self._targets(s, fig, enemies, 1) > 0
            )
        return self._targets(s, fig, enemies, 1) == 0

    def _wants_charge(self, s: State, a: Charge) -> bool:
        fig, target = s.figs[a.figure], s.figs[a.target]
        if not fig.prof.armed:
            return True
        return self._charge_odds(s, a) >= 2 and fig.prof.hth >= target.prof.hth

    def _charge_odds(self, s: State, a: Charge) -> int:
        fig, target = s.figs[a.figure], s.figs[a.target]
        return fig.prof.hth - target.prof.hth + 2 * fig.fp - target.wounds

    def _has_target(self, s: State, fig: Fig, enemies: list[Fig], placed: list[Fig]) -> bool:
        """A shooter with an enemy in sight at short range stays to fire (`placed`: every
        figure on the table)."""
        prof = fig.prof
        if not prof.armed:
            return False
        reach, at = prof.short, (fig.x, fig.y)
        return any(
            dist(at, (e.x, e.y)) <= reach and can_see(s, fig, e, figures=placed) for e in enemies
        )

    def _move_score(
        self, s: State, fig: Fig, to: Point, spots: list[Point], now: float
    ) -> float | None:
        """How much better off `fig` is after a move to `to`: closer to the enemy it should
        reach (`now` cm from the nearest of the enemies standing at `spots`), in cover; None
        if the move is not worth making (it would leave no action to fire near the enemy).
        `move_choice.score_bounds` works out the same for many moves at once."""
        prof = fig.prof
        if prof.hq or prof.scanner:
            return None
        if prof.armed:
            if now < prof.long + 2 * prof.move and fig.ap - movement.actions_for(s, fig, to) < 1:
                return None  # keep an action to fire
            if fig.out_of_ammo:
                return None
            then = min([dist(to, p) for p in spots])
            gain = (now - then) / prof.move if now > prof.short * 0.8 else 0.0
            cover = COVER if s.table.covered(to) else 0.0
            if then <= prof.long and self._upper_floor(s, to):
                cover += HEIGHT  # R50: a house to climb for height, in range of the enemy
        else:
            then = min([dist(to, p) for p in spots])
            gain = (now - then) / prof.move * 2
            cover = 0.0
        return gain + cover + self._key_score(s, fig, to)

    def _key_score(self, s: State, fig: Fig, to: Point) -> float:
        """R51, key positions: every fighting figure closes on the enemy's (more once on
        it); of the holder's own, the nearest goes to one nobody holds, and its only guard
        stays on it."""
        score = 0.0
        for k in self._keys:
            at, radius = (k["at"][0], k["at"][1]), k["radius"]
            now, then = dist(fig.pos, at), dist(to, at)
            closer = KEY * (now - then) / fig.prof.move
            role = key_role(s, fig, at, radius, k["holder"])
            if role == "attack":
                score += closer + (KEY if then <= radius else 0.0)
            elif role == "guard":
                score += 0.0 if then <= radius else -GUARD
            elif role == "take":
                score += closer
        return score

    @staticmethod
    def _upper_floor(s: State, p: Point) -> bool:
        """Whether `p` is at the border of a building with an upper floor."""
        building = s.table.building_at(p)
        return building is not None and building.floors > 1 and building.near_edge(p)

    # -- reactions ---------------------------------------------------------------------------
    def _opfire(self, s: State, legal: list[Action]) -> Action:
        mover = s.figs[s.moving["mover"]]
        best: Action = Hold()
        best_score = 0.35
        for a in legal:
            if isinstance(a, OpportunityFire):
                firer = s.figs[a.figure]
                point = s.moving["points"][a.at]
                saved = mover.x, mover.y
                mover.x, mover.y = point[0], point[1]
                plan = shooting.shot(s, firer, mover, indirect=False)
                mover.x, mover.y = saved
                score = float(chance(plan.needed)) * (1 + 0.1 * mover.fp)
                if score > best_score:
                    best, best_score = a, score
        return best

    def _answer(self, s: State, legal: list[Action]) -> Action:
        melee = s.melees[s.melee_at]
        defender = s.figs[melee.defender]
        answers = [a for a in legal if isinstance(a, Answer)]
        if not answers or defender.prof.hth >= 2:
            return Fight()
        return max(answers, key=lambda a: (s.figs[a.attacker].fp, a.attacker))

    def _allocate(self, s: State, legal: list[Action]) -> Action:
        options = [a for a in legal if isinstance(a, WoundAttacker)]
        return min(
            options,
            key=lambda a: (
                s.figs[a.attacker].max_wounds - s.figs[a.attacker].wounds,
                -s.figs[a.attacker].fp,
                a.attacker,
            ),
        )
