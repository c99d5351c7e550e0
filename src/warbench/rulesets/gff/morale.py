"""MORALE: at the end of each round, an army down to half or less of its starting units
tests every unit; a failed test makes a unit Shaken, or routs it if it already was. Spells
may re-roll the test's die (GFF-R39)."""

from __future__ import annotations

from warbench.core.geometry import edge_distance
from warbench.rulesets.gff import spell_rerolls
from warbench.rulesets.gff.attacks import spell_modifiers, spend_spells
from warbench.rulesets.gff.quality import Referee, die_succeeds, quality_test, successes
from warbench.rulesets.gff.spell_grants import use_up
from warbench.rulesets.gff.state import State, Unit

HERO_REACH = 12.0


def broken(state: State, side: str) -> bool:
    """Down to half or less of its starting units (units in reserve still count)."""
    alive = len(state.side_units(side, deployed=False))
    return alive * 2 <= state.starting_units[side]


def morale_quality(state: State, unit: Unit) -> tuple[int, str]:
    """The Quality the unit tests with: a non-Shaken friendly Hero within 12" lends its own."""
    best, source = unit.profile.quality, ""
    for hero in state.side_units(unit.side):
        if hero is unit or not hero.profile.has("Hero") or hero.shaken:
            continue
        reach = min(edge_distance(a, b) for a in hero.bases() for b in unit.bases())
        if reach <= HERO_REACH + 1e-9 and hero.profile.quality < best:
            best, source = hero.profile.quality, f" (Hero {hero.name})"
    return best, source


def morale_test(ref: Referee, state: State, unit: Unit) -> bool:
    """Quality test; a Shaken unit always fails; Fearless turns a failure into a pass on 4+."""
    if unit.shaken:
        ref.emit("morale", f"{unit.name} is Shaken and fails its morale test")
        passed = False
    else:
        quality, source = morale_quality(state, unit)
        mods = tuple(spell_modifiers(unit, "morale"))
        note = spell_rerolls.note(unit, "morale", "any") if unit.effects else ""
        request = quality_test(f"morale: {unit.name}{source}{note}", quality, mods)
        roll = ref.roll(request)
        passed = successes(roll) > 0
        if note:  # re-rolled by spells (GFF-R39), before Fearless
            kept, again = spell_rerolls.reroll(ref, unit, request, roll.faces, "morale", "any")
            passed = any(die_succeeds(request, face) for face in [*kept, *again])
        spend_spells(unit, "morale")  # "their next morale test" (GFF-R28)
    if not passed and unit.all_have("Fearless"):
        roll = ref.roll(quality_test(f"Fearless: {unit.name}", 4))
        passed = successes(roll) > 0
    use_up(unit, "morale")  # "next time they take a morale test" (GFF-R31)
    return passed


def end_of_round_morale(ref: Referee, state: State) -> None:
    """Test every unit of each broken army; fail → Shaken, already Shaken → routs."""
    for side in ("red", "blue"):
        if not broken(state, side):
            continue
        ref.emit("morale", f"{side} is down to half or less of its units: morale tests")
        for unit in state.side_units(side):
            was_shaken = unit.shaken
            if not morale_test(ref, state, unit):
                fail_morale(ref, unit, was_shaken)


def fail_morale(ref: Referee, unit: Unit, was_shaken: bool) -> None:
    """A failed morale test: the unit is Shaken, or routs if it already was."""
    if was_shaken:
        unit.models.clear()
        ref.emit("rout", f"{unit.name} routs and is removed as destroyed")
    else:
        unit.shaken = True
        ref.emit("shaken", f"{unit.name} is Shaken")
