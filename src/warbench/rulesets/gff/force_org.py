"""PREPARATION: The Armies (equal points) and Force Org. (optional).

"The players put together two armies of equal points": `check_points` reads this as a
points limit both armies stay within (the usual way of playing equal points; the rulebook
recommends 200 pts to start and 300 pts for a full match).

"Force Org. (optional): Players may only bring up to 1 hero per 150pts in their army, and
only 1+X copies of the same unit, where X is 1 per 150pts in their army. No single unit may
be worth over 35% of total points, and armies may only have max. 1 unit per 30pts, and max.
1 model per full 20pts." `check_force_org` reports every limit an army breaks.

Rulings (ours):

- "per 150pts", "per 30pts" and "per full 20pts" all count only full steps of the game's
  points limit, rounding down: heroes ≤ ⌊limit/150⌋, copies ≤ 1 + ⌊limit/150⌋, units ≤
  ⌊limit/30⌋, models ≤ ⌊limit/20⌋. So 200 pts allow 1 hero, 2 copies, 6 units and 10
  models; 300 pts allow 2 heroes, 3 copies, 10 units and 15 models. The rulebook writes
  "1+X" where it wants a floor of one, and does not for heroes: below 150 pts, no heroes.
- "total points" (and "their army") is the game's points limit, not what the army happens
  to spend: the limits are the same for both players, and an army cannot raise its own
  limits by spending more. 35% of 200 pts is 70 pts; a unit of exactly 35% is allowed.
- A hero is a unit with the Hero rule; copies are units with the same profile name; models
  are the units' sizes added up.
"""

from __future__ import annotations

from collections import Counter

from warbench.core.words import counted
from warbench.rulesets.gff.profiles import ArmyList, UnitProfile

HERO_STEP = 150
COPY_STEP = 150
MAX_UNIT_SHARE_PERCENT = 35
UNIT_STEP = 30
MODEL_STEP = 20


def _check_limit(points_limit: int) -> None:
    if isinstance(points_limit, bool) or not isinstance(points_limit, int) or points_limit < 1:
        raise ValueError(
            f"the points limit must be a whole number of points >= 1, not {points_limit!r}"
        )


def _named(units: list[UnitProfile]) -> str:
    """'Warden Brothers ×2 (3 models, 60 pts each), Sentry Gun (1 model, 35 pts)'."""
    counts = Counter(u.name for u in units)
    first = {u.name: u for u in reversed(units)}
    parts = []
    for name, n in counts.items():
        unit = first[name]
        models = counted(unit.size, "model")
        each = " each" if n > 1 else ""
        times = f" ×{n}" if n > 1 else ""
        parts.append(f"{name}{times} ({models}, {unit.cost} pts{each})")
    return ", ".join(parts)


def max_heroes(points_limit: int) -> int:
    """Heroes allowed: 1 per full 150 pts."""
    return points_limit // HERO_STEP


def max_copies(points_limit: int) -> int:
    """Copies of one profile allowed: 1 + 1 per full 150 pts."""
    return 1 + points_limit // COPY_STEP


def max_unit_cost(points_limit: int) -> float:
    """The most one unit may cost: 35% of the limit."""
    return points_limit * MAX_UNIT_SHARE_PERCENT / 100


def max_units(points_limit: int) -> int:
    """Units allowed: 1 per full 30 pts."""
    return points_limit // UNIT_STEP


def max_models(points_limit: int) -> int:
    """Models allowed: 1 per full 20 pts."""
    return points_limit // MODEL_STEP


def check_force_org(army: ArmyList, points_limit: int) -> list[str]:
    """Every force organisation limit `army` breaks at `points_limit`, as messages."""
    _check_limit(points_limit)
    problems: list[str] = []
    units = list(army.units)
    label = f"{army.name} at {points_limit} pts"

    heroes = [u for u in units if u.has("Hero")]
    allowed = max_heroes(points_limit)
    if len(heroes) > allowed:
        problems.append(
            f"{label}: up to 1 hero per 150 pts allows {allowed} hero"
            f"{'es' if allowed != 1 else ''}, but the army has {len(heroes)}: {_named(heroes)}"
        )

    allowed = max_copies(points_limit)
    for name, n in Counter(u.name for u in units).items():
        if n > allowed:
            problems.append(
                f"{label}: 1+X copies of the same unit (X = 1 per 150 pts) allows {allowed} "
                f"copies, but the army has {n} copies of {name}"
            )

    ceiling = max_unit_cost(points_limit)
    over = [u for u in units if u.cost * 100 > MAX_UNIT_SHARE_PERCENT * points_limit]
    for unit in {u.name: u for u in over}.values():
        share = 100 * unit.cost / points_limit
        problems.append(
            f"{label}: no single unit may be worth over 35% of total points ({ceiling:g} pts), "
            f"but {unit.name} costs {unit.cost} pts ({share:.1f}%)"
        )

    allowed = max_units(points_limit)
    if len(units) > allowed:
        problems.append(
            f"{label}: max. 1 unit per 30 pts allows {allowed} units, but the army has "
            f"{len(units)}: {_named(units)}"
        )

    allowed = max_models(points_limit)
    models = sum(u.size for u in units)
    if models > allowed:
        problems.append(
            f"{label}: max. 1 model per full 20 pts allows {allowed} models, but the army has "
            f"{models}: {_named(units)}"
        )
    return problems


def check_points(red: ArmyList, blue: ArmyList, limit: int) -> list[str]:
    """Armies of equal points: each army over `limit` is reported, with its units."""
    _check_limit(limit)
    problems = []
    for side, army in (("red", red), ("blue", blue)):
        if army.points > limit:
            problems.append(
                f"{side} army {army.name} is {army.points} pts, {army.points - limit} pts over "
                f"the {limit} pts limit: {_named(list(army.units))}"
            )
    return problems
