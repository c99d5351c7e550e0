"""GAME STEPS, "Write secretly the race and composition of your force as well as flanking
forces if any" (R52, R54): the force a player's `force`, `force-swap` or `compose` action
writes down, or why it may not. A composition of the player's own is checked like a
scenario's force (`Scenario.check_force`): its race's profiles at the rulebook's points,
within the agreed force points, "up to one quarter rounded down of his forces per each
flank", an HQ for marines and machina. Its figures may be marked (R57) elite troops (1 FP
more), and with the optional rules' switches the general (one, of the main force) and the
enemy FPs a figure has killed before (Experience)."""

from __future__ import annotations

import re

from warbench.rulesets.fftt.actions import Compose, WriteForce, WriteForceSwapped
from warbench.rulesets.fftt.profiles import forces, tables
from warbench.rulesets.fftt.scenario import FigureSpec, FlankSpec, ForceSpec, GeneralSpec, Scenario

NONE = "-"  # no flanking force on that flank
# R57: a composed figure's enemy FPs killed before stop short of the chart's throw at 32,
# which is made in battle (a throw before it would be a secret roll)
MOST_XP = tables().experience.chart - 1
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


def marks(spec: Scenario) -> list[str]:
    """The marks a composed figure may carry in this battle (R57): elite always; experience
    and a general with their optional rules' switches."""
    found = ["elite (1 FP more)"]
    if spec.optional.experience:
        found.append(f"xp=N (enemy FPs killed before, 1 to {MOST_XP})")
    if spec.optional.generals:
        found.append("general or general=NAME (one, in the main force)")
    return found


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
    found = _figures(action.figures, action.race, spec)
    if isinstance(found, str):
        return f"FIGURES: {found}"
    main, generals = found
    if len(generals) > 1:
        return f"FIGURES: a force has one general, not {len(generals)}"
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
        got = _figures(listed, action.race, spec)
        if isinstance(got, str):
            return f"{flank.upper()}: {got} (or - for no flanking force)"
        if got[1]:
            return f"{flank.upper()}: the general is a figure of the main force (FIGURES)"
        flanks.append(FlankSpec(flank=flank, label=label or "flanking force", figures=got[0]))
    general = None
    if spec.optional.generals:  # the one marked, else its first figure (R35, R57)
        general = GeneralSpec()
        for place, name in generals.items():
            general = GeneralSpec(figure=place, name=name)
    force = ForceSpec(race=action.race, general=general, figures=main, flanks=tuple(flanks))
    try:
        spec.check_force("your force", force)
    except ValueError as err:
        return str(err)
    return force


def _figures(
    text: str, race: str, spec: Scenario
) -> tuple[tuple[FigureSpec, ...], dict[int, str]] | str:
    """The figures `PROFILE*COUNT/MARK/...,...` lists with the general's place and name if
    one is marked, or what is wrong and what is allowed."""
    table = forces()[race]
    most = spec.force_points
    out: list[FigureSpec] = []
    generals: dict[int, str] = {}
    for item in text.split(","):
        head, *tail = item.split("/")
        key, star, count = head.partition("*")
        if key not in table:
            allowed = ", ".join(f"{k} ({p.fp} FP)" for k, p in table.items())
            return f"'{key}' is not a profile of the {race}; they have: {allowed}"
        n = 1
        if star:
            if not count.isdigit() or not 1 <= int(count) <= most:
                return f"'{head}': write PROFILE or PROFILE*COUNT, COUNT from 1 to {most}"
            n = int(count)
        figure = _marked(FigureSpec(profile=key), tail, spec)
        if isinstance(figure, str):
            return f"'{item}': {figure}"
        spec_, general = figure
        if general is not None:
            if n > 1:
                return f"'{item}': the general is one figure, not {n}"
            generals[len(out)] = general
        out += [spec_] * n
    return tuple(out), generals


def _marked(
    figure: FigureSpec, tail: list[str], spec: Scenario
) -> tuple[FigureSpec, str | None] | str:
    """`figure` with its marks (elite, xp=N, general[=NAME]) and its general's name if it is
    the general, or what is wrong and what this battle allows."""
    general: str | None = None
    for mark in tail:
        word, eq, value = mark.partition("=")
        if mark == "elite":
            figure = figure.model_copy(update={"elite": True})
        elif word in ("xp", "general") and not (
            spec.optional.experience if word == "xp" else spec.optional.generals
        ):
            rule = "experience" if word == "xp" else "generals"
            return f"'{word}' needs the optional rule {rule}, off in this battle"
        elif word == "xp" and eq:
            if not value.isdigit() or not 1 <= int(value) <= MOST_XP:
                return f"xp=N, N the enemy FPs the figure has killed, from 1 to {MOST_XP}"
            figure = figure.model_copy(update={"xp": int(value)})
        elif word == "general":
            if eq and not LABEL.match(value):
                return f"a general's name is 1 to 40 letters, digits, - or _, not '{value}'"
            general = value or "General"
        else:
            return f"'{mark}' is not a mark of this battle; marks: {'; '.join(marks(spec))}"
    return figure, general
