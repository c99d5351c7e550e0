"""Exact odds of one stand's fire at one target (Combat): to hit, terrain saves, penetration
or anti-infantry hits, and the quality check the fire forces.

The position is built on an open table: the target at the centre facing north, the firer
straight ahead (front arc) or straight behind (flank arc) at the given edge-to-edge range.
`fire.plan` works the attack out and `fire.resolve_volleys` resolves it — the functions the
game calls — with the exact dice; the quality check is rolled by `quality.quality_check` as
the game's own check does (the side's quality, −1 out of cohesion).

A declared fire group (`group=`: several stands at the one target) is resolved volley by
volley, each by `fire.resolve_volleys` as the game resolves it, with `check` and `destroy`
that note what the volley left (destroyed; a 4–5 penetration; its anti-infantry hits, read
back through `anti_infantry.check_modifiers`); those stages hand on only (alive, hits,
check forced), and the one quality check `resolve_volleys` makes after all the fire is
rolled last by `quality.quality_check` with `anti_infantry.check_modifiers` of the hits of
the whole group. `attack=artillery` is `odds_artillery`.

Reading (see `warbench.core.dice.Reading`): to-hit and terrain-save pools are counted
(`roll.successes`), a quality check read as pass or fail, so each die only through its
success; a penetration pool is read only for whether any die succeeds and whether any
modified face reaches the table's check number (`anti_vehicle.resolve_hits`: any 6
destroys, else any 4–5 forces a check).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from warbench.core.dice import DiceSource, Modifier, Reading, RollRequest
from warbench.core.odds import (
    DiceReferee,
    OddsReport,
    Options,
    OutcomeTable,
    Query,
    Stages,
    Step,
    by_attack,
    choose_attack,
    marginal,
)
from warbench.rulesets.fft3 import odds_artillery
from warbench.rulesets.fft3.anti_infantry import check_modifiers
from warbench.rulesets.fft3.battlefield import Battlefield
from warbench.rulesets.fft3.fire import Volley, plan, resolve_volleys, weapons_of
from warbench.rulesets.fft3.profiles import forces, tables
from warbench.rulesets.fft3.quality import OUT_OF_COHESION, quality_check
from warbench.rulesets.fft3.state import Stand

FIRE_OPTIONS: dict[str, str] = {
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
    "group": "a declared fire group at the target instead of firer/weapon/range/arc: "
    "FIRER:WEAPON:RANGE[:ARC] stands separated by commas, e.g. "
    "nato-tank:gun:20,nato-ifv:missile:15:flank (at most 6)",
}
KINDS: dict[str, dict[str, str]] = {"fire": FIRE_OPTIONS, "artillery": odds_artillery.OPTIONS}
OPTIONS: dict[str, str] = {
    "attack": "fire (one stand or a declared fire group at one stand, default) or artillery "
    "(one template on the stands touching it)",
    **by_attack(KINDS),
}
MAX_GROUP = 6
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


def _stand(key: str, player: str, at: tuple[float, float], facing: float, n: int = 1) -> Stand:
    p = forces().stands[key]
    sid = f"f{n}" if player == "red" else f"t{n}"
    return Stand(sid, sid[0], player, p, at[0], at[1], facing, deployed=True)


def query(options: Mapping[str, str]) -> Query:
    """The attack `options` describe: fire (one stand's or a group's) or artillery."""
    attack, given = choose_attack(options, KINDS, "fire")
    if attack == "artillery":
        return odds_artillery.query(given)
    if "group" in given:
        return _group(given)
    opts = Options(given, FIRE_OPTIONS)
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


@dataclass(frozen=True)
class Left:
    """What the fire so far left of the target: alive, anti-infantry hits, a 4-5 forced."""

    alive: bool = True
    hits: int = 0
    check: bool = False


def _member(text: str, n: int, target: Stand) -> Volley:
    """One stand of a fire group, `FIRER:WEAPON:RANGE[:ARC]`, placed as `query` places a
    single firer (a little apart from the others)."""
    parts = text.split(":")
    if not 3 <= len(parts) <= 4:
        raise ValueError(f"group member '{text}' is not FIRER:WEAPON:RANGE[:ARC]")
    kinds = list(forces().stands)
    member = Options(
        dict(zip(("firer", "weapon", "range", "arc"), parts, strict=False)), FIRE_OPTIONS
    )
    key = member.choice("firer", kinds, kinds[0])
    distance = member.number("range", 12, 0, 200)
    arc = member.choice("arc", ["front", "flank"], "front")
    probe = _stand(key, "red", CENTRE, 0.0, n)
    away = distance + target.radius + probe.radius
    side = 1 if arc == "front" else -1
    # spread the group along a small arc so that each keeps its range and arc
    angle = (n - 1) * 0.04 * (1 if n % 2 else -1)
    x = CENTRE[0] + away * math.sin(angle)
    y = CENTRE[1] + side * away * math.cos(angle)
    firer = _stand(key, "red", (x, y), 180.0 if side == 1 else 0.0, n)
    weapon = member.choice("weapon", list(weapons_of(firer)), weapons_of(firer)[0])
    field = Battlefield(CENTRE[0] * 2, CENTRE[1] * 2 + away + 12)
    worked = plan(field, firer, weapon, target)
    if isinstance(worked, str):
        raise ValueError(f"group member '{text}': {worked}")
    return Volley(firer, weapon, firer.at, worked)


def _group(given: Mapping[str, str]) -> Query:
    """A declared fire group at one target (module docstring)."""
    opts = Options(given, FIRE_OPTIONS)
    for single in ("firer", "weapon", "range", "arc"):
        if single in given:
            raise ValueError(f"give either group or {single}, not both (group names each firer)")
    kinds = list(forces().stands)
    target_key = opts.choice("target", kinds, "soviet-tank")
    difficult = opts.flag("difficult")
    cohesive = opts.flag("cohesion", True)
    target = _stand(target_key, "blue", CENTRE, 0.0)
    members = [m for m in opts.text("group", "").split(",") if m.strip()]
    if not 1 <= len(members) <= MAX_GROUP:
        raise ValueError(f"group takes 1 to {MAX_GROUP} stands, got {len(members)}")
    volleys = [_member(m.strip(), n, target) for n, m in enumerate(members, start=1)]
    if opts.flag("suppressed"):
        raise ValueError("suppressed is per firer; not offered for a group")
    quality = forces().sides[target.profile.side].quality
    cohesion: tuple[Modifier, ...] = () if cohesive else (OUT_OF_COHESION,)

    def volley_step(v: Volley) -> Step:
        def step(left: Left, dice: DiceSource) -> Left:
            if not left.alive:
                return left
            stand = replace(target)
            noted: list[tuple[Modifier, ...]] = []

            def check(s: Stand, why: str, modifiers: tuple[Modifier, ...]) -> bool:
                noted.append(modifiers)
                return True

            def destroy(s: Stand, why: str) -> None:
                s.alive = False

            resolve_volleys(
                DiceReferee(dice), stand, [v], in_difficult=difficult, check=check, destroy=destroy
            )
            if not stand.alive:
                return Left(False)
            if v.plan.kind == "anti-infantry":
                hits = _hits_of(noted[0]) if noted else 0
                return Left(True, left.hits + hits, left.check)
            return Left(True, left.hits, left.check or bool(noted))

        return step

    def last_check(left: Left, dice: DiceSource) -> tuple[str, str]:
        if not left.alive:
            return DESTROYED, DESTROYED
        if not (left.hits or left.check):
            return NOTHING, NOTHING
        mods = check_modifiers(left.hits) if left.hits else ()
        roll = quality_check(DiceReferee(dice), target.name, quality, mods + cohesion)
        return CHECK, PASSED if roll.success else FAILED

    steps = [volley_step(v) for v in volleys]
    situation = {
        "target": target.profile.name + (", in difficult terrain" if difficult else ""),
        **{
            f"firer {n}": f"{v.firer.profile.name} {v.weapon}, "
            f'{v.plan.distance:.3g}" ({v.plan.band or "single range"}), {v.plan.kind}, '
            f"ROF {v.plan.rof}" + (f", Pen {v.plan.pen}" if v.plan.kind != "anti-infantry" else "")
            for n, v in enumerate(volleys, start=1)
        },
    }
    title = f"fire group of {len(volleys)} at {target.profile.name}"
    first = steps[0]
    stages = Stages(lambda dice: first(Left(), dice), (*steps[1:], last_check))
    return Query("fft3", title, situation, stages, reading, _tables)


def _hits_of(modifiers: tuple[Modifier, ...]) -> int:
    """The anti-infantry hits whose check `anti_infantry.check_modifiers` gave `modifiers`."""
    for hits in range(1, 100):
        if check_modifiers(hits) == modifiers:
            return hits
    raise ValueError(f"no count of hits gives the check modifiers {modifiers}")


def odds(options: Mapping[str, str]) -> OddsReport:
    """P(destroyed), P(quality check forced), P(no effect), and the check's outcome."""
    return query(options).report()
