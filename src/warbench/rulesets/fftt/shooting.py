"""SHOOTING: 2D6 at or under the weapon skill with the accumulative modifiers; range bands;
damage (two wounds on a hitting double for engineers, snipers and tanks; the tank's twin
laser shoots twice); grenades and missiles with deviation; shooting into a melee; running
out of ammo once the HQs (or queens) are gone."""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.dice import Read, RollRequest
from warbench.rulesets.fftt import wounds
from warbench.rulesets.fftt.profiles import Modifier, tables
from warbench.rulesets.fftt.sight import bearing, can_see
from warbench.rulesets.fftt.state import (
    CHAMELEON,
    CRACK_SHOOTER,
    FULL_METAL_JACKET,
    HAPPY_TRIGGER,
    Fig,
    Goo,
    State,
)
from warbench.rulesets.fftt.table import dist
from warbench.rulesets.fftt.wounds import Referee


@dataclass(frozen=True)
class Shot:
    """What a shot needs: the skill with its modifiers."""

    skill: int
    modifiers: tuple[Modifier, ...]

    @property
    def needed(self) -> int:
        """The 2D6 score needed or less."""
        return self.skill + sum(m.value for m in self.modifiers)

    def label(self, firer: Fig, target: Fig) -> str:
        """The roll's label with every modifier."""
        mods = "".join(f", {m.value:+d} {m.reason}" for m in self.modifiers)
        return f"to hit: {firer.id} → {target.id} (skill {self.skill}{mods})"


def engaged(s: State, fig: Fig) -> bool:
    """Whether `fig` is in a hand-to-hand fight."""
    return any(fig.id == m.defender or fig.id in m.attackers for m in s.melees)


def shot(s: State, firer: Fig, target: Fig, *, indirect: bool) -> Shot:
    """Weapon skill accumulative fire modifiers: long range, cover (not for grenades and
    missiles), firing wounded, indirect, at a Drone or Sentinel, elite."""
    mods = tables().fire_modifiers
    prof = firer.prof
    assert prof.skill is not None
    at, to = (firer.x, firer.y), (target.x, target.y)
    d = dist(at, to)
    chosen: list[Modifier] = []
    if d > prof.short:
        chosen.append(mods["long_range"])
    if prof.template is None and s.table.in_cover(at, to):
        chosen.append(mods["cover"])
    if firer.wounded:
        chosen.append(mods["wounded"])
    if indirect:
        chosen.append(mods["indirect"])
    if target.prof.hard_to_hit:
        chosen.append(mods["drone_or_sentinel"])
    if firer.elite:
        chosen.append(mods["elite"])
    if firer.xp >= tables().experience.shooting:
        chosen.append(Modifier(reason="experience (8 FPs killed)", value=1))
    if firer.ability == CRACK_SHOOTER:
        chosen.append(Modifier(reason="crack shooter", value=1))
    if target.ability == CHAMELEON and prof.template is None:
        chosen.append(Modifier(reason="chameleon (always in cover)", value=-1))
    return Shot(prof.skill, tuple(chosen))


def fire_problem(s: State, firer: Fig, target: Fig | None, *, indirect: bool) -> str | None:
    """Why `firer` may not shoot at `target` now, or None."""
    prof = firer.prof
    if not prof.armed:
        return f"{firer.id} ({prof.name}) has no ranged weapon"
    if firer.out_of_ammo:
        return f"{firer.id} is out of ammo: it may only fight hand to hand"
    if firer.ap < 1:
        return f"{firer.id} has no action points left this phase"
    if engaged(s, firer):
        return f"{firer.id} is fighting hand to hand"
    if indirect and not prof.indirect:
        return f"only grenadiers (and acid spitters) fire indirectly; {firer.id} is a {prof.name}"
    if target is None or target.where != "table" or target.side == firer.side:
        return "the target is not an enemy figure on the table"
    if dist(firer.pos, target.pos) > prof.long:
        return f"{target.id} is beyond {firer.id}'s long range of {prof.long:g} cm"
    if not indirect and not can_see(s, firer, target):
        return f"{firer.id} cannot see {target.id}"
    return None


def resolve(
    ref: Referee,
    s: State,
    firer: Fig,
    target: Fig,
    *,
    indirect: bool,
    hold: bool,
    point_blank: bool = False,
) -> None:
    """Fire once (twice for the twin laser) at `target`; `point_blank` for a charged
    figure's answer at its own attacker, which cannot go astray into the melee."""
    firer.facing = bearing(firer.pos, target.pos)
    for _ in range(shots(firer)):
        if not standing(firer, target):
            return
        one_shot(ref, s, firer, target, indirect=indirect, hold=hold, point_blank=point_blank)


def shots(firer: Fig) -> int:
    """Shots of one firing action: two for the tank's twin laser, doubled for 'Full metal
    jacket'."""
    return firer.prof.shots * (2 if firer.ability == FULL_METAL_JACKET else 1)


def standing(firer: Fig, target: Fig) -> bool:
    """Whether another shot of the action goes off: firer and target still on the table."""
    return firer.where == "table" and target.where == "table"


def one_shot(
    ref: Referee,
    s: State,
    firer: Fig,
    target: Fig,
    *,
    indirect: bool,
    hold: bool,
    point_blank: bool,
) -> None:
    """One shot: to hit, then the wound (two on a hitting double for engineers, snipers and
    tanks), a shot into a melee, or the burst of a grenade or missile where it lands."""
    plan = shot(s, firer, target, indirect=indirect)
    roll = ref.roll(
        RollRequest(plan.label(firer, target), dice=2, read=Read.AT_MOST, target=plan.needed)
    )
    prof = firer.prof
    if prof.template is not None:
        centre = target.pos
        if not roll.success:
            direction = ref.roll(RollRequest(f"deviation of {firer.id}'s {prof.template}", dice=2))
            dev = tables().deviation
            far = min(dev.maximum, max(dev.minimum, dev.per_point * (roll.total - plan.needed)))
            centre = wounds.deviate(centre, firer.pos, direction.total, far)
            ref.emit("deviation", f"it deviates {far} cm (direction {direction.total})")
            _out_of_ammo(ref, s, firer)
        wounds.burst(
            ref, s, centre, prof.template, f"{firer.id}'s {prof.template}", hold=hold, by=firer.id
        )
        if prof.goo:
            s.goo.append(Goo(centre[0], centre[1], s.turn + 1))
            ref.emit(
                "goo", f"acid goo lies at {centre[0]:.1f},{centre[1]:.1f} until turn {s.turn + 1}"
            )
        return
    if not roll.success:
        _out_of_ammo(ref, s, firer)
        return
    hit = target
    if engaged(s, target) and not point_blank:
        which = ref.roll(RollRequest(f"shot into the melee around {target.id} (5-6 wrong figure)"))
        if which.total >= 5:
            hit = _melee_opponent(s, target)
    damage = 2 if prof.double and len(set(roll.faces)) == 1 else 1
    wounds.wound(ref, s, hit, damage, f"{firer.id}'s fire", hold=hold, by=firer.id)


def _melee_opponent(s: State, target: Fig) -> Fig:
    """'with five or six will hit the opponent's target': the first figure fighting it."""
    for melee in s.melees:
        if melee.defender == target.id:
            return s.figs[melee.attackers[0]]
        if target.id in melee.attackers:
            return s.figs[melee.defender]
    return target


def _out_of_ammo(ref: Referee, s: State, firer: Fig) -> None:
    """HQs: with every HQ destroyed a figure runs out of ammo the first time it misses (not
    the AIs, the machina); insectoid shooters once every queen is dead — and they die."""
    if firer.ability == HAPPY_TRIGGER:
        return  # 'never out of ammo, even when all HQs are gone'
    mates = [f for f in s.figs.values() if f.side == firer.side and f.where == "table"]
    race = firer.race
    if race == "marines" and not any(f.prof.hq for f in mates):
        firer.out_of_ammo = True
        ref.emit("ammo", f"{firer.id} is out of ammo: no HQ is left to reload")
    elif race == "insectoids" and not any(f.prof.queen for f in mates):
        firer.out_of_ammo = True
        ref.emit("ammo", f"{firer.id} is out of ammo with every queen dead, and dies")
        wounds.kill(ref, s, firer, "running out of ammo")
