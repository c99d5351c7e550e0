"""Exact odds of one AFV's main-gun shot at another AFV (8.2): to hit, the hit location,
penetration, the damage table, and the crew's morale test.

The shot is resolved as `vehicles.fire_gun` resolves it in play, one public rule function
a stage: `afv.afv_to_hit` (3d6 at most fire control with `afv.afv_to_hit_modifiers`;
criticals 3 knocked out, 4 penetrates, 5 hits, 16–18 misfire and jams), `afv.hit_location`
(the facing from the shooter's bearing, a d6 for turret or hull), `afv.penetrates` against
the armour there, `afv.damage_table` (3d6 less the gun's HE modifier, then what is
damaged), and `vehicles.apply_vehicle_damage` or `vehicles.crew_test` (the crew's morale
and its reaction) on a real game holding the target AFV.

Reading: the 3d6 rolls are read by their natural total (`Reading.natural_total`: the
criticals and the target both read the total); a d6 by its face.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from warbench.core.dice import DiceSource, Reading, RollRequest
from warbench.core.odds import (
    DiceReferee,
    Local,
    Options,
    OutcomeTable,
    Query,
    Stages,
    marginal,
)
from warbench.rulesets.tftww2.afv import (
    Location,
    afv_tables,
    afv_to_hit,
    afv_to_hit_modifiers,
    damage_table,
    hit_location,
    penetrates,
    vehicle,
)
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.state import Tank
from warbench.rulesets.tftww2.vehicles import apply_vehicle_damage, crew_test, knock_out

OPTIONS: dict[str, str] = {
    "firer": "the firing AFV (default m4a1_sherman): "
    + ", ".join(k for k, v in afv_tables().vehicles.items() if v.main_gun is not None),
    "target": "the target AFV, as firer (default pzkpfw_iv_h)",
    "facing": "which of the target's faces the firer sees: front, side or rear (default front)",
    "buttoned": "yes if the firer is buttoned up or was under fire last round (default no)",
    "moving": "yes if the firer is on the move (default no)",
    "target-fast": 'yes if the target moved over 6" (default no)',
    "cover": "the target's cover: none, soft or hard (default none)",
    "immobilised": "yes if the target is already immobilised: a failed crew test abandons it "
    "(default no)",
}
BEARINGS = {"front": 0.0, "side": 90.0, "rear": 180.0}
TO_HIT, LOCATION, PENETRATION = "to hit", "hit location", "penetration"
DAMAGE, AFTER = "damage table", "target after the shot"
MISSED = "no hit"
BOUNCES, PENETRATES = "does not penetrate", "penetrates"
OUT = ("knocked out", "exploded", "abandoned")
REVERSING, FIGHTS_ON = "crew pulls back", "fights on"


def reading(request: RollRequest) -> Reading:
    """How the shot reads its dice (module docstring)."""
    if request.dice == 3:
        return Reading.natural_total(request.sides)
    return Reading.unordered(request.sides)


Shot = tuple[str, str, str, str]  # to hit, location, penetration, damage


def query(options: Mapping[str, str], game: TFTGame) -> Query:
    """The AFV shot `options` describe, on `game` (whose men stand far from the AFV)."""
    opts = Options(options, OPTIONS)
    gunned = [k for k, v in afv_tables().vehicles.items() if v.main_gun is not None]
    firer_key = opts.choice("firer", gunned, "m4a1_sherman")
    target_key = opts.choice("target", list(afv_tables().vehicles), "pzkpfw_iv_h")
    facing = opts.choice("facing", list(BEARINGS), "front")
    cover = opts.choice("cover", ["none", "soft", "hard"], "none")
    firer, target = vehicle(firer_key), vehicle(target_key)
    gun = firer.main_gun
    assert gun is not None
    mods = afv_to_hit_modifiers(
        target.target_size,
        opts.flag("buttoned"),
        opts.flag("target-fast"),
        cover,  # type: ignore[arg-type]
        opts.flag("moving"),
    )
    tank = Tank("t1", "blue", target_key, 40.0, 40.0, 0.0, immobilised=opts.flag("immobilised"))
    label = f"{firer.name} {gun.name} → {target.name}"

    def aim(dice: DiceSource) -> Shot:
        shot = afv_to_hit(DiceReferee(dice), label, firer.fire_control, mods)
        if shot.knocked_out:
            return shot.outcome, MISSED, PENETRATES, "knocked out"
        if not shot.hit:
            return shot.outcome, MISSED, MISSED, MISSED
        return shot.outcome, "", "", ""

    def strike(shot: Shot, dice: DiceSource) -> Shot:
        outcome, where, _, _ = shot
        if where:
            return shot
        location = hit_location(DiceReferee(dice), label, BEARINGS[facing])
        armour = target.armour_at(location)
        through = outcome == "penetrates" or penetrates(gun.penetration, armour)
        return outcome, _place(location), PENETRATES if through else BOUNCES, ""

    def damage(shot: Shot, dice: DiceSource) -> Shot:
        outcome, where, through, result = shot
        if result or through != PENETRATES:
            return shot
        has_gun = target.main_gun is not None
        hit = damage_table(DiceReferee(dice), label, gun.he_modifier, has_main_gun=has_gun)
        return outcome, where, through, hit

    def crew(part: tuple[str, str, str], dice: DiceSource) -> str:
        """What befalls the target after the hit: read only from the penetration and the
        damage (`Local`: once per such pair, whatever the roll and the place)."""
        where, through, result = part
        if where == MISSED and through == MISSED:
            return FIGHTS_ON
        hit = replace(tank)
        game.dice = dice
        if result == "knocked out":
            knock_out(game, hit, result)
        elif through == PENETRATES:
            apply_vehicle_damage(game, hit, result)
        else:
            crew_test(game, hit)
        return _after(hit)

    def join(shot: Shot, after: str) -> tuple[Shot, str]:
        return shot, after

    crews = Local(lambda shot: (MISSED if shot[1] == MISSED else "", shot[2], shot[3]), crew, join)

    situation = {
        "firer": f"{firer.name}, fire control {firer.fire_control}, {gun.name} "
        f"(penetration {gun.penetration})",
        "target": f"{target.name}, size {target.target_size:+d}, seen from the {facing}"
        + (", immobilised" if tank.immobilised else ""),
        "armour": ", ".join(
            f"{part} {getattr(target.armour[part], facing)}" for part in ("turret", "hull")
        ),
    }
    title = f"{firer.name} {gun.name} at {target.name} ({facing})"
    return Query("tftww2", title, situation, Stages(aim, (strike, damage, crews)), reading, _tables)


def _place(location: Location) -> str:
    return f"{location.facing} {location.part}"


def _after(tank: Tank) -> str:
    if not tank.active:
        return tank.status
    return REVERSING if tank.reversing else FIGHTS_ON


def _tables(dist: Mapping[tuple[Shot, str], Fraction]) -> list[OutcomeTable]:
    return [
        OutcomeTable.of(TO_HIT, marginal(dist, lambda o: o[0][0])),
        OutcomeTable.of(LOCATION, marginal(dist, lambda o: o[0][1])),
        OutcomeTable.of(
            PENETRATION, marginal(dist, lambda o: o[0][2]), [PENETRATES, BOUNCES, MISSED]
        ),
        OutcomeTable.of(DAMAGE, marginal(dist, lambda o: o[0][3] or BOUNCES)),
        OutcomeTable.of(AFTER, marginal(dist, lambda o: o[1]), [*OUT, REVERSING, FIGHTS_ON]),
    ]
