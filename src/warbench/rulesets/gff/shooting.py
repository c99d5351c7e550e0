"""SHOOTING: models in range and line of sight fire their ranged weapons, at up to two
targets with different weapons; one quality test per attack, Defense per hit; Blast, Indirect,
Limited and cover."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from warbench.core.geometry import Base, edge_distance
from warbench.core.words import counted, noun
from warbench.rulesets.gff import battlefield as bfm
from warbench.rulesets.gff.actions import slug
from warbench.rulesets.gff.attacks import (
    Context,
    Hit,
    regenerate,
    roll_blocks,
    roll_hits,
    spend_spells,
)
from warbench.rulesets.gff.battlefield import Battlefield
from warbench.rulesets.gff.profiles import Weapon
from warbench.rulesets.gff.quality import Referee, quality_test, successes
from warbench.rulesets.gff.spell_grants import armed, range_bonus, use_up, volley
from warbench.rulesets.gff.state import State, Unit
from warbench.rulesets.gff.wounds import take_wounds

BLAST_REACH = 3.0
PUSH = 2.0
MAX_TARGETS = 2


@dataclass(frozen=True)
class FireSolution:
    """Who can fire a weapon at a target: the attacks and the measured distance."""

    attacks: int
    distance: float


def weapon_named(unit: Unit, name: str) -> Weapon | None:
    """A weapon the unit's models carry, by slug."""
    for model in unit.models:
        for weapon in model.weapons:
            if slug(weapon.name) == name:
                return weapon
    return None


def _same(a: Weapon, b: Weapon) -> bool:
    """Whether two weapons are equal (the name first: weapons of other names never are, and
    comparing every field is slow)."""
    return a is b or (a.name == b.name and a == b)


def ranged_weapons(unit: Unit) -> list[Weapon]:
    """The different ranged weapons carried by the unit's models."""
    seen: dict[str, Weapon] = {}
    for model in unit.models:
        for weapon in model.weapons:
            if not weapon.melee:
                seen.setdefault(slug(weapon.name), weapon)
    return list(seen.values())


def solution(field: Battlefield, unit: Unit, weapon: Weapon, target: Unit) -> FireSolution:
    """Models carrying `weapon` with the target in range and line of sight (Indirect needs
    no sight); each fires the weapon's attacks."""
    return solutions(field, unit, [weapon], [target])[0][0]


def solutions(
    field: Battlefield, unit: Unit, weapons: Sequence[Weapon], targets: Sequence[Unit]
) -> list[list[FireSolution]]:
    """`solution` of each weapon (rows) at each target (columns), with the line of sight of
    every shooter asked at once."""
    return volleys(field, [(unit, weapons, targets)])[0]


Volley = tuple[Unit, Sequence[Weapon], Sequence[Unit]]


def volleys(field: Battlefield, asks: Sequence[Volley]) -> list[list[list[FireSolution]]]:
    """`solutions` of several units (each with its weapons and targets), with the line of
    sight of every shooter of every unit asked at once."""
    able: list[tuple[int, int, int, int, Base, list[float], list[Base]]] = []
    blind: list[list[bool]] = []
    for k, (unit, weapons, targets) in enumerate(asks):
        bonus = range_bonus(unit)  # range spells (GFF-R31)
        bases = [(model, model.base(unit.profile.base)) for model in unit.models]
        theirs = [target.bases() for target in targets]
        apart = [[[(edge_distance(b, x), x) for x in their] for their in theirs] for _, b in bases]
        for w, weapon in enumerate(weapons):
            for (model, base), gaps in zip(bases, apart, strict=True):
                carried = sum(1 for x in model.weapons if _same(x, weapon))
                for t, pairs in enumerate(gaps if carried else []):
                    near = [(d, x) for d, x in pairs if d <= weapon.range + bonus]
                    if near:
                        distances, bases_near = [d for d, _ in near], [x for _, x in near]
                        able.append((k, w, t, carried, base, distances, bases_near))
        blind.append([weapon.rating("Indirect") is not None for weapon in weapons])
    sighted = [a for a in able if not blind[a[0]][a[1]]]
    sees = iter(bfm.sees_any([a[4] for a in sighted], [a[6] for a in sighted], field))
    attacks = [[[0] * len(targets) for _ in weapons] for _, weapons, targets in asks]
    nearest = [[[math.inf] * len(targets) for _ in weapons] for _, weapons, targets in asks]
    for k, w, t, carried, _, distances, _ in able:
        if blind[k][w] or next(sees):
            attacks[k][w][t] += carried * asks[k][1][w].attacks
            nearest[k][w][t] = min(nearest[k][w][t], min(distances))
    return [
        [
            [FireSolution(a, d) for a, d in zip(row, far, strict=True)]
            for row, far in zip(rows, fars, strict=True)
        ]
        for rows, fars in zip(attacks, nearest, strict=True)
    ]


def target_in_cover(field: Battlefield, shooter: Unit, target: Unit, weapon: Weapon) -> bool:
    """Cover terrain or sight blockers; Indirect ignores cover from sight obstructions."""
    if weapon.rating("Indirect") is not None:
        bases = target.bases()
        inside = [bfm.in_cover_terrain(b, field, mostly=len(bases) == 1) for b in bases]
        return sum(inside) * 2 > len(bases)
    return bfm.unit_in_cover(target.bases(), shooter.bases(), field)


def fire(
    ref: Referee,
    state: State,
    field: Battlefield,
    unit: Unit,
    weapon: Weapon,
    target: Unit,
    pushing: bool = False,
    shot: FireSolution | None = None,
) -> BlastSplit | None:
    """Resolve one weapon's fire at a target (legality is checked by the game); a Blast
    whose hits do not split evenly returns the split for the defender to choose. `shot`:
    the weapon's `solution` at the target, when the caller has it already."""
    if shot is None:
        shot = solution(field, unit, weapon, target)
    base, weapon = weapon, armed(unit, weapon)  # rules and attacks spells grant (GFF-R31, R33)
    if weapon.rating("Limited") is not None:
        unit.used_limited.add(slug(weapon.name))
    ctx = Context(
        melee=False,
        distance=shot.distance,
        cover=target_in_cover(field, unit, target, weapon),
        moved=unit.moved,
    )
    if ctx.cover:
        ref.emit("cover", f"{target.name} is in cover: +1 Defense")
    hits = roll_hits(ref, unit, weapon, volley(shot.attacks, base, weapon), target, ctx)
    blast = weapon.rating("Blast")
    if blast and hits:
        return _blast(ref, state, unit, weapon, hits, target, ctx, blast, pushing)
    resolve_hits(ref, unit, weapon, hits, target, ctx, pushing=pushing)
    return None


def resolve_hits(
    ref: Referee,
    attacker: Unit,
    weapon: Weapon,
    hits: list[Hit],
    target: Unit,
    ctx: Context,
    fear: int = 0,
    pushing: bool = False,
) -> None:
    """Defense rolls, Regeneration, then wounds and wound effects (and Pushing, if used)."""
    if not hits or not target.alive:
        return
    unblocked = roll_blocks(ref, target, hits, ctx, weapon)
    side = "melee" if ctx.melee else "shooting"  # a Defense spell of that side (GFF-R39)
    spend_spells(target, "defense", side)  # "next time it takes hits" (GFF-R28)
    wounds = regenerate(ref, target, unblocked)
    use_up(target, "hits")  # "next time they take hits" (GFF-R31)
    ref.emit("wounds", f"{target.name} takes {counted(len(wounds), 'wound')}")
    effect = take_wounds(ref, target, wounds, fear=fear if wounds else 0)
    if effect == "shaken" and pushing and target.alive:
        push(ref, attacker, target)
    if not target.alive:
        ref.emit("destroyed", f"{target.name} is destroyed")


def push(ref: Referee, attacker: Unit, target: Unit) -> None:
    """SPECIAL MOVES, Pushing: after a Shaken result the attacker rolls a die; on 4+ the
    model is moved up to 2" — directly away from the attacker's nearest model (ruling
    GFF-R10)."""
    roll = ref.roll(quality_test(f"pushing: {attacker.name} pushes {target.name}", 4))
    if not successes(roll):
        return
    model = target.models[-1]
    nearest = min(attacker.models, key=lambda m: math.hypot(m.x - model.x, m.y - model.y))
    length = math.hypot(model.x - nearest.x, model.y - nearest.y) or 1.0
    model.x += PUSH * (model.x - nearest.x) / length
    model.y += PUSH * (model.y - nearest.y) / length
    ref.emit("push", f'{target.name} is pushed {PUSH:g}" away')


@dataclass(frozen=True)
class BlastSplit:
    """Blast hits waiting for the defender to say which units take the odd ones."""

    units: tuple[str, ...]
    share: int
    extra: int
    hits: tuple[Hit, ...]


def _blast(
    ref: Referee,
    state: State,
    unit: Unit,
    weapon: Weapon,
    hits: list[Hit],
    target: Unit,
    ctx: Context,
    blast: int,
    pushing: bool,
) -> BlastSplit | None:
    """Blast(X): each hit ×X, X at most the enemy models in and within 3" of the target; the
    hits split evenly between the enemy units within 3" of the target — the defender picks
    which take the odd hits (a decision, `split_blast`)."""
    near, multiplied = blast_hits(state, hits, target, blast)
    become = noun(len(hits), "becomes", "become")
    ref.emit("blast", f"Blast({blast}): {counted(len(hits), 'hit')} {become} {len(multiplied)}")
    share, extra = divmod(len(multiplied), len(near))
    split = BlastSplit(tuple(u.id for u in near), share, extra, tuple(multiplied))
    if extra:
        odd = counted(extra, "odd hit")
        ref.emit("blast", f"{odd} among {len(near)} units: the defender chooses")
        return split
    split_blast(ref, state, unit, weapon, split, (), pushing)
    return None


def blast_hits(
    state: State, hits: list[Hit], target: Unit, blast: int
) -> tuple[list[Unit], list[Hit]]:
    """Blast(X): the enemy units in and within 3" of the target, and each hit ×X, X at most
    their models."""
    near = [target] + [
        u
        for u in state.side_units(target.side)
        if u is not target
        and min(edge_distance(a, b) for a in u.bases() for b in target.bases()) <= BLAST_REACH
    ]
    models = sum(len(u.models) for u in near)
    return near, [h for h in hits for _ in range(min(blast, models))]


def split_blast(
    ref: Referee,
    state: State,
    attacker: Unit,
    weapon: Weapon,
    split: BlastSplit,
    chosen: Sequence[str],
    pushing: bool,
) -> None:
    """Resolve Blast hits: each unit its share, and one more for each unit in `chosen`."""
    ctx = Context(melee=False)
    start = 0
    for uid in split.units:
        count = split.share + (1 if uid in chosen else 0)
        resolve_hits(
            ref,
            attacker,
            weapon,
            list(split.hits[start : start + count]),
            state.units[uid],
            ctx,
            pushing=pushing,
        )
        start += count
