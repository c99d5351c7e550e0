"""HAND TO HAND COMBAT: opposed 1D6 with the listed modifiers; the higher inflicts 1, 2 or 3
wounds when superior, double or triple; several attackers roll separately and the defender
chooses which beaten attacker takes its wound; HQs, scanners, MTs and figures without actions
left deal no damage; insectoids attack with as many dice as actions left and defend with
their unused actions."""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.dice import Modifier, RollRequest
from warbench.core.words import noun
from warbench.rulesets.fftt.profiles import tables
from warbench.rulesets.fftt.state import BERSERK, FULL_METAL_JACKET, Fig, Melee, State
from warbench.rulesets.fftt.wounds import Referee


@dataclass(frozen=True)
class Beaten:
    """An attacker's die the defender beat, and the wounds the defender would deal it."""

    attacker: str
    wounds: int


def ratio_wounds(winner: int, loser: int) -> int:
    """'one, two or three wounds ... if the difference is superior, doubled or tripled'.
    A loser's score of 0 or less counts as tripled (ruling H3)."""
    if loser <= 0 or winner >= 3 * loser:
        return 3
    return 2 if winner >= 2 * loser else 1


_NUMBERS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _extra_combatants(extra: int) -> str:
    """The modifier's reason as the rulebook words it: 'two extra combatants'."""
    count = _NUMBERS[extra - 1] if extra <= len(_NUMBERS) else str(extra)
    return f"{count} extra {noun(extra, 'combatant')}"


def modifiers(fig: Fig, extra: int) -> tuple[Modifier, ...]:
    """The die modifiers of `fig` with `extra` other combatants on its side."""
    mods: list[Modifier] = []
    if fig.prof.hth:
        mods.append((f"being {fig.prof.name}", fig.prof.hth))
    if extra:
        mods.append((_extra_combatants(extra), extra * tables().hth_modifiers["extra_combatant"]))
    if fig.wounded:
        mods.append(("wounded", tables().hth_modifiers["wounded"]))
    if fig.veteran:
        mods.append(("veteran", tables().hth_modifiers["veteran"]))
    if fig.ability == BERSERK:
        mods.append(("berserk", 2))
    return tuple(mods)


def dice_for(fig: Fig) -> int:
    """Insectoids roll one die per action left (at least one); everyone else one die."""
    bites = 2 if fig.ability == FULL_METAL_JACKET else 1
    return max(1, fig.ap) * bites if fig.race == "insectoids" else bites


def deals_damage(fig: Fig) -> bool:
    """HQs, scanners and MTs, and figures without an action left, only defend."""
    return not fig.prof.no_damage_in_hth and fig.ap >= 1


def no_damage_reason(fig: Fig, answered: bool = False) -> str:
    """Why `fig` deals no wounds in hand to hand, for the log (a referee sees a winning
    score and no wounds otherwise)."""
    if answered:
        return "it shot its attacker instead of fighting"
    if fig.prof.no_damage_in_hth:
        return f"a {fig.prof.name} deals no damage in hand to hand"
    return "it has no action left"


def _beats(a: int, b: int, a_fig: Fig, b_fig: Fig) -> bool:
    """Whether score a beats score b; 'Elite: +1 only when there is a draw'."""
    return a > b or (a == b and a_fig.elite and not b_fig.elite)


def defence(ref: Referee, s: State, melee: Melee, answered: bool) -> tuple[int, int]:
    """The defender's roll: its best score, and how many wounds it may deal (its dice, if it
    deals damage at all; none when it answered the charge by shooting)."""
    defender = s.figs[melee.defender]
    d_damage = deals_damage(defender) and not answered
    d_dice = dice_for(defender)
    d_roll = ref.roll(
        RollRequest(
            f"hand to hand: {defender.id} defends", dice=d_dice, modifiers=modifiers(defender, 0)
        )
    )
    return max(d_roll.faces) + d_roll.request.modifier_total, (d_dice if d_damage else 0)


def assault(
    ref: Referee, s: State, melee: Melee, attacker: Fig, best: int
) -> tuple[list[str], list[Beaten]]:
    """One attacker's roll against the defender's best score: the wounds it deals the
    defender (its id repeated by wounds) and its dice the defender beat."""
    defender = s.figs[melee.defender]
    a_damage = deals_damage(attacker)
    roll = ref.roll(
        RollRequest(
            f"hand to hand: {attacker.id} attacks {defender.id}",
            dice=dice_for(attacker),
            modifiers=modifiers(attacker, len(melee.attackers) - 1),
        )
    )
    against: list[str] = []
    beaten: list[Beaten] = []
    wins = 0
    for face in roll.faces:
        score = face + roll.request.modifier_total
        if _beats(score, best, attacker, defender):
            wins += 1
            if a_damage:
                against += [attacker.id] * ratio_wounds(score, best)
        elif _beats(best, score, defender, attacker):
            beaten.append(Beaten(attacker.id, ratio_wounds(best, score)))
    if wins and not a_damage:
        ref.emit(
            "hand_to_hand",
            f"{attacker.id} beats {defender.id} but deals no wounds: {no_damage_reason(attacker)}",
        )
    return against, beaten


def fight(
    ref: Referee, s: State, melee: Melee, answered: bool
) -> tuple[list[str], list[Beaten], int]:
    """Roll one round. Returns the wounds the defender takes (one entry per attacker die that
    beat it, as attacker ids repeated by wounds), the attacker dice it beat, and how many
    wounds it may deal (its dice, if it deals damage at all)."""
    best, hits = defence(ref, s, melee, answered)
    attackers = [s.figs[a] for a in melee.attackers]
    against: list[str] = []
    beaten: list[Beaten] = []
    for attacker in attackers:
        dealt, lost = assault(ref, s, melee, attacker, best)
        against += dealt
        beaten += lost
    if beaten and not hits:
        defender = s.figs[melee.defender]
        ref.emit(
            "hand_to_hand",
            f"{defender.id} beats {len(beaten)} attacking dice but deals no wounds: "
            f"{no_damage_reason(defender, answered)}",
        )
    for fig in [s.figs[melee.defender], *attackers]:
        fig.ap = 0 if fig.race == "insectoids" else max(0, fig.ap - 1)
    return against, beaten, hits
