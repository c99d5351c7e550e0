"""Exact odds of one artillery template (Artillery): the effects table on every stand
wholly or partly under it, and the quality checks it forces.

The position is a real `FFT3Game` (the registry's, on an open 72" x 48" table; woods under
the template for `difficult=yes`): the listed stands stand around the template's centre,
each touching its edge (`artillery.under`). Each stand is attacked by the game's own
artillery attack — `FFT3Game._artillery_attack`, which `Barrage` calls for every stand under
the template: `artillery.artillery_effect` (the d6 and the effects table), then the quality
check (`quality.quality_check` through the game's check, −1 out of cohesion) and
suppression or elimination. One stage per stand: the stands' dice do not touch one another,
so each stand is enumerated once per distinct outcome of the stands before it.

Reading: the artillery die only through its row of the effects table (for a stand in the
open and a protected one alike: 1–3, 4–5, 6); a quality check through pass or fail.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from operator import itemgetter
from typing import Any

from warbench.core import registry
from warbench.core.dice import DiceSource, Reading, RollRequest, ScriptedDice
from warbench.core.odds import Options, OutcomeTable, Query, Stages, Step, marginal
from warbench.core.words import counted
from warbench.rulesets.fft3.artillery import radius, under
from warbench.rulesets.fft3.game import FFT3Game
from warbench.rulesets.fft3.profiles import forces, tables
from warbench.rulesets.fft3.state import Stand, Template

OPTIONS: dict[str, str] = {
    "stands": "the stands touching the template, by kind, separated by commas: soviet-tank, "
    "nato-infantry, ... (default soviet-tank,soviet-infantry; at most 4)",
    "difficult": "yes if the stands are in difficult terrain (infantry protected) (default no)",
    "cohesion": "no if the stands are out of cohesion for their checks (default yes)",
    "checked": "yes if the stands already took an artillery check this turn (default no)",
}
ARTILLERY = "artillery:"  # the label `artillery.artillery_effect` gives its die
DESTROYED, FAILED = "destroyed", "eliminated by the quality check"
SUPPRESSED, NOTHING = "suppressed", "no effect"
EFFECTS = [DESTROYED, FAILED, SUPPRESSED, NOTHING]
LOST, HELD_DOWN = "stands lost", "stands suppressed"
MAX_STANDS = 4
CENTRE = (36.0, 24.0)
OWNER = "red"  # whose template it is: it attacks friend and foe alike


def reading(request: RollRequest) -> Reading:
    """How the template's dice are read (module docstring)."""
    if request.label.startswith(ARTILLERY):
        table = tables().artillery
        return Reading.keyed(
            request.sides,
            lambda f: (table.effect(f, exposed=True), table.effect(f, exposed=False)),
        )
    return Reading.by_success(request)


def _scenario(difficult: bool) -> dict[str, Any]:
    """Both sides' forces (so every kind of stand is there to take), on an open table or
    with woods wide around the template."""
    x, y = CENTRE
    woods = {
        "kind": "woods",
        "polygon": [[x - 8, y - 8], [x + 8, y - 8], [x + 8, y + 8], [x - 8, y + 8]],
    }
    soviet = [
        {"id": "s1", "organisation": "tank-battalion", "tanks": 6, "ifvs": 3},
        {"id": "s2", "organisation": "motor-rifle-battalion", "tanks": 3, "ifvs": 9},
    ]
    nato = [
        {"id": "n1", "organisation": "company", "tanks": 3, "ifvs": 1},
        {"id": "n2", "organisation": "company", "tanks": 1, "ifvs": 3},
    ]
    return {
        "id": "odds",
        "name": "odds",
        "summary": "an artillery template for the odds",
        "victory": "meeting",
        "attacker": "red",
        "turns": 8,
        "table": {"width": 72, "depth": 48, "terrain": [woods] if difficult else []},
        "objectives": [[36, 24]],
        "forces": {
            "red": {"side": "soviet", "zone": [0, 8], "units": soviet},
            "blue": {"side": "nato", "zone": [40, 48], "units": nato},
        },
    }


def query(options: Mapping[str, str]) -> Query:
    """The template `options` describe."""
    opts = Options(options, OPTIONS)
    kinds = list(forces().stands)
    listed = [k.strip() for k in opts.text("stands", "soviet-tank,soviet-infantry").split(",")]
    if not 1 <= len(listed) <= MAX_STANDS:
        raise ValueError(f"stands takes 1 to {MAX_STANDS} stands, got {len(listed)}")
    keys = [Options({"stands": k}, OPTIONS).choice("stands", kinds, kinds[0]) for k in listed]
    difficult = opts.flag("difficult")
    cohesive = opts.flag("cohesion", True)
    checked = opts.flag("checked")
    game = registry.get("fft3").new_game(_scenario(difficult), seed=None, dice=ScriptedDice([]))
    assert isinstance(game, FFT3Game)
    template = Template(OWNER, *CENTRE)
    taken: list[Stand] = []
    for n, key in enumerate(keys):
        profile = forces().stands[key]
        free = [
            s
            for s in game.state.stands.values()
            if s.profile.name == profile.name and s not in taken
        ]
        stand = free[0]
        angle = 2 * math.pi * n / len(keys)
        away = radius() + stand.radius - 0.01
        stand.x = CENTRE[0] + away * math.sin(angle)
        stand.y = CENTRE[1] + away * math.cos(angle)
        stand.deployed, stand.carried_by, stand.carrying = True, None, None
        stand.cohesive, stand.artillery_checked = cohesive, checked
        assert under(template, stand)
        taken.append(stand)
    game.state.phase, game.state.player = "artillery", OWNER
    starts = [replace(s) for s in taken]

    def attack(start: Stand) -> Step:
        def step(before: tuple[str, ...], dice: DiceSource) -> tuple[str, ...]:
            stand = replace(start)
            game.state.stands[stand.id] = stand
            game.dice = dice
            game._artillery_attack(stand, OWNER)
            game._events, game._rolls = [], []
            return (*before, _effect(start, stand))

        return step

    steps = [attack(s) for s in starts]
    first = steps[0]
    situation = {
        "template": f'{tables().artillery.template_diameter:g}" at {CENTRE[0]:g},{CENTRE[1]:g}',
        **{f"stand {n}": _described(s, difficult) for n, s in enumerate(starts, start=1)},
    }
    if checked:
        situation["checks"] = "already taken this turn (a 6 suppresses, no check)"

    def tables_of(dist: Mapping[tuple[str, ...], Fraction]) -> list[OutcomeTable]:
        per_stand = [
            OutcomeTable.of(
                f"stand {n}: {s.profile.name}", marginal(dist, itemgetter(n - 1)), EFFECTS
            )
            for n, s in enumerate(starts, start=1)
        ]
        count = range(len(starts) + 1)
        return [
            *per_stand,
            OutcomeTable.of(LOST, marginal(dist, _lost), count),
            OutcomeTable.of(HELD_DOWN, marginal(dist, lambda o: o.count(SUPPRESSED)), count),
        ]

    title = f"artillery template on {counted(len(starts), 'stand')}"
    stages = Stages(lambda dice: first((), dice), tuple(steps[1:]))
    return Query("fft3", title, situation, stages, reading, tables_of)


def _lost(effects: tuple[str, ...]) -> int:
    return sum(e in (DESTROYED, FAILED) for e in effects)


def _effect(start: Stand, after: Stand) -> str:
    if not after.alive:
        return FAILED if after.artillery_checked and not start.artillery_checked else DESTROYED
    return SUPPRESSED if after.suppressed_by is not None else NOTHING


def _described(stand: Stand, difficult: bool) -> str:
    where = "in difficult terrain" if difficult else "in the open"
    cohesion = "" if stand.cohesive else ", out of cohesion"
    return f"{stand.profile.name} {where}{cohesion}"
