"""4.5 Damage: the damage roll against the target's STR — wounded (attributes halved; a
second wound incapacitates), incapacitated, or dead; with 4.4's critical results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.combat import damage_effect, roll_damage
from warbench.rulesets.tftww2.state import Man

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame


def hit_man(
    game: TFTGame,
    target: Man,
    dice: int,
    *,
    critical: str | None,
    by: str,
    double: bool = False,
    halve: bool = False,
    reduction: int = 0,
) -> None:
    """Apply one hit of `dice` damage dice to a man, against his current STR."""
    if critical == "killed":
        fall(game, target, "dead", f"{target.id} is killed instantly (critical 3)")
        return
    damage = roll_damage(
        game,
        f"damage: {by} → {target.id} ({dice}d6)",
        dice,
        double=double or critical == "double_damage",
        halve=halve,
        reduction_per_die=reduction,
    )
    apply_damage(game, target, damage)


def apply_damage(game: TFTGame, target: Man, damage: int) -> None:
    """Compare damage with the target's current STR (4.5)."""
    strength = attributes(target).strength
    effect = damage_effect(damage, strength, target.wounded)
    why = f" ({_reading(damage, strength, target.wounded)})"
    if effect == "none":
        game.emit("damage", f"{target.id} takes no harm{why}")
    elif effect == "wounded":
        target.wounded = True
        game.emit("wounded", f"{target.id} is wounded: his attributes are halved{why}")
    else:
        fall(game, target, effect, f"{target.id} is {effect}{why}")


def _reading(damage: int, strength: int, wounded: bool) -> str:
    """The line of 4.5 that `damage_effect` applied, for the log: the referee sees the
    damage against the man's current STR, not only its outcome."""
    if damage == 0:
        band = "no damage"
    elif 2 * damage <= strength:
        band = "up to half STR, and he was already wounded" if wounded else "up to half STR"
    elif damage <= strength:
        band = "over half STR, up to STR"
    else:
        band = "more than STR"
    return f"damage {damage} against STR {strength}: {band}"


def fall(game: TFTGame, man: Man, status: str, text: str) -> None:
    """A man out of the fight: his squad counts the loss; a CO's fall shakes his side."""
    man.status = status
    squad = game.state.squads[man.squad]
    squad.lost_this_round += 1
    squad.casualties += 1
    if man.rank == "CO":
        for other in game.state.squads.values():
            if other.side == man.side:
                other.co_lost = True
    game.emit(status, text)
