"""Exact odds of one thrown or indirect attack (6.0–6.4): the hit roll, the scatter, and
the damage to every man the template touches.

The attack is resolved as `area.throw_grenade` / `area.bombard` resolve it in play, one
public rule function a stage: `indirect.resolve_indirect` (3d6 at most the thrower's DEX or
the firer's INT, with `indirect.indirect_modifiers`; natural 3–5 hit, 16–18 fail as the
weapon fails), on a miss `indirect.scatter` (a d6 for the direction from the firer's
bearing, the weapon's dice for the distance), the template (`indirect.template`) and the
men it touches (`indirect.touched`, as `area.explode` finds them), then for each man
touched `indirect.area_damage` (halved when scattered) and `damage.apply_damage` against
his STR. The men stand in the open (no hard cover towards the centre, no building).

Stages: the hit roll (a hit, automatic or not, handed on as one outcome), the scatter
(handing on only which men the template touches and whether it scattered), then one stage
per man, enumerated once per (touched, scattered) — all his damage depends on (`Local`).

Reading: every roll of several dice is read by its natural total (the hit roll's
criticals, the scatter distance, the damage in the open); a d6 by its face.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from warbench.core.dice import DiceSource, Reading, RollRequest
from warbench.core.geometry import Base
from warbench.core.odds import (
    DiceReferee,
    Local,
    Options,
    OutcomeTable,
    Query,
    Stages,
    Step,
    marginal,
)
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.damage import apply_damage
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.indirect import (
    area_damage,
    indirect_modifiers,
    indirect_tables,
    off_table,
    resolve_indirect,
    scatter,
    template,
    touched,
)
from warbench.rulesets.tftww2.profiles import characters, weapons

WEAPONS = [k for k, w in indirect_tables().weapons.items() if w.damage_dice]
OPTIONS: dict[str, str] = {
    "weapon": f"the thrown or indirect weapon: {', '.join(WEAPONS)} (default light_mortar)",
    "firer": "who throws, fires or spots: Private, NCO or CO (default NCO)",
    "range": "from the firer to the aim point, inches (default 12)",
    "under-fire": "yes if the firer or spotter was under fire last round (default no)",
    "men": "each man's distance from the aim point in inches, up to 3, separated by commas "
    "(default 0,2,4)",
}
MAX_MEN = 3
HIT_ROLL, FALL, OUT_OF_ACTION = "hit roll", "where it lands", "men out of action"
ON_TARGET, SCATTERED, NO_BLAST = "on the aim point", "scattered", "no explosion"
IN_HAND = "in the thrower's hand"
NOT_TOUCHED, NO_HARM = "not touched", "no harm"
EFFECTS = [NOT_TOUCHED, NO_HARM, "wounded", "incapacitated", "dead"]
FIRER = (24.0, 4.0)
SCATTERS, HIT = "miss", "hit"


@dataclass(frozen=True)
class Landed:
    """Where the fire came down: the hit roll's outcome, scattered or not, whether each
    man is touched, and what befell the men resolved so far."""

    outcome: str
    scattered: bool
    touched: tuple[bool, ...]
    effects: tuple[str, ...] = ()


def reading(request: RollRequest) -> Reading:
    """How area fire reads its dice (module docstring)."""
    if request.dice > 1:
        return Reading.natural_total(request.sides)
    return Reading.unordered(request.sides)


def query(options: Mapping[str, str], make_game: Callable[[str, str], TFTGame]) -> Query:
    """The area attack `options` describe; `make_game(firer, target)` is the two-man game
    of the shot odds (the target man stands in for every man under the template)."""
    opts = Options(options, OPTIONS)
    key = opts.choice("weapon", WEAPONS, "light_mortar")
    weapon = indirect_tables().weapons[key]
    rank = opts.choice("firer", list(characters()), "NCO")
    distance = opts.number("range", 12, 0, 200)
    reach = weapons()["Grenade"].effective_range if key == "grenade" else weapon.reach
    if reach is not None and distance > reach:
        raise ValueError(f'{weapon.name} reaches {reach:g}"; range={distance:g} is beyond')
    spots = [s.strip() for s in opts.text("men", "0,2,4").split(",")]
    if not 1 <= len(spots) <= MAX_MEN:
        raise ValueError(f"men takes 1 to {MAX_MEN} distances, got {len(spots)}")
    away = [Options({"men": s}, OPTIONS).number("men", 0, 0, 100) for s in spots]
    game = make_game(rank, "Private")
    firer = next(m for m in game.state.men.values() if m.side == "red")
    target = next(m for m in game.state.men.values() if m.side == "blue")
    squad = game.state.squads[target.squad]
    aim = (FIRER[0], FIRER[1] + distance)
    bases = {
        str(i): Base((aim[0] + d * math.sin(i * 2.1), aim[1] + d * math.cos(i * 2.1)), 1.0)
        for i, d in enumerate(away)
    }
    off = off_table(weapon)
    skill = attributes(firer).dexterity if weapon.thrown else attributes(firer).intelligence
    under_fire = opts.flag("under-fire")
    mods = indirect_modifiers(
        firer_under_fire=under_fire and not off,
        spotter_under_fire=under_fire and off,
        through_window=False,
    )
    dice = weapon.damage_dice or 0
    label = f"{weapon.name}: {rank} → {aim[0]:g},{aim[1]:g}"

    def fire(roll: DiceSource) -> Landed:
        result = resolve_indirect(
            DiceReferee(roll), label, skill, mods, off_table=off, thrown=weapon.thrown
        )
        if result.outcome == SCATTERS:
            return Landed(SCATTERS, True, ())
        if result.outcome == "explodes in hand":
            return Landed(result.outcome, False, _touching(FIRER, weapon.area, bases))
        if result.hit:  # a natural 3-5 hits automatically: one outcome, enumerated once
            return Landed(HIT, False, _touching(aim, weapon.area, bases))
        return Landed(result.outcome, False, (False,) * len(bases))

    def land(landed: Landed, roll: DiceSource) -> Landed:
        if landed.touched:
            return landed
        dx, dy = scatter(DiceReferee(roll), label, weapon.scatter, 0.0)
        centre = (aim[0] + dx, aim[1] + dy)
        return replace(landed, touched=_touching(centre, weapon.area, bases))

    def strike(i: int) -> Local:
        """Man i's damage, read only from whether the template touches him and whether it
        scattered (`Local`: enumerated once per such pair)."""

        def step(part: tuple[bool, bool], roll: DiceSource) -> str:
            touches, scattered = part
            if not touches:
                return NOT_TOUCHED
            damage = area_damage(
                DiceReferee(roll),
                f"{label} → man {i + 1}",
                dice,
                scattered=scattered,
                hard_cover_toward_centre=False,
                in_intact_building=False,
            )
            man = copy.copy(target)  # all `apply_damage` changes: the man, his squad's counts
            game.state.men[man.id] = man
            game.state.squads[man.squad] = copy.copy(squad)
            game.dice = roll
            apply_damage(game, man, damage)
            return man.status if not man.active else "wounded" if man.wounded else NO_HARM

        def join(landed: Landed, effect: str) -> Landed:
            effects = (*landed.effects, effect)
            return Landed(landed.outcome, landed.scattered, landed.touched, effects)

        return Local(lambda landed: (landed.touched[i], landed.scattered), step, join)

    situation = {
        "weapon": f'{weapon.name}: {dice}d6 damage, area {weapon.area:g}", scatter '
        f"{weapon.scatter}" + (", off the table" if off else ""),
        "firer": f"{rank}, {'DEX' if weapon.thrown else 'INT'} {skill}"
        + (", under fire last round" if under_fire else ""),
        "range": f'{distance:g}"',
        "men": ", ".join(f'{d:g}"' for d in away) + " from the aim point, in the open",
    }

    def tables(dist: Mapping[Landed, Fraction]) -> list[OutcomeTable]:
        return [
            OutcomeTable.of(HIT_ROLL, marginal(dist, lambda o: o.outcome)),
            OutcomeTable.of(FALL, marginal(dist, _fall)),
            *(
                OutcomeTable.of(f'man {i + 1} ({d:g}")', marginal(dist, _effect_of(i)), EFFECTS)
                for i, d in enumerate(away)
            ),
            OutcomeTable.of(OUT_OF_ACTION, marginal(dist, _out), list(range(len(away) + 1))),
        ]

    steps: tuple[Step, ...] = (land, *(strike(i) for i in range(len(away))))
    men = "man" if len(away) == 1 else "men"
    title = f'{weapon.name} aimed {distance:g}" away at {len(away)} {men}'
    return Query("tftww2", title, situation, Stages(fire, steps), reading, tables)


def _touching(
    centre: tuple[float, float], area: float, bases: Mapping[str, Base]
) -> tuple[bool, ...]:
    hit = set(touched(template(centre, area), bases))
    return tuple(name in hit for name in bases)


def _fall(landed: Landed) -> str:
    if landed.scattered:
        return SCATTERED
    if landed.outcome == "explodes in hand":
        return IN_HAND
    return ON_TARGET if landed.outcome == HIT else NO_BLAST


def _effect_of(i: int) -> Callable[[Landed], str]:
    return lambda landed: landed.effects[i]


def _out(landed: Landed) -> int:
    return sum(e in ("incapacitated", "dead") for e in landed.effects)
