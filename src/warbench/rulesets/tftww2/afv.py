"""8.0 AFVs: movement (8.1); fire control, to-hit modifiers and criticals, hit location,
penetration, the damage table, the crew's morale, over-running and close assault (8.2).
The rulebook's tables and our vehicle profiles are data (`data/afvs.yaml`; the vehicles and
the hit location scheme are ours, marked so there).

Rulings:

- A1 Movement (8.1): the garbled table has six figures a row for six columns - wheeled road
  1/2, open 1, rough 2, swampy 4, forest 4; tracked 1, 1, 1, 2, 4. "Turn 60"" is the cost of a
  60 degree turn (the inch mark stands for the scan's degree sign): wheeled 1, tracked 2. A
  turn costs a whole step for each 60 degrees or part of them (3.0 charges infantry per 90
  degrees the same way). "Reverse at half speed": reversing costs double. A half-track moves
  as tracked.
- A2 Firing (8.2): a vehicle may fire while it has spent at most half its movement points
  ("cannot fire if vehicle has spent more than half").
- A3 "Vehicle buttoned -2, or under fire in previous round" is the FIRING vehicle: buttoned
  up, or under fire last round. Target size: positive for a large target (easier), negative
  for a small one. Soft and hard cover do not stack: the better cover counts.
- A4 To hit: 3d6 at most fire control + modifiers (the modifiers change the number needed,
  as indirect ruling I5). Criticals as 8.2's table: 3 KO at once, 4 hits and penetrates
  whatever the armour, 5 hits; 16 misfire, 17 jammed (crew INT to clear), 18 jammed (INT
  -4) - failures whatever the modifiers. An HE shot at a soft target reads 3-5 as an
  automatic hit (there is no armour to defeat, and 4.4's instant kill is a single target's).
- A5 Hit location (the diagram is missing; ours): the shooter's bearing from the vehicle,
  relative to its hull's front, picks the facing - front within 45 degrees of dead ahead,
  rear within 45 degrees of dead astern (the 45 degree lines count as front and rear), side
  otherwise; then a d6: 1-2 turret (a turretless vehicle's superstructure), 3-6 hull. Fire
  from above (indirect fire, bombs) hits the top. The turret's facing is read against the
  hull's: turret traverse is not tracked.
- A6 Penetration (8.2): penetration equal to or more than the armour penetrates.
- A7 Damage table (8.2): 3d6 minus the HE modifier - 5 or less explodes (4d6 damage, rolled
  for each figure or vehicle within 3", edge to edge); 6-15 damaged, a d6: 1-2 MGs
  destroyed, 3-4 immobilised, 5-6 main gun destroyed; 16 or more no damage. A vehicle with
  no main gun reads "main gun destroyed" as "MGs destroyed".
- A8 Crew (8.2): every hit that does not explode the vehicle (penetrating or not) makes the
  crew test morale as an NCO: 3d6 at most LDR 12 plus 5.0's modifiers. Failure: the vehicle
  reverses towards its own table edge at half speed; immobilised and failed: the crew
  abandons it. The crew clears a jam on an INT roll as an NCO (INT 12; 18: INT -4).
- A9 Over-running: every character whose base the vehicle's footprint touches or passes
  through during its move (its starting place included) rolls 3d6 at most DEX or is killed;
  static pieces (anti-tank guns) are destroyed without a roll.
- A11 A static piece (an anti-tank gun, ours in `data/afvs.yaml`) is an AFV that never
  moves: immobilised from the start, so its crew abandons it on a failed test; it is
  over-run without a roll (A9), fires as an AFV (8.2) but only within 30 degrees of its
  facing (its traverse), counts 3 casualties (an AFV 5) and
  gives no 5.0 AFV support. Small arms cannot harm it (TFT-R24: its crew sits behind the
  shield); HE, area weapons, AP and close assault can.
- A10 Close assault: base factor 5 plus, for each character, +1 grenade / sticky bomb /
  Molotov, +2 satchel charge / panzerwurfmine / Boys, +3 bazooka / panzerfaust / No. 68 AT /
  PIAT (any other weapon +0). 3d6 at most the factor immobilises; "a Critical hit KO's the
  vehicle" is 8.2's critical-table row of that name, a natural 3 (4 and 5 are automatic
  hits there, so they immobilise); 16-18 always fail.
- A12 Ours: a weapon that is thrown, placed or fired once is spent by the close assault it
  is used in, whatever the result - a grenade (one of his grenades), sticky bomb, Molotov,
  satchel charge, panzerwurfmine, panzerfaust and No. 68 AT (a rifle grenade: one carried).
  A bazooka, a PIAT and a Boys rifle are reloaded and kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

import shapely
import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely.geometry import Polygon

from warbench.core.dice import Modifier, RollRequest
from warbench.core.geometry import EPS, Base, Path, Point, bases_under, bearing, within
from warbench.rulesets.tftww2.indirect import ModifierSpec, Referee, skill_test

Drive = Literal["wheeled", "tracked"]
TerrainKind = Literal["road", "open", "rough", "swampy", "forest"]
Facing = Literal["front", "side", "rear", "top"]
Part = Literal["hull", "turret"]
Cover = Literal["none", "soft", "hard"]
ShotOutcome = Literal[
    "hit", "auto hit", "penetrates", "knocked out", "miss", "misfire", "jammed", "jammed badly"
]
DamageResult = Literal[
    "explodes", "damaged: mgs", "damaged: immobilised", "damaged: main gun", "no damage"
]
CloseAssaultResult = Literal["immobilised", "knocked out", "no effect"]
CrewReaction = Literal["carry on", "reverse", "abandon"]

_Frozen = ConfigDict(frozen=True, extra="forbid")


# --- the rulebook's tables -----------------------------------------------------------------------


class MoveCosts(BaseModel):
    """8.1: movement points per inch by terrain, and per 60 degree turn."""

    model_config = _Frozen

    road: float = Field(gt=0)
    open: float = Field(gt=0)
    rough: float = Field(gt=0)
    swampy: float = Field(gt=0)
    forest: float = Field(gt=0)
    turn_60: float = Field(gt=0)


class Movement(BaseModel):
    """8.1 AFV Movement, and 8.2's firing limit."""

    model_config = _Frozen

    wheeled: MoveCosts
    tracked: MoveCosts
    reverse_factor: float = Field(gt=0)
    fire_limit: float = Field(gt=0, le=1)


class ToHitModifiers(BaseModel):
    """8.2 modifiers to hit for direct fire against AFVs and vehicles."""

    model_config = _Frozen

    buttoned_or_under_fire: ModifierSpec
    target_fast: ModifierSpec
    soft_cover: ModifierSpec
    hard_cover: ModifierSpec
    firer_moving: ModifierSpec


class HeModifiers(BaseModel):
    """8.2 modifiers to hit for high explosive fire against soft targets."""

    model_config = _Frozen

    buttoned_or_under_fire: ModifierSpec
    firer_moving: ModifierSpec


class DamageTable(BaseModel):
    """8.2 the damage table of a penetrating hit."""

    model_config = _Frozen

    explodes_at_most: int
    no_damage_at_least: int
    explosion_dice: int = Field(ge=1)
    explosion_radius: float = Field(gt=0)
    damaged: dict[int, Literal["mgs", "immobilised", "main gun"]]

    @model_validator(mode="after")
    def _d6(self) -> DamageTable:
        if set(self.damaged) != set(range(1, 7)):
            raise ValueError("the damaged sub-table needs a result for each face 1-6")
        if not self.explodes_at_most < self.no_damage_at_least:
            raise ValueError("explodes_at_most must be below no_damage_at_least")
        return self


class CloseAssaultTable(BaseModel):
    """8.2 Close assault: base factor, bonuses by weapon, criticals."""

    model_config = _Frozen

    base: int
    knocks_out_on: frozenset[int]
    always_fail: frozenset[int]
    bonus: dict[str, int]
    aliases: dict[str, str]
    one_shot: frozenset[str] = frozenset()  # spent once used (ours, ruling A12)

    @model_validator(mode="after")
    def _aliases_known(self) -> CloseAssaultTable:
        for alias, name in self.aliases.items():
            if name not in self.bonus:
                raise ValueError(f"alias '{alias}' names unknown weapon '{name}'")
        for name in self.one_shot - set(self.bonus):
            raise ValueError(f"one_shot names unknown weapon '{name}'")
        return self


class HitLocationRule(BaseModel):
    """Ours (ruling A5): facing arcs and the d6 faces that hit the turret."""

    model_config = _Frozen

    front_within: float = Field(gt=0, le=90)
    rear_within: float = Field(gt=0, le=90)
    turret_on: frozenset[int]


# --- vehicle profiles (ours) ---------------------------------------------------------------------


class Armour(BaseModel):
    """Armour factors of one location by facing."""

    model_config = _Frozen

    front: int = Field(ge=0)
    side: int = Field(ge=0)
    rear: int = Field(ge=0)
    top: int = Field(ge=0)


class HeRound(BaseModel):
    """A gun's HE round: damage dice and template radius (as a table 6.1 row)."""

    model_config = _Frozen

    dice: int = Field(ge=1)
    area: float = Field(gt=0)


class Gun(BaseModel):
    """A vehicle's main gun."""

    model_config = _Frozen

    name: str = Field(min_length=1)
    penetration: int = Field(ge=0)
    he_modifier: int = Field(ge=0)
    he: HeRound | None = None

    @property
    def he_capable(self) -> bool:
        """Fires HE rounds: may fire HE at soft targets and target buildings (7.0)."""
        return self.he is not None


class MachineGun(BaseModel):
    """A vehicle MG, by 4.3's kind."""

    model_config = _Frozen

    name: str = Field(min_length=1)
    kind: Literal["LMG", "HMG"]


class Vehicle(BaseModel):
    """An AFV profile (ours)."""

    model_config = _Frozen

    name: str = Field(min_length=1)
    nation: str = Field(min_length=1)
    drive: Drive
    movement_points: int = Field(ge=0)
    static: bool = False  # a static piece (an anti-tank gun): never moves (ruling A11)
    width: float = Field(default=3.0, gt=0)  # footprint, inches (ours)
    length: float = Field(default=6.0, gt=0)
    fire_control: int = Field(ge=3, le=18)
    target_size: int
    turreted: bool
    open_topped: bool
    armour: dict[Part, Armour]
    main_gun: Gun | None
    mgs: tuple[MachineGun, ...] = ()

    @model_validator(mode="after")
    def _both_parts(self) -> Vehicle:
        if set(self.armour) != {"hull", "turret"}:
            raise ValueError(f"{self.name}: armour for hull and turret")
        if self.static != (self.movement_points == 0):
            raise ValueError(f"{self.name}: a static piece, and only one, has no movement points")
        return self

    def armour_at(self, location: Location) -> int:
        """The armour factor where the shot struck."""
        armour = self.armour[location.part]
        by_facing = {"front": armour.front, "side": armour.side, "rear": armour.rear}
        return armour.top if location.facing == "top" else by_facing[location.facing]


class AfvTables(BaseModel):
    """Everything of data/afvs.yaml."""

    model_config = _Frozen

    movement: Movement
    to_hit_modifiers: ToHitModifiers
    he_modifiers: HeModifiers
    hit_criticals: dict[int, ShotOutcome]
    damage_table: DamageTable
    crew_morale_ldr: int
    close_assault: CloseAssaultTable
    hit_location: HitLocationRule
    vehicles: dict[str, Vehicle]

    @model_validator(mode="after")
    def _criticals(self) -> AfvTables:
        if set(self.hit_criticals) != {3, 4, 5, 16, 17, 18}:
            raise ValueError("hit_criticals are the naturals 3, 4, 5, 16, 17 and 18")
        return self


@cache
def afv_tables() -> AfvTables:
    """8.0's tables and our vehicles from data/afvs.yaml."""
    text = resources.files(__package__).joinpath("data/afvs.yaml").read_text()
    return AfvTables.model_validate(yaml.safe_load(text))


def vehicle(key: str) -> Vehicle:
    """A vehicle profile by key (`m4a1_sherman`, `pzkpfw_iv_h`, ...)."""
    vehicles = afv_tables().vehicles
    if key not in vehicles:
        raise KeyError(f"no vehicle '{key}'; known: {', '.join(vehicles)}")
    return vehicles[key]


# --- 8.1 movement --------------------------------------------------------------------------------


def move_cost(kind: Drive, terrain: TerrainKind, *, reverse: bool = False) -> float:
    """8.1 (ruling A1): movement points for 1" of `terrain`; reversing costs double."""
    movement = afv_tables().movement
    cost: float = getattr(movement.wheeled if kind == "wheeled" else movement.tracked, terrain)
    return cost * movement.reverse_factor if reverse else cost


def turn_cost(kind: Drive, degrees: float) -> float:
    """8.1 (ruling A1): a turn costs the 60 degree figure (wheeled 1, tracked 2) for each 60
    degrees or part of them."""
    if degrees < 0:
        raise ValueError(f"a turn is a positive angle, got {degrees}")
    movement = afv_tables().movement
    steps = math.ceil(degrees / 60.0 - EPS) if degrees > EPS else 0
    return steps * (movement.wheeled if kind == "wheeled" else movement.tracked).turn_60


def can_fire(points_spent: float, points_total: float) -> bool:
    """8.2 (ruling A2): no firing after spending more than half the movement points."""
    return points_spent <= points_total * afv_tables().movement.fire_limit + EPS


# --- 8.2 to hit ----------------------------------------------------------------------------------


def afv_to_hit_modifiers(
    target_size: int,
    buttoned_or_under_fire: bool,
    target_fast: bool,
    cover: Cover,
    firer_moving: bool,
) -> list[Modifier]:
    """8.2 direct fire against AFVs and vehicles: target size (the vehicle's), firer
    buttoned or under fire last round -2, target moved over 6" -2, target in soft cover -2
    or hard cover -4, firer on the move -4 (ruling A3)."""
    table = afv_tables().to_hit_modifiers
    mods: list[Modifier] = []
    if target_size:
        mods.append(("target size", target_size))
    if buttoned_or_under_fire:
        mods.append(table.buttoned_or_under_fire.pair)
    if target_fast:
        mods.append(table.target_fast.pair)
    if cover == "soft":
        mods.append(table.soft_cover.pair)
    elif cover == "hard":
        mods.append(table.hard_cover.pair)
    if firer_moving:
        mods.append(table.firer_moving.pair)
    return mods


def he_modifiers(buttoned_or_under_fire: bool, firer_moving: bool) -> list[Modifier]:
    """8.2 HE fire against infantry and soft targets (buildings too): buttoned or under fire
    last round -2, firer on the move -4."""
    table = afv_tables().he_modifiers
    flags = (
        (buttoned_or_under_fire, table.buttoned_or_under_fire),
        (firer_moving, table.firer_moving),
    )
    return [spec.pair for on, spec in flags if on]


@dataclass(frozen=True)
class AfvShot:
    """A vehicle's to-hit roll: the outcome and the natural 3d6."""

    outcome: ShotOutcome
    natural: int
    needed: int

    @property
    def hit(self) -> bool:
        """The shot struck its target."""
        return self.outcome in ("hit", "auto hit", "penetrates", "knocked out")

    @property
    def auto_penetrates(self) -> bool:
        """A natural 4 against an AFV: a vulnerable location, penetrating whatever the armour."""
        return self.outcome == "penetrates"

    @property
    def knocked_out(self) -> bool:
        """A natural 3 against an AFV: knocked out at once."""
        return self.outcome == "knocked out"

    @property
    def jammed(self) -> bool:
        """17 or 18: the weapon needs clearing."""
        return self.outcome in ("jammed", "jammed badly")


def afv_to_hit(
    ref: Referee,
    label: str,
    fire_control: int,
    modifiers: Sequence[Modifier],
    *,
    he: bool = False,
) -> AfvShot:
    """8.2 (ruling A4): 3d6 at most fire control + modifiers hits. Criticals: 3 KO, 4
    penetrates automatically, 5 automatic hit (an HE shot at a soft target: 3-5 automatic
    hits); 16 misfire, 17 jammed (INT), 18 jammed (INT -4)."""
    request = skill_test(label, fire_control, modifiers)
    roll = ref.roll(request)
    natural = sum(roll.faces)
    assert request.target is not None
    outcome: ShotOutcome
    critical = afv_tables().hit_criticals.get(natural)
    if critical is None:
        outcome = "hit" if roll.success else "miss"
    elif he and natural <= 5:
        outcome = "auto hit"
    else:
        outcome = critical
    if critical is not None:
        ref.emit("critical", f"{label}: natural {natural}, {outcome}")
    return AfvShot(outcome, natural, request.target)


def clear_jam(ref: Referee, label: str, badly: bool, intelligence: int = 12) -> bool:
    """8.2 (ruling A8): an action roll on INT (NCO 12) clears a jam; INT -4 after an 18."""
    mods: list[Modifier] = [("badly jammed", -4)] if badly else []
    return bool(ref.roll(skill_test(f"{label}: clear jam", intelligence, mods)).success)


# --- 8.2 where it hits and whether it penetrates -------------------------------------------------


@dataclass(frozen=True)
class Location:
    """Where a shot struck an AFV."""

    facing: Facing
    part: Part


def relative_bearing(target: Base, shooter: Point) -> float:
    """The shooter's bearing seen from the vehicle, relative to its hull's front, in [0, 360)."""
    return (bearing(target.centre, shooter) - target.facing) % 360.0


def facing_hit(shooter_bearing_relative_to_hull: float) -> Facing:
    """Ruling A5 (ours): front within 45 degrees of dead ahead, rear within 45 of dead astern
    (the lines count as front and rear), side between."""
    rule = afv_tables().hit_location
    angle = shooter_bearing_relative_to_hull % 360.0
    off_ahead = min(angle, 360.0 - angle)
    if off_ahead <= rule.front_within + EPS:
        return "front"
    if 180.0 - off_ahead <= rule.rear_within + EPS:
        return "rear"
    return "side"


def hit_location(
    ref: Referee,
    label: str,
    shooter_bearing_relative_to_hull: float,
    *,
    from_above: bool = False,
) -> Location:
    """Ruling A5 (ours; the rulebook's diagram is missing): the facing from the shooter's
    bearing (the top for fire from above), then a d6: 1-2 turret, 3-6 hull."""
    facing: Facing = "top" if from_above else facing_hit(shooter_bearing_relative_to_hull)
    face = ref.roll(RollRequest(label=f"{label}: hit location ({facing})", dice=1)).total
    part: Part = "turret" if face in afv_tables().hit_location.turret_on else "hull"
    return Location(facing, part)


def penetrates(penetration: int, armour: int) -> bool:
    """8.2 (ruling A6): "equal or more than the armour value" penetrates."""
    return penetration >= armour


# --- 8.2 damage ----------------------------------------------------------------------------------


def damage_table(
    ref: Referee, label: str, he_modifier: int, *, has_main_gun: bool = True
) -> DamageResult:
    """8.2 (ruling A7): 3d6 minus the weapon's HE modifier - 5 or less explodes, 6-15
    damaged (d6: 1-2 MGs, 3-4 immobilised, 5-6 main gun), 16 or more no damage."""
    table = afv_tables().damage_table
    mods: tuple[Modifier, ...] = (("HE modifier", -he_modifier),) if he_modifier else ()
    total = ref.roll(RollRequest(label=f"{label}: damage", dice=3, modifiers=mods)).total
    result: DamageResult
    if total <= table.explodes_at_most:
        result = "explodes"
    elif total >= table.no_damage_at_least:
        result = "no damage"
    else:
        face = ref.roll(RollRequest(label=f"{label}: what is damaged", dice=1)).total
        what = table.damaged[face]
        if what == "main gun" and not has_main_gun:
            what = "mgs"
        result = (
            "damaged: mgs"
            if what == "mgs"
            else "damaged: immobilised"
            if what == "immobilised"
            else "damaged: main gun"
        )
    ref.emit("vehicle damage", f"{label}: {result}")
    return result


def explosion_victims(vehicle_base: Base, bases: Mapping[str, Base]) -> list[str]:
    """8.2 (ruling A7): the figures and vehicles within 3" (edge to edge) of an exploding
    vehicle; each takes 4d6 damage (`explosion_dice`)."""
    radius = afv_tables().damage_table.explosion_radius
    return [name for name, base in bases.items() if within(vehicle_base, base, radius)]


def explosion_dice() -> int:
    """8.2: an exploding vehicle does 4d6 damage."""
    return afv_tables().damage_table.explosion_dice


def crew_tests(result: DamageResult | None) -> bool:
    """8.2 (ruling A8): the crew tests morale after any hit (None: it did not penetrate)
    unless the vehicle exploded."""
    return result != "explodes"


def crew_morale(ref: Referee, label: str, modifiers: Sequence[Modifier]) -> bool:
    """8.2 Risk to crew: the crew tests as an NCO - 3d6 at most LDR 12 plus the modifiers."""
    ldr = afv_tables().crew_morale_ldr
    return bool(ref.roll(skill_test(f"{label}: crew morale", ldr, modifiers)).success)


def crew_reaction(passed: bool, immobilised: bool) -> CrewReaction:
    """8.2: a failed test sends the vehicle backwards towards its own table edge at half
    speed; an immobilised vehicle whose crew fails is abandoned."""
    if passed:
        return "carry on"
    return "abandon" if immobilised else "reverse"


# --- 8.2 over-running ----------------------------------------------------------------------------


def overrun_swept(vehicle_base: Base, path: Path) -> Polygon:
    """The ground the vehicle's footprint covers along `path` (ruling A9): its starting
    footprint, and on each leg the hull of its footprints at both ends facing along it."""
    shapes = [vehicle_base.shape()]
    for start, end in zip(path.points, path.points[1:], strict=False):
        heading = bearing(start, end)
        shapes.append(
            shapely.union(
                vehicle_base.moved(start, heading).shape(),
                vehicle_base.moved(end, heading).shape(),
            ).convex_hull
        )
    swept: Polygon = shapely.union_all(shapes)
    return swept


def overrun_victims(vehicle_base: Base, path: Path, bases: Mapping[str, Base]) -> list[str]:
    """8.2 (ruling A9): the bases the vehicle touches or moves through along `path`."""
    return bases_under(overrun_swept(vehicle_base, path), bases, partly=True)


def overrun_check(ref: Referee, label: str, dex: int | None) -> bool:
    """8.2 Over-running: whether the piece survives - a character rolls 3d6 at most its DEX
    or is killed; a static piece (`dex` None: an anti-tank gun) is destroyed, no roll."""
    if dex is None:
        ref.emit("overrun", f"{label}: a static piece is destroyed")
        return False
    return bool(ref.roll(skill_test(f"{label}: avoid being over-run", dex)).success)


# --- 8.2 close assault ---------------------------------------------------------------------------


def close_assault_bonus(weapon: str) -> int:
    """The factor one character adds by the weapon used (ruling A10; others add 0)."""
    table = afv_tables().close_assault
    name = " ".join(weapon.lower().split())
    name = table.aliases.get(name, name)
    return table.bonus.get(name, 0)


def one_shot(weapon: str) -> bool:
    """Whether a close-assault weapon is spent once used (ruling A12)."""
    table = afv_tables().close_assault
    name = " ".join(weapon.lower().split())
    return table.aliases.get(name, name) in table.one_shot


def close_assault_factor(weapons: Iterable[str]) -> int:
    """8.2 Close assault: base factor 5 plus each assaulting character's weapon bonus."""
    return afv_tables().close_assault.base + sum(close_assault_bonus(w) for w in weapons)


def close_assault(ref: Referee, label: str, factor: int) -> CloseAssaultResult:
    """8.2 (ruling A10): 3d6 at most the factor immobilises the AFV; a natural 3 (the
    critical hit) knocks it out; 16-18 always fail."""
    table = afv_tables().close_assault
    request = skill_test(f"{label}: close assault", factor)
    roll = ref.roll(request)
    natural = sum(roll.faces)
    result: CloseAssaultResult
    if natural in table.knocks_out_on:
        result = "knocked out"
    elif natural in table.always_fail or not roll.success:
        result = "no effect"
    else:
        result = "immobilised"
    ref.emit("close assault", f"{label}: {result}")
    return result
