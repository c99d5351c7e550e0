"""Exact odds of one unit's shooting at one unit (SHOOTING): the wounds it deals, the models
it removes, and whether the target ends Shaken, Knocked Out or untouched.

The position: the units of the shipped catalogues, every model of each unit at the given
edge-to-edge range on an open table. `shooting.solution` counts the attacks of each weapon;
then each weapon is resolved, in the order the unit carries them, by the public rule
functions the game's fire calls (`shooting.fire` → `resolve_hits`): `attacks.roll_hits`,
`attacks.roll_blocks`, `attacks.regenerate`, `wounds.take_wounds` (with its wound-effects
roll). Cover, the attacker having moved, Shaken, the Shield and Focus spells are options.
A Blast(X) weapon's hits are multiplied by `shooting.blast_hits` (the hook `fire` uses) with
the target standing alone — no other unit within 3" shares them, so the defender has no
split to choose — and blocked as `shooting.split_blast` blocks them (no cover).
`attack=melee` is `odds_melee`.

Stages (`warbench.core.odds.Enumerator.advance`): the rules hand small values from one rule
function to the next — the hits, the wounds, and the target's state (models left, wound
markers on the last model, Shaken) — so each function is enumerated once per distinct
value it receives rather than once per roll of the functions before it. Defense and
Regeneration are stages of their own for that reason.

Reading: every gff pool is counted in any order; a die is read only through its success and
whether it is an unmodified 6 (to hit: Rending, Surge, Relentless; Defense: only under
Bane, which re-rolls them; Regeneration: never); the wound-effects roll is read by its
total.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from warbench.core.dice import DiceSource
from warbench.core.odds import (
    DiceReferee,
    Enumerator,
    OddsReport,
    Options,
    OutcomeTable,
    Query,
    Stages,
    Step,
    by_attack,
    choose_attack,
    marginal,
)
from warbench.core.words import noun
from warbench.rulesets.gff import odds_melee, odds_spells
from warbench.rulesets.gff.actions import slug
from warbench.rulesets.gff.attacks import Context, Hit, regenerate, roll_blocks, roll_hits
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.melee import impact, is_counter, strikers
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
from warbench.rulesets.gff.shooting import blast_hits, ranged_weapons, solution
from warbench.rulesets.gff.spell_grants import armed, volley
from warbench.rulesets.gff.state import State, Unit
from warbench.rulesets.gff.wounds import take_wounds

SHOOTING_OPTIONS: dict[str, str] = {
    "attacker": "shooting unit, a unit of the shipped catalogues (default Warden Brothers)",
    "target": "target unit, as attacker (default Spitter Gaunts)",
    "weapon": "all (default) or one of the attacker's ranged weapons, like storm-rifle",
    "range": "edge-to-edge range in inches from every model to the target (default 12)",
    "models": "attacker's models left (default: the full unit)",
    "target-models": "target's models left (default: the full unit)",
    "target-wounds": "wound markers on the target's last model (default 0)",
    "cover": "yes if the target is in cover: +1 Defense (default no)",
    "moved": "yes if the attacker moved this activation (Indirect: -1) (default no)",
    "shaken": "yes if the target is already Shaken (default no)",
    "shield": "yes if the target has the Shield spell: +1 Defense (default no)",
    "focus": "yes if the attacker has the Focus spell: +1 to hit (default no)",
    **odds_spells.OPTIONS,
}
KINDS: dict[str, dict[str, str]] = {"shooting": SHOOTING_OPTIONS, "melee": odds_melee.OPTIONS}
OPTIONS: dict[str, str] = {
    "attack": "shooting (default) or melee (a charge: strikes, strike back, fatigue)",
    **by_attack(KINDS),
}
WOUNDS, REMOVED, LAST = "wounds", "models removed", "target after the shooting"


def query(options: Mapping[str, str]) -> Query:
    """The attack `options` describe: shooting, or a charge (`odds_melee`)."""
    attack, given = choose_attack(options, KINDS, "shooting")
    if attack == "melee":
        return odds_melee.query(given)
    opts = Options(given, SHOOTING_OPTIONS)
    profiles = catalogue_units()
    attacker_p = profiles[opts.choice("attacker", list(profiles), "Warden Brothers")]
    target_p = profiles[opts.choice("target", list(profiles), "Spitter Gaunts")]
    distance = opts.number("range", 12, 0, 72)
    size = opts.integer("models", attacker_p.size, 1, attacker_p.size)
    left = opts.integer("target-models", target_p.size, 1, target_p.size)
    tough = max(1, target_p.rating("Tough") or 1)
    most = tough - 1 if left > 1 else 2 * tough + 6
    marked = opts.integer("target-wounds", 0, 0, most)
    gap = distance + (attacker_p.base + target_p.base) / 2
    attacker = unit_of("r1", "red", attacker_p, size, 10.0)
    target = unit_of("b1", "blue", target_p, left, 10.0 + gap)
    target.models[-1].wounds = marked
    target.shaken = opts.flag("shaken")
    target.shield = opts.flag("shield")
    attacker.focus = opts.flag("focus")
    attacker.moved = opts.flag("moved")
    odds_spells.put(opts, attacker, target)
    cover = opts.flag("cover")
    carried = {slug(w.name): w for w in ranged_weapons(attacker)}
    if not carried:
        raise ValueError(f"{attacker_p.name} carries no ranged weapon")
    which = opts.choice("weapon", ["all", *carried], "all")
    chosen = list(carried.values()) if which == "all" else [carried[which]]
    field = Battlefield(48.0, 20.0 + gap)
    fired: list[tuple[Weapon, int, Context]] = []
    for weapon in chosen:
        shot = solution(field, attacker, weapon, target)
        if shot.attacks:
            ctx = Context(melee=False, distance=shot.distance, cover=cover, moved=attacker.moved)
            arms = armed(attacker, weapon)  # as `shooting.fire` arms it (GFF-R31, R33)
            fired.append((arms, volley(shot.attacks, weapon, arms), ctx))
    if not fired:
        reach = ", ".join(f'{w.name} {w.range}"' for w in chosen)
        raise ValueError(f'no weapon reaches {distance:g}" ({reach})')

    situation = {
        "attacker": f"{size} x {attacker_p.name} (Quality {attacker_p.quality}+)"
        + (", Focus" if attacker.focus else "")
        + (", moved" if attacker.moved else "")
        + odds_spells.described(attacker),
        "target": f"{left} x {target_p.name} (Defense {target_p.defense}+)"
        + (f", {marked} {noun(marked, 'wound')} on the last model" if marked else "")
        + (", in cover" if cover else "")
        + (", Shaken" if target.shaken else "")
        + (", Shield" if target.shield else "")
        + odds_spells.described(target),
        "range": f'{distance:g}"',
        "weapons": ", ".join(f"{w.name} x{n} attacks" for w, n, _ in fired),
    }
    blasts = [w.name for w, _, _ in fired if w.rating("Blast") is not None]
    if blasts:
        situation["Blast"] = (
            f"{', '.join(blasts)}: each hit x Blast(X), X at most the target's models; the "
            'target stands alone (no other unit within 3" to share the hits); no cover'
        )
    start = Target(left, marked, target.shaken)
    steps = [step for w, n, ctx in fired for step in _fire(attacker, w, n, target, ctx)]
    bane = bool(target.effects) or any(w.rating("Bane") is not None for w, _, _ in fired)

    def tables(dist: Mapping[Target, Fraction]) -> list[OutcomeTable]:
        end = marginal(
            dist, lambda t: DESTROYED if t.models == 0 else SHAKEN if t.shaken else STEADY
        )
        return [
            OutcomeTable.of(WOUNDS, marginal(dist, lambda t: t.wounds)),
            OutcomeTable.of(
                REMOVED, marginal(dist, lambda t: left - t.models), list(range(left + 1))
            ),
            OutcomeTable.of(LAST, end, [DESTROYED, SHAKEN, STEADY]),
        ]

    return Query(
        "gff",
        f"{attacker_p.name} shoot at {target_p.name}",
        situation,
        Stages(lambda dice: start, tuple(steps)),
        reading(bane),
        tables,
    )


def odds(options: Mapping[str, str]) -> OddsReport:
    """Distributions of wounds, models removed and the target's end state."""
    return query(options).report()


def expected_wounds(
    attacker: Unit, weapon: Weapon, attacks: int, target: Unit, ctx: Context
) -> float:
    """The mean wounds one weapon's volley deals the target as it stands (before wound
    effects), exactly from the rule functions: `_fire`'s hits, Defense and Regeneration
    stages for one attack, times the attacks (each attack's hits, blocks and saves are
    independent of the others'), with the weapon as spells arm it (`armed`; `attacks`
    counted with the unarmed weapon, `volley`) and every rule, spell and mark on both units."""
    arms = armed(attacker, weapon)
    if not (attacks and target.alive):
        return 0.0
    start = Target(len(target.models), target.models[-1].wounds, target.shaken)
    steps = _fire(attacker, arms, 1, target, ctx)[:3]
    dist = Stages(lambda dice: start, steps).exact(Enumerator(reading(True)))
    kept: dict[tuple[Target, tuple[Hit, ...]], Fraction] = dist  # type: ignore[assignment]
    per_attack = sum(p * len(wounds) for (_, wounds), p in kept.items())
    return volley(attacks, weapon, arms) * float(per_attack)


def expected_melee(attacker: Unit, target: Unit, *, charging: bool) -> float:
    """The mean wounds of all the attacker's melee weapons on the target, every model
    striking (`expected_wounds` of each, in melee, fatigued as the attacker stands), and
    when charging of its Impact, exactly as `melee.impact` plays it."""
    attacks: dict[Weapon, int] = {}
    for model in attacker.models:
        for weapon in model.weapons:
            if weapon.melee:
                attacks[weapon] = attacks.get(weapon, 0) + weapon.attacks
    ctx = Context(melee=True, charging=charging, fatigued=attacker.fatigued)
    total = sum(expected_wounds(attacker, w, n, target, ctx) for w, n in attacks.items())
    if not (charging and attacker.rating("Impact") and target.alive):
        return total
    start = Target(len(target.models), target.models[-1].wounds, target.shaken)

    def impacts(dice: DiceSource) -> int:
        tally = odds_melee.Tally(dice)
        impact(tally, attacker, as_unit(target, start))
        return sum(tally.wounds.values())

    dist = Enumerator(reading(True)).outcomes(impacts)
    return total + float(sum(p * wounds for wounds, p in dist.items()))


def expected_strike_back(defender: Unit, charger: Unit) -> float:
    """The mean wounds the defender deals the charger by striking back, as
    `melee.strike_back` plays it: the models within reach (`strikers`), each melee weapon
    but those Counter (which struck first), fatigued if the unit is fatigued or Shaken; with
    every spell and mark on both units (`expected_wounds`, GFF-R36)."""
    attacks: dict[Weapon, int] = {}
    for index in strikers(defender, charger):
        for weapon in defender.models[index].weapons:
            if weapon.melee and not is_counter(armed(defender, weapon)):
                attacks[weapon] = attacks.get(weapon, 0) + weapon.attacks
    ctx = Context(melee=True, fatigued=defender.fatigued or defender.shaken)
    return sum(expected_wounds(defender, w, n, charger, ctx) for w, n in attacks.items())


def _fire(
    attacker: Unit, weapon: Weapon, attacks: int, target: Unit, ctx: Context
) -> tuple[Step, Step, Step, Step]:
    """One weapon's fire as `shooting.fire` and `resolve_hits` resolve it, in four stages
    from the state the target is in: hits, Defense, Regeneration, and the wounds taken with
    their effects."""

    blast = weapon.rating("Blast")

    def hits(state: Target, dice: DiceSource) -> tuple[Target, tuple[Hit, ...]]:
        landed = roll_hits(DiceReferee(dice), attacker, weapon, attacks, target, ctx)
        if blast and landed:
            unit = as_unit(target, state)
            alone = State("activate", attacker.side, {unit.id: unit})
            landed = blast_hits(alone, landed, unit, blast)[1]
        return state, tuple(landed)

    def blocks(
        pair: tuple[Target, tuple[Hit, ...]], dice: DiceSource
    ) -> tuple[Target, tuple[Hit, ...]]:
        state, landed = pair
        if not landed or state.models == 0:
            return state, ()
        unit = as_unit(target, state)
        how = Context(melee=False) if blast else ctx  # as `split_blast` blocks Blast hits
        return state, tuple(roll_blocks(DiceReferee(dice), unit, list(landed), how, weapon))

    def regeneration(
        pair: tuple[Target, tuple[Hit, ...]], dice: DiceSource
    ) -> tuple[Target, tuple[Hit, ...]]:
        state, unblocked = pair
        if not unblocked:
            return pair
        return state, tuple(regenerate(DiceReferee(dice), as_unit(target, state), list(unblocked)))

    def wounds(pair: tuple[Target, tuple[Hit, ...]], dice: DiceSource) -> Target:
        state, dealt = pair
        if not dealt:
            return state
        unit = as_unit(target, state)
        take_wounds(DiceReferee(dice), unit, list(dealt))
        last = unit.models[-1].wounds if unit.models else 0
        return Target(len(unit.models), last, unit.shaken, state.wounds + len(dealt))

    return hits, blocks, regeneration, wounds
