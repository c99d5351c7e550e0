"""Caster(X): spell tokens each round (at most 6), casting on a 4+, and tokens spent by
casters within 18" to help (+1) or hinder (−1) the roll."""

from __future__ import annotations

import math

from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff.actions import slug
from warbench.rulesets.gff.attacks import Context, Hit
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.profiles import Spell, Weapon
from warbench.rulesets.gff.quality import Referee, quality_test, successes
from warbench.rulesets.gff.shooting import resolve_hits
from warbench.rulesets.gff.spell_grants import marked_once, once
from warbench.rulesets.gff.state import SpellEffect, State, Unit

MAX_TOKENS = 6
HELP_REACH = 18.0
CAST_ON = 4


def refresh_tokens(state: State) -> None:
    """Start of each round: every Caster(X) gets X tokens, holding at most 6."""
    for unit in state.units.values():
        rating = unit.profile.rating("Caster")
        if rating and unit.alive:
            unit.tokens = min(MAX_TOKENS, unit.tokens + rating)


def spell_named(unit: Unit, name: str) -> Spell | None:
    """One of the unit's spells by slug."""
    return next((s for s in unit.profile.spells if slug(s.name) == name), None)


def sees(field: Battlefield, a: Unit, b: Unit) -> bool:
    """Any model of `a` sees any model of `b`."""
    return any(bfm.visibility(x, y, field) != "hidden" for x in a.bases() for y in b.bases())


def distance(a: Unit, b: Unit) -> float:
    """Centre to centre of the nearest models (spell ranges and the 18" of helpers)."""
    return min(math.hypot(m.x - n.x, m.y - n.y) for m in a.models for n in b.models)


def helpers(state: State, field: Battlefield, caster: Unit, side: str) -> list[Unit]:
    """Casters of `side` (other than the caster) with tokens, within 18" in sight of it."""
    return [
        u
        for u in state.side_units(side)
        if u is not caster
        and u.tokens > 0
        and u.profile.rating("Caster")
        and distance(u, caster) <= HELP_REACH
        and sees(field, u, caster)
    ]


def cast(
    ref: Referee,
    state: State,
    field: Battlefield,
    caster: Unit,
    spell: Spell,
    targets: list[Unit],
    bonus: int,
) -> None:
    """Roll one die, +1/−1 per token spent by helpers; on 4+ the effect hits every target."""
    mods = ((f"tokens spent ({bonus:+d})", bonus),) if bonus else ()
    names = ", ".join(t.name for t in targets)
    roll = ref.roll(quality_test(f"cast {spell.name}: {caster.name} → {names}", CAST_ON, mods))
    if not successes(roll):
        ref.emit("spell", f"{spell.name} fails")
        return
    for target in targets:
        affect(ref, caster, spell, target)


def affect(ref: Referee, caster: Unit, spell: Spell, target: Unit) -> None:
    """The spell's effect on one target (profiles.Spell; GFF-R27, R28)."""
    if spell.effect == "hits":
        weapon = Weapon(name=spell.name, range=spell.range, attacks=1, rules=spell.rules)
        ap = weapon.rating("AP") or 0
        hits = [
            Hit(
                ap,
                weapon.rating("Bane") is not None,
                weapon.rating("Deadly") or 0,
                weapon.rating("Bane") is not None,
            )
        ] * spell.hits
        ref.emit("spell", f"{spell.name}: {target.name} takes {spell.hits} hit(s)")
        resolve_hits(ref, caster, weapon, hits, target, Context(melee=False))
    elif spell.effect == "shield":
        target.shield = True
        ref.emit("spell", f"{spell.name}: {target.name} gets +1 Defense this round")
    elif spell.effect == "focus":
        target.focus = True
        ref.emit("spell", f"{spell.name}: {target.name} gets +1 to hit this round")
    else:
        for effect in lasting(spell):
            target.effects = (*target.effects, effect)
            ref.emit("spell", f"{spell.name}: {target.name} gets {describe(effect)}")


def lasting(spell: Spell) -> list[SpellEffect]:
    """The lasting effects a modifier, rule, range or move spell puts on each target (one
    per granted rule; `once` becomes each rule's own trigger, GFF-R31)."""
    trigger: str = spell.trigger or ""
    if spell.effect in ("rule", "mark"):
        first = once if spell.effect == "rule" else marked_once
        return [
            SpellEffect(
                spell.name,
                spell.effect,
                r.rating or 0,
                spell.when,
                spell.lasts,
                r.name,
                0,
                first(r.name, spell.when) if trigger == "once" else trigger,
            )
            for r in spell.rules
        ]
    if spell.effect == "range":
        trigger = "shooting" if trigger == "once" else trigger
        return [
            SpellEffect(spell.name, "range", spell.value, "shooting", spell.lasts, trigger=trigger)
        ]
    if spell.effect == "move":
        trigger = "move" if trigger == "once" else trigger
        return [
            SpellEffect(
                spell.name, "move", spell.value, "any", spell.lasts, far=spell.far, trigger=trigger
            )
        ]
    return [SpellEffect(spell.name, spell.effect, spell.value, spell.when, spell.lasts)]


def describe(effect: SpellEffect) -> str:
    """`+1 to hit in melee until the end of the round`, as the log says it."""
    roll = {"to_hit": "to hit", "defense": "to Defense", "morale": "to its next morale test"}
    when = {"any": "", "melee": " in melee", "shooting": " when shooting"}[effect.when]
    lasts = " until the end of the round" if effect.lasts == "round" else " the next time"
    if effect.trigger:
        lasts = f" until it next {UNTIL[effect.trigger]}"
    if effect.kind == "morale":
        return f"{effect.value:+d} {roll['morale']}"
    if effect.kind == "rule":
        rating = f"({effect.value:+d})" if effect.rule == "AP" else f"({effect.value})"
        return f"{effect.rule}{rating if effect.value else ''}{when}{lasts}"
    if effect.kind == "mark":
        rating = f"({effect.value:+d})" if effect.rule == "AP" else f"({effect.value})"
        rule = f"{effect.rule}{rating if effect.value else ''}"
        return f"a mark: units attacking it get {rule}{when}{lasts}"
    if effect.kind == "range":
        return f'{effect.value:+d}" range{lasts}'
    if effect.kind == "move":
        return f'{effect.value:+d}" to Advance, {effect.far:+d}" to Rush and Charge{lasts}'
    return f"{effect.value:+d} {roll[effect.kind]}{when}{lasts}"


UNTIL = {
    "charge": "charges",
    "charged": "is charged",
    "melee": "fights in melee",
    "shooting": "shoots",
    "attack": "attacks",
    "hits": "takes hits",
    "wounds": "takes wounds",
    "shot_at": "is shot at",
    "move": "moves",
    "morale": "takes a morale test",
    "activation": "ends an activation",
    "attacked": "is attacked",
}
"""How the log words each trigger (profiles.TRIGGERS)."""


def end_of_round(state: State) -> None:
    """Spells that last until the end of the round end (GFF-R28)."""
    for unit in state.units.values():
        unit.shield = unit.focus = False
        if unit.effects:
            unit.effects = tuple(e for e in unit.effects if e.lasts != "round")
