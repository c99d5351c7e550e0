"""4.0 Combat: to hit on 3d6 under DEX, 4.1 ranged and 4.2 close combat modifiers, 4.4
criticals, 4.5 damage, parry and riposte. Pure functions over the game's dice and log.

Rulings:

- C1 "the score must be under the modified DEX" is read as TFT's roll-under: 3d6 **at most**
  the modified DEX hits (DEX 12 hits on 12).
- C2 Modifiers are to the attribute (+3 short range raises DEX by 3). The dice request keeps
  the unmodified attribute as its target and applies each modifier to the roll with the
  opposite sign, which is the same test; the log names each one as "(+3 DEX)".
- C3 Criticals (4.4) go by the natural 3d6 total: 3–5 always hit, 16–18 always miss,
  whatever the modifiers. The same natural 3–5 success / 16–18 failure holds for every other
  3d6 attribute roll of the ruleset (INT to un-jam, DEX to parry, LDR for morale); the
  rulebook gives the bands for to-hit rolls only, and applying them everywhere means no
  roll is ever certain.
- C4 A grenade cannot jam: a thrown 16 or 17 is an automatic miss (it scatters, 6.3), an 18
  explodes in the thrower's hand. In close combat 16 is an automatic miss, 17 drops the
  weapon, 18 breaks it (it then counts as Improvised).
- C5 "Additional Auto Wep target" lost its value. It is its own row of 4.1, so it is read as
  a modifier of its own that stacks with "Additional Target": an automatic weapon's burst
  swept onto a further target takes −2 (Additional Target) and −2 more (Additional Auto Wep
  target), −4 in all, within 4" of the previous target. `additional_auto_target` needs an
  automatic weapon and `additional_target`. A further target is not possible with a snap
  shot ("only 1 shot per round") or a one-shot weapon.
- C6 Extreme range (−6) has no maximum in the rulebook; none is enforced (grenades included).
- C7 Damage: each die is reduced first (6.4 cover: not below 0), then summed, doubled, then
  halved rounded down. Doubling does not stack (a charge that rolls a critical 4 is ×2).
  A critical 3 kills outright: no damage is rolled for it.
- C8 Damage (4.5) is compared with the target's STR as it stands — halved if wounded ("all
  target's attributes are halved"); each damage roll is compared on its own (not summed).
  Exactly half STR is a wound; odd STR compares exactly (STR 11: 5 wounds, 6 incapacitates).
- C9 Wounded attributes are halved rounded down (every 2.0 value is even, so this only
  matters for authored profiles).
- C10 Parry (4.0) needs a weapon that can parry in hand — the table's Attached Bayonet and
  Rifle Butt/Club (the table is more specific than "a rifle in his hand") — and the Close
  combat action. Any close combat hit can be parried, criticals included.
- C11 Close combat is attacked with the Charge, Close combat or Pivot action ("can make any
  combat"); a charger takes −3 and doubles damage on a hit but can neither parry nor riposte.
- C12 The exchange: attack → (parry?) → damage; on a miss, if the defender chose Close combat
  and holds a close combat weapon: riposte → (parry by the attacker?) → damage. A riposte
  earns no riposte. An attacker whose weapon was dropped (17) or broken (18) cannot parry it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from warbench.core.dice import Modifier, Read, Roll, RollRequest
from warbench.rulesets.tftww2.profiles import (
    AttackKind,
    CharacterProfile,
    Critical,
    WeaponProfile,
    combat_tables,
)

__all__ = [
    "ActionName",
    "AttackKind",
    "Blow",
    "Cover",
    "Critical",
    "Effect",
    "Fighter",
    "HitResult",
    "NotPossible",
    "Referee",
    "attribute_request",
    "attribute_test",
    "can_parry",
    "can_riposte",
    "clear_jam",
    "close_combat_exchange",
    "close_combat_modifiers",
    "damage_effect",
    "parry",
    "ranged_modifiers",
    "roll_damage",
    "to_hit",
    "wounded_attributes",
]

Cover = Literal["none", "soft", "hard"]
Effect = Literal["none", "wounded", "incapacitated", "dead"]
# 3.0 Movement: the actions a man chooses each round.
ActionName = Literal[
    "run",
    "walk_and_snap_shot",
    "flee",
    "charge",
    "change_position",
    "pivot",
    "aim",
    "disengage",
    "action",
    "close_combat",
]

NATURAL_SUCCESS = frozenset({3, 4, 5})
NATURAL_FAILURE = frozenset({16, 17, 18})
CLOSE_COMBAT_ATTACKS: frozenset[ActionName] = frozenset({"charge", "close_combat", "pivot"})


class NotPossible(ValueError):
    """The rules do not allow this (NP): `reason` says why, in a player's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Referee(Protocol):
    """What rules code needs of the game: its dice and its log."""

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        """Roll through the game's dice, logged."""
        ...

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Log an event."""
        ...


@dataclass(frozen=True)
class HitResult:
    """A to-hit roll: hit or not, the 4.4 critical if any, the natural 3d6 total."""

    hit: bool
    critical: Critical | None
    total: int


def ranged_modifiers(
    *,
    weapon: WeaponProfile,
    distance: float,
    aimed: bool = False,
    snap_shot: bool = False,
    target_prone: bool = False,
    target_moved_fast: bool = False,
    cover: Cover = "none",
    full_cover: bool = False,
    target_shot_last_round: bool = False,
    additional_target: bool = False,
    additional_auto_target: bool = False,
    distance_from_previous: float | None = None,
) -> list[Modifier]:
    """4.1 Ranged weapon modifiers to DEX (C5, C6); raises NotPossible for an NP shot."""
    table = combat_tables().ranged_modifiers
    name = weapon.name
    if weapon.melee or weapon.effective_range is None:
        raise NotPossible(f"{name} is a close combat weapon: it cannot make a ranged attack")
    if distance < 0:
        raise ValueError(f"distance must not be negative, got {distance}")
    if aimed and snap_shot:
        raise NotPossible("a shot is either aimed (Aim action) or a snap shot, not both")
    if aimed and weapon.automatic:
        raise NotPossible(f"Aim action: no automatic weapons, and the {name} is automatic")
    if snap_shot and weapon.snap_shot is None:
        raise NotPossible(f"the {name} cannot make a snap shot (NP)")
    if full_cover and cover == "none":
        raise ValueError("full_cover needs cover 'soft' or 'hard'")
    if additional_auto_target and not additional_target:
        raise ValueError("additional_auto_target is a further target: set additional_target too")
    if additional_target:
        _check_further_target(weapon, snap_shot, additional_auto_target, distance_from_previous)

    mods: list[Modifier] = []
    if distance <= table.short_range_within:
        mods.append((f'short range (within {table.short_range_within:g}")', table.short_range))
    if distance > weapon.effective_range:
        mods.append((f'extreme range (beyond {weapon.effective_range}")', table.extreme_range))
    if aimed:
        mods.append(("aimed shot", table.aimed_shot))
    if target_moved_fast:
        mods.append(("target moved fast", table.target_moved_fast))
    if additional_auto_target:
        mods.append(("additional auto weapon target", table.additional_auto_target))
    if snap_shot and weapon.snap_shot:
        mods.append((f"snap shot ({name})", weapon.snap_shot))
    if target_prone:
        mods.append(("target prone", table.target_prone))
    if cover != "none":
        full = full_cover and not target_shot_last_round
        value = _cover_value(cover, full)
        mods.append((f"target in {'full ' if full else ''}{cover} cover", value))
    if additional_target:
        mods.append(("additional target", table.additional_target))
    return mods


def _check_further_target(
    weapon: WeaponProfile, snap_shot: bool, auto: bool, distance_from_previous: float | None
) -> None:
    within = combat_tables().ranged_modifiers.additional_target_within
    if auto and not weapon.automatic:
        raise NotPossible(f"the {weapon.name} is not automatic: no additional auto weapon target")
    if snap_shot:
        raise NotPossible("Walk and Snap Shot: only 1 shot per round, so no additional target")
    if weapon.shots < 2:
        raise NotPossible(f"the {weapon.name} fires 1 shot per round: no additional target")
    if distance_from_previous is None:
        raise ValueError("an additional target needs distance_from_previous")
    if distance_from_previous > within:
        shown = math.ceil(distance_from_previous * 10) / 10  # up: 4.01" never reads 4.0"
        raise NotPossible(
            f'an additional target must be within {within:g}" of the previous target '
            f'(this one is {shown:g}")'
        )


def _cover_value(cover: Literal["soft", "hard"], full: bool) -> int:
    table = combat_tables().ranged_modifiers
    if not full:
        return table.soft_cover if cover == "soft" else table.hard_cover
    value = table.soft_full_cover if cover == "soft" else table.hard_full_cover
    if value is None:
        raise NotPossible(
            f"the target is in full {cover} cover and did not shoot last round: "
            "it cannot be shot at (NP)"
        )
    return value


def attribute_request(
    label: str, attribute: str, value: int, modifiers: Sequence[Modifier] = ()
) -> RollRequest:
    """3d6 at most `attribute` `value` as modified (C1, C2); natural 3–5 / 16–18 decide (C3)."""
    return RollRequest(
        label=f"{label} [{attribute} {value}]",
        dice=3,
        read=Read.AT_MOST,
        target=value,
        modifiers=tuple((f"{reason} ({v:+d} {attribute})", -v) for reason, v in modifiers),
        always_succeed=NATURAL_SUCCESS,
        always_fail=NATURAL_FAILURE,
    )


def attribute_test(
    ref: Referee, label: str, attribute: str, value: int, modifiers: Sequence[Modifier] = ()
) -> bool:
    """Roll an attribute test: 3d6 at most the modified attribute (C1–C3)."""
    return bool(ref.roll(attribute_request(label, attribute, value, modifiers)).success)


def to_hit(
    ref: Referee,
    label: str,
    dex: int,
    modifiers: Sequence[Modifier] = (),
    *,
    attack: AttackKind = "ranged",
) -> HitResult:
    """4.0 to hit: 3d6 at most the modified DEX; 4.4 criticals on the natural total (C1–C4)."""
    roll = ref.roll(attribute_request(label, "DEX", dex, modifiers))
    natural = sum(roll.faces)
    tables = combat_tables()
    critical = tables.criticals[attack].get(natural)
    if critical is not None:
        ref.emit("critical", f"{label}: natural {natural}, {tables.critical_text[critical]}")
    return HitResult(bool(roll.success), critical, natural)


def clear_jam(ref: Referee, label: str, int_: int, hard: bool) -> bool:
    """4.4 un-jam (an Action): 3d6 at most INT, or INT −4 after a critical 18 (C3)."""
    mods: list[Modifier] = [("hard jam (critical 18)", -4)] if hard else []
    return attribute_test(ref, label, "INT", int_, mods)


def roll_damage(
    ref: Referee,
    label: str,
    dice: int,
    *,
    double: bool = False,
    halve: bool = False,
    reduction_per_die: int = 0,
) -> int:
    """4.5 damage: `dice` d6 summed; 6.4 cover reduces each die (not below 0); ×2 for a
    charge or critical 4; halved rounded down when scattered or HE on soft targets (C7)."""
    if dice < 1:
        raise ValueError(f"{label}: damage needs at least one die, got {dice}")
    if reduction_per_die < 0:
        raise ValueError(f"{label}: reduction_per_die must not be negative")
    roll = ref.roll(RollRequest(label=label, dice=dice))
    kept = [max(0, face - reduction_per_die) for face in roll.faces]
    damage = sum(kept)
    text = f"{label}: {'+'.join(map(str, roll.faces))}"
    if reduction_per_die:
        text += f", -{reduction_per_die} per die → {'+'.join(map(str, kept))}"
    text += f" = {damage}"
    if double:
        damage *= 2
        text += f", doubled = {damage}"
    if halve:
        damage //= 2
        text += f", halved = {damage}"
    ref.emit("damage", text)
    return damage


def damage_effect(damage: int, strength: int, wounded: bool) -> Effect:
    """4.5: 0 nothing; up to ½ STR wounded (already wounded: incapacitated); over ½ STR up
    to STR incapacitated; more than STR dead. `strength` is the current STR (C8)."""
    if damage < 0:
        raise ValueError(f"damage must not be negative, got {damage}")
    if strength < 1:
        raise ValueError(f"strength must be at least 1, got {strength}")
    if damage == 0:
        return "none"
    if 2 * damage <= strength:
        return "incapacitated" if wounded else "wounded"
    if damage <= strength:
        return "incapacitated"
    return "dead"


def wounded_attributes(profile: CharacterProfile) -> CharacterProfile:
    """4.5 wounded: all attributes halved, rounded down (C9)."""
    return profile.model_copy(
        update={
            "strength": profile.strength // 2,
            "intelligence": profile.intelligence // 2,
            "dexterity": profile.dexterity // 2,
            "leadership": profile.leadership // 2,
            "movement": profile.movement // 2,
        }
    )


def close_combat_modifiers(charging: bool) -> list[Modifier]:
    """4.2: charging into combat −3 (and double damage if it hits, C11)."""
    if not charging:
        return []
    return [("charging into combat", combat_tables().close_combat_modifiers.charging)]


def can_parry(weapon: WeaponProfile | None, action: ActionName) -> bool:
    """4.0: a weapon that can parry in hand and the Close combat action (C10)."""
    return weapon is not None and weapon.can_parry and action == "close_combat"


def can_riposte(weapon: WeaponProfile | None, action: ActionName) -> bool:
    """4.0 / 3.0: a riposte needs a close combat weapon and the Close combat action."""
    return weapon is not None and weapon.melee and action == "close_combat"


def parry(ref: Referee, label: str, dex: int) -> bool:
    """4.0 parry: a successful DEX roll (3d6 at most DEX, C3); check `can_parry` first."""
    return attribute_test(ref, label, "DEX", dex)


@dataclass(frozen=True)
class Fighter:
    """One side of a close combat: current DEX (halved if wounded), weapon in hand, action."""

    name: str
    dex: int
    weapon: WeaponProfile | None
    action: ActionName


@dataclass(frozen=True)
class Blow:
    """One close combat attack or riposte and what came of it (damage 0 unless it landed)."""

    striker: str
    target: str
    riposte: bool
    hit: HitResult
    parried: bool
    damage: int

    @property
    def lands(self) -> bool:
        """Hit and not parried."""
        return self.hit.hit and not self.parried

    @property
    def killed(self) -> bool:
        """A critical 3 that landed: the target is killed instantly (C7)."""
        return self.lands and self.hit.critical == "killed"


def close_combat_exchange(
    ref: Referee, attacker: Fighter, defender: Fighter, *, riposte: bool = True
) -> list[Blow]:
    """4.0 / 4.2 one close combat attack with its parry and riposte, in order (C10–C12).

    `riposte=False` when the defender declines the riposte the rules offer. The engine
    applies each blow's damage with `damage_effect`, and drops or breaks weapons on 17 / 18.
    """
    if attacker.action not in CLOSE_COMBAT_ATTACKS:
        raise NotPossible(
            f"{attacker.name} chose {attacker.action}: close combat needs Charge, "
            "Close combat or Pivot"
        )
    if attacker.weapon is None or not attacker.weapon.melee:
        raise NotPossible(f"{attacker.name} has no close combat weapon in hand")
    charging = attacker.action == "charge"
    first = _blow(
        ref,
        attacker,
        defender,
        close_combat_modifiers(charging),
        double=charging and combat_tables().close_combat_modifiers.charging_doubles_damage,
        may_parry=can_parry(defender.weapon, defender.action),
        is_riposte=False,
    )
    blows = [first]
    if first.hit.hit or not riposte or not can_riposte(defender.weapon, defender.action):
        return blows
    disarmed = first.hit.critical in ("dropped", "broken")
    blows.append(
        _blow(
            ref,
            defender,
            attacker,
            [],
            double=False,
            may_parry=not disarmed and can_parry(attacker.weapon, attacker.action),
            is_riposte=True,
        )
    )
    return blows


def _blow(
    ref: Referee,
    striker: Fighter,
    target: Fighter,
    mods: list[Modifier],
    *,
    double: bool,
    may_parry: bool,
    is_riposte: bool,
) -> Blow:
    weapon = striker.weapon
    assert weapon is not None
    kind = "riposte" if is_riposte else "close combat"
    hit = to_hit(ref, f"{kind}: {striker.name} → {target.name}", striker.dex, mods, attack="close")
    parried = False
    damage = 0
    if hit.hit:
        if may_parry:
            parried = parry(ref, f"parry: {target.name} against {striker.name}", target.dex)
        if not parried and hit.critical != "killed":
            damage = roll_damage(
                ref,
                f"damage: {striker.name} ({weapon.name}) → {target.name}",
                weapon.damage_dice,
                double=double or hit.critical == "double_damage",
            )
    return Blow(striker.name, target.name, is_riposte, hit, parried, damage)
