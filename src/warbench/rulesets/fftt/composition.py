"""GAME STEPS, "Write secretly the race and composition of your force as well as flanking
forces if any" (R52, R54): the force a player's `force`, `force-swap` or `compose` action
writes down, or why it may not. A composition of the player's own is checked like a
scenario's force (`Scenario.check_force`): its race's profiles at the rulebook's points,
within the agreed force points, "up to one quarter rounded down of his forces per each
flank", an HQ for marines and machina."""

from __future__ import annotations

import re

from warbench.rulesets.fftt.actions import Compose, WriteForce, WriteForceSwapped
from warbench.rulesets.fftt.profiles import forces
from warbench.rulesets.fftt.scenario import FigureSpec, FlankSpec, ForceSpec, GeneralSpec, Scenario

NONE = "-"  # no flanking force on that flank
LABEL = re.compile(r"[A-Za-z0-9_-]{1,40}$")
OTHER_FLANK = {"west": "east", "east": "west"}
Written = WriteForce | WriteForceSwapped | Compose


def written(spec: Scenario, side: str, action: Written) -> tuple[str, ForceSpec] | str:
    """The force `action` writes down for `side` with the title its owner is told it by,
    or why it may not: a list that is not the side's, a list with no flanking force to
    swap, a composition the scenario does not allow or that breaks the rules of a force."""
    if isinstance(action, Compose):
        force = composed(spec, side, action)
        return force if isinstance(force, str) else ("a force of your own", force)
    lists = spec.lists(side)
    n = action.number
    if not (1 <= n <= len(lists) and lists[n - 1].race == action.race):
        offered = ", ".join(f"force {n} {f.race}" for n, f in enumerate(lists, start=1))
        return f"'{action}' is not one of your lists; write one of: {offered}"
    force = lists[n - 1]
    if isinstance(action, WriteForce):
        return f"force {n}", force
    if not force.flanks:
        return f"force {n} has no flanking force to send by the other flank"
    flanks = tuple(f.model_copy(update={"flank": OTHER_FLANK[f.flank]}) for f in force.flanks)
    swapped = force.model_copy(update={"flanks": flanks})
    return f"force {n} with its flanking forces swapped", swapped


def races(spec: Scenario, side: str) -> list[str]:
    """The races `side` may write: those of its lists, in their order (R48: a matchup's
    race is public, so a composition keeps it)."""
    return list(dict.fromkeys(f.race for f in spec.lists(side)))


def composed(spec: Scenario, side: str, action: Compose) -> ForceSpec | str:
    """The force of `side`'s own composition, or what is wrong with it and what is allowed."""
    if not spec.compose:
        return (
            "this battle's forces are its lists: write force NUMBER RACE or force-swap NUMBER "
            "RACE (the scenario allows no composition of your own)"
        )
    mine = races(spec, side)
    if action.race not in mine:
        return f"'{action.race}' is not a race you may write; yours: {', '.join(mine)}"
    main = _figures(action.figures, action.race, spec.force_points)
    if isinstance(main, str):
        return f"FIGURES: {main}"
    flanks: list[FlankSpec] = []
    for flank, text in (("west", action.west), ("east", action.east)):
        if text == NONE:
            continue
        label, _, listed = text.rpartition(":")
        if label and not LABEL.match(label):
            return (
                f"{flank.upper()}: a flanking force's label is 1 to 40 letters, digits, - or _ "
                f"before its ':', not '{label}'"
            )
        found = _figures(listed, action.race, spec.force_points)
        if isinstance(found, str):
            return f"{flank.upper()}: {found} (or - for no flanking force)"
        flanks.append(FlankSpec(flank=flank, label=label or "flanking force", figures=found))
    general = GeneralSpec() if spec.optional.generals else None  # its first figure
    force = ForceSpec(race=action.race, general=general, figures=main, flanks=tuple(flanks))
    try:
        spec.check_force("your force", force)
    except ValueError as err:
        return str(err)
    return force


def _figures(text: str, race: str, most: int) -> tuple[FigureSpec, ...] | str:
    """The figures `PROFILE,PROFILE*COUNT,...` lists, or what is wrong and what is allowed."""
    table = forces()[race]
    out: list[FigureSpec] = []
    for item in text.split(","):
        key, star, count = item.partition("*")
        if key not in table:
            allowed = ", ".join(f"{k} ({p.fp} FP)" for k, p in table.items())
            return f"'{key}' is not a profile of the {race}; they have: {allowed}"
        n = 1
        if star:
            if not count.isdigit() or not 1 <= int(count) <= most:
                return f"'{item}': write PROFILE or PROFILE*COUNT, COUNT from 1 to {most}"
            n = int(count)
        out += [FigureSpec(profile=key)] * n
    return tuple(out)
