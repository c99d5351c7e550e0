"""The exact source's readings, the odds stages, report, options and the Ruleset hook."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb
from types import SimpleNamespace

import pytest

from warbench.core import registry
from warbench.core.dice import (
    DiceSource,
    Read,
    Reading,
    RollRequest,
    ScriptedDice,
    exact_outcomes,
    reduced_outcomes,
    resolve,
)
from warbench.core.odds import (
    DiceReferee,
    Enumerator,
    Local,
    OddsReport,
    Options,
    OutcomeTable,
    Query,
    Stages,
    by_attack,
    choose_attack,
    marginal,
    needs_text,
    parse_pairs,
)
from warbench.core.ruleset import Ruleset

POOL = RollRequest(
    "pool",
    dice=4,
    read=Read.COUNT_AT_LEAST,
    target=4,
    modifiers=(("cover", -1),),
    always_succeed=frozenset({6}),
    always_fail=frozenset({1}),
)


# -- readings: classes of rolls with multinomial weights ------------------------------------


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize(
    "reading",
    [
        Reading.unordered(),
        Reading.natural_total(),
        Reading.keyed(6, lambda f: f >= 4),
        Reading.keyed(6, lambda f: (f >= 5, f == 6), "present"),
    ],
)
def test_reduced_outcomes_weigh_every_ordered_roll_once(dice: int, reading: Reading) -> None:
    """Each ordered roll falls in exactly one representative's class: the weights are the
    sizes of the classes, which partition all 6^dice rolls."""
    rolls, counts = reduced_outcomes(dice, 6, reading)
    assert sum(counts) == 6**dice
    assert all(len(r) == dice and list(r) == sorted(r) for r in rolls)

    def key(roll: tuple[int, ...]) -> object:
        classes = sorted(reading.classes[f - 1] for f in roll)
        if reading.summary == "total":
            return sum(roll)
        if reading.summary == "present":
            return frozenset(classes)
        return tuple(classes)

    sizes = Counter(key(roll) for roll in itertools.product(range(1, 7), repeat=dice))
    assert {key(r): n for r, n in zip(rolls, counts, strict=True)} == dict(sizes)


def test_ten_dice_pool_has_eleven_counts_not_60_million_rolls() -> None:
    request = RollRequest("ten", dice=10, read=Read.COUNT_AT_LEAST, target=4)
    rolls, counts = reduced_outcomes(10, 6, Reading.by_success(request))
    assert len(rolls) == 11
    assert sum(counts) == 6**10
    odds = exact_outcomes(
        lambda dice: resolve(request, dice.faces(request)).successes,
        lambda r: Reading.by_success(r),
    )
    assert odds[5] == Fraction(252, 1024)  # C(10,5) / 2^10


def test_by_success_merges_naturals_and_keeps_the_faces_asked_for() -> None:
    # 4+ at -1: faces 1-4 fail (1 always), 5 succeeds, 6 always succeeds
    assert len(set(Reading.by_success(POOL).classes)) == 2
    kept = Reading.by_success(POOL, keep=frozenset({6}))
    assert len(set(kept.classes)) == 3
    assert kept.classes[5] != kept.classes[4]
    total = RollRequest("2d6", dice=2)
    assert Reading.by_success(total) == Reading.unordered()


def test_reading_must_cover_every_face() -> None:
    with pytest.raises(ValueError, match="d8 needs 8 face classes"):
        reduced_outcomes(2, 8, Reading.unordered(6))


def _pool_then_total(dice: DiceSource) -> tuple[int, int]:
    hits = resolve(POOL, dice.faces(POOL)).successes or 0
    damage = RollRequest("damage", dice=max(1, hits))
    return hits, resolve(damage, dice.faces(damage)).total


@pytest.mark.parametrize(
    "policy",
    [
        lambda r: Reading.by_success(r) if r.read is Read.COUNT_AT_LEAST else None,
        lambda r: Reading.by_success(r) if r.read is Read.COUNT_AT_LEAST else Reading.unordered(),
        lambda r: Reading.by_success(r) if r.target else Reading.natural_total(),
    ],
)
def test_readings_give_the_face_by_face_odds(policy: object) -> None:
    brute = exact_outcomes(_pool_then_total)
    assert exact_outcomes(_pool_then_total, policy) == brute  # type: ignore[arg-type]
    assert sum(brute.values()) == 1


def _by_success_or_total(request: RollRequest) -> Reading:
    return Reading.by_success(request) if request.target else Reading.natural_total()


def test_reading_fewer_walks() -> None:
    walks: list[int] = []

    def counted(dice: DiceSource) -> tuple[int, int]:
        walks.append(1)
        return _pool_then_total(dice)

    exact_outcomes(counted)
    brute = len(walks)
    walks.clear()
    exact_outcomes(
        counted, lambda r: Reading.by_success(r) if r.target else Reading.natural_total()
    )
    assert len(walks) < brute / 20


def test_exact_dice_probability_is_a_fraction_of_ordered_rolls() -> None:
    odds = exact_outcomes(
        lambda dice: resolve(POOL, dice.faces(POOL)).successes, lambda r: Reading.by_success(r)
    )
    # each die succeeds on 5 or 6: binomial(4, 1/3)
    assert odds == {
        k: comb(4, k) * Fraction(1, 3) ** k * Fraction(2, 3) ** (4 - k) for k in range(5)
    }


# -- stages -------------------------------------------------------------------------------

FIRST = RollRequest("first", read=Read.AT_LEAST, target=4)


def _first(dice: DiceSource) -> bool:
    return bool(resolve(FIRST, dice.faces(FIRST)).success)


def _second(hit: bool, dice: DiceSource) -> int:
    if not hit:
        return 0
    request = RollRequest("damage", dice=2)
    return resolve(request, dice.faces(request)).total


def test_stages_equal_one_experiment_and_sample_plays_them_in_turn() -> None:
    stages = Stages(_first, (_second,))
    staged = stages.exact(Enumerator())
    whole = exact_outcomes(lambda dice: _second(_first(dice), dice))
    assert staged == whole
    assert staged[0] == Fraction(1, 2)
    assert staged[7] == Fraction(1, 2) * Fraction(6, 36)
    assert stages.sample(ScriptedDice([5, 3, 4])) == 7
    assert stages.sample(ScriptedDice([2])) == 0


def test_a_local_stage_is_enumerated_once_per_part_and_equals_the_whole() -> None:
    """The damage reads only whether the first roll hit, not the tag handed along with it:
    as a `Local` stage it is enumerated once per hit/miss, and gives the same odds."""
    calls = Counter[bool]()

    def tagged(dice: DiceSource) -> tuple[bool, int]:
        hit = _first(dice)
        return hit, dice.faces(RollRequest("tag"))[0]

    def damage(hit: bool, dice: DiceSource) -> int:
        calls[hit] += 1
        return _second(hit, dice)

    local = Local(lambda state: state[0], damage, lambda state, dealt: (state[1], dealt))
    staged = Stages(tagged, (local,)).exact(Enumerator())
    plain = Stages(tagged, (lambda state, dice: (state[1], _second(state[0], dice)),))
    assert staged == plain.exact(Enumerator())
    assert calls == Counter({True: 36, False: 1})  # once per part, not per tag
    assert local((True, 5), ScriptedDice([3, 4])) == (5, 7)


def test_by_attack_says_what_a_shared_key_takes_under_each_kind() -> None:
    merged = by_attack(
        {"shot": {"range": "inches", "aimed": "yes/no"}, "area": {"range": "to aim"}}
    )
    assert merged == {"range": "attack=shot: inches; attack=area: to aim", "aimed": "yes/no"}


def test_enumerator_keeps_each_kind_of_request_once() -> None:
    enumerator = Enumerator()
    enumerator.advance(enumerator.outcomes(_first), _second)
    labels = [r.label for r in enumerator.requested.values()]
    assert labels == ["first", "damage"]
    first = next(iter(enumerator.requested.values()))
    assert first.needs == "d6 4+"


def test_needs_text_for_every_read() -> None:
    assert needs_text(POOL) == "each d6 4+"
    assert needs_text(RollRequest("a", read=Read.OVER, target=3)) == "d6 more than 3"
    assert needs_text(RollRequest("a", dice=3, read=Read.AT_MOST, target=12)) == "3d6 12 or less"
    assert needs_text(RollRequest("a", dice=2)) == "2d6 total"


def test_dice_referee_rolls_like_the_game() -> None:
    ref = DiceReferee(ScriptedDice([6, 1, 5, 2]))
    roll = ref.roll(POOL)
    assert roll.successes == 2
    ref.emit("note", "ignored")


# -- report -------------------------------------------------------------------------------


def _query() -> Query:
    def tables(dist: dict[int, Fraction]) -> list[OutcomeTable]:
        return [
            OutcomeTable.of("damage", dist),
            OutcomeTable.of("hit", marginal(dist, lambda d: d > 0), [True, False], name=str),
        ]

    return Query("test", "a test", {"who": "me"}, Stages(_first, (_second,)), None, tables)  # type: ignore[arg-type]


def test_report_and_json() -> None:
    report = _query().report()
    assert isinstance(report, OddsReport)
    assert report.probability("hit", "True") == Fraction(1, 2)
    data = report.to_json()
    assert data["situation"] == {"who": "me"}
    assert [r["label"] for r in data["rolls"]] == ["first", "damage"]
    row = data["outcomes"]["damage"][0]
    assert row == {"outcome": "0", "probability": "1/2", "float": 0.5, "percent": 50.0}
    with pytest.raises(KeyError, match="no table 'nope'; tables: damage, hit"):
        report.table("nope")
    with pytest.raises(KeyError, match="'hit' has no outcome 'maybe'"):
        report.probability("hit", "maybe")


def test_outcome_table_lists_zero_rows_and_rejects_missing_order() -> None:
    table = OutcomeTable.of("t", {1: Fraction(1)}, [0, 1])
    assert [(r.name, r.probability) for r in table.rows] == [("0", Fraction(0)), ("1", Fraction(1))]
    assert table.rows[1].percent == 100.0
    with pytest.raises(ValueError, match=r"outcomes \[2\] are not in the order \[1\]"):
        OutcomeTable.of("t", {1: Fraction(1, 2), 2: Fraction(1, 2)}, [1])


# -- options ------------------------------------------------------------------------------

KNOWN = {"range": "inches", "cover": "yes/no", "arc": "front or flank", "n": "count"}


def test_options_read_each_kind() -> None:
    opts = Options({"range": "12.5", "cover": "Yes", "arc": "FLANK", "n": "3"}, KNOWN)
    assert opts.number("range", 0, 0, 100) == 12.5
    assert opts.flag("cover") is True
    assert opts.choice("arc", ["front", "flank"], "front") == "flank"
    assert opts.integer("n", 1, 1, 5) == 3
    assert opts.text("missing", "default") == "default"
    assert Options({}, KNOWN).flag("cover", True) is True


@pytest.mark.parametrize(
    ("given", "read", "message"),
    [
        ({"range": "far"}, lambda o: o.number("range", 0, 0, 9), "range=far is not a number"),
        ({"range": "nan"}, lambda o: o.number("range", 0, 0, 9), "range=nan is not a number"),
        ({"range": "12"}, lambda o: o.number("range", 0, 0, 9), "takes 0 to 9"),
        ({"n": "2.5"}, lambda o: o.integer("n", 1, 1, 5), "n=2.5 is not a whole number"),
        ({"cover": "maybe"}, lambda o: o.flag("cover"), "cover takes yes or no"),
        ({"arc": "rear"}, lambda o: o.choice("arc", ["front", "flank"], "front"), "front, flank"),
    ],
)
def test_options_name_what_is_wrong_and_what_is_allowed(
    given: dict[str, str], read: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        read(Options(given, KNOWN))  # type: ignore[operator]


def test_unknown_option_lists_the_allowed() -> None:
    with pytest.raises(ValueError, match=r"unknown option speed; allowed: range, cover, arc, n"):
        Options({"speed": "9"}, KNOWN)


def test_choose_attack_names_the_kind_an_option_belongs_to() -> None:
    """A key of another kind of attack was "unknown" with a list that lacked `attack`."""
    kinds = {"shot": {"range": ""}, "area": {"men": "", "range": ""}}
    assert choose_attack({"attack": "area", "men": "1"}, kinds, "shot") == ("area", {"men": "1"})
    assert choose_attack({"range": "3"}, kinds, "shot") == ("shot", {"range": "3"})
    with pytest.raises(ValueError, match=r"^men is an option of attack=area, not of attack=shot "):
        choose_attack({"men": "1"}, kinds, "shot")
    with pytest.raises(ValueError, match=r"unknown option speed; allowed: attack, range, men"):
        choose_attack({"speed": "1"}, kinds, "shot")


def test_parse_pairs() -> None:
    assert parse_pairs(["Range=25", "arc= front"]) == {"range": "25", "arc": "front"}
    with pytest.raises(ValueError, match="'25' is not key=value"):
        parse_pairs(["25"])
    with pytest.raises(ValueError, match="option range is given twice"):
        parse_pairs(["range=1", "range=2"])
    with pytest.raises(ValueError, match="option range is given twice"):
        parse_pairs(["Range=1", "range=2"])  # the later one silently won


# -- the Ruleset hook ---------------------------------------------------------------------


def test_every_ruleset_with_odds_answers_its_default_query() -> None:
    """Any registered ruleset that lists odds options (fftt too, once it does) answers a
    query on its defaults with tables that each sum to 1, and rejects an unknown option."""
    offering = [rs for rs in registry.all_rulesets() if rs.odds_options()]
    assert {"ttt", "fft3", "gff", "tftww2"} <= {rs.id for rs in offering}
    for rs in offering:
        report = rs.odds({})
        assert report.ruleset == rs.id
        assert report.requested
        for table in report.tables:
            assert sum(row.probability for row in table.rows) == 1, (rs.id, table.title)
        with pytest.raises(ValueError, match="unknown option"):
            rs.odds({"no-such-option": "1"})


def test_ruleset_without_odds_says_so() -> None:
    plain = SimpleNamespace(name="No Odds")
    assert Ruleset.odds_options(plain) == {}  # type: ignore[arg-type]
    with pytest.raises(NotImplementedError, match="No Odds offers no odds yet"):
        Ruleset.odds(plain, {})  # type: ignore[arg-type]
