"""6.0 THROWN AND INDIRECT FIRE: who rolls, the hit roll with its criticals, scatter, the
area effect template and the damage it does (6.0-6.4). Table 6.1, the 6.2 modifiers, the
6.3 scatter distances and the 6.4 cover reductions are data (`data/indirect.yaml`).

Rulings (the scan is garbled or silent; each reading and why):

- I1 Area of Effect is a radius in inches. 4.3 gives the grenade a "4 inch diameter area
  effect" where table 6.1 gives it 2: both hold only if 6.1's figure is the radius, so every
  row is read so (heavy artillery covers 16" across).
- I2 Damage is a number of d6 (6.4 takes hits off "each dice rolled"). Smoke does no damage.
- I3 Rows 5-7 each name an artillery piece and a bomb; they share the row and differ only in
  scatter (6.3: artillery 3d6, bombs 4d6). "-" in the On/Off column (grenades) means thrown.
  "Both" (heavy mortar) may be deployed on or off the table; the engine says which.
- I4 Who rolls (6.0): a thrown weapon, the thrower's DEX. Indirect fire, INT: the spotter's
  when a spotter directs the shot (always so off the table, where the firer is not on it;
  a CO with radio contact is then the spotter), else the firer's own.
- I5 Modifiers change the number needed, not the roll: 3d6 must be at most skill + the
  (negative) 6.2 modifiers, so the request's target is the modified skill and the label
  names the skill and each modifier.
- I6 Criticals (4.4, 6.0): a natural 3-5 is an automatic hit for every thrown and indirect
  weapon (6.0: "a critical hit is treated as an automatic hit"; no double damage or instant
  kill, those are 4.4's effects on a single target). The natural is kept: a 3 from indirect
  fire (not thrown) collapses a targeted building (6.0). A natural 16-18 always fails:
  off-table artillery is then not fired at all (6.0); on-table weapons follow 4.4 (16
  misfire, 17 jammed - an action roll on INT to clear, 18 jammed - INT -4); a thrown
  grenade cannot misfire or jam, so 16-17 is a plain miss that scatters and 18 is 4.4's
  "grenade explodes in hand" (the template is centred on the thrower).
- I7 AP factor is not explained by the rulebook. Our reading: the weapon's penetration
  against an AFV the template touches, compared with the armour at a location rolled with
  `afv.hit_location(from_above=True)` (top armour), per 8.2 "equal or more penetrates".
- I8 Scatter direction (6.3): 1d6, 1 is directly away from the firer (for an off-table
  weapon, away from the friendly table edge); 2-6 go on clockwise in 60 degree steps (2 is
  60 degrees clockwise of "away", 4 is straight back towards the firer). The caller gives
  the bearing from the firer (or the friendly edge) to the aim point.
- I9 Damage in cover (6.4): the reduction is per die and no die goes below 0. Hard cover
  towards the centre takes 4 per die; inside a building that has not collapsed takes 6 per
  die, which replaces (does not add to) the hard cover 4. A scattered shot's damage is
  halved, rounded down, after those reductions. Hard cover towards the centre: the segment
  from the template's centre to the target base's centre runs through a hard cover piece
  (touching a corner or edge is not through it); a piece holding the template's centre
  gives no cover against it.
- I10 HE from AFVs (8.2) halves damage only when the shot scattered: 8.2's "the damage is
  halved" follows its pointer to 6.3 and restates 6.3's "scattered shots only cause half
  damage"; reading it as always-halved would make a 75mm tank shell half a 75mm field gun's
  and leave a scattered tank shell halved twice.
- I12 Ours, in table 6.1's form (the rulebook names them only in 5.0's morale): a flame
  thrower is a thrown weapon of its carrier (DEX, 6.0), reach 6", 4 dice over a 1" radius
  (its 18 is the fuel tank going up in his hands, as a grenade's), a flame attack; rockets
  are an off-table battery like medium artillery (7 dice, radius 6, AP 4) that scatters as
  bombs do (4d6: rockets are less accurate than guns), a rocket attack; a bomb is an air
  attack (a bomb run), artillery and mortars an artillery attack.
- I13 Ours: a flame thrower carries fuel for 3 bursts (`shots` in table 6.1's data); each
  attack uses one, a critical failure included (the trigger was pulled), and an empty one
  cannot attack again. Mortars have no such limit (their ammunition is off the table).
- I11 Damage is rolled separately for each base the template touches (each has its own
  cover), after the template is placed - before the hit roll, as 6.0 says - and scattered.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal, Protocol

import shapely
import yaml
from pydantic import BaseModel, ConfigDict, Field
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from warbench.core.dice import Modifier, Read, Roll, RollRequest
from warbench.core.geometry import EPS, Base, Point, bases_under, circle_template

ScatterKind = Literal["thrown", "mortar", "afv_he", "artillery", "bomb"]
"""A 6.3 distance row: thrown 1d6, mortars and HE AFV weapons 2d6, artillery 3d6, bombs 4d6."""

AttackKind = Literal["grenade", "artillery", "air", "rocket", "flame"]
"""What a template counts as for 5.0's morale: artillery, air and flame attacks make the
units they touch test; air, flame and rocket attacks give -4 (ruling M2); grenades neither."""

Placement = Literal["thrown", "on", "both", "off"]
"""Table 6.1's On or Off Table column ("-" for grenades = thrown)."""

IndirectOutcome = Literal[
    "hit", "auto hit", "miss", "no shot", "misfire", "jammed", "jammed badly", "explodes in hand"
]

CRITICAL_HITS = frozenset({3, 4, 5})
CRITICAL_FAILURES = frozenset({16, 17, 18})


class Referee(Protocol):
    """What rules code needs of the game: its dice and its log."""

    def roll(self, request: RollRequest, visible_to: frozenset[str] | None = None) -> Roll:
        """Roll through the game's dice, logged."""
        ...

    def emit(self, kind: str, text: str, visible_to: frozenset[str] | None = None) -> None:
        """Log an event."""
        ...


# --- data ----------------------------------------------------------------------------------------


class IndirectWeapon(BaseModel):
    """One weapon of table 6.1 (a two-weapon row gives two entries), or one of ours in its
    form (`row` None: the flame thrower and rockets, ruling I12)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    row: int | None = Field(ge=1, le=7)
    damage_dice: int | None = Field(ge=1)
    area: float = Field(gt=0)
    table: Placement
    ap_factor: int | None = Field(ge=1)
    scatter: ScatterKind
    attack: AttackKind = "artillery"
    reach: float | None = Field(default=None, gt=0)  # inches; None = anywhere the spotter sees
    shots: int | None = Field(default=None, ge=1)  # a load (a flame thrower's fuel, I13)

    @property
    def thrown(self) -> bool:
        """A thrown weapon (grenades): rolled on the thrower's DEX."""
        return self.table == "thrown"

    @property
    def smoke(self) -> bool:
        """No damage: smoke."""
        return self.damage_dice is None


class ModifierSpec(BaseModel):
    """A (reason, value) modifier of a rulebook table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str = Field(min_length=1)
    value: int

    @property
    def pair(self) -> Modifier:
        """As a (reason, value) pair."""
        return self.reason, self.value


class IndirectModifiers(BaseModel):
    """6.2 Modifiers to hit."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    firer_under_fire: ModifierSpec
    spotter_under_fire: ModifierSpec
    through_window: ModifierSpec


class CoverReduction(BaseModel):
    """6.4 Targets in cover: hits taken off each die."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hard_cover_toward_centre: int = Field(ge=0)
    intact_building: int = Field(ge=0)


class IndirectTables(BaseModel):
    """Everything of data/indirect.yaml."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    weapons: dict[str, IndirectWeapon]
    modifiers: IndirectModifiers
    scatter_dice: dict[ScatterKind, int]
    cover_reduction: CoverReduction


@cache
def indirect_tables() -> IndirectTables:
    """Tables 6.1-6.4 from data/indirect.yaml."""
    text = resources.files(__package__).joinpath("data/indirect.yaml").read_text()
    return IndirectTables.model_validate(yaml.safe_load(text))


def indirect_weapon(key: str) -> IndirectWeapon:
    """A 6.1 weapon by its key (`grenade`, `light_mortar`, `heavy_bomb`, ...)."""
    weapons = indirect_tables().weapons
    if key not in weapons:
        raise KeyError(f"no indirect weapon '{key}'; known: {', '.join(weapons)}")
    return weapons[key]


# --- 3d6 against a characteristic ----------------------------------------------------------------


def skill_test(label: str, skill: int, modifiers: Sequence[Modifier] = ()) -> RollRequest:
    """3d6 at most `skill` changed by `modifiers` (ruling I5): the target is the modified
    skill; the label shows the skill and every modifier."""
    target = skill + sum(value for _, value in modifiers)
    mods = "".join(f", {value:+d} {reason}" for reason, value in modifiers)
    return RollRequest(
        label=f"{label} (skill {skill}{mods})", dice=3, read=Read.AT_MOST, target=target
    )


# --- 6.0 who fires, and whether they can ---------------------------------------------------------


def indirect_modifiers(
    firer_under_fire: bool, spotter_under_fire: bool, through_window: bool
) -> list[Modifier]:
    """6.2 Modifiers to hit: firer under fire last round -2, spotter under fire last round
    -2, throwing through a window -6."""
    table = indirect_tables().modifiers
    flags = (
        (firer_under_fire, table.firer_under_fire),
        (spotter_under_fire, table.spotter_under_fire),
        (through_window, table.through_window),
    )
    return [spec.pair for on, spec in flags if on]


@dataclass(frozen=True)
class WhoRolls:
    """Whose characteristic the hit roll is made on (6.0)."""

    who: Literal["thrower", "firer", "spotter"]
    attribute: Literal["DEX", "INT"]


def off_table(weapon: IndirectWeapon, deployed_off_table: bool | None = None) -> bool:
    """Whether `weapon` fires from off the table (6.1): "Off" always, thrown and "On" never,
    "Both" as deployed (`deployed_off_table` must then be given)."""
    if weapon.table == "off":
        return True
    if weapon.table == "both":
        if deployed_off_table is None:
            raise ValueError(f"{weapon.name} may be on or off the table: say which")
        return deployed_off_table
    return False


def who_rolls(weapon: IndirectWeapon, *, off_table: bool, spotted: bool) -> WhoRolls:
    """6.0: "DEX is used for Thrown weapons to hit where INT of the spotter or firer is used
    for indirect fire weapons" (ruling I4: the spotter's INT when a spotter directs the
    shot, always so off the table)."""
    if weapon.thrown:
        return WhoRolls("thrower", "DEX")
    if off_table or spotted:
        return WhoRolls("spotter", "INT")
    return WhoRolls("firer", "INT")


def fire_problem(
    weapon: IndirectWeapon,
    has_spotter: bool,
    co_with_radio: bool,
    *,
    off_table: bool | None = None,
) -> str | None:
    """Why `weapon` cannot fire, or None (6.0, 6.1): "All off-table weapons require an on
    table spotter or CO with radio contact"; a weapon fires only from where 6.1 allows.
    `off_table` None means where 6.1 puts it (a "Both" weapon must say)."""
    if off_table is None:
        if weapon.table == "both":
            return f"{weapon.name} may fire from on or off the table: say which"
        off_table = weapon.table == "off"
    if off_table and weapon.table in ("thrown", "on"):
        return f"{weapon.name} fires only from on the table (6.1)"
    if not off_table and weapon.table == "off":
        return f"{weapon.name} fires only from off the table (6.1)"
    if off_table and not (has_spotter or co_with_radio):
        return (
            f"{weapon.name} is off the table: it needs an on-table spotter or a CO with "
            "radio contact (6.0)"
        )
    return None


# --- 6.0 the hit roll ----------------------------------------------------------------------------


@dataclass(frozen=True)
class IndirectResult:
    """The hit roll of a thrown or indirect weapon: its outcome and the natural 3d6."""

    outcome: IndirectOutcome
    natural: int
    needed: int
    thrown: bool

    @property
    def hit(self) -> bool:
        """The template stays where it was placed."""
        return self.outcome in ("hit", "auto hit")

    @property
    def scatters(self) -> bool:
        """A miss: the template scatters (6.3)."""
        return self.outcome == "miss"

    @property
    def critical_hit(self) -> bool:
        """A natural 3-5 (4.4)."""
        return self.natural in CRITICAL_HITS

    @property
    def collapses_building(self) -> bool:
        """6.0: a critical hit of 3 from indirect fire collapses a targeted building
        (ruling I6: not from a thrown weapon)."""
        return self.natural == 3 and not self.thrown


def resolve_indirect(
    ref: Referee,
    label: str,
    skill: int,
    modifiers: Sequence[Modifier],
    *,
    off_table: bool,
    thrown: bool = False,
) -> IndirectResult:
    """6.0 and 4.4: 3d6 at most the modified DEX (thrown) or INT (indirect) hits. A natural
    3-5 is an automatic hit; 16-18 always fails: off-table artillery is not fired, an
    on-table weapon misfires (16) or jams (17, 18), a grenade misses (16, 17) or explodes in
    the hand (18) (ruling I6)."""
    if off_table and thrown:
        raise ValueError("a thrown weapon is never off the table")
    request = skill_test(label, skill, modifiers)
    roll = ref.roll(request)
    natural = sum(roll.faces)
    assert request.target is not None
    outcome: IndirectOutcome
    if natural in CRITICAL_HITS:
        outcome = "auto hit"
    elif natural in CRITICAL_FAILURES:
        if off_table:
            outcome = "no shot"
        elif thrown:
            outcome = "explodes in hand" if natural == 18 else "miss"
        elif natural == 16:
            outcome = "misfire"
        else:
            outcome = "jammed" if natural == 17 else "jammed badly"
    else:
        outcome = "hit" if roll.success else "miss"
    if outcome not in ("hit", "miss"):
        ref.emit("critical", f"{label}: natural {natural}, {outcome}")
    return IndirectResult(outcome, natural, request.target, thrown)


# --- 6.3 scatter ---------------------------------------------------------------------------------


def scatter_direction(face: int, firer_bearing: float) -> float:
    """6.3 (ruling I8): the compass bearing the template moves on a d6 `face`: 1 directly
    away from the firer (`firer_bearing`, from the firer to the aim point), then 60 degrees
    clockwise for each pip more."""
    if not 1 <= face <= 6:
        raise ValueError(f"a scatter direction is a d6, got {face}")
    return (firer_bearing + 60.0 * (face - 1)) % 360.0


def scatter(
    ref: Referee, label: str, kind: ScatterKind, firer_bearing: float
) -> tuple[float, float]:
    """6.3 Scatter: 1d6 for the direction (ruling I8), then the distance in inches: thrown
    1d6, mortars and HE AFV weapons 2d6, artillery 3d6, bombs 4d6. Returns the (dx, dy) by
    which the template's centre moves."""
    direction_roll = ref.roll(RollRequest(label=f"{label}: scatter direction", dice=1))
    direction = scatter_direction(direction_roll.total, firer_bearing)
    dice = indirect_tables().scatter_dice[kind]
    distance = ref.roll(RollRequest(label=f"{label}: scatter distance ({kind})", dice=dice)).total
    ref.emit("scatter", f'{label}: scatters {distance}" on bearing {direction:.0f}')
    rad = math.radians(direction)
    return distance * math.sin(rad), distance * math.cos(rad)


# --- 6.0 the template ----------------------------------------------------------------------------


def template(centre: Point, area: float) -> Polygon:
    """6.0: the area effect template, a circle of radius `area` (ruling I1), kept per centre
    and radius (shapes are immutable; a mortar often fires again at men who stayed put)."""
    key = (centre[0], centre[1], area)
    found = _TEMPLATES.get(key)
    if found is None:
        if len(_TEMPLATES) >= 10_000:
            _TEMPLATES.clear()
        found = _TEMPLATES[key] = circle_template(centre, area)
    return found


_TEMPLATES: dict[tuple[float, float, float], Polygon] = {}


def touched(template: BaseGeometry, bases: Mapping[str, Base]) -> list[str]:
    """6.0: "All bases of characters and vehicles that the area effect template touches" are
    attacked - partly under it or touching its edge (`bases_under`; round bases, the men's,
    by their centres' distances from the template worked out at once)."""
    if not bases or any(base.depth is not None for base in bases.values()):
        return bases_under(template, bases, partly=True)
    gaps = shapely.distance(template, shapely.points([base.centre for base in bases.values()]))
    return [
        name
        for (name, base), gap in zip(bases.items(), gaps.tolist(), strict=True)
        if gap <= base.width / 2 + EPS
    ]


# --- 6.4 damage ----------------------------------------------------------------------------------


def cover_reduction(hard_cover_toward_centre: bool, in_intact_building: bool) -> int:
    """6.4: hits taken off each die (ruling I9): 6 inside an intact building, else 4 in
    hard cover towards the centre, else 0."""
    table = indirect_tables().cover_reduction
    if in_intact_building:
        return table.intact_building
    if hard_cover_toward_centre:
        return table.hard_cover_toward_centre
    return 0


def area_damage(
    ref: Referee,
    label: str,
    dice: int,
    *,
    scattered: bool,
    hard_cover_toward_centre: bool,
    in_intact_building: bool,
) -> int:
    """6.3-6.4: roll `dice` d6 of damage; hard cover towards the centre takes 4 off each die,
    being inside a building that has not collapsed 6 (never below 0 a die); a scattered shot
    does half, rounded down (ruling I9)."""
    if dice < 1:
        raise ValueError(f"{label}: damage needs at least one die, got {dice}")
    roll = ref.roll(RollRequest(label=f"{label}: damage", dice=dice))
    cut = cover_reduction(hard_cover_toward_centre, in_intact_building)
    damage = sum(max(0, face - cut) for face in roll.faces)
    if scattered:
        damage //= 2
    notes = [f"-{cut} a die for cover"] if cut else []
    if scattered:
        notes.append("halved: scattered")
    ref.emit("damage", f"{label}: {damage} damage" + (f" ({'; '.join(notes)})" if notes else ""))
    return damage


def hard_cover_toward_centre(
    target: Base, centre: Point, cover_polygons: Iterable[BaseGeometry]
) -> bool:
    """6.4 (ruling I9): whether hard cover lies towards the template's centre - the segment
    from `centre` to the target base's centre runs through one of `cover_polygons` (not
    along an edge or through a corner only) that does not hold `centre` itself."""
    if math.dist(target.centre, centre) <= EPS:
        return False
    segment = shapely.LineString([centre, target.centre])
    origin = shapely.Point(centre)
    for cover in cover_polygons:
        if cover.covers(origin):
            continue
        through = float(segment.intersection(cover).length)
        along_edge = float(segment.intersection(cover.boundary).length)
        if through - along_edge > EPS:
            return True
    return False
