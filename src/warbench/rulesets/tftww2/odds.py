"""Exact odds of one ranged shot (4.0–4.5): the hit, each critical, and the damage against
the target's STR.

The shot's modifiers come from `combat.ranged_modifiers` (4.1), given the situation in the
rulebook's words (range, aimed or snap shot, prone, moved fast, cover); the roll is
`combat.to_hit` (3d6 at most the modified DEX, 4.4 criticals on the natural total) and the
hit is applied by `damage.hit_man` (4.5) — the functions `fire.shoot` calls in play — on a
real game of the two men, whose state is put back before every enumerated roll.

Stages: `hit_man` receives only whether the shot hit and its critical, so the damage is
enumerated once per critical (none, double damage, killed, ...) rather than once per to-hit
total.

Reading: the to-hit roll is read only by its natural total (`Reading.natural_total`); the
damage dice of an aimed shot are summed with no reduction per die (`shoot` gives none), so
they too are read by their total.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from warbench.core import registry
from warbench.core.dice import DiceSource, Reading, RollRequest
from warbench.core.odds import (
    DiceReferee,
    OddsReport,
    Options,
    OutcomeTable,
    Query,
    Stages,
    by_attack,
    choose_attack,
    marginal,
)
from warbench.rulesets.tftww2 import odds_afv, odds_area
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.combat import ranged_modifiers, to_hit
from warbench.rulesets.tftww2.damage import hit_man
from warbench.rulesets.tftww2.game import TFTGame
from warbench.rulesets.tftww2.profiles import Critical, characters, combat_tables, weapons

SHOT_OPTIONS: dict[str, str] = {
    "weapon": "the firer's weapon: Rifle, Automatic Rifle, Pistol, SMG, LMG, HMG (default Rifle)",
    "range": "edge-to-edge range in inches (default 10)",
    "shot": "aimed (Aim action), snap (Walk and Snap Shot) or plain (Pivot) (default aimed)",
    "firer": "the firer's troop type: Private, NCO or CO (default Private)",
    "firer-wounded": "yes if the firer is wounded: DEX halved (default no)",
    "target": "the target's troop type: Private, NCO or CO (default Private)",
    "wounded": "yes if the target is already wounded: STR halved (default no)",
    "prone": "yes if the target is prone (default no)",
    "moved-fast": "yes if the target moved fast (default no)",
    "cover": "none, soft or hard (default none)",
    "full-cover": "yes if the target is in full cover (default no)",
    "shot-last-round": "yes if the target shot last round (full cover then counts as "
    "partial) (default no)",
}
KINDS: dict[str, dict[str, str]] = {
    "shot": SHOT_OPTIONS,
    "afv": odds_afv.OPTIONS,
    "area": odds_area.OPTIONS,
}
OPTIONS: dict[str, str] = {
    "attack": "shot (a man's ranged shot, default), afv (an AFV's main gun at an AFV) or "
    "area (thrown or indirect fire: template, scatter, every man it touches)",
    **by_attack(KINDS),
}
HIT, CRITICAL, DAMAGE = "to hit", "critical", "damage vs STR"
NO_CRITICAL = "none"
MISS = "missed"
EFFECTS = [MISS, "no harm", "wounded", "incapacitated", "dead"]


def reading(request: RollRequest) -> Reading:
    """How this shot reads its dice (module docstring)."""
    return Reading.natural_total(request.sides)


def _game(firer_rank: str, target_rank: str) -> TFTGame:
    """The two men 20" apart on an open table, through the registry: the referee and state
    `hit_man` works on."""

    def man(x: float, y: float, rank: str) -> dict[str, object]:
        return {
            "rank": rank,
            "weapon": "Rifle",
            "close_weapon": "Attached Bayonet",
            "at": [x, y],
            "facing": 0.0,
        }

    def side(edge: str, name: str, men: list[dict[str, object]]) -> dict[str, object]:
        return {"edge": edge, "squads": [{"name": name, "men": men}]}

    data = {
        "id": "odds",
        "name": "Odds",
        "summary": "one shot",
        "width": 48,
        "depth": 48,
        "terrain": [],
        "sides": {
            "red": side("south", "red", [man(24, 4, firer_rank)]),
            "blue": side("north", "blue", [man(24, 24, target_rank)]),
        },
        "first": "red",
        "victory": {"kind": "casualties", "rounds": 8},
    }
    ruleset = registry.get("tftww2")
    game = ruleset.new_game(ruleset.scenario_from_data(data), 1)
    assert isinstance(game, TFTGame)
    return game


def query(options: Mapping[str, str]) -> Query:
    """The attack `options` describe: a shot, an AFV's gun (`odds_afv`) or area fire
    (`odds_area`)."""
    attack, given = choose_attack(options, KINDS, "shot")
    if attack == "afv":
        return odds_afv.query(given, _game("Private", "Private"))
    if attack == "area":
        return odds_area.query(given, _game)
    opts = Options(given, SHOT_OPTIONS)
    firearms = [w.name for w in weapons().values() if not w.melee and not w.thrown]
    weapon = weapons()[opts.choice("weapon", firearms, "Rifle")]
    distance = opts.number("range", 10, 0, 1000)
    shot = opts.choice("shot", ["aimed", "snap", "plain"], "aimed")
    ranks = list(characters())
    firer_rank = opts.choice("firer", ranks, "Private")
    target_rank = opts.choice("target", ranks, "Private")
    cover = opts.choice("cover", ["none", "soft", "hard"], "none")
    modifiers = ranged_modifiers(
        weapon=weapon,
        distance=distance,
        aimed=shot == "aimed",
        snap_shot=shot == "snap",
        target_prone=opts.flag("prone"),
        target_moved_fast=opts.flag("moved-fast"),
        cover=cover,  # type: ignore[arg-type]
        full_cover=opts.flag("full-cover"),
        target_shot_last_round=opts.flag("shot-last-round"),
    )
    game = _game(firer_rank, target_rank)
    base = game.state.copy()
    firer = next(m for m in base.men.values() if m.side == "red")
    target = next(m for m in base.men.values() if m.side == "blue")
    firer.wounded = opts.flag("firer-wounded")
    target.wounded = opts.flag("wounded")
    dex = attributes(firer).dexterity
    squad = base.squads[target.squad]
    game.state = base.copy()
    label = f"to hit: {firer_rank} {weapon.name} → {target_rank}"

    def aim(dice: DiceSource) -> tuple[bool, Critical | None]:
        result = to_hit(DiceReferee(dice), label, dex, modifiers)
        return result.hit, result.critical

    def damage(
        rolled: tuple[bool, Critical | None], dice: DiceSource
    ) -> tuple[bool, Critical | None, str]:
        hit, critical = rolled
        if not hit:
            return hit, critical, MISS
        man = replace(target)  # all that hit_man changes: the man and his squad's counts
        game.state.men[target.id] = man
        game.state.squads[target.squad] = replace(squad)
        game.dice = dice
        hit_man(game, man, weapon.damage_dice, critical=critical, by="firer")
        if not man.active:
            return hit, critical, man.status
        return hit, critical, "wounded" if man.wounded and not target.wounded else "no harm"

    strength = attributes(target).strength
    situation = {
        "firer": f"{firer_rank}{' (wounded)' if opts.flag('firer-wounded') else ''}, "
        f"DEX {dex}, {weapon.name} ({weapon.damage_dice}d6), {shot} shot",
        "target": f"{target_rank}{' (wounded)' if target.wounded else ''}, STR {strength}",
        "range": f'{distance:g}"',
    }
    title = f"{firer_rank}'s {weapon.name} at a {target_rank} {distance:g}\" away"
    return Query("tftww2", title, situation, Stages(aim, (damage,)), reading, _tables)


def _hit_name(hit: bool) -> str:
    return "hit" if hit else "miss"


def _tables(dist: Mapping[tuple[bool, Critical | None, str], Fraction]) -> list[OutcomeTable]:
    texts = {str(k): v for k, v in combat_tables().critical_text.items()}
    ranged = combat_tables().criticals["ranged"]
    order = [NO_CRITICAL, *dict.fromkeys(ranged.values())]
    criticals: dict[str, Fraction] = marginal(dist, lambda o: o[1] or NO_CRITICAL)
    return [
        OutcomeTable.of(
            HIT,
            marginal(dist, lambda o: o[0]),
            [True, False],
            name=lambda h: "hit" if h else "miss",
        ),
        OutcomeTable.of(
            CRITICAL,
            criticals,
            order,
            name=lambda c: NO_CRITICAL if c == NO_CRITICAL else f"{c}: {texts[c]}",
        ),
        OutcomeTable.of(DAMAGE, marginal(dist, lambda o: o[2]), EFFECTS),
    ]


def odds(options: Mapping[str, str]) -> OddsReport:
    """P(hit), P(each critical), and the damage against STR."""
    return query(options).report()
