"""Spells for Caster(X) units imported from Army Forge.

Army Forge keeps spells in its army books (`spells`: `name`, `threshold` — the token cost —,
`effect`, `effectSkirmish` for Firefight, `type`), not on the units of a list; the list
export (`api/tts`) carries none. Rulings (ours, docs/rules/gff.md GFF-R27, R28, R31, R33,
R35, R37, R39):

- An export may carry them anyway: a list-level `spells` array (the army book's, for every
  Caster of the list) or a unit's own `spells` (for that unit only, instead of the list's).
  Each is read from its Firefight text (`effectSkirmish`, else `effect`) in the shapes of
  Army Forge's spell texts:
  `Target [up to] [N] friendly|enemy unit(s)|model(s) within R"` (the target clause; a model
  is read as its unit; without a side, hits go to enemies and a + helps friends) followed by
  `take(s) X hit(s) [each] [with RULES] [each]` or
  `get(s) ±K to hit|quality|defense|morale [test] [rolls] [WHEN] [DURATION]`, WHEN being
  `in melee` or `when shooting`, DURATION `until (the) end of (the) round` (also when none
  is given) or `next time it/they fight(s) [in melee] | shoot(s) | take(s) hits`, and
  `get(s) ±K to their next morale test [roll]`. A +1 to defense or to hit on one friendly
  unit until the end of the round is our `shield` or `focus`. Texts granting special rules,
  changing moves or range, and marks on enemies are read too (GFF-R31: `get Furious next
  time they charge`, `move +3" next time they Advance, or +6" next time they Rush/Charge`,
  `get +6" range next time they shoot`, Army Forge v3.5's `Up to two ... once`, `lose
  AP(1) when shooting once`, `have friendly units get Relentless against them once`); Poison
  is read as Bane. So are extra attacks, moves out of turn, forced morale tests and areas
  (GFF-R33: `get +1 attack next time they fight in melee`, `may immediately move by up to
  6"`, `must take a morale test. If failed, it becomes fatigued`, `All enemy units within
  6" take 1 hit`, `... and all other enemy units within 3" of it take 1 hit`), and Army
  Forge v3.5's `Pick ..., which ... (next time the effect would apply)`. So are wounds and
  hits on a die, also after a failed morale test, limits on actions and difficult terrain,
  areas of both sides and points (GFF-R35: `takes D3 wounds`, `If failed it immediately
  takes D3 wounds`, `may only use Hold actions next time it activates`, `counts as being in
  difficult terrain next time it moves`, `and all other units within 3" of it`, `Pick a
  point within 18". All units within 3" of it take 2 hits`). So are re-rolls, lasting
  dangerous terrain, conditions on the action and templates (GFF-R37: `may re-roll results
  of 1 when shooting`, `must re-roll successful blocks next time it takes hits`, `counts as
  being in dangerous terrain next time it moves`, `get +1 to hit next time they shoot when
  using a Hold action`, `Place a 3" template within 18". All models under it take 1 hit`).
  So are other dice counts, wounds with the rules that act on them, re-rolls of morale
  tests, moves toward the nearest objective or that a unit must make, effects tied to a
  charge and Defense for one side's attacks (GFF-R39: `takes 4D6 hits`, `takes D3-1
  wounds`, `takes D6x2 hits`, `takes D3 wounds with Poison`, `may re-roll failed morale
  tests`, `may move up to 6" toward the nearest objective`, `must move 6"`, `If failed it
  must retreat 6"`, `If failed it must take a dangerous terrain test`, `gets AP(+1) when
  charging`, `gets +1 to defense when shot at`).
  Any other text,
  or a rule this rulebook lacks or no spell may grant, is a problem named in the import's
  error with the shapes understood or the rules a spell may grant (nothing is
  half-imported); leave the `spells` out to fall back on the default.
- A Caster with no spells from the export gets the default spellbook of
  data/default_spells.yaml (ours, priced like our factions' spells), so its tokens have a use.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Protocol

import yaml
from pydantic import TypeAdapter, ValidationError

from warbench.core.scenario_files import problem_text
from warbench.rulesets.gff.profiles import (
    ACTIONS,
    ALIASES,
    UNGRANTED,
    Rule,
    Spell,
    special_rules,
    ungranted,
)
from warbench.rulesets.gff.spell_grants import is_weapon_rule
from warbench.rulesets.gff.spells_checks import CHARGE, CHARGED

_INCH = r'(?:"|”|″|\s*in\b|\s*inches\b)'
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_TARGET = re.compile(
    r"^(?:target\s+)?(?:(?P<all>all)\s+(?:other\s+)?|up\s+to\s+)?"
    r"(?:(?P<count>\d+|one|two|three|four|five|six)\s+)?"
    r"(?:(?P<side>friendly|enemy)\s+)?(?:units?|models?)?"
    rf"\s*within\s+(?P<range>\d+){_INCH}\s*(?:of\s+the\s+caster\b,?\s*)?(?P<rest>.*)$",
    re.IGNORECASE,
)
_AREA = re.compile(  # GFF-R33: "... and all [other] [enemy] units within 6" of it ..."
    rf"^,?\s*and\s+all\s+(?:other\s+)?(?:(friendly|enemy)\s+)?units\s+within\s+(\d+){_INCH}\s+"
    r"of\s+(?:it|them|the\s+target)\s*,?\s*(.*)$",
    re.IGNORECASE,
)
_AREA_HITS = re.compile(  # "takes 2 hits, and all other [enemy] units within 6" of it take 1 hit"
    rf"^(.*?),?\s+and\s+all\s+(?:other\s+)?(?:(enemy)\s+)?units\s+within\s+(\d+){_INCH}\s+"
    r"of\s+(?:it|them|the\s+target)\s+takes?\s+(\d+)\s+hits?(?:\s+each)?\s*\.?$",
    re.IGNORECASE,
)
_POINT = re.compile(  # GFF-R35: "Pick a point within 18". All units within 3" of it take ..."
    rf"^(?:(?:target|pick|choose)\s+)?a\s+point\s+within\s+(?P<range>\d+){_INCH}\s*"
    r"(?:of\s+the\s+caster\b)?\s*(?:in\s+line\s+of\s+sight\s*)?(?:[,.:;]|\s+and\b)?\s*"
    r"(?:then\s+)?all\s+(?:other\s+)?(?:(?P<side>friendly|enemy)\s+)?(?:units|models)\s+within\s+"
    rf"(?P<area>\d+){_INCH}\s+of\s+(?:it|that\s+point|the\s+point|this\s+point)\s*,?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_ATTACKS = re.compile(
    r"^gets?\s+\+(\d)\s+attacks?(?:\s+(with\s+melee\s+weapons|with\s+ranged\s+weapons|"
    r"in\s+melee|when\s+shooting))?\s*(.*?)\s*\.?$",
    re.IGNORECASE,
)
_WAY = (  # the direction of a move out of turn: GFF-R35, the objective GFF-R39
    r"(?:\s+in\s+a\s+straight\s+line)?(?:\s+in\s+any\s+direction|"
    r"\s+(?P<toward>toward(?:s)?\s+the\s+nearest\s+enemy(?:\s+units?|\s+models?)?|"
    r"toward(?:s)?\s+the\s+nearest\s+objective(?:\s+markers?)?|"
    r"toward(?:s)?\s+the\s+caster|away\s+from\s+the\s+caster))?"
    r"(?:\s+in\s+a\s+straight\s+line)?\s*\.?$"
)
_SHIFT = re.compile(  # GFF-R33; the passive, "make a move of" and the directions GFF-R35
    r"^(?:you\s+)?(?:may\s+|can\s+)?(?:immediately\s+)?(?:moves?|(?:is|are)\s+moved|"
    r"makes?\s+a\s+move\s+of)\s+(?:it\s+|them\s+)?(?:by\s+)?up\s+to\s+"
    rf"(?P<inches>\d+){_INCH}{_WAY}",
    re.IGNORECASE,
)
_FORCED = re.compile(  # GFF-R39: "must move 6"", after a failed test "it must retreat 6""
    r"^(?:(?:it|they)\s+)?(?:(?:must|is\s+forced\s+to)\s+(?:immediately\s+)?"
    r"(?P<verb>move|retreat|fall\s+back)|(?:immediately\s+)?(?P<back>retreats?|falls?\s+back))"
    rf"\s+(?:by\s+)?(?:exactly\s+|the\s+full\s+)?(?P<inches>\d+){_INCH}{_WAY}",
    re.IGNORECASE,
)
_TEST = re.compile(
    r"^must\s+take\s+a\s+morale\s+test\s*(?:[.,;]?\s*(?:(?:if\s+(?:failed|it\s+fails|they\s+fail)"
    r"|on\s+a\s+fail(?:ure|ed\s+test)?),?\s+(.*?))?)?\s*\.?$",
    re.IGNORECASE,
)
_FATIGUED = re.compile(r"^(?:it|they)\s+(?:becomes?|is|are)\s+fatigued$", re.IGNORECASE)
_SHAKEN = re.compile(r"^(?:it|they)\s+(?:becomes?|is|are)\s+shaken$", re.IGNORECASE)
_DAMAGE = re.compile(  # GFF-R35: "it immediately takes D3 wounds", "takes 2 hits with AP(1)"
    r"^(?:(?:it|they)\s+)?(?:each\s+)?(?:immediately\s+)?takes?\s+"
    r"(\d+|[1-6]?D[36](?:\s*[+\-−]\s*\d+)?(?:\s*[x×*]\s*[23])?)\s+"
    r"(wounds?|(?:automatic\s+)?hits?)(?:\s+each)?(?:\s+with\s+(.+?))?(?:,?\s+each)?\s*\.?$",
    re.IGNORECASE,
)
_SUBJECT = re.compile(r"^(?:it|they)\s+(?:immediately\s+)?", re.IGNORECASE)
_ROLLED = re.compile(r"^([1-6])?D([36])(?:([+\-])(\d+))?(?:[X×*]([23]))?$")
_DANGEROUS = re.compile(  # GFF-R35: "must take a dangerous terrain test"
    r"^(?:must\s+)?takes?\s+(?:a\s+)?dangerous\s+terrain\s+tests?\s*\.?$", re.IGNORECASE
)
_ACT = r"(?:hold|advance|rush|charge)"
_ONLY = re.compile(  # GFF-R35: "may only use Hold or Advance actions next time it activates"
    r"^(?:(?P<only>may|can)\s+only|may\s+not|can(?:not|'t|’t)|must\s+not)\s+(?:use\s+)?"
    rf"(?P<acts>{_ACT}(?:\s*(?:,|/|\bor\b|\band\b)\s*{_ACT})*)(?:\s+actions?)?"
    r"\s*(?P<rest>.*?)\s*\.?$",
    re.IGNORECASE,
)
_NEXT_ACTIVATION = re.compile(
    r"^(?:(?:on|in|during|for)\s+)?(?:its|their|the)?\s*next\s+activation$", re.IGNORECASE
)
_DIFFICULT = re.compile(  # GFF-R35: "counts as being in difficult terrain next time it moves"
    r"^(?:counts?\s+as\s+(?:being\s+)?in|(?:must\s+)?moves?\s+as\s+if\s+"
    r"(?:(?:it|they)\s+(?:is|are|was|were)\s+)?in)\s+difficult\s+terrain"
    r"(?:\s+when\s+moving)?\s*(.*?)\s*\.?$",
    re.IGNORECASE,
)
_HIT = r"(?:to[- ]hit|hit|quality|attack)"
_BLOCK = r"(?:defen[cs]e|block|save)"
_REROLL = re.compile(  # GFF-R37: "may re-roll results of 1 when shooting", "must re-roll blocks"
    r"^(?P<verb>must|may|can)\s+re-?roll\s+(?:all\s+)?(?:"
    rf"(?:unmodified\s+)?(?:(?P<pre>{_HIT}|{_BLOCK})\s+)?(?:(?:rolls?|results?|dice)\s+of\s+)?"
    r"(?:unmodified\s+)?(?P<face>[16])(?:'?s)?"
    rf"(?:\s+(?:(?:when\s+(?:rolling\s+)?)?(?P<tohit>to\s+hit)|(?:on\s+|when\s+rolling\s+)?"
    rf"(?P<post>{_HIT}|{_BLOCK})\s*(?:rolls?|results?|tests?|s)?))?"
    rf"|(?P<kind>failed|successful)\s+(?P<noun>hits?|{_HIT}\s+(?:rolls?|tests?)|rolls?\s+to\s+hit"
    rf"|blocks?|{_BLOCK}\s*(?:rolls?|results?|s)?)"
    r"|(?P<bare>blocks|hits))\s*(?P<rest>.*?)\s*\.?$",
    re.IGNORECASE,
)
_REROLL_MORALE = re.compile(  # GFF-R39: "may re-roll failed morale tests until end of round"
    r"^(?P<verb>must|may|can)\s+re-?roll\s+(?:(?P<kind>failed|passed|successful)\s+)?"
    r"morale\s+(?:tests?|rolls?)(?:\s+rolls?)?\s*(?P<rest>.*?)\s*\.?$",
    re.IGNORECASE,
)
_IN_DANGEROUS = re.compile(  # GFF-R37: "counts as being in dangerous terrain next time it moves"
    r"^(?:counts?\s+as\s+(?:being\s+)?in|(?:must\s+)?moves?\s+as\s+if\s+"
    r"(?:(?:it|they)\s+(?:is|are|was|were)\s+)?in)\s+dangerous\s+terrain"
    r"(?:\s+when\s+moving)?\s*(.*?)\s*\.?$",
    re.IGNORECASE,
)
_CONDITION = re.compile(  # GFF-R37: "... when shooting after a Hold action", "when using Hold"
    r",?\s*(?:(?:(?:when|after|if)\s+(?:(?:it|they)\s+)?(?:using|uses?|tak(?:es?|ing)|after)?"
    r"\s*(?:an?\s+)?|on\s+)(hold|advance|charge)(?:\s+actions?)?\b"
    r"|(?:when|if)\s+(?:(?:it|they)\s+)?charg(?:es?|ing)\b)",  # GFF-R39: "when charging"
    re.IGNORECASE,
)
_TEMPLATE = re.compile(  # GFF-R37: "Place a 3" template within 18". All models under it take 1 hit"
    r"^(?:place|put|pick)\s+an?\s+(?:(?:round|circular|blast)\s+)?"
    rf"(?P<size>\d+(?:\.\d+)?){_INCH}\s*(?:(?:round|circular|blast)\s+)?template\s+"
    rf"(?:anywhere\s+)?within\s+(?P<range>\d+){_INCH}\s*(?:of\s+the\s+caster\b)?\s*"
    r"(?:in\s+line\s+of\s+sight\s*)?(?:[,.:;]|\s+and\b)?\s*(?:then\s+)?(?:all|each|every)\s+"
    r"(?:(?P<side>friendly|enemy)\s+)?models?\s+(?:under|touched\s+by|covered\s+by|beneath)\s+"
    r"(?:it|the\s+template)\s*,?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
SHOOTING_RULES = frozenset({"Relentless"})
"""Unit rules that act only when the unit shoots, so a condition on the action may go with
them (GFF-R37)."""
_V35 = (  # Army Forge v3.5's wording, read as the older one (GFF-R33)
    (re.compile(r"^pick\s+", re.I), ""),
    (re.compile(rf"(within\s+\d+{_INCH})\s*,\s*which\s+", re.I), r"\1 "),
    (re.compile(r"\s*\(next\s+time\s+the\s+effect\s+would\s+apply\)", re.I), ""),
    (re.compile(r"\s+when\s+using\s+(advance|rush\s*/\s*charge)\s+actions", re.I), r" on \1"),
)
_MODIFIER = re.compile(
    r"^gets?\s+([+\-−]\d)\s+to\s+(their\s+next\s+)?(hit|quality|defen[cs]e|morale)"
    r"(?:\s+tests?)?(?:\s+rolls?)?\s*(.*?)\s*\.?$",
    re.IGNORECASE,
)
_WHEN = re.compile(r"^(in\s+melee|when\s+shooting|when\s+fighting\s+in\s+melee)\s*", re.I)
_AGAINST = re.compile(  # GFF-R39: Defense against one side's attacks
    r"^(when\s+shot\s+at|against\s+(?:shooting|ranged|melee)(?:\s+attacks)?)\s*", re.I
)
_ROUND = re.compile(r"^(?:until\s+(?:the\s+)?end\s+of\s+(?:the\s+)?round)?$", re.IGNORECASE)
_NEXT = re.compile(
    r"^(?:the\s+)?next\s+time\s+(?:it|they)\s+"
    r"(fights?\s+in\s+melee|fights?|shoots?|attacks?|takes?\s+hits|takes?\s+a\s+morale\s+test)$",
    re.IGNORECASE,
)
_RULE_SPLIT = re.compile(r"\s*(?:,|\band\b)\s*")
_ONE_RULE = (  # a rule's name is capitalised, maybe several words ("Hit & Run Shooter")
    r"(?-i:[A-Z][A-Za-z\-]*(?:\s+(?:&|[A-Z][A-Za-z\-]*))*)(?:\s*\(\s*[+\-−]?\d+\s*\))?"
)
_GRANT = re.compile(
    rf"^gets?\s+(?:the\s+)?({_ONE_RULE}(?:\s*(?:,|\band\b)\s*{_ONE_RULE})*)"
    r"(?:\s+(?:special\s+)?rules?)?\s*(.*?)\s*\.?$",
    re.IGNORECASE,
)
_MARK = re.compile(
    rf"^(?:ha(?:ve|s)\s+)?friendly\s+units\s+gets?\s+({_ONE_RULE}(?:\s*(?:,|\band\b)\s*{_ONE_RULE})*)"
    r"\s*(in\s+melee|when\s+shooting|when\s+attacking)?\s+against(?:\s+them|\s+it)?\s*(.*?)\s*\.?$",
    re.IGNORECASE,
)
_LOSE_AP = re.compile(r"^loses?\s+AP\s*\(\s*(\d)\s*\)\s*(.*?)\s*\.?$", re.IGNORECASE)
_ONCE = re.compile(r"^once$", re.IGNORECASE)
_AP_FLOOR = re.compile(r",?\s*to\s+a\s+min(?:imum|\.)?\s+of\s+AP\s*\(\s*0\s*\)\s*", re.I)
_EVENTS = (  # "next time they ...": the trigger, and which weapons a weapon rule goes on
    (r"charges?", "charge", "melee"),
    (r"(?:are|is)\s+charged", "charged", "melee"),
    (r"fights?(?:\s+in\s+melee)?", "melee", "melee"),
    (r"shoots?", "shooting", "shooting"),
    (r"attacks?", "attack", "any"),
    (r"takes?\s+hits|(?:are|is)\s+hit", "hits", "any"),
    (r"takes?\s+wounds?", "wounds", "any"),
    (r"(?:are|is)\s+shot(?:\s+at)?", "shot_at", "any"),
    (r"moves?|advances?|rush(?:es)?", "move", "any"),
    (r"takes?\s+a\s+morale\s+test", "morale", "any"),
    (r"activates?|(?:are|is)\s+activated", "activation", "any"),
)
_GRANT_NEXT = [
    (re.compile(rf"^(?:the\s+)?next\s+time\s+(?:it|they)\s+(?:{words})$", re.I), event, weapons)
    for words, event, weapons in _EVENTS
]
_INCHES = r'([+\-−]\d+)\s*(?:"|”|″|in\b|inch(?:es)?\b)'
_MOVE_VERB = (
    r"(moves?|advances?|rush(?:es)?|charges?|rush(?:es)?\s*(?:/|or)\s*charges?"
    r"|advance\s*/\s*charge)"
)
_RANGE = re.compile(rf"^gets?\s+{_INCHES}\s+(?:to\s+)?range\s*(.*?)\s*\.?$", re.IGNORECASE)
_MOVE_ON = re.compile(  # Army Forge v3.5: `move +2" on Advance and +4" on Rush/Charge once`
    rf"^moves?\s+{_INCHES}\s+on\s+advances?(?:\s+actions?)?\s*,?\s+and\s+{_INCHES}\s+on\s+"
    r"rush(?:es)?\s*(?:/|or)\s*charges?(?:\s+actions?)?\s*(.*?)\s*\.?$",
    re.IGNORECASE,
)
_MOVE = re.compile(
    rf"^moves?\s+{_INCHES}\s+(?:(until\s+(?:the\s+)?end\s+of\s+(?:the\s+)?round)|"
    rf"next\s+time\s+(?:it|they)\s+{_MOVE_VERB})"
    rf"(?:,?\s+or\s+{_INCHES}\s+next\s+time\s+(?:it|they)\s+{_MOVE_VERB})?\s*\.?$",
    re.IGNORECASE,
)
SHAPES = (
    '"Target [N] enemy unit(s) within R" take(s) X hits [each] [with RULES]", '
    '"Target [N] friendly|enemy unit(s) within R" get(s) +K|-K to hit|defense|morale '
    "[rolls] [in melee|when shooting|against shooting|against melee attacks|when shot at] "
    "[until end of round | next time it fights [in melee] | "
    'shoots | takes hits]", "... get(s) -K to their next morale test", '
    '"... get(s) RULE [and RULE] [in melee|when shooting] [until end of round | next time '
    "they charge | are charged | fight [in melee] | shoot | attack | take hits | take wounds | "
    'are shot at | move | take a morale test]" (RULE: a rule of this rulebook, or AP(+X)/AP(-X)), '
    '"... move +X" [until end of round | next time they move | Advance][, or +Y" next time they '
    'Rush/Charge]", "... move +X" on Advance and +Y" on Rush/Charge [actions] DURATION", '
    '"... get(s) +X" range DURATION", "... lose(s) AP(X) [in melee|when shooting] DURATION", '
    '"Up to N enemy units within R" have friendly units get RULE [in melee|when shooting|when '
    'attacking] against them DURATION"; '
    '"... get(s) +K attack(s) [with melee weapons|with ranged weapons|in melee|when '
    'shooting] DURATION" (K 1 to 3), "... may immediately move by up to X"" (X up to 12"), '
    '"... must take a morale test[. If failed, it becomes fatigued | If failed you may move '
    'it by up to X" in a straight line in any direction | If failed it [immediately] takes '
    'COUNT wounds | On a fail it takes COUNT hits [with RULES]]", "... take(s) COUNT wounds '
    '[with Bane|Poison|Deadly(X)|Unstoppable]", "... take(s) COUNT [automatic] hits" (COUNT: '
    'X, or [N]D3 | [N]D6 [+X | -X] [x2 | x3], N up to 6, -X at most -N), "... '
    '[must] take(s) a dangerous terrain test", "... is moved | may make a move of | may move by up '
    'to X" [toward the nearest enemy | toward the nearest objective | toward the caster | away '
    'from the caster]", "... must move X" [same directions]", after a failed test "it must '
    'retreat X"", after a failed test "it [must] take(s) a dangerous terrain test" or a limit on '
    "actions or difficult terrain as below, "
    '"... may only [use] Hold|Advance|Rush|Charge [or '
    '...] [actions] [next time it activates | on its next activation | until end of round]", '
    '"... may not | cannot Rush|Charge [or ...] [actions] [same durations]", "... count(s) as '
    "being in difficult terrain | move(s) as if in difficult terrain [next time it moves | "
    'until end of round]", "... may re-roll results of 1 | failed hits | failed blocks [in '
    'melee|when shooting] DURATION", "... must re-roll successful hits | blocks | unmodified '
    'Defense results of 6 DURATION", "... may re-roll failed morale tests | must re-roll '
    'passed morale tests [until end of round | next time it takes a morale test | once]", '
    '"... count(s) as being in dangerous terrain [next time '
    'it moves | next time it activates | until end of round]", a condition on the action on '
    'shooting effects ("... when shooting after a Hold | Advance action", "... when using '
    'Hold actions"), and a template ("Place a W" template within R". All [enemy|friendly] '
    'models under it take COUNT hits | wounds [with RULES]", cast at x,y; dice rolled for each '
    "model); "
    'the target clause may also read "Up to two enemy units within R", "One enemy model '
    'within R", "Pick one enemy unit within R", which ...", "All enemy units within R" [of '
    'the caster]" (every one in sight), and be followed by "and all [other] [enemy|friendly] '
    'units within A" of it" (the same side as the targets, or without a side both sides), or '
    'a hits text by ", and all [other] [enemy] units within A" of it take Y hits", or be a '
    'point: "Pick a point within R". All [enemy|friendly] units within A" of it ..." (cast '
    'at x,y); DURATION may be "once" (the next time '
    "the rule or modifier applies), with or without Army Forge's \"(next time the effect "
    'would apply)"'
)


class Problems(Protocol):
    """Where the importer collects problems."""

    def add(self, where: str, message: str) -> None: ...


@cache
def default_spells() -> tuple[Spell, ...]:
    """The default spellbook of an imported Caster (data/default_spells.yaml, ours)."""
    text = resources.files(__package__).joinpath("data/default_spells.yaml").read_text()
    spells = TypeAdapter(tuple[Spell, ...]).validate_python(yaml.safe_load(text)["spells"])
    return spells


def read_spells(entries: object, where: str, problems: Problems) -> tuple[Spell, ...] | None:
    """Army Forge spells as ours; None when absent or after problems (added to `problems`)."""
    if entries is None:
        return None
    if not isinstance(entries, list):
        problems.add(where, f"spells must be a list, not {json.dumps(entries)}")
        return None
    spells: list[Spell] = []
    ok = True
    for i, entry in enumerate(entries):
        spell = _spell(entry, f"{where} spells[{i}]", problems)
        if spell is None:
            ok = False
        else:
            spells.append(spell)
    return tuple(spells) if ok else None


def _spell(entry: object, where: str, problems: Problems) -> Spell | None:
    if not isinstance(entry, Mapping):
        problems.add(where, f"a spell is an object with name, threshold, effect, not {entry!r}")
        return None
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.add(where, f"a spell needs a name, not {json.dumps(name)}")
        return None
    where = f"{where} '{name.strip()}'"
    text = _effect_text(entry)
    if text is None:
        problems.add(where, "missing field 'effect' (or 'effectSkirmish'): the spell's text")
        return None
    data = _effect(text, where, problems)
    if data is None:
        return None
    data.update(name=name.strip(), cost=entry.get("threshold"))
    try:
        return Spell.model_validate(data)
    except ValidationError as err:
        for e in err.errors():
            field = ".".join(str(p) for p in e["loc"]).replace("cost", "threshold")
            problems.add(where, f"{field}: {problem_text(e)}")
        return None


def _effect(text: str, where: str, problems: Problems) -> dict[str, Any] | None:
    """The fields of a Spell read from its text (with its area, GFF-R33, or its point,
    GFF-R35); None after a problem."""
    given = text
    for pattern, replacement in _V35:
        text = pattern.sub(replacement, text)
    point = _POINT.match(text) or _TEMPLATE.match(text)
    if point:  # read as a target clause, the point's area set below (GFF-R35, R37)
        side = point.group("side") or ""
        text = f'Target {side} unit within {point.group("range")}" {point.group("rest")}'
    target = _TARGET.match(text)
    rest = target.group("rest").strip() if target else ""
    area, rest = _area(rest)
    read, data = _effect_of(target, rest, where, problems) if target else (False, None)
    if not read:
        problems.add(
            where, f"cannot read the spell's effect {json.dumps(given)}; understood: {SHAPES}"
        )
    if target is None or data is None:
        return None
    if point:
        if area is not None or target.group("all"):
            problems.add(where, f"a point's area is the spell's only area: {json.dumps(given)}")
            return None
        if "size" in point.groupdict():  # a template (GFF-R37): its width; the area for price
            size = float(point.group("size"))
            data.update(template=size, area=max(1, math.ceil(size / 2)))
        else:
            data["area"] = int(point.group("area"))
        data.update(point=True, area_all=not point.group("side"))
    if target.group("all"):
        if target.group("count"):
            problems.add(where, f"'all' takes no number of targets: {json.dumps(text)}")
            return None
        data.update(everyone=True, targets=1)
    if area is not None:
        side, inches, hits = area
        target_side = data.get("side") or (
            "enemy" if data["effect"] in ("hits", "wounds") else None
        )
        data["area_all"] = side is None  # "all [other] units within 3" of it" (GFF-R35)
        if side is not None and target_side is not None and side != target_side:
            problems.add(
                where, f"the area reaches {side} units, the targets are {target_side}: {text}"
            )
            return None
        data["area"] = inches
        if hits is not None:
            if data["effect"] != "hits":
                problems.add(where, f"hits in the area need a 'hits' spell: {json.dumps(text)}")
                return None
            data["area_hits"] = hits
    return data


def _area(rest: str) -> tuple[tuple[str | None, int, int | None] | None, str]:
    """The area clause of `rest` (side, None for both, inches, its own hits or None) and
    what is left."""
    before = _AREA.match(rest)
    if before:
        side = before.group(1).lower() if before.group(1) else None
        return (side, int(before.group(2)), None), before.group(3).strip()
    after = _AREA_HITS.match(rest)
    if after:
        side = after.group(2).lower() if after.group(2) else None
        return (side, int(after.group(3)), int(after.group(4))), after.group(1)
    return None, rest


def _effect_of(
    target: re.Match[str], rest: str, where: str, problems: Problems
) -> tuple[bool, dict[str, Any] | None]:
    """Whether the text after the target clause has a shape understood, and the fields of
    the Spell (None after a problem)."""
    read = _read(target, rest, where, problems)
    condition = _CONDITION.search(rest) if read is _UNREAD else None
    if condition is not None:  # "... when shooting after a Hold action" (GFF-R37)
        plain = f"{rest[: condition.start()]} {rest[condition.end() :]}".strip()
        action = condition.group(1) or "charge"
        read = _conditioned(_read(target, plain, where, problems), action, where)
        if isinstance(read, str):
            problems.add(where, read)
            return True, None
    return read is not _UNREAD, read if isinstance(read, dict) else None


def _conditioned(read: object, action: str, where: str) -> object:
    """The fields of a spell read without its condition on the action, tied to `action`
    (hold or advance) when shooting; the problem's text when the effect cannot be."""
    if not isinstance(read, dict):
        return read
    if read["effect"] == "focus":  # our focus is +1 to hit for the round: tied, a to_hit
        read = {**read, "effect": "to_hit", "value": 1, "lasts": "round", "side": None}
    if action.lower() == CHARGE:
        return _on_charge(read)
    if read.get("when", "any") not in ("any", "shooting"):
        return f"a condition on the action ({action}) goes with shooting, not {read['when']}"
    for rule in read.get("rules", []) if read["effect"] == "rule" else []:
        if not is_weapon_rule(rule.name) and rule.name not in SHOOTING_RULES:
            return (
                f"a condition on the action ({action}) goes with weapon rules, Relentless, "
                f"to-hit modifiers, attacks, range and re-rolls to hit, not with the unit rule "
                f"{rule.name}"
            )
    return {**read, "when": action.lower()}


def _on_charge(read: dict[str, Any]) -> object:
    """The fields of a spell read without "when charging", tied to the unit's charges
    (GFF-R39): to-hit modifiers, weapon rules and re-rolls to hit, in melee, and marks
    giving weapon rules to the units charging the marked one; "next time" and "once" are
    its next charge (a mark's: the marked unit's next being charged). The problem's text
    when the effect cannot be."""
    effect, when, trigger = read["effect"], read.get("when", "any"), read.get("trigger")
    if when not in ("any", "melee"):
        return f"a condition on a charge goes with melee, not {when}"
    if effect not in CHARGED or (effect == "reroll" and read["roll"] != "to_hit"):
        roll = f" of {read['roll']}" if effect == "reroll" else ""
        return (
            "a condition on a charge goes with to-hit modifiers, weapon rules, marks and "
            f"re-rolls to hit, not with a {effect} spell{roll}"
        )
    for rule in read.get("rules", []) if effect in ("rule", "mark") else []:
        if not is_weapon_rule(rule.name):
            return f"a condition on a charge goes with weapon rules, not the unit rule {rule.name}"
    if trigger is not None:
        if trigger not in ("once", "melee", "attack", "attacked", CHARGE, "charged"):
            return f"a condition on a charge lasts the round or to its next charge, not {trigger}"
        read = {**read, "trigger": "charged" if effect == "mark" else CHARGE}
    return {**read, "when": CHARGE}


_UNREAD = object()


def _read(target: re.Match[str], rest: str, where: str, problems: Problems) -> object:
    """The fields of a Spell from its target clause and the text after it; None after a
    problem, `_UNREAD` when no shape fits."""
    hits, modifier = _DAMAGE.match(rest), _MODIFIER.match(rest)
    lasting = _lasting(modifier) if modifier else None
    grant = None if (hits or modifier) else _GRANT.match(rest)
    granted = _granted(grant) if grant else _losing(rest) or _marking(rest)
    moving = (
        _moving(rest)
        or _ranged(rest)
        or _attacks(rest)
        or _shifting(rest)
        or _testing(rest)
        or _only(rest)
        or _difficult(rest)
        or ({"effect": "dangerous"} if _DANGEROUS.match(rest) else None)
        or _rerolling(rest)
        or _rerolling_morale(rest)
        or _in_dangerous(rest)
    )
    if not (hits or lasting or granted or moving):
        return _UNREAD
    count = target.group("count") or "1"
    targets = _WORDS.get(count.lower()) or int(count)
    data: dict[str, Any] = {"range": int(target.group("range")), "targets": targets}
    side = target.group("side").lower() if target.group("side") else None
    if granted or moving:
        effect = granted or moving
        assert effect is not None
        if granted is not None:
            rules = _granted_rules(granted.pop("names"), where, problems)
            if rules is None:
                return None
            granted["rules"] = rules
        if "with" in effect:  # the rules of a failed test's hits (GFF-R35)
            rules = _weapon_rules(effect.pop("with"), where, problems)
            if rules is None:
                return None
            effect["rules"] = rules
        return {**data, **effect, "side": side}
    if hits:
        if side == "friendly":
            problems.add(where, f"hits go to enemy units, not friendly ones: {json.dumps(rest)}")
            return None
        damage = _damage(hits)
        rules = _weapon_rules(damage.pop("with"), where, problems)
        if rules is None:
            return None
        data.update(damage, rules=rules)
        return data
    assert lasting is not None
    data.update(lasting, side=side)
    if (data["effect"], data["value"], data["when"], data["lasts"], data["targets"]) in (
        ("defense", 1, "any", "round", 1),
        ("to_hit", 1, "any", "round", 1),
    ) and side in (None, "friendly"):  # our shield and focus (GFF-R27)
        return {
            "range": data["range"],
            "effect": "shield" if data["effect"] == "defense" else "focus",
        }
    return data


def _lasting(match: re.Match[str]) -> dict[str, Any] | None:
    """Kind, value, when and duration of `gets +1 to hit rolls next time it shoots`."""
    value = int(match.group(1).replace("−", "-"))
    roll = match.group(3).lower()
    kind = {"hit": "to_hit", "quality": "to_hit", "morale": "morale"}.get(roll, "defense")
    rest = match.group(4)
    when = _WHEN.match(rest) or (_AGAINST.match(rest) if kind == "defense" else None)
    qualifier = "any"
    if when:
        shot = any(w in when.group(1).lower() for w in ("shoot", "shot", "ranged"))
        qualifier = "shooting" if shot else "melee"
        rest = rest[when.end() :]
    if match.group(2):  # "to their next morale test"
        return {"effect": kind, "value": value, "when": "any", "lasts": "next"}
    if _ROUND.match(rest):
        return {"effect": kind, "value": value, "when": qualifier, "lasts": "round"}
    if _ONCE.match(rest):  # "once": the next time it applies (GFF-R31)
        return {"effect": kind, "value": value, "when": qualifier, "lasts": "next"}
    following = _NEXT.match(rest)
    if following is None:
        return None
    event = following.group(1).lower()
    if "melee" in event:
        qualifier = "melee"
    elif event.startswith("shoot"):
        qualifier = "shooting"
    return {"effect": kind, "value": value, "when": qualifier, "lasts": "next"}


def _granted(match: re.Match[str]) -> dict[str, Any] | None:
    """`get Furious next time they charge`: the rules' names, which weapons, how long."""
    rest = _AP_FLOOR.sub(" ", match.group(2)).strip()  # AP never drops below 0 anyway
    when = _WHEN.match(rest)
    weapons = "any"
    if when:
        weapons = "shooting" if "shooting" in when.group(1).lower() else "melee"
        rest = _AP_FLOOR.sub(" ", rest[when.end() :]).strip()
    duration = _duration(rest)
    if duration is None:
        return None
    if weapons != "any":
        duration["when"] = weapons
    return {"effect": "rule", "names": match.group(1), **duration}


def _marking(text: str) -> dict[str, Any] | None:
    """`have friendly units get Relentless against them once`: a mark on the enemy target
    giving the units attacking it the rules (in melee, when shooting, or either)."""
    match = _MARK.match(text)
    duration = _duration(match.group(3)) if match else None
    if match is None or duration is None:
        return None
    qualifier = (match.group(2) or "").lower()
    weapons = "shooting" if "shooting" in qualifier else "melee" if "melee" in qualifier else "any"
    return {"effect": "mark", "names": match.group(1), **duration, "when": weapons}


def _losing(text: str) -> dict[str, Any] | None:
    """`lose AP(1) when shooting once`: AP(−X) granted on the weapons `when` picks."""
    match = _LOSE_AP.match(text)
    if match is None:
        return None
    rest, weapons = match.group(2), "any"
    when = _WHEN.match(rest)
    if when:
        weapons = "shooting" if "shooting" in when.group(1).lower() else "melee"
        rest = rest[when.end() :].strip()
    duration = _duration(rest)
    if duration is None:
        return None
    if weapons != "any":
        duration["when"] = weapons
    return {"effect": "rule", "names": f"AP(-{match.group(1)})", **duration}


def _duration(text: str) -> dict[str, Any] | None:
    """`until end of round` (or nothing) or `next time they EVENT`: how long, the trigger,
    and which weapons the event implies (melee for a charge, ranged for shooting)."""
    if _ROUND.match(text):
        return {"when": "any", "lasts": "round"}
    if _ONCE.match(text):  # the next time each rule acts (spell_grants.ONCE)
        return {"when": "any", "lasts": "next", "trigger": "once"}
    for pattern, event, weapons in _GRANT_NEXT:
        if pattern.match(text):
            return {"when": weapons, "lasts": "next", "trigger": event}
    return None


def _ranged(text: str) -> dict[str, Any] | None:
    """`get +6" range next time they shoot`: inches on the unit's ranged weapons."""
    match = _RANGE.match(text)
    duration = _duration(match.group(2)) if match else None
    if match is None or duration is None:
        return None
    return {**duration, "effect": "range", "value": int(match.group(1).replace("−", "-"))}


def _granted_rules(text: str, where: str, problems: Problems) -> list[Rule] | None:
    """`Furious and AP(+1)` as rules a spell grants (Poison read as Bane); None after a
    problem naming the rules a spell may grant."""
    known = {name.lower(): name for name in special_rules()}
    known.update({alias.lower(): name for alias, name in ALIASES.items()})
    grantable = ", ".join(n for n in special_rules() if n not in UNGRANTED)
    rules = []
    for part in _RULE_SPLIT.split(text.strip()):
        if not part:
            continue
        compact = part.replace(" ", "").replace("−", "-")
        bare = compact.split("(")[0]
        name = known.get(bare.lower())
        if name is None:
            problems.add(
                where,
                f"the spell grants '{part}', not a special rule of this rulebook; "
                f"spells may grant: {grantable}",
            )
            return None
        if name in UNGRANTED:
            problems.add(where, ungranted(name))
            return None
        try:
            rules.append(Rule.parse(name + compact[len(bare) :], "any"))
        except ValueError as err:
            problems.add(where, f"spell rule '{part}': {err}")
            return None
    return rules


def _moving(text: str) -> dict[str, Any] | None:
    """`move +3" next time they Advance, or +6" next time they Rush/Charge`: inches to
    Advance (`value`) and to Rush and Charge (`far`). One clause for "move" is both; of two,
    the first is the Advance's and the second the Rush's and Charge's (GFF-R31)."""
    both = _MOVE_ON.match(text)
    if both:
        duration = _duration(both.group(3))
        if duration is None or duration.get("trigger") not in (None, "once", "move"):
            return None
        how = {"lasts": duration["lasts"], "trigger": duration.get("trigger")}
        advance, far = (int(both.group(i).replace("−", "-")) for i in (1, 2))
        return {"effect": "move", **how, "value": advance, "far": far}
    match = _MOVE.match(text)
    if match is None:
        return None
    first = int(match.group(1).replace("−", "-"))
    lasting: dict[str, Any] = {"effect": "move", "lasts": "round"}
    if not match.group(2):
        lasting.update(lasts="next", trigger="move")
    if match.group(4):
        return {**lasting, "value": first, "far": int(match.group(4).replace("−", "-"))}
    verb = (match.group(3) or "move").lower()
    if verb.startswith(("rush", "charge")):
        return {**lasting, "value": 0, "far": first}
    if verb.startswith("advance"):
        return {**lasting, "value": first, "far": 0}
    return {**lasting, "value": first, "far": first}


def _attacks(text: str) -> dict[str, Any] | None:
    """`get +1 attack next time they fight in melee`: attacks on each weapon (GFF-R33)."""
    match = _ATTACKS.match(text)
    duration = _duration(match.group(3)) if match else None
    if match is None or duration is None:
        return None
    which = (match.group(2) or "").lower()
    if "melee" in which:
        duration["when"] = "melee"
    elif "ranged" in which or "shooting" in which:
        duration["when"] = "shooting"
    return {**duration, "effect": "attacks", "value": int(match.group(1))}


def _shifting(text: str) -> dict[str, Any] | None:
    """`may immediately move by up to 6"`: a move out of turn (GFF-R33), maybe straight
    toward the nearest enemy, toward or away from the caster (GFF-R35) or toward the
    nearest objective, or one it must make in full (`must move 6"`, GFF-R39)."""
    match = _SHIFT.match(text) or _FORCED.match(text)
    return {"effect": "shift", **_shift_fields(match)} if match else None


def _shift_fields(match: re.Match[str]) -> dict[str, Any]:
    """The inches and the direction of a move out of turn, and whether it is forced (a
    retreat, without a direction, is away from the caster: GFF-R39)."""
    toward = (match.group("toward") or "").lower()
    ways = (("enemy", "enemy"), ("objective", "objective"), ("away", "away"))
    way = next((w for word, w in ways if word in toward), "caster" if toward else "any")
    fields: dict[str, Any] = {"value": int(match.group("inches")), "toward": way}
    if match.re is _FORCED:
        fields["must"] = True
        retreat = (match.group("verb") or "").lower() != "move"
        if retreat and way == "any":
            fields["toward"] = "away"
    return fields


def _testing(text: str) -> dict[str, Any] | None:
    """`must take a morale test[. If failed, it becomes fatigued | you may move it by up to
    6" ...]`: a morale test forced on the target and what a failure does (GFF-R33)."""
    match = _TEST.match(text)
    if match is None:
        return None
    then = (match.group(1) or "").strip().rstrip(".")
    if not then or _SHAKEN.match(then):
        return {"effect": "test", "then": "shaken"}
    if _FATIGUED.match(then):
        return {"effect": "test", "then": "fatigued"}
    shift = _SHIFT.match(then) or _FORCED.match(then)
    if shift:
        return {"effect": "test", "then": "shift", **_shift_fields(shift)}
    taken = _DAMAGE.match(then)
    if taken is None:
        return _hindered(then)
    damage = _damage(taken)
    return {**damage, "effect": "test", "then": damage["effect"]}


def _hindered(then: str) -> dict[str, Any] | None:
    """A failed test's limit on actions, difficult terrain or dangerous terrain test (`it
    may only use Hold actions next time it activates`, GFF-R39), or None."""
    bare = _SUBJECT.sub("", then)
    if _DANGEROUS.match(bare):
        return {"effect": "test", "then": "dangerous"}
    hindrance = _only(bare) or _difficult(bare)
    if hindrance is None:
        return None
    return {**hindrance, "effect": "test", "then": hindrance["effect"]}


def _damage(match: re.Match[str]) -> dict[str, Any]:
    """`takes D3 wounds`, `takes 2 hits with AP(1)`: the effect, the count or the dice it is
    rolled on, and the rules text (`with`; GFF-R35, R39)."""
    count = match.group(1).upper().replace(" ", "").replace("−", "-")
    dice = _ROLLED.match(count)
    fields: dict[str, Any] = {}
    number = int(count) if dice is None else 0
    if dice:  # "2D6", "D3+1", "D3-1", "D6x2" (GFF-R35, R39)
        fields.update(dice=int(dice.group(2)), rolled=int(dice.group(1) or 1))
        if dice.group(3) == "+":
            number = int(dice.group(4))
        elif dice.group(3) == "-":
            fields["less"] = int(dice.group(4))
        if dice.group(5):
            fields["times"] = int(dice.group(5))
    if match.group(2).lower().startswith("wound"):
        return {"effect": "wounds", "wounds": number, **fields, "with": match.group(3)}
    return {"effect": "hits", "hits": number, **fields, "with": match.group(3)}


def _only(text: str) -> dict[str, Any] | None:
    """`may only use Hold or Advance actions next time it activates`, `may not Rush or
    Charge until end of round`: the actions left to the unit and how long (GFF-R35)."""
    match = _ONLY.match(text)
    if match is None:
        return None
    named = {a.lower() for a in re.findall(_ACT, match.group("acts"), re.IGNORECASE)}
    left = [a for a in ACTIONS if (a in named) == bool(match.group("only"))]
    rest = match.group("rest")
    if _NEXT_ACTIVATION.match(rest) or _ONCE.match(rest):
        rest = "next time it activates"
    duration = _duration(rest)
    if duration is None or duration.get("trigger") not in (None, "activation"):
        return None
    return {**duration, "when": "any", "effect": "only", "actions": left}


def _difficult(text: str) -> dict[str, Any] | None:
    """`counts as being in difficult terrain next time it moves`, `moves as if in difficult
    terrain until end of round`: its moves no more than 6" in total (GFF-R35)."""
    return _as_if_in(_DIFFICULT, text, "difficult")


def _rerolling(text: str) -> dict[str, Any] | None:
    """`may re-roll results of 1 when shooting`, `must re-roll successful blocks next time
    it takes hits`: which roll, which dice, when and how long (GFF-R37)."""
    match = _REROLL.match(text)
    if match is None:
        return None
    g = match.groupdict()
    if g["face"]:
        dice = "ones" if g["face"] == "1" else "sixes"
    else:
        dice = "failed" if (g["kind"] or "").lower() == "failed" else "successes"
    if g["verb"].lower() != "must" and dice in ("sixes", "successes"):
        return None  # a unit may not choose to lose its own successes
    rest, qualifier = g["rest"], None
    when = _WHEN.match(rest)
    if when:
        qualifier = "shooting" if "shooting" in when.group(1).lower() else "melee"
        rest = rest[when.end() :]
    duration = _duration(rest.strip())
    if duration is None:
        return None
    noun = (g["pre"] or g["post"] or g["noun"] or g["bare"] or "").lower()
    if g["tohit"]:
        noun = "hit"
    roll = _roll_of(noun, qualifier, duration.get("trigger"))
    if roll is None:
        return None
    duration["when"] = qualifier or duration["when"]
    return {**duration, "effect": "reroll", "reroll": dice, "roll": roll}


def _rerolling_morale(text: str) -> dict[str, Any] | None:
    """`may re-roll failed morale tests`, `must re-roll passed morale tests next time it
    takes a morale test`: the morale test's die re-rolled (GFF-R39). "May" re-rolls a
    failure (also when unsaid), "must" a pass (it must be said: a unit does not choose to
    lose its own pass)."""
    match = _REROLL_MORALE.match(text)
    if match is None:
        return None
    kind = (match.group("kind") or "").lower()
    must = match.group("verb").lower() == "must"
    if must != (kind in ("passed", "successful")):
        return None
    duration = _duration(match.group("rest").strip())
    if duration is None or duration.get("trigger") not in (None, "once", "morale"):
        return None
    if duration.get("trigger") == "once":
        duration["trigger"] = "morale"
    dice = "successes" if must else "failed"
    return {**duration, "when": "any", "effect": "reroll", "reroll": dice, "roll": "morale"}


def _roll_of(noun: str, qualifier: str | None, trigger: str | None) -> str | None:
    """The roll a re-roll is of: named (hits, blocks, Defense), else to hit when it says
    in melee, when shooting or an attack's trigger, Defense for being hit or shot at."""
    if noun:
        return "defense" if re.match(_BLOCK, noun) else "to_hit"
    if qualifier or trigger in ("shooting", "melee", "attack", "charge"):
        return "to_hit"
    if trigger in ("hits", "shot_at", "charged"):
        return "defense"
    return None


def _in_dangerous(text: str) -> dict[str, Any] | None:
    """`counts as being in dangerous terrain next time it moves | until end of round`: its
    models roll as in dangerous terrain (GFF-R37)."""
    return _as_if_in(_IN_DANGEROUS, text, "in_dangerous")


def _as_if_in(pattern: re.Pattern[str], text: str, effect: str) -> dict[str, Any] | None:
    """A unit moving as if in some terrain for the duration `pattern`'s first group names:
    `next time it moves` (a once), `next time it activates` or until a round's end."""
    match = pattern.match(text)
    duration = _duration(match.group(1)) if match else None
    if duration is None:
        return None
    if duration.get("trigger") == "once":
        duration["trigger"] = "move"
    if duration.get("trigger") not in (None, "move", "activation"):
        return None
    return {**duration, "when": "any", "effect": effect}


def _effect_text(entry: Mapping[str, Any]) -> str | None:
    for field in ("effectSkirmish", "effect"):
        value = entry.get(field)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _weapon_rules(text: str | None, where: str, problems: Problems) -> list[Rule] | None:
    """`AP(1) and Blast(3)` as weapon rules; None after problems."""
    if not text:
        return []
    rules = []
    for part in _RULE_SPLIT.split(text.strip().rstrip(".")):
        if not part:
            continue
        try:
            rules.append(Rule.parse(part.replace(" ", ""), "weapon"))
        except ValueError as err:
            problems.add(where, f"spell rule '{part}': {err}")
            return None
    return rules
