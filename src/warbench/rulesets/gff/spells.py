"""Caster(X): spell tokens each round (at most 6), casting on a 4+, and tokens spent by
casters within 18" to help (+1) or hinder (−1) the roll; what a cast spell does to its
targets, every unit in range, an area or a template (GFF-R27, R28, R31, R33, R35, R37)."""

from __future__ import annotations

import itertools
import math

from warbench.core.dice import RollRequest
from warbench.core.geometry import Base
from warbench.core.words import counted, noun
from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff import spell_moves, spell_rerolls
from warbench.rulesets.gff.actions import slug
from warbench.rulesets.gff.attacks import Context, Hit, regenerate
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.morale import fail_morale, morale_test
from warbench.rulesets.gff.profiles import Spell, Weapon
from warbench.rulesets.gff.quality import Referee, quality_test, successes
from warbench.rulesets.gff.shooting import resolve_hits
from warbench.rulesets.gff.spell_grants import attacked_once, marked_once, once
from warbench.rulesets.gff.spells_checks import CONDITIONS
from warbench.rulesets.gff.state import SpellEffect, State, Unit
from warbench.rulesets.gff.wounds import take_wounds

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


def target_choices(spell: Spell, found: list[str]) -> list[str]:
    """The target texts of `cast` for units `found` in range and sight: every group of up to
    `targets` units, or `all` for a spell on every unit in range (GFF-R33)."""
    if spell.everyone:
        return ["all"] if found else []
    size = min(spell.targets, len(found))
    return [",".join(group) for group in itertools.combinations(found, size) if group]


POINT_BASE = 0.1
"""The width of the base a picked point is seen as (a spot, GFF-R35)."""


def point_of(text: str) -> tuple[float, float] | None:
    """The point `x,y` a cast at a point names (GFF-R35), or None."""
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        return None
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


def reaches(field: Battlefield, caster: Unit, spell: Spell, point: tuple[float, float]) -> bool:
    """Whether the point is within the spell's range of a model of the caster's unit
    (centre to point) and in its line of sight."""
    px, py = point
    if min(math.hypot(m.x - px, m.y - py) for m in caster.models) > spell.range:
        return False
    spot = Base(point, POINT_BASE)
    return any(bfm.visibility(b, spot, field) != "hidden" for b in caster.bases())


def at_point(state: State, caster: Unit, spell: Spell, point: tuple[float, float]) -> list[Unit]:
    """The units the spell reaches around the point: of its side (both with `area_all`)
    with a model within its area of the point (centre to point), or under its template."""
    return [
        u
        for side in _reached(caster, spell)
        for u in state.side_units(side)
        if under(spell, u, point)
    ]


def under(spell: Spell, unit: Unit, point: tuple[float, float]) -> int:
    """How many of the unit's models the spell reaches at the point: within its area
    (centre to point), or under its template (GFF-R37: the base overlaps the circle of the
    template's width centred there)."""
    px, py = point
    reach = float(spell.area)
    if spell.template:
        reach = (spell.template + unit.profile.base) / 2
    return sum(1 for m in unit.models if math.hypot(m.x - px, m.y - py) <= reach)


def _reached(caster: Unit, spell: Spell) -> tuple[str, ...]:
    """The sides a spell at a point reaches: both with `area_all`, else the enemy's or
    the caster's own by its effect."""
    enemy = "blue" if caster.side == "red" else "red"
    if spell.area_all:
        return (enemy, caster.side)
    return (enemy,) if spell.on_enemies else (caster.side,)


def point_choices(state: State, field: Battlefield, caster: Unit, spell: Spell) -> list[str]:
    """Sampled points for `cast` at a point: each unit's model nearest the caster, for the
    units it may reach, when in range and sight (`check` takes any point)."""
    found = []
    cx, cy = caster.centre()
    for unit in (u for side in _reached(caster, spell) for u in state.side_units(side)):
        if unit is caster:
            continue
        nearest = min(unit.models, key=lambda m: math.hypot(m.x - cx, m.y - cy))
        point = (round(nearest.x, 2), round(nearest.y, 2))
        if reaches(field, caster, spell, point):
            found.append(f"{point[0]:g},{point[1]:g}")
    return list(dict.fromkeys(found))


def target_problem(spell: Spell, text: str, allowed: list[str]) -> str | None:
    """Why `text` names no targets `spell` may be cast at (`allowed`: in range and sight)."""
    names = ", ".join(sorted(allowed)) or "none"
    if spell.everyone:
        if text != "all" or not allowed:
            return f"{spell.name} goes to every unit in range (cast it at all); in range: {names}"
        return None
    chosen = text.split(",")
    if len(set(chosen)) != len(chosen) or len(chosen) > spell.targets:
        most = counted(spell.targets, "different unit")
        return f"{spell.name} targets up to {most} (A,B), not '{text}'"
    for target in chosen:
        if target not in allowed:
            return f"'{target}' is not a target for {spell.name}; targets: {names}"
    return None


def in_area(state: State, spell: Spell, targets: list[Unit]) -> list[Unit]:
    """The other units of the targets' side (of both sides with `area_all`, GFF-R35) within
    the spell's area of any target (GFF-R33: "and all enemy units within 6\" of it")."""
    if not spell.area or spell.point or not targets:
        return []
    sides = ("red", "blue") if spell.area_all else (targets[0].side,)
    return [
        u
        for side in sides
        for u in state.side_units(side)
        if u not in targets and any(distance(u, t) <= spell.area for t in targets)
    ]


def cast(
    ref: Referee,
    state: State,
    field: Battlefield,
    caster: Unit,
    spell: Spell,
    targets: list[Unit],
    bonus: int,
) -> list[list[str | int]]:
    """Roll one die, +1/−1 per token spent by helpers; on 4+ the effect hits every target
    (and the units in its area). Returns the units the caster's player may now move, with
    the inches and any direction (a decision: `shift`)."""
    mods = ((f"tokens spent ({bonus:+d})", bonus),) if bonus else ()
    names = ", ".join(t.name for t in targets)
    roll = ref.roll(quality_test(f"cast {spell.name}: {caster.name} → {names}", CAST_ON, mods))
    if not successes(roll):
        ref.emit("spell", f"{spell.name} fails")
        return []
    around = in_area(state, spell, targets)
    if around:
        ref.emit("spell", f"{spell.name} also reaches {', '.join(u.name for u in around)}")
    shifts: list[tuple[str, int, str, bool]] = []
    point = point_of(str(state.step.get("spell_target", ""))) if spell.template else None
    for target in [*targets, *around]:
        hits = spell.area_hits if target in around and spell.area_hits else None
        per = 1 if point is None else under(spell, target, point)  # a template's, per model
        if spell.effect == "shift" or (spell.effect == "test" and fails(ref, state, spell, target)):
            if spell.effect == "shift" or spell.then == "shift":
                shifts.append((target.id, spell.value, spell.toward, spell.must))
            elif spell.then in ("wounds", "hits"):
                harm(ref, caster, spell, target, spell.then)
        elif spell.effect != "test":
            affect(ref, caster, spell, target, hits, per)
    found: list[list[str | int]] = []
    for uid, inches, way, must in shifts:
        if not state.units[uid].alive:
            continue
        if must:  # GFF-R39: the full inches, or as far as it can go along its line
            found.append([uid, inches, way, spell_moves.MUST])
        else:  # GFF-R35: with a direction when given
            found.append([uid, inches, way] if way != "any" else [uid, inches])
    return found


def fails(ref: Referee, state: State, spell: Spell, target: Unit) -> bool:
    """A morale test forced by a spell (GFF-R33): on a failure the unit is Shaken (routs if
    it already was, as the rulebook's morale test) or fatigued, as the spell says, or takes
    a dangerous terrain test, a limit on actions or difficult terrain (GFF-R39); whether it
    failed."""
    if not target.alive:
        return False
    was_shaken = target.shaken
    if morale_test(ref, state, target):
        ref.emit("morale", f"{target.name} passes the morale test of {spell.name}")
        return False
    if spell.then == "fatigued":
        target.fatigued = True
        ref.emit("spell", f"{spell.name}: {target.name} is fatigued until the end of the round")
    elif spell.then == "shaken":
        fail_morale(ref, target, was_shaken)
    elif spell.then == "dangerous":  # GFF-R39
        dangerous(ref, spell, target)
    elif spell.then in ("only", "difficult"):  # GFF-R39: the limit instead of Shaken
        for effect in lasting(spell.model_copy(update={"effect": spell.then})):
            target.effects = (*target.effects, effect)
            ref.emit("spell", f"{spell.name}: {target.name} gets {describe(effect)}")
    return True


def harm(
    ref: Referee,
    caster: Unit,
    spell: Spell,
    target: Unit,
    kind: str,
    count: int | None = None,
    per: int = 1,
) -> None:
    """`kind` hits (with the spell's weapon rules, Defense rolled) or wounds (no Defense;
    Regeneration still rolls; Bane, Deadly and Unstoppable act on them, GFF-R39) on one
    target: `count` when given (a unit in an area), else the spell's own number or its
    `dice` (D3, D6) rolled now, `per` times (a template's, a count for each model under it:
    GFF-R35, R37, R39)."""
    if not target.alive:
        return
    if count is None:
        fixed = spell.wounds if kind == "wounds" else spell.hits
        if spell.dice:
            count = sum(_rolled(ref, spell, target, kind, fixed) for _ in range(per))
        else:
            count = fixed * per
    if not count:  # a roll of D3-1 may deal none
        ref.emit("spell", f"{spell.name}: {target.name} takes no {kind}")
        return
    weapon = Weapon(name=spell.name, range=spell.range, attacks=1, rules=spell.rules)
    bane = weapon.rating("Bane") is not None
    if kind == "wounds":
        ref.emit("spell", f"{spell.name}: {target.name} takes {counted(count, 'wound')}")
        unstoppable = weapon.rating("Unstoppable") is not None
        wound = Hit(0, bane, weapon.rating("Deadly") or 0, bane or unstoppable)
        wounds = regenerate(ref, target, [wound] * count)
        ref.emit("wounds", f"{target.name} takes {counted(len(wounds), 'wound')}")
        take_wounds(ref, target, wounds)
        if not target.alive:
            ref.emit("destroyed", f"{target.name} is destroyed")
        return
    hits = [Hit(weapon.rating("AP") or 0, bane, weapon.rating("Deadly") or 0, bane)] * count
    ref.emit("spell", f"{spell.name}: {target.name} takes {counted(count, 'hit')}")
    resolve_hits(ref, caster, weapon, hits, target, Context(melee=False))


def _rolled(ref: Referee, spell: Spell, target: Unit, kind: str, fixed: int) -> int:
    """The spell's number of hits or wounds on `target` rolled on its D3s or D6s: the
    dice, `fixed` added or `less` taken (never below 0), `times` over (GFF-R39)."""
    dice = f"{spell.rolled if spell.rolled > 1 else ''}D{spell.dice}"
    label = f"{spell.name}: {dice} {kind} on {target.name}"
    total = ref.roll(RollRequest(label, dice=spell.rolled, sides=spell.dice)).total
    return max(0, total + fixed - spell.less) * spell.times


def dangerous(ref: Referee, spell: Spell, target: Unit) -> None:
    """A dangerous terrain test forced by a spell (GFF-R35), as TERRAIN has it: one die per
    model (as many as its Tough value), each 1 a wound; Regeneration rolls for them."""
    if not target.alive:
        return
    per_model = target.profile.rating("Tough") or 1
    label = f"{spell.name}: dangerous terrain test, {target.name}"
    roll = ref.roll(RollRequest(label, dice=len(target.models) * per_model))
    wounds = roll.faces.count(1)
    ref.emit("spell", f"{spell.name}: {target.name} takes {counted(wounds, 'wound')}")
    if wounds:
        take_wounds(ref, target, regenerate(ref, target, [Hit(0, False, 0, False)] * wounds))
        if not target.alive:
            ref.emit("destroyed", f"{target.name} is destroyed")


def affect(
    ref: Referee, caster: Unit, spell: Spell, target: Unit, count: int | None = None, per: int = 1
) -> None:
    """The spell's effect on one target (profiles.Spell; GFF-R27, R28); a `hits` spell
    deals `count` hits when given (a unit in its area, GFF-R33), else its own, `per` times
    (a template's models under it, GFF-R37)."""
    if spell.effect in ("hits", "wounds"):
        harm(ref, caster, spell, target, spell.effect, count, per)
    elif spell.effect == "dangerous":
        dangerous(ref, spell, target)
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
        when = spell.when if spell.when in CONDITIONS else "shooting"  # GFF-R37
        return [SpellEffect(spell.name, "range", spell.value, when, spell.lasts, trigger=trigger)]
    if spell.effect == "attacks":
        if trigger == "once":
            trigger = attacked_once(spell.when)
        return [
            SpellEffect(
                spell.name, "attacks", spell.value, spell.when, spell.lasts, trigger=trigger
            )
        ]
    if spell.effect == "move":
        trigger = "move" if trigger == "once" else trigger
        return [
            SpellEffect(
                spell.name, "move", spell.value, "any", spell.lasts, far=spell.far, trigger=trigger
            )
        ]
    if spell.effect in ("only", "difficult"):  # GFF-R35
        left = ",".join(spell.actions)
        return [SpellEffect(spell.name, spell.effect, 0, "any", spell.lasts, left, 0, trigger)]
    if spell.effect == "reroll":  # GFF-R37
        if trigger == "once":
            trigger = {"defense": "hits", "morale": "morale"}.get(spell.roll, "")
            trigger = trigger or attacked_once(spell.when)
        picked = f"{spell.roll}:{spell.reroll}"
        return [SpellEffect(spell.name, "reroll", 0, spell.when, spell.lasts, picked, 0, trigger)]
    if spell.effect == "in_dangerous":  # GFF-R37
        trigger = "move" if trigger == "once" else trigger
        return [SpellEffect(spell.name, "in_dangerous", 0, "any", spell.lasts, trigger=trigger)]
    return [SpellEffect(spell.name, spell.effect, spell.value, spell.when, spell.lasts)]


def describe(effect: SpellEffect) -> str:
    """`+1 to hit in melee until the end of the round`, as the log says it."""
    roll = {"to_hit": "to hit", "defense": "to Defense", "morale": "to its next morale test"}
    when = WHEN_WORDS[effect.when]
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
    if effect.kind == "attacks":
        return f"{effect.value:+d} {noun(abs(effect.value), 'attack')} per weapon{when}{lasts}"
    if effect.kind == "move":
        return f'{effect.value:+d}" to Advance, {effect.far:+d}" to Rush and Charge{lasts}'
    if effect.kind == "only":
        return f"only {effect.rule.replace(',', ' or ')} actions{lasts}"
    if effect.kind == "difficult":
        return f"moves as if in difficult terrain{lasts}"
    if effect.kind == "in_dangerous":
        return f"dangerous terrain (it counts as in it){lasts}"
    if effect.kind == "reroll":
        kind, dice = effect.rule.split(":")
        rolled = {"defense": "on Defense", "morale": "on morale tests"}.get(kind, "to hit")
        return f"re-rolls of its {spell_rerolls.WORDS[dice]} {rolled}{when}{lasts}"
    return f"{effect.value:+d} {roll[effect.kind]}{when}{lasts}"


WHEN_WORDS = {
    "any": "",
    "melee": " in melee",
    "shooting": " when shooting",
    "hold": " when shooting after a Hold action",
    "advance": " when shooting after an Advance action",
    "charge": " in melee when charging",
}
"""How the log words `when` (a condition on the action: GFF-R37; on a charge: GFF-R39)."""

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
