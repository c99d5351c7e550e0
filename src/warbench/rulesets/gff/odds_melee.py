"""Exact odds of one charge (MELEE): the chargers' strikes (Counter first, Impact, then
their melee weapons), the defender's strike back and fatigue — for each unit the wounds it
takes, the models it loses, and whether it ends Shaken, Knocked Out or untouched.

The position: the units of the shipped catalogues, every model of each 1" from the other
(all of them strike). The melee is what `GFFGame` plays after the charge move
(`melee.chargers_attack`, then `melee.strike_back` if both units stand and the defender
chooses to): the defender's Counter weapons first, then Impact (`melee.impact`), then each
of the chargers' melee weapons, then each of the defender's other melee weapons. Each
weapon's strike is staged as `melee.strike` resolves it — `attacks.roll_hits` with the
strike's context (charging; fatigued, a Shaken defender striking as if fatigued), then what
`shooting.resolve_hits` does: `attacks.roll_blocks`, `attacks.regenerate`,
`wounds.take_wounds` with the striker's Fear — a stage each, so each rule function is
enumerated once per distinct state of both units (models, markers on the last model,
Shaken, wounds so far) and hits it receives. Impact is one stage, its wounds counted from
what `shooting.resolve_hits` reports ("takes 1 wound", "takes N wounds").

Reading: as the shooting (`odds_units`): pools by success and unmodified 6s; the
wound-effects roll by its total.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from warbench.core.dice import DiceSource
from warbench.core.odds import (
    DiceReferee,
    Local,
    Options,
    OutcomeTable,
    Query,
    Stages,
    Step,
    marginal,
)
from warbench.core.words import noun
from warbench.rulesets.gff import odds_spells
from warbench.rulesets.gff.attacks import Context, Hit, regenerate, roll_blocks, roll_hits
from warbench.rulesets.gff.melee import impact, is_counter, melee_weapons
from warbench.rulesets.gff.odds_units import (
    DESTROYED,
    SHAKEN,
    STEADY,
    Target,
    as_unit,
    catalogue_units,
    reading,
    unit_of,
)
from warbench.rulesets.gff.profiles import Weapon
from warbench.rulesets.gff.state import Unit
from warbench.rulesets.gff.wounds import take_wounds

OPTIONS: dict[str, str] = {
    "attacker": "charging unit, a unit of the shipped catalogues (default Warden Brothers)",
    "target": "charged unit, as attacker (default Spitter Gaunts)",
    "models": "charger's models left (default: the full unit)",
    "target-models": "charged unit's models left (default: the full unit)",
    "wounds": "wound markers on the charger's last model (default 0)",
    "target-wounds": "wound markers on the charged unit's last model (default 0)",
    "fatigued": "yes if the charger already fought in melee this round: hits only on 6s "
    "(default no)",
    "target-fatigued": "yes if the charged unit already fought this round (default no)",
    "target-shaken": "yes if the charged unit is Shaken: it strikes as if fatigued (default no)",
    "strike-back": "yes if the charged unit strikes back (default yes)",
    **odds_spells.OPTIONS,
}
CHARGER, DEFENDER = "charger", "charged unit"
WOUNDS, REMOVED, AFTER = "wounds", "models removed", "after the melee"
TAKES = re.compile(r"^(?P<unit>.+) takes (?P<wounds>\d+) wounds?$")


class Tally(DiceReferee):
    """The exact dice, and the wounds each unit takes as `resolve_hits` reports them."""

    def __init__(self, dice: DiceSource) -> None:
        super().__init__(dice)
        self.wounds: dict[str, int] = {}

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Count "takes 1 wound" or "takes N wounds"."""
        found = TAKES.match(text) if kind == "wounds" else None
        if found:
            name = found["unit"]
            self.wounds[name] = self.wounds.get(name, 0) + int(found["wounds"])


@dataclass(frozen=True)
class Phase:
    """Who strikes in one part of the melee (`melee.chargers_attack`, `strike_back`): the
    defender or the chargers, charging or not, with which weapons, and whether it happens
    (the strike back is the defender's choice). A Shaken defender strikes as if fatigued."""

    defender_strikes: bool
    charging: bool
    keep: Callable[[Weapon], bool]
    happens: Callable[[Fight], bool]

    def context(self, striker: Unit) -> Context:
        """The strike's context, as `melee.strike` is called."""
        tired = striker.fatigued or (self.defender_strikes and striker.shaken)
        return Context(melee=True, charging=self.charging, fatigued=tired)


@dataclass(frozen=True)
class Fight:
    """What the melee has left of both units."""

    charger: Target
    defender: Target


def _markers(opts: Options, key: str, tough: int, models: int) -> int:
    most = tough - 1 if models > 1 else 2 * tough + 6
    return opts.integer(key, 0, 0, most)


def query(options: Mapping[str, str]) -> Query:
    """The charge `options` describe."""
    opts = Options(options, OPTIONS)
    profiles = catalogue_units()
    charger_p = profiles[opts.choice("attacker", list(profiles), "Warden Brothers")]
    target_p = profiles[opts.choice("target", list(profiles), "Spitter Gaunts")]
    size = opts.integer("models", charger_p.size, 1, charger_p.size)
    left = opts.integer("target-models", target_p.size, 1, target_p.size)
    marks = _markers(opts, "wounds", max(1, charger_p.rating("Tough") or 1), size)
    target_marks = _markers(opts, "target-wounds", max(1, target_p.rating("Tough") or 1), left)
    gap = (charger_p.base + target_p.base) / 2 + 1.0  # 1" edge to edge: every model strikes
    charger = unit_of("r1", "red", charger_p, size, 10.0)
    defender = unit_of("b1", "blue", target_p, left, 10.0 + gap)
    charger.fatigued = opts.flag("fatigued")
    charger.charging = True
    defender.fatigued = opts.flag("target-fatigued")
    strikes_back = opts.flag("strike-back", True)
    odds_spells.put(opts, charger, defender)
    if not melee_weapons(charger, defender, lambda w: True) and not charger_p.rating("Impact"):
        raise ValueError(f"{charger_p.name} has no melee weapon and no Impact to charge with")
    start = Fight(
        Target(size, marks, False),
        Target(left, target_marks, opts.flag("target-shaken")),
    )

    def units(fight: Fight) -> tuple[Unit, Unit]:
        c = as_unit(charger, fight.charger)
        c.fatigued, c.charging = charger.fatigued, True
        d = as_unit(defender, fight.defender)
        d.fatigued = defender.fatigued
        return c, d

    def after(fight: Fight, c: Unit, d: Unit, wounds: Mapping[str, int]) -> Fight:
        return Fight(_left(c, fight.charger, wounds), _left(d, fight.defender, wounds))

    def strikes(phase: Phase, weapon: Weapon) -> tuple[Step, ...]:
        """One weapon of one phase of the melee, as `melee.strike` resolves it: the hits
        (`attacks.roll_hits`), then what `shooting.resolve_hits` does with them, a stage
        each: `attacks.roll_blocks`, `attacks.regenerate`, `wounds.take_wounds` with the
        striker's Fear."""

        def sides(fight: Fight) -> tuple[Unit, Unit]:
            c, d = units(fight)
            return (d, c) if phase.defender_strikes else (c, d)

        @cache
        def striking(fight: Fight) -> tuple[Unit, Unit, int, Context] | None:
            """Who strikes whom with how many attacks: the same for every roll of the dice
            (made once per part; `roll_hits` only reads the units)."""
            striker, struck = sides(fight)
            if not struck.alive:
                return None
            attacks = melee_weapons(striker, struck, phase.keep).get(weapon, 0)
            return (striker, struck, attacks, phase.context(striker)) if attacks else None

        def hitting(part: tuple[Fight, bool], dice: DiceSource) -> Hits:
            fight, happens = part
            strike = striking(fight) if happens else None
            if strike is None:
                return ()
            striker, struck, attacks, ctx = strike
            return tuple(roll_hits(DiceReferee(dice), striker, weapon, attacks, struck, ctx))

        def aimed(fight: Fight, hits: Hits) -> Landed:
            return fight, hits

        def unscored(fight: Fight) -> Fight:
            return Fight(replace(fight.charger, wounds=0), replace(fight.defender, wounds=0))

        hits = Local(lambda fight: (unscored(fight), phase.happens(fight)), hitting, aimed)

        # Defense, Regeneration and the wounds read only the struck unit and what reaches
        # it (`Local`): each is enumerated once per distinct such part of the fight.
        struck_template = charger if phase.defender_strikes else defender
        fear = (defender if phase.defender_strikes else charger).profile.rating("Fear") or 0

        def struck_of(fight: Fight) -> Target:
            return fight.charger if phase.defender_strikes else fight.defender

        def bare(fight: Fight) -> Target:
            return replace(struck_of(fight), wounds=0)

        def unit(target: Target) -> Unit:
            made = as_unit(struck_template, target)
            made.fatigued = struck_template.fatigued
            return made

        # `roll_blocks` and `regenerate` only read the struck unit: one copy per state.
        blocking = cache(unit)

        def block(part: tuple[Target, tuple[Hit, ...], Context], dice: DiceSource) -> Hits:
            target, landed, ctx = part
            if not landed:
                return ()
            struck = blocking(target)
            return tuple(roll_blocks(DiceReferee(dice), struck, list(landed), ctx, weapon))

        def regenerating(part: tuple[Target, Hits], dice: DiceSource) -> Hits:
            target, unblocked = part
            if not unblocked:
                return ()
            return tuple(regenerate(DiceReferee(dice), blocking(target), list(unblocked)))

        def wounding(part: tuple[Target, Hits], dice: DiceSource) -> Target:
            target, dealt = part
            if not dealt:
                return target
            struck = unit(target)
            take_wounds(DiceReferee(dice), struck, list(dealt), fear=fear)
            last = struck.models[-1].wounds if struck.models else 0
            return Target(len(struck.models), last, struck.shaken)

        def handed(pair: Landed, hits: Hits) -> Landed:
            return pair[0], hits

        def wounded(pair: Landed, left: Target) -> Fight:
            fight, dealt = pair
            if not dealt:
                return fight
            now = replace(left, wounds=struck_of(fight).wounds + len(dealt))
            if phase.defender_strikes:
                return replace(fight, charger=now)
            return replace(fight, defender=now)

        @cache
        def context(fight: Fight) -> Context:
            return phase.context(sides(fight)[0])

        blocks = Local(lambda pair: (bare(pair[0]), pair[1], context(pair[0])), block, handed)
        regeneration = Local(lambda pair: (bare(pair[0]), pair[1]), regenerating, handed)
        wounds = Local(lambda pair: (bare(pair[0]), pair[1]), wounding, wounded)
        return hits, blocks, regeneration, wounds

    def impacts(fight: Fight, dice: DiceSource) -> Fight:
        if not fight.charger.models:
            return fight
        c, d = units(fight)
        tally = Tally(dice)
        impact(tally, c, d)
        return after(fight, c, d, tally.wounds)

    counter = Phase(True, False, is_counter, lambda f: True)
    charge = Phase(False, True, lambda w: True, lambda f: True)
    back = Phase(True, False, lambda w: not is_counter(w), lambda f: strikes_back)
    steps: list[Step] = []
    for phase, striker, struck in ((counter, defender, charger), (charge, charger, defender)):
        for weapon in melee_weapons(striker, struck, phase.keep):
            steps += strikes(phase, weapon)
        if phase is counter:
            steps.append(impacts)
    for weapon in melee_weapons(defender, charger, back.keep):
        steps += strikes(back, weapon)

    def tables(dist: Mapping[Fight, Fraction]) -> list[OutcomeTable]:
        made: list[OutcomeTable] = []
        for who, side, models in (
            (DEFENDER, marginal(dist, lambda f: f.defender), left),
            (CHARGER, marginal(dist, lambda f: f.charger), size),
        ):
            lost = {models - t.models: Fraction(0) for t in side}
            for t, p in side.items():
                lost[models - t.models] += p
            made += [
                OutcomeTable.of(f"{who}: {WOUNDS}", marginal(side, lambda t: t.wounds)),
                OutcomeTable.of(f"{who}: {REMOVED}", lost, list(range(models + 1))),
                OutcomeTable.of(
                    f"{who}: {AFTER}", marginal(side, _end), [DESTROYED, SHAKEN, STEADY]
                ),
            ]
        return made

    def described(unit: Unit, marked: int, *flags: tuple[bool, str]) -> str:
        text = f"{len(unit.models)} x {unit.profile.name} (Quality {unit.profile.quality}+, "
        text += f"Defense {unit.profile.defense}+)"
        text += f", {marked} {noun(marked, 'wound')} on the last model" if marked else ""
        text += "".join(f", {word}" for on, word in flags if on)
        return text + odds_spells.described(unit)

    situation = {
        CHARGER: described(charger, marks, (charger.fatigued, "fatigued")),
        DEFENDER: described(
            defender,
            target_marks,
            (defender.fatigued, "fatigued"),
            (start.defender.shaken, "Shaken"),
        ),
        "strike back": "yes" if strikes_back else "no",
    }
    title = f"{charger_p.name} charge {target_p.name}"
    bane = bool(charger.effects or defender.effects) or any(
        w.melee and w.rating("Bane") is not None
        for u in (charger, defender)
        for m in u.models
        for w in m.weapons
    )
    return Query(
        "gff", title, situation, Stages(lambda dice: start, tuple(steps)), reading(bane), tables
    )


Hits = tuple[Hit, ...]
Landed = tuple[Fight, Hits]


def _left(unit: Unit, before: Target, wounds: Mapping[str, int]) -> Target:
    last = unit.models[-1].wounds if unit.models else 0
    dealt = before.wounds + wounds.get(unit.name, 0)
    return replace(before, models=len(unit.models), marked=last, shaken=unit.shaken, wounds=dealt)


def _end(target: Target) -> str:
    return DESTROYED if target.models == 0 else SHAKEN if target.shaken else STEADY
