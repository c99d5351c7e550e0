"""4.0–4.1 Ranged combat: who may shoot (by his action), at what, and each shot resolved:
3d6 against the modified DEX, criticals, damage against STR (4.4, 4.5).

Rulings: shots beyond effective range are allowed at −6 up to three times that range
(TFT-R4); a man may fire his weapon's shots per round (one snap shot when walking, or when
aiming only at the aimed-at man) (TFT-R5).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from warbench.core.geometry import bearing, turn_between
from warbench.core.words import counted
from warbench.rulesets.tftww2 import floors, terrain
from warbench.rulesets.tftww2.actions import Fire, Throw, maker
from warbench.rulesets.tftww2.area import throw_grenade
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.combat import NotPossible, ranged_modifiers, to_hit
from warbench.rulesets.tftww2.damage import hit_man
from warbench.rulesets.tftww2.profiles import combat_tables, weapon_profile
from warbench.rulesets.tftww2.state import MAN_BASE, Man

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame

MAX_RANGE_FACTOR = 3
ADDITIONAL_TARGET_REACH = 4.0
FAST = 6.0
FRONT_ARC = 90.0  # half-width: a man fires into the half circle he faces (ruling TFT-R17)
_MAKE_FIRE, _MAKE_THROW = maker(Fire), maker(Throw)  # quick makers (`actions.maker`)


def gap(a: Man, b: Man) -> float:
    """Range base edge to base edge (ARCHITECTURE: distances are edge to edge)."""
    return max(0.0, a.distance(b) - MAN_BASE)


def shots_allowed(man: Man) -> int:
    """Shots this turn by action: walking gives one snap shot; pivot and aim the weapon's."""
    weapon = weapon_profile(man.weapon)
    if man.action == "walk":
        return 1 if weapon.snap_shot is not None else 0
    if man.action in ("pivot", "aim"):
        return weapon.shots
    return 0


def may_fire(man: Man) -> bool:
    """Whether he has a shot left this turn and a weapon that works (`shot_problem` says
    the rest): lets the candidates skip a man who cannot fire at anyone."""
    return man.shots < shots_allowed(man) and not man.jam


def may_throw(man: Man) -> bool:
    """Whether he has a grenade and his throw of the turn left (`_throw_problem`)."""
    return man.grenades > 0 and man.shots < 1 and man.action in ("walk", "pivot", "aim")


def shot_problem(game: TFTGame, man: Man, action: Fire | Throw) -> str | None:
    """Why `man` may not make this shot or throw now, or None."""
    if isinstance(action, Throw):
        return _throw_problem(game, man, action)
    allowed = shots_allowed(man)
    if man.shots >= allowed:
        return (
            f"{man.id} ({man.action or 'no action'}) may fire {counted(allowed, 'shot')} this turn "
            f"and has fired {man.shots}"
        )
    if man.jam:
        return f"{man.id}'s {man.weapon} is jammed (unjam {man.id} next turn)"
    target = game.state.men.get(action.target)
    if target is None or target.side == man.side or not target.active:
        return f"'{action.target}' is not an enemy in the fight"
    if man.action == "aim" and target.id != man.aim_target:
        return f"{man.id} aimed at {man.aim_target} and may fire only at him"
    weapon = weapon_profile(man.weapon)
    assert weapon.effective_range is not None
    distance = gap(man, target)
    if distance > MAX_RANGE_FACTOR * weapon.effective_range:
        return (
            f'{target.id} is {distance:.1f}" away, beyond {MAX_RANGE_FACTOR}x the '
            f"{man.weapon}'s {weapon.effective_range}\""
        )
    off = turn_between(man.facing, bearing((man.x, man.y), (target.x, target.y)))
    if off > FRONT_ARC:
        return (
            f"{target.id} is {off:.0f}° off {man.id}'s facing; he fires into his front "
            f"{2 * FRONT_ARC:g}° (pivot to face him)"
        )
    if not terrain.sees(game.table, man, target):
        return f"{man.id} cannot see {target.id}"
    try:
        shot_modifiers(game, man, target)
    except NotPossible as err:
        return str(err)
    return None


def legal_fire(game: TFTGame, man: Man, enemies: list[Man]) -> list[Fire]:
    """The shots at `enemies` (enemy men in the fight) that `shot_problem` allows `man`, in
    their order: his shots left, weapon and aim checked once, then each target's range,
    bearing and sight by `shot_problem`'s tests, and whether `ranged_modifiers` finds the
    shot not possible by its own conditions (an aimed shot with an automatic weapon, a snap
    shot with a weapon that has none, an additional target after a snap shot, with a single
    shot weapon or too far from the last, a target in full cover that has no modifier) rather
    than by working out every modifier. The answer is kept by all it reads (his shots,
    action, aim, weapon, place, facing and floor, the last man he fired at and where that
    man stands, each target's place, floor, stance and firing): in a ranged step the AI
    asks again after every shot, and a sweep's games go over the same ground."""
    if man.shots >= shots_allowed(man) or man.jam:
        return []
    previous = _previous(game, man)
    key: tuple[object, ...] = (id(game.table), man.id, man.shots, man.action, man.aim_target)
    key += (man.weapon, man.x, man.y, man.facing, man.floor)
    key += (None,) if previous is None else (previous.id, previous.x, previous.y)
    key += tuple(map(_TARGET_READ, enemies))
    found = _LEGAL_FIRE.get(key)
    if found is None:
        if len(_LEGAL_FIRE) >= 20_000:
            _LEGAL_FIRE.clear()
        found = _LEGAL_FIRE[key] = tuple(_legal_fire(game, man, enemies, previous))
    return list(found)


_LEGAL_FIRE: dict[tuple[object, ...], tuple[Fire, ...]] = {}
_TARGET_READ = operator.attrgetter(
    "id", "x", "y", "floor", "stance", "fired_last_round", "fired_this_round"
)  # what `legal_fire` reads of each target


def _legal_fire(game: TFTGame, man: Man, enemies: list[Man], previous: Man | None) -> list[Fire]:
    """`legal_fire` worked out (he has shots left and his weapon works)."""
    weapon = weapon_profile(man.weapon)
    assert weapon.effective_range is not None
    aiming, snapping = man.action == "aim", man.action == "walk"
    if weapon.melee or (aiming and weapon.automatic) or (snapping and weapon.snap_shot is None):
        return []  # `ranged_modifiers` finds every shot of his not possible
    reach = MAX_RANGE_FACTOR * weapon.effective_range
    here, table = (man.x, man.y), game.table
    further = snapping or weapon.shots < 2  # no additional target (`_check_further_target`)
    tables = combat_tables().ranged_modifiers
    within = tables.additional_target_within
    legal: list[Fire] = []
    for target in enemies:
        if (
            (aiming and target.id != man.aim_target)
            or gap(man, target) > reach
            or turn_between(man.facing, bearing(here, (target.x, target.y))) > FRONT_ARC
            or not terrain.sees(table, man, target)
            or (
                previous is not None
                and previous.id != target.id
                and (further or gap(target, previous) > within)
            )
        ):
            continue
        if not (target.fired_last_round or target.fired_this_round) and terrain.full_cover(
            table, target, man
        ):  # `_cover_value`: full cover the table gives no modifier for cannot be shot at
            cover = terrain.cover(table, target, man)
            full = tables.soft_full_cover if cover == "soft" else tables.hard_full_cover
            if cover != "none" and full is None:
                continue
        legal.append(_MAKE_FIRE(man.id, target.id))
    return legal


def legal_throws(game: TFTGame, man: Man, enemies: list[Man]) -> list[Throw]:
    """The grenades thrown at `enemies` (at each one's centre, to the hundredth of an inch)
    that `_throw_problem` allows `man`, in their order: his grenades and throw of the turn
    checked once, then each point's reach and window. Those depend on the table and where
    he and the enemies stand alone, so the throws are kept by them (the AI asks again after
    every shot of a ranged step)."""
    if not may_throw(man):
        return []
    key = (id(game.table), man.id, man.x, man.y, *map(_PLACE, enemies))
    found = _LEGAL_THROWS.get(key)
    if found is None:
        reach = weapon_profile("Grenade").effective_range or 0
        legal: list[Throw] = []
        for enemy in enemies:
            at = (round(enemy.x, 2), round(enemy.y, 2))
            distance = ((at[0] - man.x) ** 2 + (at[1] - man.y) ** 2) ** 0.5
            if distance <= reach and floors.window_problem(game, man, at) is None:
                legal.append(_MAKE_THROW(man.id, at))
        if len(_LEGAL_THROWS) >= 20_000:
            _LEGAL_THROWS.clear()
        found = _LEGAL_THROWS[key] = tuple(legal)
    return list(found)


_LEGAL_THROWS: dict[tuple[object, ...], tuple[Throw, ...]] = {}
_PLACE = operator.attrgetter("x", "y")


def _previous(game: TFTGame, man: Man) -> Man | None:
    return game.state.men.get(man.last_target or "")


def shot_modifiers(game: TFTGame, man: Man, target: Man) -> list[tuple[str, int]]:
    """4.1 modifiers of a shot by `man` at `target` as things stand (NotPossible if none)."""
    weapon = weapon_profile(man.weapon)
    previous = _previous(game, man)
    additional = previous is not None and previous.id != target.id
    return ranged_modifiers(
        distance=gap(man, target),
        weapon=weapon,
        aimed=man.action == "aim",
        snap_shot=man.action == "walk",
        target_prone=target.stance == "prone",
        target_moved_fast=target.moved > FAST,
        cover=terrain.cover(game.table, target, man),
        full_cover=terrain.full_cover(game.table, target, man),
        target_shot_last_round=target.fired_last_round or target.fired_this_round,
        additional_target=additional,
        distance_from_previous=gap(target, previous) if additional and previous else None,
        additional_auto_target=additional and weapon.automatic,
    )


def shoot(game: TFTGame, man: Man, action: Fire | Throw) -> None:
    """Resolve one shot (or throw)."""
    if isinstance(action, Throw):
        throw_grenade(game, man, action.at)
        return
    target = game.state.men[action.target]
    modifiers = shot_modifiers(game, man, target)
    man.shots += 1
    man.last_target = target.id
    man.fired_this_round = True
    target.under_fire = True
    result = to_hit(
        game, f"to hit: {man.id} {man.weapon} → {target.id}", attributes(man).dexterity, modifiers
    )
    if result.critical in ("jam", "jam-hard"):
        man.jam = 1 if result.critical == "jam" else 2
        game.emit("jam", f"{man.id}'s {man.weapon} jams")
    if not result.hit:
        game.emit("miss", f"{man.id} misses {target.id}")
        return
    weapon = weapon_profile(man.weapon)
    hit_man(game, target, weapon.damage_dice, critical=result.critical, by=man.id)


def _throw_problem(game: TFTGame, man: Man, action: Throw) -> str | None:
    if man.grenades <= 0:
        return f"{man.id} has no grenades"
    if man.shots >= 1 or man.action not in ("walk", "pivot", "aim"):
        return f"{man.id} may not throw now (his action is {man.action}; one throw a turn)"
    reach = weapon_profile("Grenade").effective_range or 0
    distance = ((action.at[0] - man.x) ** 2 + (action.at[1] - man.y) ** 2) ** 0.5
    if distance > reach:
        return f'a grenade is thrown up to {reach}"; that point is {distance:.1f}" away'
    return floors.window_problem(game, man, action.at)
