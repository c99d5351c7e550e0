"""Spells that grant special rules or attacks, or change moves (ours, docs/rules/gff.md
GFF-R31, R33).

Army Forge's spells often give a unit a special rule for a while ("get Furious next time
they charge", "get Regeneration next time they take wounds", "get AP(+1) next time they
shoot") or change its moves ("move +3" next time they Advance, or +6" next time they
Rush/Charge"). The effect sits on the unit (`state.SpellEffect`, kind `rule` or `move`):

- A granted unit rule counts wherever the rule acts (`Unit.all_have`, `Unit.rating`) from
  the casting until it is used up; a granted weapon rule goes on the unit's melee weapons,
  ranged weapons or both (`when`), AP(±X) adding to their AP (never below 0; Unstoppable
  weapons ignore AP(−X), a negative modifier), a rated rule keeping the higher rating
  (`armed`).
- A mark on an enemy unit gives the units attacking it a rule ("have friendly units get
  Relentless against them once"): weapon rules on the attack's weapon (`marked`), Relentless
  and Furious to the attackers (`marks`), used up when the marked unit is next shot at, in
  melee, or either.
- An attacks spell adds its attacks to each of the unit's melee weapons, ranged weapons
  or both (`when`; `armed`), and a volley counted with the unarmed weapon is scaled to the
  armed one (`volley`; GFF-R33).
- A range spell adds its inches to the reach of the unit's ranged weapons (`range_bonus`,
  read by `shooting.solution`, which every range check goes through).
- A move spell adds its inches to the allowance of Advance (`value`) or of Rush and Charge
  (`far`), never below 0 (`move_bonus`, read by `movement.allowance`).
- Either lasts until the end of the round or is used up when its trigger next happens to
  the unit (`use_up`, called where the game resolves each event).
- An effect tied to the action (`when` hold or advance, GFF-R37: "when shooting after a
  Hold action") acts only on the shooting of an activation with that action (`applies`:
  the unit has not moved, or has), and only that shooting uses it up.
"""

from __future__ import annotations

from functools import cache

from warbench.rulesets.gff.profiles import Rule, Weapon, special_rules
from warbench.rulesets.gff.spells_checks import CHARGE, CONDITIONS
from warbench.rulesets.gff.state import SpellEffect, Unit


def applies(effect: SpellEffect, unit: Unit, side: str) -> bool:
    """Whether the effect acts on the unit's `side` (melee, `charge` — a melee it charged
    into —, or shooting) roll now: `any`, the same side, melee effects in a charge, or
    shooting after the action it names (GFF-R37: Hold when the unit has not moved this
    activation, Advance when it has); a charge's effect only in a charge (GFF-R39)."""
    when = effect.when
    if side == CHARGE:
        return when in ("any", "melee", CHARGE)
    if when == "any" or when == side:
        return True
    return side == "shooting" and when == ("advance" if unit.moved else "hold")


def is_weapon_rule(name: str) -> bool:
    """Whether the rulebook puts `name` on weapons (so a spell grants it to weapons)."""
    return special_rules()[name].where == "weapon"


def armed(unit: Unit, weapon: Weapon) -> Weapon:
    """The weapon with the weapon rules spells grant its unit (melee or ranged by `when`)."""
    if not unit.effects:
        return weapon
    side = "melee" if weapon.melee else "shooting"
    grants = tuple(
        (e.rule, e.value)
        for e in unit.effects
        if e.kind == "rule" and is_weapon_rule(e.rule) and applies(e, unit, side)
    )
    extra = sum(e.value for e in unit.effects if e.kind == "attacks" and applies(e, unit, side))
    return _with(weapon, grants, extra) if grants or extra else weapon


def charged(unit: Unit, weapon: Weapon) -> Weapon:
    """The melee weapon of a charging unit with the weapon rules spells grant it only when
    charging (GFF-R39: "get AP(+1) in melee when charging")."""
    grants = tuple(
        (e.rule, e.value)
        for e in unit.effects
        if e.kind == "rule" and e.when == CHARGE and is_weapon_rule(e.rule)
    )
    return _with(weapon, grants) if grants else weapon


def volley(attacks: int, weapon: Weapon, arms: Weapon) -> int:
    """The attacks of a volley counted with `weapon` (`shooting.solution`) once spells
    armed it as `arms`: each model firing it makes `arms.attacks` (GFF-R33)."""
    if arms.attacks == weapon.attacks:
        return attacks
    return attacks // weapon.attacks * arms.attacks


@cache
def _with(weapon: Weapon, grants: tuple[tuple[str, int], ...], extra: int = 0) -> Weapon:
    """`weapon` with `grants` (rule, rating) added: AP sums (at least 0; an Unstoppable
    weapon ignores AP(−X)), ratings keep the higher, unrated rules are added once; and
    `extra` attacks (GFF-R33), at least 1."""
    rules: dict[str, int | None] = {}
    for rule in weapon.rules:
        rules.setdefault(rule.name, rule.rating)
    for name, value in grants:
        if name == "AP" and value < 0 and "Unstoppable" in rules:
            continue  # "ignores all negative modifiers to this weapon"
        if name == "AP":
            rules["AP"] = max(0, (rules.get("AP") or 0) + value)
        elif special_rules()[name].rated:
            rules[name] = max(rules.get(name) or 0, value)
        else:
            rules.setdefault(name, None)
    if rules.get("AP") == 0:
        del rules["AP"]
    kept = tuple(Rule(name=n, rating=r) for n, r in rules.items())
    attacks = max(1, weapon.attacks + extra)
    return Weapon(name=weapon.name, range=weapon.range, attacks=attacks, rules=kept)


ONCE = {
    "Furious": "charge",
    "Impact": "charge",
    "Thrust": "charge",
    "Counter": "charged",
    "Fear": "melee",
    "Regeneration": "wounds",
    "Stealth": "shot_at",
    "Relentless": "shooting",
    "Fearless": "morale",
    "Fast": "move",
    "Slow": "move",
    "Flying": "move",
    "Strider": "move",
    "Immobile": "activation",
}
"""When a rule granted `once` is used up (ours, GFF-R31): the next time it acts."""


def once(rule: str, when: str) -> str:
    """The trigger of a rule granted `once`: its own event, or for a weapon rule the next
    melee, shooting, or either (`when`)."""
    if rule in ONCE:
        return ONCE[rule]
    return attacked_once(when)


def attacked_once(when: str) -> str:
    """The trigger of an attack's effect given `once`: the next melee, the next shooting
    (also after the action a condition names, GFF-R37), or either."""
    if when == "melee":
        return "melee"
    return "shooting" if when == "shooting" or when in CONDITIONS else "attack"


MARKS = frozenset({"Relentless", "Furious"})
"""Unit rules a mark may give the units attacking the marked one (besides weapon rules)."""


def marked_once(rule: str, when: str) -> str:
    """The trigger of a mark given `once`: the next shooting at the marked unit (Relentless,
    `when` shooting), the next melee it is in (Furious, `when` melee), or either."""
    if rule == "Relentless" or when == "shooting":
        return "shot_at"
    if rule == "Furious" or when == "melee":
        return "melee"
    return "attacked"


def marked(weapon: Weapon, target: Unit, side: str) -> Weapon:
    """The attacker's weapon with the weapon rules marks on `target` give those attacking
    it ("have friendly units get Bane when attacking against it") on `side` (shooting,
    melee, or `charge`: a melee the attacker charged into, where a mark "when charging"
    acts too, GFF-R39)."""
    if not target.effects:
        return weapon
    sides = ("any", "melee", CHARGE) if side == CHARGE else ("any", side)
    grants = tuple(
        (e.rule, e.value)
        for e in target.effects
        if e.kind == "mark" and is_weapon_rule(e.rule) and e.when in sides
    )
    return _with(weapon, grants) if grants else weapon


def marks(target: Unit, rule: str, melee: bool) -> bool:
    """Whether a mark on `target` gives its attackers unit rule `rule` in this attack."""
    side = "melee" if melee else "shooting"
    return bool(target.effects) and any(
        e.kind == "mark" and e.rule == rule and e.when in ("any", side) for e in target.effects
    )


def move_bonus(unit: Unit, kind: str) -> float:
    """Inches that move spells add to an Advance (`value`) or a Rush or Charge (`far`)."""
    if not unit.effects:
        return 0.0
    return float(
        sum(e.value if kind == "advance" else e.far for e in unit.effects if e.kind == "move")
    )


def range_bonus(unit: Unit) -> int:
    """Inches that range spells add to the unit's ranged weapons."""
    if not unit.effects:
        return 0
    return sum(e.value for e in unit.effects if e.kind == "range" and applies(e, unit, "shooting"))


def use_up(unit: Unit, *events: str) -> None:
    """Granted rules and moves lasting until `next` time end when one of `events` happens to
    the unit (profiles.TRIGGERS); one tied to an action only after that action (GFF-R37)."""
    if unit.effects:
        unit.effects = tuple(
            e
            for e in unit.effects
            if not (
                e.lasts == "next"
                and e.trigger in events
                and (e.when not in CONDITIONS or applies(e, unit, "shooting"))
            )
        )
