"""Exact odds of one stand's fire at one target (Combat): to hit, terrain saves, penetration
or anti-infantry hits, and the quality check the fire forces.

The position is built on an open table: the target at the centre facing north, the firer
straight ahead (front arc) or straight behind (flank arc) at the given edge-to-edge range.
`fire.plan` works the attack out and `fire.resolve_volleys` resolves it — the functions the
game calls — with the exact dice; the quality check is rolled by `quality.quality_check` as
the game's own check does (the side's quality, −1 out of cohesion).

Reading (see `warbench.core.dice.Reading`): to-hit and terrain-save pools are counted
(`roll.successes`), a quality check read as pass or fail, so each die only through its
success; a penetration pool is read only for whether any die succeeds and whether any
modified face reaches the table's check number (`anti_vehicle.resolve_hits`: any 6
destroys, else any 4–5 forces a check).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from warbench.core.dice import DiceSource, Modifier, Reading, RollRequest
from warbench.core.odds import (
    DiceReferee,
    OddsReport,
    Options,
    OutcomeTable,
    Query,
    Stages,
    marginal,
)
from warbench.rulesets.fft3.battlefield import Battlefield
from warbench.rulesets.fft3.fire import Volley, plan, resolve_volleys, weapons_of
from warbench.rulesets.fft3.profiles import forces, tables
from warbench.rulesets.fft3.quality import OUT_OF_COHESION, quality_check
from warbench.rulesets.fft3.state import Stand

OPTIONS: dict[str, str] = {
    "firer": "firing stand: nato-tank, soviet-tank, nato-ifv, soviet-ifv, nato-infantry, "
    "soviet-infantry (default nato-tank)",
    "weapon": "gun, missile, law or ai (anti-infantry fire) (default gun)",
    "target": "target stand, as firer (default soviet-tank)",
    "range": "edge-to-edge range in inches (default 12)",
    "arc": "which arc of a vehicle target the firer is in: front or flank (default front)",
    "difficult": "yes if the target is in difficult terrain (terrain saves) (default no)",
    "suppressed": "yes if the firer is suppressed by artillery (default no)",
    "overwatch": "yes for overwatch fire (default no)",
    "cohesion": "no if the target is out of cohesion for its quality check (default yes)",
}
FIRE = "fire"
PENETRATION = "penetration:"  # the label `anti_vehicle.resolve_hits` gives its request
AFTER = "after the quality check"
DESTROYED, CHECK, NOTHING = "destroyed", "quality check forced", "no effect"
FAILED, PASSED = "eliminated by the quality check", "passes the quality check"
CENTRE = (36.0, 24.0)


def reading(request: RollRequest) -> Reading:
    """How fft3 reads its dice (module docstring)."""
    if not request.label.startswith(PENETRATION):
        return Reading.by_success(request)
    check = tables().penetration["check"]
    shift, target = request.modifier_total, request.target or 0
    return Reading.keyed(
        request.sides, lambda f: (f + shift >= target, f + shift >= check), "present"
    )


def _stand(key: str, player: str, at: tuple[float, float], facing: float) -> Stand:
    p = forces().stands[key]
    sid = "f1" if player == "red" else "t1"
    return Stand(sid, sid[0], player, p, at[0], at[1], facing, deployed=True)


def query(options: Mapping[str, str]) -> Query:
    """The fire `options` describe."""
    opts = Options(options, OPTIONS)
    kinds = list(forces().stands)
    firer_key = opts.choice("firer", kinds, "nato-tank")
    target_key = opts.choice("target", kinds, "soviet-tank")
    distance = opts.number("range", 12, 0, 200)
    arc = opts.choice("arc", ["front", "flank"], "front")
    difficult = opts.flag("difficult")
    cohesive = opts.flag("cohesion", True)
    overwatch = opts.flag("overwatch")
    target = _stand(target_key, "blue", CENTRE, 0.0)
    radius = target.radius + _stand(firer_key, "red", CENTRE, 0.0).radius
    away = distance + radius
    at = (CENTRE[0], CENTRE[1] + away if arc == "front" else CENTRE[1] - away)
    firer = _stand(firer_key, "red", at, 180.0 if arc == "front" else 0.0)
    weapon = opts.choice("weapon", list(weapons_of(firer)), weapons_of(firer)[0])
    if opts.flag("suppressed"):
        firer.suppressed_by = "artillery"
    field = Battlefield(CENTRE[0] * 2, CENTRE[1] + away + 12)
    worked = plan(field, firer, weapon, target, overwatch=overwatch)
    if isinstance(worked, str):
        raise ValueError(worked)
    volley = Volley(firer, weapon, firer.at, worked)
    quality = forces().sides[target.profile.side].quality
    cohesion: tuple[Modifier, ...] = () if cohesive else (OUT_OF_COHESION,)

    def fire(dice: DiceSource) -> tuple[str, str]:
        ref = DiceReferee(dice)
        stand = replace(target)
        checked: list[bool] = []

        def check(s: Stand, why: str, modifiers: tuple[Modifier, ...]) -> bool:
            roll = quality_check(ref, f"{s.name} ({why})", quality, modifiers + cohesion)
            passed = bool(roll.success)
            checked.append(passed)
            return passed

        def destroy(s: Stand, why: str) -> None:
            s.alive = False

        resolve_volleys(ref, stand, [volley], in_difficult=difficult, check=check, destroy=destroy)
        if not stand.alive:
            return DESTROYED, DESTROYED
        if checked:
            return CHECK, PASSED if checked[0] else FAILED
        return NOTHING, NOTHING

    band = worked.band or "single range"
    situation = {
        "firer": f"{firer.profile.name} {weapon}" + (" (suppressed)" if firer.suppressed else ""),
        "target": f"{target.profile.name}"
        + (f", {arc} arc" if target.profile.vehicle else "")
        + (", in difficult terrain" if difficult else ""),
        "range": f'{worked.distance:g}" ({band})',
        "attack": f"{worked.kind}, ROF {worked.rof}"
        + (f", Pen {worked.pen}" if worked.kind != "anti-infantry" else ""),
    }
    title = f"{firer.profile.name} {weapon} at {target.profile.name}"
    return Query("fft3", title, situation, Stages(fire), reading, _tables)


def _tables(dist: Mapping[tuple[str, str], Fraction]) -> list[OutcomeTable]:
    return [
        OutcomeTable.of(FIRE, marginal(dist, lambda o: o[0]), [DESTROYED, CHECK, NOTHING]),
        OutcomeTable.of(
            AFTER, marginal(dist, lambda o: o[1]), [DESTROYED, FAILED, PASSED, NOTHING]
        ),
    ]


def odds(options: Mapping[str, str]) -> OddsReport:
    """P(destroyed), P(quality check forced), P(no effect), and the check's outcome."""
    return query(options).report()
