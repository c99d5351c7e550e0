"""Odds, the previews and the AI's scoring read what spells put on the units (GFF-R31, R33,
R34): granted rules, extra attacks and marks act through the very play code
(`spell_grants.armed`, `marked`, `Unit.all_have`), in `warbench odds gff`, in the odds and
ranges shown in play, and in the AI's value of a shot or a charge."""

from __future__ import annotations

import math
import re
from collections import Counter
from fractions import Fraction

import pytest

from tests.odds_check import STANDARD_ERRORS, assert_monte_carlo_agrees, assert_readings_exact
from tests.rulesets.gff.position import blade, gun, play, position, profile
from warbench.core.dice import SeededDice
from warbench.core.preview import action_odds
from warbench.rulesets.gff.ai import FirefightAI
from warbench.rulesets.gff.armies import factions
from warbench.rulesets.gff.attacks import Context
from warbench.rulesets.gff.odds import (
    REMOVED,
    WOUNDS,
    expected_melee,
    expected_wounds,
    odds,
    query,
)
from warbench.rulesets.gff.odds_melee import query as melee_query
from warbench.rulesets.gff.preview import ranges
from warbench.rulesets.gff.state import SpellEffect

UNITS = {u.name: u for f in factions().values() for u in f.units}
BROTHERS = {"attacker": "Warden Brothers", "target": "Warden Brothers", "range": "12"}


def removed(opts: dict[str, str]) -> dict[str, Fraction]:
    """The models-removed distribution of the shooting `opts` describe."""
    return {row.name: row.probability for row in odds(opts).table(REMOVED).rows}


def mean_wounds(opts: dict[str, str]) -> Fraction:
    return sum(
        (int(row.name) * row.probability for row in odds(opts).table(WOUNDS).rows), Fraction(0)
    )


def test_granted_rules_change_the_odds_as_the_rules_say() -> None:
    """Against Defense 3+: AP(+1) and Rending each wound more; a mark of Rending on the
    target is the same as Rending granted to the shooter; Poison is Bane."""
    plain = mean_wounds(BROTHERS)
    ap = mean_wounds({**BROTHERS, "spells": "AP(+1)"})
    rending = mean_wounds({**BROTHERS, "spells": "Rending"})
    assert plain < rending < ap
    assert removed({**BROTHERS, "target-marks": "Rending"}) == removed(
        {**BROTHERS, "spells": "Rending"}
    )
    assert removed({**BROTHERS, "spells": "Poison"}) == removed({**BROTHERS, "spells": "Bane"})
    assert removed({**BROTHERS, "spells": "Bane"}) != removed(BROTHERS)
    assert "spells: Rending" in dict(odds({**BROTHERS, "spells": "Rending"}).situation)["attacker"]


def test_an_extra_attack_is_one_more_die_per_model() -> None:
    """3 Brothers with 1-attack rifles roll 3 dice; +1 attack makes it 6."""
    plain = odds(BROTHERS).requested[0].label
    more = odds({**BROTHERS, "spells": "+1 attack"}).requested[0].label
    assert "x3" in plain and "x6" in more


def test_target_spells_defend_it() -> None:
    """Regeneration granted to the target saves wounds; Stealth over 9" makes hits rarer."""
    assert mean_wounds({**BROTHERS, "target-spells": "Regeneration"}) < mean_wounds(BROTHERS)
    assert mean_wounds({**BROTHERS, "target-spells": "Stealth"}) < mean_wounds(BROTHERS)


def test_a_charge_reads_granted_rules_too() -> None:
    base = {"attacker": "Warden Brothers", "target": "Warden Brothers"}
    plain = melee_query(base).report().table("charged unit: wounds").rows
    furious = melee_query({**base, "spells": "+1 attack"}).report().table("charged unit: wounds")
    assert plain != furious.rows


@pytest.mark.parametrize(
    ("opts", "wanted"),
    [
        ({"spells": "Frenzy"}, "unknown special rule 'Frenzy'"),
        ({"spells": "Tough(3)"}, "may not grant Tough"),
        ({"target-marks": "Stealth"}, "a mark may not give attackers Stealth"),
        ({"target-marks": "+1 attack"}, "not a special rule"),
        ({"spells": "+4 to hit"}, "+N attacks, +K to hit or +K defense (1-3)"),
    ],
)
def test_bad_spell_options_say_what_is_allowed(opts: dict[str, str], wanted: str) -> None:
    with pytest.raises(ValueError, match=re.escape(wanted)):
        odds({**BROTHERS, **opts})


def test_readings_stay_exact_with_granted_bane() -> None:
    """Granted Bane re-rolls Defense 6s: the reading keeps them, as face by face."""
    assert_readings_exact(
        query({**BROTHERS, "models": "1", "target-models": "1", "spells": "Poison,Rending"})
    )


def test_exact_odds_with_a_granted_rule_agree_with_monte_carlo() -> None:
    """Rending granted by a spell: 20,000 plays of the same rule functions on seeded dice."""
    assert_monte_carlo_agrees(query({**BROTHERS, "spells": "Rending"}), seed=5, runs=20_000)


def test_exact_odds_with_a_granted_rule_agree_with_the_game_firing() -> None:
    """`fire r1 storm-rifle b1` with Rending granted, through `GFFGame.apply` on seeded dice:
    the models removed agree with the odds within 4 standard errors."""
    brothers = UNITS["Warden Brothers"]
    game = position([brothers], [brothers], {"r1": (24.0, 10.0), "b1": (24.0, 23.0)})
    game.state.units["r1"].effects = (SpellEffect("Rend", "rule", 0, rule="Rending"),)
    game.track_hashes = False
    game.dice = SeededDice(31)
    start = game.state.copy()
    runs = 3_000
    seen: Counter[int] = Counter()
    for _ in range(runs):
        game.state = start.copy()
        play(game, "hold r1", "fire r1 storm-rifle b1")
        seen[3 - len(game.state.units["b1"].models)] += 1
    for name, p in removed({**BROTHERS, "range": "12", "spells": "Rending"}).items():
        error = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(seen[int(name)] / runs - float(p)) <= STANDARD_ERRORS * error, name


def test_the_odds_shown_in_play_read_a_granted_rule() -> None:
    """The odds of `fire` in a game (played on the exact dice) change with a granted AP."""
    brothers = UNITS["Warden Brothers"]
    game = position([brothers], [brothers], {"r1": (24.0, 10.0), "b1": (24.0, 23.0)})
    play(game, "hold r1")
    fire = game.parse("fire r1 storm-rifle b1")
    plain = action_odds(game.ruleset, game, fire, "red").table("outcome").rows
    game.state.units["r1"].effects = (SpellEffect("Pierce", "rule", 2, rule="AP"),)
    pierced = action_odds(game.ruleset, game, fire, "red").table("outcome").rows
    unharmed = "no change on the table"
    assert next(r.probability for r in pierced if r.name == unharmed) < next(
        r.probability for r in plain if r.name == unharmed
    )


def test_the_ai_scores_a_shot_with_granted_rules_by_the_exact_expectation() -> None:
    """A lone Defense 2+ hero worth 4 times a Defense 6+ trooper: the AI shoots the trooper,
    unless a spell gave its rifle AP(+3) — then the hero (the exact mean from the play
    code: 6 attacks × 1/2 to hit × 2/3 unblocked)."""
    hero = profile("Hero", defense=2).model_copy(update={"cost": 40})
    trooper = profile("Trooper", defense=6)
    shooter = profile("Shooter", quality=4, weapons=[gun(attacks=6)])
    game = position([shooter], [hero, trooper], {"r1": (24, 10), "b1": (20, 20), "b2": (28, 20)})
    play(game, "hold r1")
    assert str(FirefightAI(1).choose(game, "red")) == "fire r1 rifle b2"
    unit = game.state.units["r1"]
    unit.effects = (SpellEffect("Pierce", "rule", 3, rule="AP"),)
    assert str(FirefightAI(1).choose(game, "red")) == "fire r1 rifle b1"
    weapon = unit.models[0].weapons[0]
    target = game.state.units["b1"]
    assert expected_wounds(unit, weapon, 6, target, Context(melee=False)) == pytest.approx(2.0)


def test_the_ai_scores_a_charge_with_granted_rules_by_the_exact_expectation() -> None:
    """As the shot above, in melee: with AP(+3) granted to its blades the AI ranks the
    charge at the hero above the charge at the trooper; without, below."""
    hero = profile("Hero", defense=2).model_copy(update={"cost": 40})
    trooper = profile("Trooper", defense=6)
    brute = profile("Brute", quality=4, weapons=[blade(attacks=6)])
    game = position([brute], [hero, trooper], {"r1": (24, 10), "b1": (20, 16), "b2": (28, 16)})

    def hero_first() -> bool:
        ranked = [str(a) for a in FirefightAI(1).ranked(game, "red")]
        return ranked.index("charge r1 b1") < ranked.index("charge r1 b2")

    assert not hero_first()
    game.state.units["r1"].effects = (SpellEffect("Pierce", "rule", 3, "melee", rule="AP"),)
    assert hero_first()
    brute_unit, target = game.state.units["r1"], game.state.units["b1"]
    assert expected_melee(brute_unit, target, charging=True) == pytest.approx(2.0)


def test_granted_impact_adds_its_hits_to_the_value_of_a_charge() -> None:
    """Impact(2) on one model: 2 dice, each 2+ a hit, each unblocked by Defense 6+ on 1-5."""
    brute = profile("Brute", weapons=[blade()])
    game = position([brute], [profile("Trooper", defense=6)], {"r1": (24, 10), "b1": (24, 12)})
    charger, target = game.state.units["r1"], game.state.units["b1"]
    plain = expected_melee(charger, target, charging=True)
    charger.effects = (SpellEffect("Ram", "rule", 2, rule="Impact"),)
    assert expected_melee(charger, target, charging=True) == pytest.approx(plain + 2 * 25 / 36)
    assert expected_melee(charger, target, charging=False) == pytest.approx(plain)


def test_the_ais_kept_charge_value_follows_what_the_exact_value_reads() -> None:
    """GFF-R40: the AI keeps its exact value of a charge only while nothing
    `expected_melee` reads has changed: after the target takes wound markers, is Shaken,
    gets Shield and the charger Focus or fatigue, it is the fresh value again (the key
    once left out markers, Shaken, Shield and Focus, so Shield and Focus were stale)."""
    brute = profile("Brute", size=3, weapons=[blade()])
    game = position([brute], [profile("Big", defense=5, rules=["Tough(3)"])], {})
    charger, target = game.state.units["r1"], game.state.units["b1"]
    charger.effects = (SpellEffect("Ram", "rule", 2, rule="Impact"),)
    ai = FirefightAI(1)
    seen = {round(ai._melee_value(charger, target), 9)}
    for change in ("wounds", "shaken", "shield", "focus", "fatigued"):
        if change == "wounds":
            target.models[-1].wounds = 2
        elif change in ("shaken", "shield"):
            setattr(target, change, True)
        else:
            setattr(charger, change, True)
        fresh = expected_melee(charger, target, charging=True)
        assert ai._melee_value(charger, target) == pytest.approx(fresh), change
        seen.add(round(fresh, 9))
    assert len(seen) == 4  # markers and Shaken do not; Shield, Focus and fatigue each do


def test_the_ranges_shown_in_play_add_range_spells() -> None:
    shooter = profile("Shooter", weapons=[gun(range=24)])
    game = position([shooter], [profile()], {"r1": (24, 10), "b1": (24, 40)})
    assert ranges(game, "r1") == [("Rifle", 24.0)]
    game.state.units["r1"].effects = (SpellEffect("Far", "range", 6, "shooting"),)
    assert ranges(game, "r1") == [("Rifle", 30.0)]


def test_modifier_spells_go_on_the_rolls_they_modify() -> None:
    """+1 to hit on the shooter and -1 Defense on the target, each named "a spell" among the
    roll's modifiers, and each wounding more."""
    report = odds({**BROTHERS, "spells": "+1 to hit", "target-spells": "-1 defense"})
    mods = {m for r in report.requested for m in r.modifiers}
    assert ("a spell", 1) in mods and ("a spell", -1) in mods
    assert mean_wounds({**BROTHERS, "spells": "+1 to hit"}) > mean_wounds(BROTHERS)
    assert mean_wounds({**BROTHERS, "target-spells": "-1 defense"}) > mean_wounds(BROTHERS)


CHARGE_BASE = {"attacker": "Warden Brothers", "target": "Warden Brothers"}


def _melee_table(opts: dict[str, str], table: str) -> dict[str, Fraction]:
    rows = melee_query({**CHARGE_BASE, **opts}).report().table(table).rows
    return {row.name: row.probability for row in rows}


@pytest.mark.parametrize("effect", ["+1 to hit", "AP(+1)", "re-roll failed to hit"])
def test_a_spell_when_charging_acts_on_the_charge_alone(effect: str) -> None:
    """GFF-R39: in a charge, "X when charging" is X for the charger's strikes; in shooting
    it does nothing; the charged unit's strike back is the same either way."""
    tied = _melee_table({"spells": f"{effect} when charging"}, "charged unit: wounds")
    assert tied == _melee_table({"spells": effect}, "charged unit: wounds")
    assert tied != _melee_table({}, "charged unit: wounds")
    assert removed({**BROTHERS, "spells": f"{effect} when charging"}) == removed(BROTHERS)
    situation = dict(
        melee_query({**CHARGE_BASE, "spells": f"{effect} when charging"}).report().situation
    )
    assert "when charging" in situation["charger"]


def test_a_mark_when_charging_acts_on_the_charge_alone() -> None:
    tied = _melee_table({"target-marks": "AP(+1) when charging"}, "charged unit: wounds")
    assert tied == _melee_table({"target-marks": "AP(+1)"}, "charged unit: wounds")
    assert tied != _melee_table({}, "charged unit: wounds")
    assert removed({**BROTHERS, "target-marks": "AP(+1) when charging"}) == removed(BROTHERS)


def test_exact_odds_with_a_spell_when_charging_agree_with_monte_carlo() -> None:
    assert_monte_carlo_agrees(
        melee_query({**CHARGE_BASE, "spells": "AP(+1) when charging"}), seed=11, runs=20_000
    )


def test_only_attack_spells_may_be_tied_to_a_charge() -> None:
    with pytest.raises(ValueError, match="'when charging' goes with"):
        odds({**BROTHERS, "spells": "+1 attack when charging"})
