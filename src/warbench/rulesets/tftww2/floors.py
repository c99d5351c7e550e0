"""Floors and windows of buildings (ours: 7.0 counts a building's hit points "per floor" and
6.2 gives "throwing through window -6", but the rulebook says nothing more of either).

Rulings (docs/rules/tftww2.md):

- F1 A building has its scenario's floors (1-4); a man inside stands on one of them (0 is the
  ground floor, where everyone outside is). Climbing or going down the stairs one floor is a
  man's action for the turn (`climb`): standing, inside a building that has not collapsed
  (its floors are rubble), onto a spot no man on that floor holds; no combat that turn. A man
  upstairs moves only within his building (climb down first) and, fleeing, spends his turn
  coming down one floor, as a prone man spends his getting up (TFT-R1a).
- F2 Windows are points on a building's walls (the scenario's, or one in the middle of every
  wall); every floor has them at the same places. Sight between inside and outside passes the
  wall within 1" of a window (terrain.py).
- F3 Men on different floors of a building do not see each other, and only men on the same
  floor are in base contact (close combat, charges, disengaging); only men on the ground
  floor close assault an AFV.
- F4 A thrown weapon (grenade, flame thrower) that passes a building's wall - thrown from
  inside out, from outside in, or from one building into another - must pass a window on its
  line and takes 6.2's -6 once. Indirect fire falls from above (no window).
- F5 A thrown weapon bursts on one floor: the thrower's own when he throws within his
  building, else the ground floor; it touches only the men on that floor (men outside are on
  the ground floor). Indirect fire and an AFV's HE touch every floor (6.4's -6 a die inside
  an intact building). A collapse incapacitates everyone inside, on every floor (7.0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.tftww2 import terrain
from warbench.rulesets.tftww2.state import Man

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame


def floors_at(game: TFTGame, man: Man) -> int:
    """How many floors the building he stands in has (1 outside or in a collapsed one)."""
    name = terrain.inside_building(game.table, man)
    if name is None or name in game.state.collapsed:
        return 1
    return game.table.specs[name].floors


def climb_problem(game: TFTGame, man: Man, floor: int) -> str | None:
    """F1: why `man` may not climb (or go down) to `floor` now."""
    floors = floors_at(game, man)
    if floors == 1:
        return f"{man.id} is not inside a building with an upper floor"
    if not 0 <= floor < floors or abs(floor - man.floor) != 1:
        return (
            f"{man.id} is on floor {man.floor} of {floors} (0 the ground floor): he climbs or "
            f"goes down one floor"
        )
    if man.stance == "prone":
        return f"{man.id} is prone: change position first (position {man.id})"
    holder = next(
        (
            m
            for m in game.state.men.values()
            if m is not man and m.active and m.floor == floor and m.distance(man) < 1 - 1e-6
        ),
        None,
    )
    if holder is not None:
        return f"{holder.id} holds that spot on floor {floor}"
    return None


def leaving_problem(game: TFTGame, man: Man, to: tuple[float, float]) -> str | None:
    """F1: a man upstairs moves only within his building."""
    if man.floor == 0:
        return None
    home = terrain.inside_building(game.table, man)
    if terrain.building_at(game.table, *to) != home:
        return f"{man.id} is on floor {man.floor} of the {home}: climb down before leaving it"
    return None


def through_wall(game: TFTGame, man: Man, at: tuple[float, float]) -> bool:
    """F4: whether a throw from `man` to `at` passes a building's wall."""
    table = game.table
    return terrain.inside_building(table, man) != terrain.building_at(table, *at)


def window_problem(game: TFTGame, man: Man, at: tuple[float, float]) -> str | None:
    """F4: a throw that passes a building's wall must pass a window on its line."""
    if through_wall(game, man, at) and not terrain.through_windows(game.table, (man.x, man.y), at):
        return f"no window on the line from {man.id} to {at[0]:g},{at[1]:g} (F4)"
    return None


def burst_floor(game: TFTGame, man: Man, at: tuple[float, float]) -> int:
    """F5: the floor a thrown weapon bursts on."""
    home = terrain.inside_building(game.table, man)
    return man.floor if home is not None and terrain.building_at(game.table, *at) == home else 0
