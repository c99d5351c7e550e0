"""4.0, 4.2 Close combat: men in base to base contact; charging −3 with double damage;
a hit by a close-combat weapon may be parried by a target with a rifle (bayonet or butt)
who chose Close combat; a miss lets the target riposte, and the riposte may be parried.

Rulings: men strike in their side's close combat step if their action was Charge, Close
combat or Pivot ("can make any combat") (TFT-R11); a man with a rifle fights with its
attached bayonet or butt, otherwise with his close weapon (TFT-R12); riposting needs the
Close combat action, as parrying does (TFT-R13).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.tftww2.actions import Strike
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.combat import can_parry, close_combat_modifiers, parry, to_hit
from warbench.rulesets.tftww2.damage import hit_man
from warbench.rulesets.tftww2.profiles import weapon_profile
from warbench.rulesets.tftww2.state import MAN_BASE, Man

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame

STRIKERS = ("charge", "fight", "pivot")


def close_weapon(man: Man) -> str:
    """The weapon a man strikes with: Improvised once his own is dropped or broken."""
    return "Improvised" if man.close_state != "ok" else man.close_weapon


def can_parry_now(man: Man) -> bool:
    """A parrying weapon in his hands (not dropped or broken) and the Close combat action."""
    weapon = weapon_profile(close_weapon(man))
    return man.action == "fight" and can_parry(weapon, "close_combat")


def strike_problem(game: TFTGame, man: Man, action: Strike) -> str | None:
    """Why `man` may not strike `action.target` now, or None."""
    if man.action not in STRIKERS:
        return f"{man.id}'s action ({man.action}) allows no close combat"
    if man.shots:
        return f"{man.id} has already struck this turn"
    target = game.state.men.get(action.target)
    if target is None or target.side == man.side or not target.active:
        return f"'{action.target}' is not an enemy in the fight"
    if man.distance(target) > MAN_BASE + 0.05 or target.floor != man.floor:
        return f"{target.id} is not in base to base contact with {man.id}"
    return None


def attack(game: TFTGame, attacker: Man, target: Man, *, charging: bool) -> bool:
    """One close-combat attack; returns whether it hit (parried hits do no damage)."""
    weapon = close_weapon(attacker)
    result = to_hit(
        game,
        f"close combat: {attacker.id} {weapon} → {target.id}",
        attributes(attacker).dexterity,
        close_combat_modifiers(charging),
        attack="close",
    )
    if result.critical == "dropped":
        attacker.close_state = "dropped"
        game.emit("dropped", f"{attacker.id} drops his {weapon}")
    elif result.critical == "broken":
        attacker.close_state = "broken"
        game.emit("broken", f"{attacker.id}'s {weapon} breaks")
    if not result.hit:
        game.emit("miss", f"{attacker.id} misses {target.id}")
        return False
    if can_parry_now(target) and parry(game, f"parry: {target.id}", attributes(target).dexterity):
        game.emit("parry", f"{target.id} parries")
        return True
    hit_man(
        game,
        target,
        weapon_profile(weapon).damage_dice,
        critical=result.critical,
        by=attacker.id,
        double=charging,
    )
    return True


def strike(game: TFTGame, man: Man, target: Man) -> None:
    """The active man strikes; after a miss the target may riposte (its player decides)."""
    man.shots += 1
    hit = attack(game, man, target, charging=man.action == "charge")
    if not hit and target.active and target.action == "fight":
        s = game.state
        s.step = {"attacker": man.id, "defender": target.id, "back": s.phase}
        s.phase, s.player = "riposte", target.side


def riposte(game: TFTGame, strikes: bool) -> None:
    """The defender's riposte (which the attacker may parry), then back to close combat."""
    s = game.state
    attacker, defender = s.men[s.step["attacker"]], s.men[s.step["defender"]]
    if strikes:
        game.emit("riposte", f"{defender.id} ripostes")
        attack(game, defender, attacker, charging=False)
    s.phase, s.player, s.step = s.step["back"], s.side, {}
