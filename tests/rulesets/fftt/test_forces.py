"""FORCES: every profile as tabled in the rulebook, and the other tables."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from warbench.rulesets.fftt.profiles import Forces, forces, tables

# race, key: FPs, actions, wounds, weapon skill, short, long, movement — the rulebook's rows
TABLED = {
    ("marines", "engineer"): (3, 2, 3, 8, 30, 40, 10),
    ("marines", "sniper"): (2, 1, 2, 9, 40, 60, 10),
    ("marines", "grunt"): (1, 3, 2, 7, 20, 30, 10),
    ("marines", "medic"): (1, 3, 2, 6, 10, 20, 10),
    ("marines", "grenadier"): (2, 2, 2, 6, 10, 20, 10),
    ("machina", "tank"): (4, 2, 4, 7, 30, 40, 8),
    ("machina", "mt"): (3, 1, 3, 5, 50, 70, 8),
    ("machina", "scanner"): (1, 2, 2, None, 0, 0, 8),
    ("machina", "terminator"): (1, 2, 2, 8, 20, 30, 8),
    ("machina", "sentinel"): (1, 3, 1, 7, 20, 30, 15),
    ("insectoids", "queen"): (4, 3, 5, None, 0, 0, 6),
    ("insectoids", "stinger"): (1, 3, 2, 6, 20, 30, 10),
    ("insectoids", "acid_spitter"): (1, 3, 2, 4, 10, 20, 10),
    ("insectoids", "razor_dog"): (1, 4, 2, None, 0, 0, 10),
    ("insectoids", "drone"): (1, 4, 1, None, 0, 0, 15),
    ("insectoids", "bomb_bug"): (1, 3, 2, None, 0, 0, 10),
}


@pytest.mark.parametrize(("race", "key"), sorted(TABLED))
def test_every_profile_as_tabled(race: str, key: str) -> None:
    p = forces()[race][key]
    assert (p.fp, p.actions, p.wounds, p.skill, p.short, p.long, p.move) == TABLED[race, key]


def test_every_profile_is_tabled_and_the_hqs_are_ours() -> None:
    shipped = {(race, key) for race, profiles in forces().items() for key in profiles}
    assert shipped - set(TABLED) == {("marines", "hq"), ("machina", "hq")}
    for race in ("marines", "machina"):
        hq = forces()[race]["hq"]
        assert (hq.fp, hq.wounds, hq.hq, hq.explodes, hq.no_damage_in_hth) == (
            1,
            4,
            True,
            "grenade",
            True,
        )


def test_special_rule_flags() -> None:
    f = forces()
    assert {k for r in f.values() for k, p in r.items() if p.double} == {
        "engineer",
        "sniper",
        "tank",
    }
    assert f["machina"]["tank"].shots == 2
    assert {k for r in f.values() for k, p in r.items() if p.no_opportunity} == {"sniper", "mt"}
    assert {k for r in f.values() for k, p in r.items() if p.indirect} == {
        "grenadier",
        "acid_spitter",
    }
    hth = {k: p.hth for r in f.values() for k, p in r.items() if p.hth}
    assert hth == {
        "engineer": 2,
        "sniper": -1,
        "medic": -1,
        "sentinel": -1,
        "queen": 5,
        "razor_dog": 3,
        "drone": 1,
        "bomb_bug": -2,
    }


def test_tables() -> None:
    t = tables()
    assert [t.flank_entry[turn] for turn in range(2, 9)] == [6, 6, 5, 5, 4, 4, 1]
    assert t.bursts["grenade"] == ((1.5, 2), (3.0, 1))
    assert t.bursts["missile"] == ((3.0, 3), (6.0, 2), (9.0, 1))
    assert t.egg_table == {
        1: "stinger",
        2: "acid_spitter",
        3: "razor_dog",
        4: "drone",
        5: "bomb_bug",
    }
    mods = {k: m.value for k, m in t.fire_modifiers.items()}
    assert mods == {
        "long_range": -1,
        "cover": -1,
        "wounded": -1,
        "indirect": -1,
        "drone_or_sentinel": -1,
        "elite": 1,
    }


def test_a_profile_row_is_checked_as_the_model_checked_it() -> None:
    """`Profile` is a dataclass checked by pydantic: bounds and unknown flags refused."""
    row = {"name": "x", "fp": 1, "actions": 2, "wounds": 1, "skill": 7}
    row |= {"short": 10.0, "long": 20.0, "move": 10.0, "base": 2.5}
    assert Forces.model_validate({"races": {"r": {"x": row}}}).races["r"]["x"].armed
    for bad in ({"fp": 0}, {"move": 0.0}, {"short": -1.0}, {"flies": True}):
        with pytest.raises(ValidationError):
            Forces.model_validate({"races": {"r": {"x": row | bad}}})
