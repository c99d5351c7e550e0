"""SHOOTING and MELEE resolution ("works like shooting"): quality tests to hit, Defense rolls
per hit, wounds; and every special rule that changes an attack.

One call resolves one weapon's attacks by a unit against a target unit: `volley`.
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.dice import Modifier, Read, RollRequest
from warbench.core.words import counted
from warbench.rulesets.gff.profiles import Weapon
from warbench.rulesets.gff.quality import ONE, SIX, Referee, die_succeeds, quality_test
from warbench.rulesets.gff.spell_grants import applies, charged, marked, marks, use_up
from warbench.rulesets.gff.spell_rerolls import note, reroll
from warbench.rulesets.gff.spells_checks import CHARGE
from warbench.rulesets.gff.state import Unit


@dataclass(frozen=True)
class Context:
    """What the attack's special rules need to know about the situation."""

    melee: bool
    distance: float = 0.0  # edge to edge, firer to target, inches
    cover: bool = False  # the target unit is in cover (shooting only)
    charging: bool = False
    fatigued: bool = False
    moved: bool = False  # the attacker moved this activation (Indirect)


@dataclass(frozen=True)
class Hit:
    """One hit to be blocked: its AP and the rules that travel with it."""

    ap: int
    bane: bool
    deadly: int  # 0 = not Deadly
    ignores_regeneration: bool


def spell_modifiers(unit: Unit, kind: str, when: str = "any") -> list[Modifier]:
    """The lasting spells on `unit` (GFF-R28) that modify its `kind` of roll, for `when`."""
    return [
        (f"{e.spell} spell", e.value)
        for e in unit.effects
        if e.kind == kind and applies(e, unit, when)
    ]


def spend_spells(unit: Unit, kind: str, when: str = "any") -> None:
    """Spells that last until `next` time are used up once they applied (GFF-R28)."""
    if unit.effects:
        unit.effects = tuple(
            e
            for e in unit.effects
            if not (e.lasts == "next" and e.kind == kind and applies(e, unit, when))
        )


def side_of(ctx: Context) -> str:
    """Which spells act on an attack's hit rolls: shooting, melee, or a melee the attacker
    charged into (`charge`, which melee spells act on too: GFF-R39)."""
    if not ctx.melee:
        return "shooting"
    return CHARGE if ctx.charging else "melee"


def to_hit_modifiers(attacker: Unit, weapon: Weapon, target: Unit, ctx: Context) -> list[Modifier]:
    """Modifiers to the quality tests of an attack (Indirect, Stealth, Thrust, focus)."""
    mods: list[Modifier] = []
    if not ctx.melee:
        if weapon.rating("Indirect") is not None and ctx.moved:
            mods.append(("Indirect after moving", -1))
        if target.all_have("Stealth") and ctx.distance > 9:
            mods.append(('Stealth over 9"', -1))
    elif weapon.rating("Thrust") is not None and ctx.charging:
        mods.append(("Thrust when charging", 1))
    if attacker.focus:
        mods.append(("focus spell", 1))
    mods += spell_modifiers(attacker, "to_hit", side_of(ctx))
    if weapon.rating("Unstoppable") is not None:
        mods = [m for m in mods if m[1] > 0]  # ignores all negative modifiers
    return mods


def roll_hits(
    ref: Referee, attacker: Unit, weapon: Weapon, attacks: int, target: Unit, ctx: Context
) -> list[Hit]:
    """One quality test per attack; extra hits on unmodified 6s (Surge, Relentless, Furious);
    Rending's AP(+4) on those 6s; fatigue hits only on unmodified 6s in melee."""
    side = side_of(ctx)
    weapon = marked(weapon, target, side)  # rules marks on the target give (GFF-R31, R39)
    if side == CHARGE and attacker.effects:  # rules granted when charging (GFF-R39)
        weapon = charged(attacker, weapon)
    quality = 2 if weapon.rating("Reliable") is not None else attacker.profile.quality
    mods = tuple(to_hit_modifiers(attacker, weapon, target, ctx))
    fatigue = ctx.melee and ctx.fatigued
    label = f"to hit: {attacker.name} {weapon.name} x{attacks} → {target.name}" + (
        " (fatigued: only unmodified 6s)" if fatigue else ""
    )
    label += note(attacker, "to_hit", side)  # re-roll spells (GFF-R37)
    request = quality_test(label, 7 if fatigue else quality, () if fatigue else mods, attacks)
    kept, rerolled = reroll(ref, attacker, request, ref.roll(request).faces, "to_hit", side)
    faces = kept + rerolled
    base_ap = weapon.rating("AP") or 0
    if weapon.rating("Thrust") is not None and ctx.melee and ctx.charging:
        base_ap += 1
    deadly = weapon.rating("Deadly") or 0
    bane = weapon.rating("Bane") is not None
    rending = weapon.rating("Rending") is not None
    unstoppable = weapon.rating("Unstoppable") is not None
    hits: list[Hit] = []
    extra = 0
    for face in faces:
        if not die_succeeds(request, face):
            continue
        six = face == 6
        ap = base_ap + (4 if rending and six else 0)
        hits.append(Hit(ap, bane, deadly, bane or unstoppable or (rending and six)))
        if six and _extra_hit(attacker, weapon, ctx, target):
            extra += 1
    plain = Hit(base_ap, bane, deadly, bane or unstoppable)
    hits += [plain] * extra
    if extra:
        ref.emit("hits", f"{counted(extra, 'extra hit')} from unmodified 6s")
    return hits


def _extra_hit(attacker: Unit, weapon: Weapon, ctx: Context, target: Unit) -> bool:
    """Surge; Relentless shooting over 9"; Furious when charging in melee (the attacker's
    own, or given by a mark on the target, GFF-R31)."""
    if weapon.rating("Surge") is not None:
        return True
    relentless = attacker.all_have("Relentless") or marks(target, "Relentless", False)
    if not ctx.melee and relentless and ctx.distance > 9:
        return True
    furious = attacker.all_have("Furious") or marks(target, "Furious", True)
    return ctx.melee and ctx.charging and furious


def roll_blocks(
    ref: Referee, target: Unit, hits: list[Hit], ctx: Context, weapon: Weapon
) -> list[Hit]:
    """Defense rolls, one per hit: d6 − AP (+1 cover, +1 shield) at Defense or more blocks;
    6 always blocks, 1 never; Bane makes the defender re-roll unmodified 6s. Returns the
    hits that were not blocked (each a wound)."""
    unblocked: list[Hit] = []
    cover = ctx.cover and not ctx.melee and weapon.rating("Blast") is None
    groups: dict[Hit, int] = {}
    for hit in hits:
        groups[hit] = groups.get(hit, 0) + 1
    for hit, count in groups.items():
        mods: list[Modifier] = []
        if hit.ap:
            mods.append((f"AP({hit.ap})", -hit.ap))
        if cover:
            mods.append(("cover", 1))
        if target.shield:
            mods.append(("shield spell", 1))
        side = "melee" if ctx.melee else "shooting"
        mods += spell_modifiers(target, "defense", side)  # in melee or against shooting: R39
        request = RollRequest(
            label=f"Defense: {target.name} blocks {counted(count, 'hit')}"
            + note(target, "defense", side),
            dice=count,
            read=Read.COUNT_AT_LEAST,
            target=target.profile.defense,
            modifiers=tuple(mods),
            always_succeed=SIX,
            always_fail=ONE,
        )
        faces, rerolled = reroll(ref, target, request, ref.roll(request).faces, "defense", side)
        if hit.bane:  # a die a spell re-rolled is not re-rolled again (GFF-R37)
            sixes = faces.count(6)
            if sixes:
                again = ref.roll(
                    RollRequest(
                        label=f"Bane: {target.name} re-rolls {counted(sixes, 'unmodified 6')}",
                        dice=sixes,
                        read=Read.COUNT_AT_LEAST,
                        target=target.profile.defense,
                        modifiers=tuple(mods),
                        always_succeed=SIX,
                        always_fail=ONE,
                    )
                )
                faces = [f for f in faces if f != 6] + list(again.faces)
        faces += rerolled
        failed = sum(1 for f in faces if not die_succeeds(request, f))
        unblocked += [hit] * failed
    return unblocked


def regenerate(ref: Referee, target: Unit, wounds: list[Hit]) -> list[Hit]:
    """Regeneration: each wound is ignored on a 5+ unless Bane, Rending (on a 6) or
    Unstoppable ignores Regeneration."""
    regenerating = target.all_have("Regeneration")
    if wounds:
        use_up(target, "wounds")  # "next time they take wounds" (GFF-R31)
    if not regenerating:
        return wounds
    can = [w for w in wounds if not w.ignores_regeneration]
    cannot = [w for w in wounds if w.ignores_regeneration]
    if not can:
        return wounds
    roll = ref.roll(quality_test(f"Regeneration: {target.name}", 5, (), len(can)))
    saved = sum(1 for f in roll.faces if f >= 5)
    return can[saved:] + cannot
