"""Army lists: units, models' weapons and special rules, as data (PREPARATION, SPECIAL RULES).

Special rules are written as in the rulebook: `AP(1)`, `Tough(3)`, `Fast`. Each is checked
against data/special_rules.yaml: its name, whether it takes a rating, and whether it
belongs on a unit or on a weapon.
"""

from __future__ import annotations

import re
from functools import cache, cached_property
from importlib import resources
from typing import Literal, get_args

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from warbench.rulesets.gff import spells_checks

_RULE = re.compile(r"^\s*([A-Za-z]+)\s*(?:\(\s*([+-]?\d+)\s*\))?\s*$")

ALIASES = {"Poison": "Bane"}
"""Older names of this rulebook's rules (ours, GFF-R31): Army Forge's books up to v3.3 call
Bane "Poison", with the same text ("ignores Regeneration, re-roll unmodified Defense 6s")."""

UNGRANTED = {
    "Ambush": "it acts at deployment, before any spell",
    "Scout": "it acts at deployment, before any spell",
    "Hero": "it belongs to the army's organisation",
    "Caster": "spell tokens come with the unit's profile",
    "Tough": "it sets how many wounds each model takes, which a spell may not change in play",
    "Limited": "it restricts a weapon, never a spell's gift",
    "Indirect": "it decides which targets may be shot, settled before a spell could act",
}
"""Special rules a spell may not grant (ours, GFF-R31), with why."""

MARKABLE = frozenset(
    {"AP", "Bane", "Blast", "Deadly", "Reliable", "Rending", "Surge", "Thrust", "Unstoppable"}
    | {"Relentless", "Furious"}
)
"""Rules a mark on an enemy unit may give the units attacking it (ours, GFF-R31): the
weapon rules that act in an attack, and Relentless and Furious."""

HARMFUL = frozenset({"Slow", "Immobile"})
"""Granted rules that hinder: without a side, a spell granting one targets enemies."""


class RuleSpec(BaseModel):
    """One entry of the special rules reference."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rated: bool
    where: Literal["unit", "weapon", "both"]


@cache
def special_rules() -> dict[str, RuleSpec]:
    """The rulebook's special rules by name."""
    text = resources.files(__package__).joinpath("data/special_rules.yaml").read_text()
    return {k: RuleSpec.model_validate(v) for k, v in yaml.safe_load(text).items()}


class Rule(BaseModel):
    """A special rule with its rating, if it takes one: `AP(2)` is Rule(name="AP", rating=2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    rating: int | None = None

    def __str__(self) -> str:
        return self.name if self.rating is None else f"{self.name}({self.rating})"

    @classmethod
    def parse(cls, text: str, where: Literal["unit", "weapon", "any"]) -> Rule:
        """Read `AP(1)` and check it exists, is rated as the reference says, and fits `where`
        (`any`: a rule a spell grants, unit or weapon). Older names are read as today's."""
        match = _RULE.match(text)
        if not match:
            raise ValueError(f"'{text}' is not a special rule; write Name or Name(X)")
        name, rating = ALIASES.get(match.group(1), match.group(1)), match.group(2)
        known = special_rules()
        spec = known.get(name)
        if spec is None:
            raise ValueError(f"unknown special rule '{name}'; known: {', '.join(known)}")
        if spec.rated and rating is None:
            raise ValueError(f"{name} needs a rating, like {name}(1)")
        if not spec.rated and rating is not None:
            raise ValueError(f"{name} takes no rating")
        if where != "any" and spec.where not in (where, "both"):
            raise ValueError(f"{name} is a {spec.where} rule, not a {where} rule")
        return cls(name=name, rating=None if rating is None else int(rating))


def _ratings(rules: tuple[Rule, ...]) -> dict[str, int]:
    """Rule name → rating (0 for an unrated rule); the first rule of a name counts."""
    found: dict[str, int] = {}
    for rule in rules:
        found.setdefault(rule.name, 0 if rule.rating is None else rule.rating)
    return found


class Weapon(BaseModel):
    """A weapon: range in inches (0 = melee), attacks, and its special rules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    range: int = Field(ge=0)
    attacks: int = Field(ge=1)
    rules: tuple[Rule, ...] = ()

    @field_validator("rules", mode="before")
    @classmethod
    def _parse_rules(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            return tuple(Rule.parse(v, "weapon") if isinstance(v, str) else v for v in value)
        return value

    @property
    def melee(self) -> bool:
        """Range 0 marks a melee weapon."""
        return self.range == 0

    @cached_property
    def _ratings(self) -> dict[str, int]:
        """Its rules by name, looked up once (the first of a name counts)."""
        return _ratings(self.rules)

    def rating(self, name: str) -> int | None:
        """The rating of special rule `name` on this weapon (0 for an unrated rule), or None."""
        return self._ratings.get(name)


Trigger = Literal[
    "charge",
    "charged",
    "melee",
    "shooting",
    "attack",
    "hits",
    "wounds",
    "shot_at",
    "move",
    "morale",
    "activation",
    "attacked",
    "once",
]
TRIGGERS: tuple[str, ...] = get_args(Trigger)
ActionName = Literal["hold", "advance", "rush", "charge"]
ACTIONS: tuple[str, ...] = get_args(ActionName)
"""The actions an `only` spell may leave a unit (GFF-R35)."""
"""What uses up a granted rule or move lasting until `next` time (GFF-R31): the unit's next
charge (as charger), being charged, melee (either side), shooting, attacking (melee or
shooting), Defense rolls against hits, wounds reaching it, being the target of shooting, a
move (Advance, Rush or Charge), a morale test, the end of its next activation, being
attacked (shot at or in melee; for marks); `once`: the next time each granted rule acts
(`spell_grants.ONCE`)."""


def ungranted(name: str) -> str:
    """The error for a rule no spell may grant, naming those it may."""
    allowed = ", ".join(n for n in special_rules() if n not in UNGRANTED)
    return f"a spell may not grant {name}: {UNGRANTED[name]}; spells may grant: {allowed}"


class Equipment(BaseModel):
    """`count` models of the unit carry `weapon`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    count: int = Field(ge=1)
    weapon: Weapon


class Spell(BaseModel):
    """A spell of a Caster: its token cost, range, and what it does on a 4+.

    Effects (ours; the rulebook leaves spells to army lists; GFF-R27, R28, R31): `hits` —
    each target enemy unit takes `hits` hits with the spell's weapon rules; `shield` — the
    friendly target gets +1 Defense until the end of the round; `focus` — the friendly
    target gets +1 to hit until the end of the round; `to_hit`, `defense`, `morale` — each
    target unit (friendly or enemy, `side`) gets `value` (±) to its hit rolls (`when`: any,
    melee or shooting), its Defense rolls or its morale tests, until the end of the round
    (`lasts: round`) or only the next time it applies (`lasts: next`); `rule` — each target
    gets the special `rules` (weapon rules on its melee or ranged weapons by `when`, AP(±X)
    added to its weapons' AP), `move` — its moves get `value` inches on Advance and `far` on
    Rush and Charge; `range` — its ranged weapons reach `value` inches further; `mark` — the
    enemy target gives the units attacking it the `rules` (melee, shooting or both by
    `when`); `attacks` — each weapon of the target (melee, ranged or both by `when`) gets
    `value` more attacks; these five until the end of the round or until `trigger` next
    happens to it. `shift` — the caster's player may move each target by up to `value`
    inches at once, in a straight line (a move out of turn, GFF-R33); `test` — each target
    takes a morale test, and if it fails, `then`: Shaken (or routs if already Shaken, as
    the rulebook's morale test), fatigued, or moved by up to `value` inches by the caster's
    player, or it takes `wounds` wounds or `hits` hits (GFF-R35); a move out of turn goes
    in any direction or straight `toward` the nearest enemy, toward the caster or away
    from it (GFF-R35). `wounds` — each target
    takes `wounds` wounds, no Defense rolled (Regeneration still saves); `dice` — `rolled`
    D3 or D6 are rolled for the hits or wounds, `hits` or `wounds` then added to them;
    `dangerous` — each target takes a dangerous terrain test (a die per model, or per its
    Tough value; each 1 a wound); `only` — the target may only take
    the `actions` (hold, advance, rush, charge; idle is always allowed) in its next
    activation or until the end of the round; `difficult` — its moves count as through
    difficult terrain (no more than 6" in total) the next time it moves or until the end of
    the round (GFF-R35). `targets` is how many different units one casting may pick;
    `everyone` — every unit of the side within `range` in sight of the caster instead;
    `area` — the units of the targets' side (of both sides with `area_all`) within `area`
    inches of each target take the effect too (`area_hits` hits each, for a `hits` spell,
    when it says a number of its own); `point` — the caster picks a point within `range`
    in its sight instead of a unit, and the units of the side (both with `area_all`)
    within `area` inches of it are the targets (GFF-R35). `reroll` — the target re-rolls
    the `reroll` dice (ones, failed, sixes, successes) of its `roll` (to_hit, defense);
    `in_dangerous` — it counts as in dangerous terrain; `when` hold or advance ties a
    shooting effect to that action; `template` — a point spell's hits or wounds go to each
    model under a template that wide (GFF-R37, `spells_checks`). GFF-R39: up to six dice,
    `less` taken from and `times` multiplying the rolled count (D3-1, D6x2); wounds with
    Bane, Deadly or Unstoppable; `must` — a move out of turn the full inches; `toward` the
    nearest objective; a re-roll of morale tests (`roll`); `when` charge ties a melee effect
    to the unit's charge; a failed test's `then` may also be a limit on actions (`only`),
    difficult terrain or a dangerous terrain test.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    cost: int = Field(ge=1, le=6)
    range: int = Field(ge=1)
    effect: Literal[
        "hits",
        "shield",
        "focus",
        "to_hit",
        "defense",
        "morale",
        "rule",
        "move",
        "range",
        "mark",
        "attacks",
        "shift",
        "test",
        "wounds",
        "only",
        "difficult",
        "dangerous",
        "reroll",
        "in_dangerous",
    ]
    hits: int = Field(default=0, ge=0)
    wounds: int = Field(default=0, ge=0, le=12)
    dice: Literal[0, 3, 6] = 0
    rolled: int = Field(default=1, ge=1, le=6)
    less: int = Field(default=0, ge=0, le=6)
    times: int = Field(default=1, ge=1, le=3)
    actions: tuple[ActionName, ...] = ()
    rules: tuple[Rule, ...] = ()
    targets: int = Field(default=1, ge=1, le=6)
    side: Literal["friendly", "enemy"] | None = None
    value: int = Field(default=0, ge=-12, le=12)
    far: int = Field(default=0, ge=-12, le=12)
    when: Literal["any", "melee", "shooting", "hold", "advance", "charge"] = "any"
    lasts: Literal["round", "next"] = "round"
    trigger: Trigger | None = None
    then: Literal[
        "shaken", "fatigued", "shift", "wounds", "hits", "only", "difficult", "dangerous"
    ] = "shaken"
    toward: Literal["any", "enemy", "caster", "away", "objective"] = "any"
    must: bool = False
    everyone: bool = False
    area: int = Field(default=0, ge=0, le=24)
    area_hits: int = Field(default=0, ge=0)
    area_all: bool = False
    point: bool = False
    reroll: Literal["ones", "failed", "sixes", "successes"] | None = None
    roll: Literal["to_hit", "defense", "morale"] = "to_hit"
    template: float = Field(default=0.0, ge=0, le=12)

    @field_validator("rules", mode="before")
    @classmethod
    def _parse_rules(cls, value: object, info: ValidationInfo) -> object:
        granting = info.data.get("effect") in ("rule", "mark")
        where: Literal["any", "weapon"] = "any" if granting else "weapon"
        if isinstance(value, list | tuple):
            return tuple(Rule.parse(v, where) if isinstance(v, str) else v for v in value)
        return value

    @model_validator(mode="after")
    def _hits_need_a_count(self) -> Spell:
        damage = self.then if self.effect == "test" else self.effect
        if damage == "hits" and self.hits < 1 and not self.dice:
            raise ValueError(f"spell {self.name}: a 'hits' spell needs hits >= 1 or dice")
        if damage == "wounds" and self.wounds < 1 and not self.dice:
            raise ValueError(f"spell {self.name}: a 'wounds' spell needs wounds >= 1 or dice")
        limit = self.then if self.effect == "test" else self.effect
        if limit == "only" and not 0 < len(set(self.actions)) < len(ACTIONS):
            raise ValueError(
                f"spell {self.name}: an 'only' spell allows some of {', '.join(ACTIONS)}"
            )
        if self.effect in ("to_hit", "defense", "morale") and not 1 <= abs(self.value) <= 3:
            raise ValueError(f"spell {self.name}: a '{self.effect}' spell needs a value (±1-3)")
        if self.effect in ("rule", "mark"):
            if not self.rules:
                raise ValueError(f"spell {self.name}: a '{self.effect}' spell needs rules to grant")
            for rule in self.rules:
                if rule.name in UNGRANTED:
                    raise ValueError(ungranted(rule.name))
        if self.effect == "mark":
            if self.side == "friendly":
                raise ValueError(f"spell {self.name}: a mark goes on enemy units")
            for rule in self.rules:
                if rule.name not in MARKABLE:
                    raise ValueError(
                        f"a mark may not give attackers {rule.name}; it may give: "
                        + ", ".join(sorted(MARKABLE))
                    )
        if self.effect == "move" and not (self.value or self.far):
            raise ValueError(f"spell {self.name}: a 'move' spell needs a value or far (inches)")
        if self.effect == "range" and not self.value:
            raise ValueError(f"spell {self.name}: a 'range' spell needs a value (inches)")
        if self.effect == "attacks" and not 1 <= self.value <= 3:
            raise ValueError(f"spell {self.name}: an 'attacks' spell needs a value (+1 to +3)")
        if (self.effect == "shift" or self.then == "shift") and not 1 <= self.value <= 12:
            raise ValueError(f'spell {self.name}: a move out of turn needs inches (1" to 12")')
        if self.area and self.everyone:
            raise ValueError(f"spell {self.name}: an area goes around chosen targets, not all")
        if (self.rolled > 1 or self.less or self.times > 1) and not self.dice:
            raise ValueError(
                f"spell {self.name}: 'rolled', 'less' and 'times' need dice (dice: 3 or 6)"
            )
        if self.effect in ("wounds", "dangerous") and self.side == "friendly":
            raise ValueError(f"spell {self.name}: a '{self.effect}' spell goes to enemy units")
        if self.toward != "any" and not (self.effect == "shift" or self.then == "shift"):
            raise ValueError(f"spell {self.name}: a direction needs a move out of turn")
        if (self.area_all or self.point) and not self.area:
            raise ValueError(f"spell {self.name}: area_all and point need an area (inches)")
        if self.point and (self.area_hits or self.targets != 1):
            raise ValueError(f"spell {self.name}: a point has one area, no other targets")
        if self.area_hits and not (self.area and self.effect == "hits"):
            raise ValueError(f"spell {self.name}: area_hits needs a 'hits' spell with an area")
        spells_checks.check(self)  # re-rolls, lasting dangerous terrain, conditions, templates
        lasting = ("rule", "move", "range", "mark", "attacks", "only", "difficult")
        if self.effect in lasting and (self.lasts == "next") != bool(self.trigger):
            raise ValueError(
                f"spell {self.name}: a '{self.effect}' spell lasting until next time needs a "
                f"trigger ({', '.join(TRIGGERS)}), and one lasting the round none"
            )
        return self

    @property
    def mean_count(self) -> float:
        """The mean hits or wounds it deals a target (the dice's mean when rolled)."""
        fixed = self.hits or self.wounds
        if not self.dice:
            return float(fixed)
        return (fixed + self.rolled * (self.dice + 1) / 2 - self.less) * self.times

    @property
    def on_enemies(self) -> bool:
        """Whether its targets are enemy units: `hits` and `wounds` always; others by `side`,
        or when no side is given by whether they hinder (a − modifier or move, Slow, Immobile,
        AP(−X), a forced morale test, an `only` or `difficult` spell); `shield` and `focus`
        help friends."""
        if self.effect in ("hits", "mark", "wounds", "dangerous"):
            return True
        if self.side is not None:
            return self.side == "enemy"
        if self.effect in ("test", "only", "difficult", "in_dangerous"):
            return True
        if self.effect == "reroll":  # "must re-roll successful blocks" hinders
            return self.reroll in ("sixes", "successes")
        if self.effect == "rule":
            return any(r.name in HARMFUL or (r.rating or 0) < 0 for r in self.rules)
        return self.value < 0 or self.far < 0


class UnitProfile(BaseModel):
    """A unit as bought: models, Quality, Defense, equipment, rules, spells, points."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    size: int = Field(ge=1, le=40)
    quality: int = Field(ge=2, le=6)
    defense: int = Field(ge=2, le=6)
    cost: int = Field(ge=1)
    equipment: tuple[Equipment, ...] = ()
    rules: tuple[Rule, ...] = ()
    spells: tuple[Spell, ...] = ()
    base: float = Field(default=1.0, gt=0, description="base diameter in inches")

    @field_validator("rules", mode="before")
    @classmethod
    def _parse_rules(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            return tuple(Rule.parse(v, "unit") if isinstance(v, str) else v for v in value)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> UnitProfile:
        for item in self.equipment:
            if item.count > self.size:
                raise ValueError(
                    f"{self.name}: {item.count} x {item.weapon.name} but only {self.size} models"
                )
        if self.spells and self.rating("Caster") is None:
            raise ValueError(f"{self.name} has spells but no Caster(X) rule")
        return self

    @cached_property
    def _ratings(self) -> dict[str, int]:
        """Its rules by name, looked up once (the first of a name counts)."""
        return _ratings(self.rules)

    def rating(self, name: str) -> int | None:
        """The rating of unit rule `name` (0 for an unrated rule), or None if it lacks it."""
        return self._ratings.get(name)

    def has(self, name: str) -> bool:
        """Whether the unit has special rule `name`."""
        return name in self._ratings


class ArmyList(BaseModel):
    """An army: a name, a faction, and its units (several may share a profile name)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    faction: str
    units: tuple[UnitProfile, ...] = Field(min_length=1)
    authored: str = ""

    @property
    def points(self) -> int:
        """The army's total points."""
        return sum(u.cost for u in self.units)
