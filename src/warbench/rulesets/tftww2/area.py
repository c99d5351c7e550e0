"""6.0 Thrown weapons (grenades): the template placed before the roll (DEX of the
thrower), scatter on a miss, every base it touches attacked, cover reductions (6.1–6.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.core.geometry import Base, bearing
from warbench.core.terrain import Trait
from warbench.rulesets.tftww2 import terrain
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.damage import apply_damage
from warbench.rulesets.tftww2.indirect import (
    area_damage,
    hard_cover_toward_centre,
    indirect_modifiers,
    indirect_weapon,
    resolve_indirect,
    scatter,
    template,
    touched,
)
from warbench.rulesets.tftww2.state import Man

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame


def throw_grenade(game: TFTGame, man: Man, at: tuple[float, float]) -> None:
    """Throw one grenade at a point; on a miss it scatters and does half damage; a
    critical 18 explodes in the thrower's hand."""
    weapon = indirect_weapon("grenade")
    man.grenades -= 1
    man.shots += 1
    man.fired_this_round = True
    label = f"grenade: {man.id} → {at[0]:g},{at[1]:g}"
    mods = indirect_modifiers(
        firer_under_fire=man.under_fire_last_round, spotter_under_fire=False, through_window=False
    )
    result = resolve_indirect(
        game, label, attributes(man).dexterity, mods, off_table=False, thrown=True
    )
    centre = at
    scattered = False
    if result.outcome == "explodes in hand":
        centre = (man.x, man.y)
    elif result.outcome not in ("hit", "auto hit"):
        dx, dy = scatter(game, label, "thrown", bearing((man.x, man.y), at))
        centre, scattered = (at[0] + dx, at[1] + dy), True
    explode(game, centre, weapon.damage_dice or 0, weapon.area, scattered, label)


def explode(
    game: TFTGame, centre: tuple[float, float], dice: int, area: float, scattered: bool, label: str
) -> None:
    """Every base the template touches takes the weapon's damage, less cover (6.4)."""
    shape = template(centre, area)
    men = {m.id: Base((m.x, m.y), 1.0) for m in game.state.men.values() if m.active}
    hard = [p.area for p in game.table.pieces if p.has(Trait.HARD_COVER)]
    game.emit("blast", f"{label}: explodes at {centre[0]:.1f},{centre[1]:.1f}")
    for man_id in touched(shape, men):
        target = game.state.men[man_id]
        target.under_fire = True
        damage = area_damage(
            game,
            f"{label} → {man_id}",
            dice,
            scattered=scattered,
            hard_cover_toward_centre=hard_cover_toward_centre(men[man_id], centre, hard),
            in_intact_building=terrain.inside_building(game.table, target) is not None,
        )
        apply_damage(game, target, damage)
