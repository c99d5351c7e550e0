"""Exact odds of one figure's fire (a shot, the twin laser, a grenade or missile with its
deviation) or of one hand to hand round (several chargers against one figure), from the
rule functions the game calls.

Shooting: the position is the firer and its target `range` cm apart (head centre to head
centre) on an open table, the target inside a ruin for `cover`; with `hq` the firer's side
keeps an HQ (a queen for insectoids) far off, so a miss does not run it out of ammo. The
situation is checked by `shooting.fire_problem`; each shot is `shooting.one_shot` (to hit
with `shooting.shot`'s modifiers, doubles, deviation and the burst, a shot into a melee,
running out of ammo, `wounds.wound` and the explosions of `wounds.kill`), fired while
`shooting.standing` as `shooting.resolve` fires them, with wounds taken at once, as in
opportunity fire.

Hand to hand: the chargers in base contact around the target; `hand_to_hand.defence`, then
`hand_to_hand.assault` for each charger (what `hand_to_hand.fight` calls), then the wounds
held and removed together (`wounds.wound`, `wounds.remove_casualties`) as at the end of the
phase. When the defender beat more chargers than it has dice, its wounds go where it
chooses (`FFTTGame._allocate`): the odds take its choice as the beaten dice that cost the
most wounds, which is what the game does when no choice is left (ruling R36 in
docs/rules/fftt.md).

Stages (`warbench.core.odds.Stages`): each shot of a firing action is a stage, handed what
the shots before left; in hand to hand each kind of charger's roll is enumerated once per
defender's best score, the only thing the dice before hand it (`_Round`).

Reading: the to-hit 2D6 by its total, unless the firer's doubles count (engineers,
snipers, tanks: then in any order); the deviation direction by its total; hand to hand
pools in any order.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from warbench.core import words
from warbench.core.dice import DiceSource, Reading, ReadingPolicy, RollRequest, SeededDice
from warbench.core.odds import (
    DiceReferee,
    Enumerator,
    OddsReport,
    Options,
    OutcomeTable,
    Query,
    Stages,
    Step,
    marginal,
)
from warbench.rulesets.fftt import hand_to_hand, shooting, wounds
from warbench.rulesets.fftt.profiles import forces
from warbench.rulesets.fftt.state import Fig, Melee, State
from warbench.rulesets.fftt.table import Piece, Table

OPTIONS: dict[str, str] = {
    "attack": "shoot (a shot, the twin laser, a grenade or missile) or charge (hand to hand) "
    "(default shoot)",
    "attacker": "the attacker's profile: grunt, engineer, sniper, medic, grenadier, tank, mt, "
    "terminator, sentinel, stinger, acid_spitter, razor_dog, drone, bomb_bug, queen, "
    "marines-hq, machina-hq, scanner; for a charge a comma list of chargers, like "
    "grunt,grunt,grunt (default grunt)",
    "target": "the target's profile, as attacker (default grunt; engineer for a charge)",
    "range": "cm from the firer's head to the target's (default 15)",
    "cover": "yes if the target is in cover, inside a ruin (default no)",
    "indirect": "yes to fire indirectly: grenadiers and acid spitters, -1 (default no)",
    "wounded": "yes if the attacker (every charger) is wounded: -1 (default no)",
    "elite": "yes if the attacker (every charger) is an elite troop (default no)",
    "target-elite": "yes if the target is an elite troop (default no)",
    "target-wounds": "wounds the target has already taken (default 0)",
    "melee": "yes if the target is fighting hand to hand: 5-6 hits the figure it fights "
    "(default no)",
    "hq": "no if the firer's side has lost its HQs (queens): a miss runs it out of ammo "
    "(default yes)",
    "ap": "actions each charger has left; insectoids attack with one die per action "
    "(default: its actions)",
    "target-ap": "actions the target has left; insectoids defend with one die per action "
    "(default: its actions)",
}
TARGET, AFTER, ATTACKER, OTHERS = (
    "wounds to the target",
    "target after the attack",
    "attacker after the attack",
    "wounds to other figures",
)
CHARGERS_HURT, CHARGERS_DEAD = "wounds to the chargers", "chargers destroyed"
DESTROYED, WOUNDED, HURT, UNHURT = (
    "destroyed",
    "wounded (-1 to its rolls)",
    "hurt, not yet wounded",
    "unhurt",
)
OUT_OF_AMMO, DEAD, AS_BEFORE = "out of ammo", "destroyed", "as before"
HURT_SELF = "hurt by its own attack"
DEVIATION = "deviation"  # the label `shooting.one_shot` gives the deviation roll
TO_HIT = "to hit"  # and the to-hit roll


def _reading(doubles: bool) -> ReadingPolicy:
    """How fftt reads these dice (module docstring)."""

    def read(request: RollRequest) -> Reading:
        by_total = request.label.startswith(DEVIATION) or (
            request.label.startswith(TO_HIT) and not doubles
        )
        return (
            Reading.natural_total(request.sides) if by_total else Reading.unordered(request.sides)
        )

    return read


Left = tuple[tuple[tuple[str, int, str, bool], ...], tuple[tuple[str, tuple[str, ...], int], ...]]
# what a shot leaves: every figure's (id, wounds, where, out of ammo), and the melees


def _left(s: State) -> Left:
    return (
        tuple((f.id, f.wounds, f.where, f.out_of_ammo) for f in s.figs.values()),
        tuple((m.defender, tuple(m.attackers), m.rounds) for m in s.melees),
    )


def _back(start: State, left: Left) -> State:
    """`start` as a shot left it."""
    s = start.copy()
    for fid, hurt, where, out in left[0]:
        fig = s.figs[fid]
        fig.wounds, fig.where, fig.out_of_ammo = hurt, where, out
    s.melees = [Melee(d, list(a), r) for d, a, r in left[1]]
    return s


def profiles() -> dict[str, tuple[str, str]]:
    """Every profile by the name the options use: its key, race-qualified where two races
    share a key (the HQs)."""
    table = forces()
    counts: dict[str, int] = {}
    for race in table.values():
        for key in race:
            counts[key] = counts.get(key, 0) + 1
    return {
        (key if counts[key] == 1 else f"{race}-{key}"): (race, key)
        for race, race_table in table.items()
        for key in race_table
    }


def _describe(fig: Fig) -> str:
    prof = fig.prof
    flags = [
        text
        for text, on in (
            ("elite", fig.elite),
            (f"{words.counted(fig.wounds, 'wound')} taken", fig.wounds),
        )
        if on
    ]
    return f"{prof.name} ({fig.race}, {prof.wounds} wounds)" + (
        f", {', '.join(flags)}" if flags else ""
    )


def _state(figs: list[Fig], depth: float, pieces: tuple[Piece, ...] = ()) -> State:
    races = {f.side: f.race for f in figs}
    return State(
        stage="general",
        player="red",
        attacker="red",
        table=Table(100.0, depth, pieces),
        figs={f.id: f for f in figs},
        flanks=[],
        races={"red": races.get("red", "marines"), "blue": races.get("blue", "machina")},
        turn=1,
        phase=1,
        revealed=True,
    )


def _target(opts: Options, name: str, names: dict[str, tuple[str, str]]) -> Fig:
    race, key = names[opts.choice("target", list(names), name)]
    target = Fig("b1", "blue", race, key, elite=opts.flag("target-elite"), where="table")
    most = target.max_wounds - 1
    target.wounds = opts.integer("target-wounds", 0, 0, most)
    target.ap = opts.integer("target-ap", target.actions, 0, target.actions)
    return target


def _state_name(fig: Fig) -> str:
    if fig.where != "table":
        return DESTROYED
    if fig.wounded:
        return WOUNDED
    return HURT if fig.wounds else UNHURT


def query(options: Mapping[str, str]) -> Query:
    """The attack `options` describe."""
    opts = Options(options, OPTIONS)
    if opts.choice("attack", ["shoot", "charge"], "shoot") == "charge":
        return _charge(opts)
    return _shoot(opts)


def odds(options: Mapping[str, str]) -> OddsReport:
    """Distributions of the wounds dealt and of what is left of each side."""
    return query(options).report()


# -- shooting -------------------------------------------------------------------------------

_AFTER_ORDER = [DESTROYED, WOUNDED, HURT, UNHURT]
_ATTACKER_ORDER = [AS_BEFORE, HURT_SELF, OUT_OF_AMMO, DEAD]


def _shoot(opts: Options) -> Query:
    names = profiles()
    for key in ("ap", "target-ap"):
        if opts.text(key, ""):
            raise ValueError(f"{key} is an option of a charge (attack=charge)")
    race, key = names[opts.choice("attacker", list(names), "grunt")]
    firer = Fig("r1", "red", race, key, elite=opts.flag("elite"), where="table")
    firer.ap = firer.actions
    if opts.flag("wounded"):
        firer.wounds = -(-firer.max_wounds // 2)
    target = _target(opts, "grunt", names)
    distance = opts.number("range", 15, 0.5, 200)
    indirect = opts.flag("indirect")
    firer.x, firer.y, firer.facing = 50.0, 20.0, 0.0
    target.x, target.y, target.facing = 50.0, 20.0 + distance, 180.0
    pieces: tuple[Piece, ...] = ()
    if opts.flag("cover"):
        pieces = (Piece("ruins", 46.0, target.y - 4.0, 54.0, target.y + 4.0),)
    figs = [firer, target]
    with_hq = opts.flag("hq", True)
    if with_hq and race != "machina":
        leader = "queen" if race == "insectoids" else "hq"
        figs.append(Fig("r2", "red", race, leader, x=3.0, y=3.0, where="table"))
    melee = opts.flag("melee")
    if melee:
        partner = Fig("r3", "red", race, "grunt" if race == "marines" else key, where="table")
        partner.x, partner.y = 50.0, target.y + target.radius + partner.radius
        figs.append(partner)
    start = _state(figs, target.y + 40.0, pieces)
    if melee:
        start.melees = [Melee(target.id, ["r3"])]
    problem = shooting.fire_problem(start, firer, target, indirect=indirect)
    if problem is not None:
        raise ValueError(problem)
    prof = firer.prof
    plan = shooting.shot(start, firer, target, indirect=indirect)
    before = {f.id: f.wounds for f in figs}

    def fire(left: Left | None, dice: DiceSource) -> Left:
        """One shot of the firing action (`shooting.resolve` fires them while firer and
        target stand), from what the shots before left."""
        s = start.copy() if left is None else _back(start, left)
        f, t = s.figs[firer.id], s.figs[target.id]
        if shooting.standing(f, t):
            shooting.one_shot(
                DiceReferee(dice), s, f, t, indirect=indirect, hold=False, point_blank=False
            )
        return _left(s)

    def outcome(left: Left, dice: DiceSource) -> tuple[int, str, str, int]:
        s = _back(start, left)
        f, t = s.figs[firer.id], s.figs[target.id]
        state = DEAD if f.where != "table" else OUT_OF_AMMO if f.out_of_ammo else AS_BEFORE
        if state == AS_BEFORE and f.wounds > before[f.id]:
            state = HURT_SELF
        others = sum(o.wounds - before[o.id] for o in s.figs.values() if o.id not in (f.id, t.id))
        return t.wounds - before[t.id], _state_name(t), state, others

    then: tuple[Step, ...] = (*[fire] * (shooting.shots(firer) - 1), outcome)
    stages = Stages(functools.partial(fire, None), then)

    per_shot = 3 if prof.template == "missile" else 2 if prof.template or prof.double else 1
    most = per_shot * prof.shots
    weapon = (
        f"{prof.template} burst"
        if prof.template
        else f"{prof.shots} shots"
        if prof.shots > 1
        else "one shot"
    )
    situation = {
        "attacker": _describe(firer) + ("" if with_hq else ", its side without HQs (queens)"),
        "target": _describe(target)
        + (", in cover" if pieces else "")
        + (", fighting hand to hand" if melee else ""),
        "range": f"{distance:g} cm ({'long' if distance > prof.short else 'short'} range of "
        f"{prof.short:g}/{prof.long:g} cm)",
        "fire": f"{'indirect ' if indirect else ''}{weapon}, {plan.needed} or less on 2D6"
        + ("; a hitting double makes two wounds" if prof.double else ""),
    }
    title = f"{prof.name} shoots at {target.prof.name} {distance:g} cm away"

    def tables(dist: Mapping[tuple[int, str, str, int], Fraction]) -> list[OutcomeTable]:
        found = [
            OutcomeTable.of(TARGET, marginal(dist, lambda o: o[0]), list(range(most + 1))),
            OutcomeTable.of(AFTER, marginal(dist, lambda o: o[1]), _AFTER_ORDER),
            OutcomeTable.of(ATTACKER, marginal(dist, lambda o: o[2]), _ATTACKER_ORDER),
        ]
        if melee:
            found.append(
                OutcomeTable.of(OTHERS, marginal(dist, lambda o: o[3]), list(range(most + 5)))
            )
        return found

    return Query("fftt", title, situation, stages, _reading(prof.double), tables)


# -- hand to hand ---------------------------------------------------------------------------

Lost = tuple[int, tuple[int, ...]]  # one charger's roll: wounds it dealt, its dice beaten
Dear = tuple[tuple[int, int, str], ...]  # the beaten dice the defender would wound, dearest
# first: (-wounds, wounds its charger has left, charger)
End = tuple[int, str, int, int]


def _kind(fig: Fig) -> tuple[object, ...]:
    """What a charger's roll depends on besides the defender's best score."""
    return (fig.race, fig.key, fig.elite, fig.wounds, fig.ap, fig.ability)


@dataclass(frozen=True, kw_only=True)
class _Round(Stages):
    """One hand to hand round as `hand_to_hand.fight` rolls it: `first` is the defence, then
    each charger rolls (`rolls`) against the defender's best score, the only thing the dice
    before hand it; `finish` deals the wounds. `exact` enumerates each kind of charger's roll
    once per best score and adds up the tallies; `sample` plays the round once."""

    rolls: Callable[[Fig, int, DiceSource], Lost]
    chargers: tuple[Fig, ...]
    finish: Callable[[int, Dear], End]
    lethal: int
    twins: bool = False  # every charger alike, and none explodes when killed

    def _add(self, dealt: int, dear: Dear, fig: Fig, lost: Lost, hits: int) -> tuple[int, Dear]:
        """The tally after `fig`'s roll: the wounds on the defender (more than kill it change
        nothing), and the `hits` dearest beaten dice."""
        left = fig.max_wounds - fig.wounds
        kept = sorted((*dear, *((-w, left, fig.id) for w in lost[1])))[:hits]
        return min(self.lethal, dealt + lost[0]), tuple(kept)

    def exact(self, enumerator: Enumerator) -> dict[Hashable, Fraction]:
        """Tallies are weighed in whole numbers of ordered rolls (exact, and fast)."""
        result: dict[Hashable, Fraction] = {}
        for defended, p in enumerator.outcomes(self.first).items():
            best, hits = cast(tuple[int, int], defended)
            rolled: dict[tuple[object, ...], tuple[dict[Lost, int], int]] = {}
            tallies: dict[tuple[int, Dear], int] = {(0, ()): 1}
            of = 1
            for fig in self.chargers:
                kind = _kind(fig)
                if kind not in rolled:
                    dist = enumerator.outcomes(functools.partial(self.rolls, fig, best))
                    whole = math.lcm(*(f.denominator for f in dist.values()))
                    rolled[kind] = ({k: int(f * whole) for k, f in dist.items()}, whole)
                ways, whole = rolled[kind]
                of *= whole
                left = fig.max_wounds - fig.wounds
                steps = [
                    (lost[0], tuple((-w, left, fig.id) for w in lost[1]), r)
                    for lost, r in ways.items()
                ]
                lethal = self.lethal
                folded: dict[tuple[int, Dear], int] = {}
                for (dealt, dear), q in tallies.items():
                    for more, entries, r in steps:  # `_add`, its parts worked out once
                        kept = tuple(sorted(dear + entries)[:hits]) if entries else dear
                        key = (min(lethal, dealt + more), kept)
                        folded[key] = folded.get(key, 0) + q * r
                tallies = _as_twins(folded, fig.id) if self.twins else folded
            counted: dict[End, int] = {}
            for tally, q in tallies.items():
                end = self.finish(*tally)
                counted[end] = counted.get(end, 0) + q
            for end, q in counted.items():
                result[end] = result.get(end, Fraction(0)) + p * Fraction(q, of)
        return result

    def sample(self, dice: DiceSource) -> Hashable:
        best, hits = cast(tuple[int, int], self.first(dice))
        dealt: int = 0
        dear: Dear = ()
        for fig in self.chargers:
            dealt, dear = self._add(dealt, dear, fig, self.rolls(fig, best, dice), hits)
        return self.finish(dealt, dear)


def _as_twins(tallies: dict[tuple[int, Dear], int], last: str) -> dict[tuple[int, Dear], int]:
    """Tallies with alike chargers told apart only by the order of their ids: the ids in a
    tally's beaten dice renamed, keeping their order, to the first ids (`r1`, `r2`, ...), so
    tallies that differ only by which twin was beaten add up. Exact when the chargers are
    alike and none explodes when killed: `finish` counts wounds and deaths, never names;
    the dearest-first rule breaks ties by id, and the order among these ids, and with the
    ids still to roll (which sort after `last`), is kept."""
    names = [f"r{n}" for n in range(1, int(last[1:]) + 1)]
    merged: dict[tuple[int, Dear], int] = {}
    for (dealt, dear), q in tallies.items():
        rename = {old: names[i] for i, old in enumerate(sorted({c for _, _, c in dear}))}
        key = (dealt, tuple((minus, left, rename[c]) for minus, left, c in dear))
        merged[key] = merged.get(key, 0) + q
    return merged


def _charge(opts: Options) -> Query:
    names = profiles()
    for key in ("range", "cover", "indirect", "melee", "hq"):
        if opts.text(key, ""):
            raise ValueError(f"{key} is an option of shooting (attack=shoot)")
    given = opts.text("attacker", "grunt")
    chosen = [w.strip() for w in given.split(",")]
    if "" in chosen:
        raise ValueError(
            f"attacker={given} has an empty name; name each charger between commas, "
            "e.g. attacker=grunt,grunt"
        )
    if not 1 <= len(chosen) <= 6:
        raise ValueError(f"a charge has 1 to 6 chargers, not {len(chosen)}")
    unknown = [c for c in chosen if c not in names]
    if unknown:
        raise ValueError(
            f"attacker={','.join(unknown)} is not allowed; attacker takes: {', '.join(names)}"
        )
    races = {names[c][0] for c in chosen}
    if len(races) > 1:
        raise ValueError(f"the chargers are of one side and one race, not {sorted(races)}")
    target = _target(opts, "engineer", names)
    target.x, target.y = 50.0, 50.0
    chargers: list[Fig] = []
    for n, name in enumerate(chosen, start=1):
        race, key = names[name]
        fig = Fig(f"r{n}", "red", race, key, elite=opts.flag("elite"), where="table")
        fig.ap = opts.integer("ap", fig.actions, 0, fig.actions)
        if opts.flag("wounded"):
            fig.wounds = -(-fig.max_wounds // 2)
        angle = math.radians(180 + 360 * (n - 1) / len(chosen))
        reach = target.radius + fig.radius
        fig.x, fig.y = 50.0 + reach * math.sin(angle), 50.0 + reach * math.cos(angle)
        fig.facing = (math.degrees(angle) + 180) % 360
        chargers.append(fig)
    start = _state([target, *chargers], 100.0)
    melee = Melee(target.id, [c.id for c in chargers])
    start.melees = [melee]
    before = {f.id: f.wounds for f in [target, *chargers]}
    lethal = target.max_wounds - target.wounds  # more wounds than kill it change nothing

    def defend(dice: DiceSource) -> tuple[int, int]:
        return hand_to_hand.defence(DiceReferee(dice), start, melee, False)

    def rolls(fig: Fig, best: int, dice: DiceSource) -> Lost:
        against, lost = hand_to_hand.assault(DiceReferee(dice), start, melee, fig, best)
        return len(against), tuple(sorted(b.wounds for b in lost))

    @functools.cache
    def finish(dealt: int, dear: Dear) -> End:
        """What `FFTTGame._fight_melee` and `_allocate` do with the round's wounds (no dice:
        the same tally always ends alike)."""
        s = start.copy()
        ref = DiceReferee(SeededDice(0))  # no dice: the wounds and any explosion
        if dealt:
            wounds.wound(ref, s, s.figs[target.id], dealt, "hand to hand", hold=True)
        for minus, _, charger in dear:
            wounds.wound(ref, s, s.figs[charger], -minus, "hand to hand", hold=True)
        wounds.remove_casualties(ref, s)
        t = s.figs[target.id]
        hurt = sum(s.figs[c.id].wounds - before[c.id] for c in chargers)
        dead = sum(1 for c in chargers if s.figs[c.id].where != "table")
        return min(lethal, t.wounds - before[t.id]), _state_name(t), hurt, dead

    counted = [c.prof.name for c in chargers]
    situation = {
        "chargers": "; ".join(
            f"{n} x {text}"
            for text, n in Counter(
                f"{_describe(c)}, {words.counted(c.ap, 'action')} left, "
                f"{hand_to_hand.dice_for(c)}D6"
                + "".join(f" {v:+d} {r}" for r, v in hand_to_hand.modifiers(c, len(chargers) - 1))
                for c in chargers
            ).items()
        ),
        "target": f"{_describe(target)}, {words.counted(target.ap, 'action')} left, "
        f"{hand_to_hand.dice_for(target)}D6"
        + "".join(f" {v:+d} {r}" for r, v in hand_to_hand.modifiers(target, 0)),
        "damage": "; ".join(
            f"{f.id} deals none (HQ, scanner, MT or no action left)"
            for f in [target, *chargers]
            if not hand_to_hand.deals_damage(f)
        )
        or "every combatant may deal wounds",
    }
    title = f"{' + '.join(counted)} charge {target.prof.name}"
    most_target = lethal
    most_chargers = 3 * hand_to_hand.dice_for(target)  # the defender's dice, each tripled

    def tables(dist: Mapping[tuple[int, str, int, int], Fraction]) -> list[OutcomeTable]:
        return [
            OutcomeTable.of(TARGET, marginal(dist, lambda o: o[0]), list(range(most_target + 1))),
            OutcomeTable.of(AFTER, marginal(dist, lambda o: o[1]), _AFTER_ORDER),
            OutcomeTable.of(
                CHARGERS_HURT,
                marginal(dist, lambda o: o[2]),
                list(range(max(most_chargers, *(o[2] for o in dist)) + 1)),  # bomb bugs burst
            ),
            OutcomeTable.of(
                CHARGERS_DEAD, marginal(dist, lambda o: o[3]), list(range(len(chargers) + 1))
            ),
        ]

    twins = len({_kind(c) for c in chargers}) == 1 and not (
        chargers[0].prof.explodes or chargers[0].prof.bomb
    )
    stages = _Round(
        first=defend,
        rolls=rolls,
        chargers=tuple(chargers),
        finish=finish,
        lethal=lethal,
        twins=twins,
    )
    return Query("fftt", title, situation, stages, _reading(False), tables)
