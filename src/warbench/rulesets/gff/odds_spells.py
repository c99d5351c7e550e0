"""What spells have put on the units of an odds query (GFF-R28, R31, R33, R37): special
rules granted to the attacker or to the target, extra attacks, modifiers to hit and to
Defense rolls (lasting the round), re-rolls of its hit or Defense dice, and marks on the
target giving its attackers rules; the attacker's weapon rules, to-hit modifiers and
re-rolls to hit, and a mark's weapon rules, may be tied to a charge (GFF-R39: "AP(+1)
when charging"). They go on
the units as the lasting effects a casting leaves (`state.SpellEffect`), so the play code
reads them exactly as in a game:
`spell_grants.armed` and `marked` on the weapons, `Unit.all_have` and `rating` for unit
rules, `attacks.spell_modifiers` for the rolls, `spell_rerolls.reroll` for the re-rolls.
"""

from __future__ import annotations

import re
from dataclasses import replace

from warbench.core.odds import Options
from warbench.core.words import counted
from warbench.rulesets.gff.profiles import MARKABLE, UNGRANTED, Rule, ungranted
from warbench.rulesets.gff.spell_grants import is_weapon_rule
from warbench.rulesets.gff.spell_rerolls import WORDS
from warbench.rulesets.gff.spells_checks import CHARGE
from warbench.rulesets.gff.state import SpellEffect, Unit

OPTIONS: dict[str, str] = {
    "spells": "what spells gave the attacker: special rules like Rending,AP(+1) or Poison (read "
    "as Bane), +N attacks, +K to hit, +K defense, re-roll 1s|failed|6s|successes to hit|defense; "
    "a weapon rule, +K to hit or a re-roll to hit may end 'when charging' (default none)",
    "target-spells": "what spells gave the target, as spells, like Regeneration,-1 defense "
    "(default none)",
    "target-marks": "rules a mark on the target gives the units attacking it, like "
    "Rending,AP(+1); a weapon rule may end 'when charging' (default none)",
}
_ATTACKS = re.compile(r"^\+\s*([1-3])\s*attacks?$", re.IGNORECASE)
_MODIFIER = re.compile(r"^([+\-−]\s*[1-3])\s*(?:to\s+)?(hit|defen[cs]e)$", re.IGNORECASE)
_REROLL = re.compile(  # GFF-R37
    r"^re-?roll\s+(1s|failed|failures|6s|successes)\s+(?:to\s+)?(hit|defen[cs]e)$", re.I
)
_CHARGING = re.compile(r"\s+(?:in\s+melee\s+)?when\s+charging$", re.IGNORECASE)
_DICE = {"1s": "ones", "failed": "failed", "failures": "failed", "6s": "sixes"}
GRANTED = "a"  # the name the effects carry: the modifiers read "a spell"


def effects(opts: Options, key: str) -> tuple[SpellEffect, ...]:
    """The effects option `key` names; ValueError naming what is wrong and what is allowed."""
    return _parsed(opts.text(key, "").strip(), key)


def _parsed(text: str, key: str) -> tuple[SpellEffect, ...]:
    """The effects of option `key` given as `text`."""
    if not text:
        return ()
    kind = "mark" if key == "target-marks" else "rule"
    found: list[SpellEffect] = []
    for part in (p.strip() for p in text.split(",")):
        charging = _CHARGING.search(part) if key != "target-spells" else None
        if charging:  # GFF-R39: it acts only in the charger's strikes
            found.append(_on_charge(_parsed(part[: charging.start()], key), text))
            continue
        extra = _ATTACKS.match(part)
        if extra and key != "target-marks":
            found.append(SpellEffect(GRANTED, "attacks", int(extra.group(1))))
            continue
        reroll = _REROLL.match(part)
        if reroll and key != "target-marks":  # GFF-R37: re-rolls of its hit or Defense dice
            dice = _DICE.get(reroll.group(1).lower(), "successes")
            roll = "to_hit" if reroll.group(2).lower() == "hit" else "defense"
            found.append(SpellEffect(GRANTED, "reroll", 0, rule=f"{roll}:{dice}"))
            continue
        modifier = _MODIFIER.match(part)
        if modifier and key != "target-marks":  # GFF-R28: to its hit or Defense rolls
            value = int(modifier.group(1).replace(" ", "").replace("−", "-"))
            roll = "to_hit" if modifier.group(2).lower() == "hit" else "defense"
            found.append(SpellEffect(GRANTED, roll, value))
            continue
        try:
            rule = Rule.parse(part.replace(" ", "").replace("−", "-"), "any")
        except ValueError as err:
            also = "" if key == "target-marks" else ", +N attacks, +K to hit or +K defense (1-3)"
            also += (
                "" if key == "target-marks" else ", re-roll 1s|failed|6s|successes to hit|defense"
            )
            raise ValueError(f"{key}={text}: {err}; give special rules{also}") from None
        if rule.name in UNGRANTED:
            raise ValueError(f"{key}={text}: {ungranted(rule.name)}")
        if kind == "mark" and rule.name not in MARKABLE:
            allowed = ", ".join(sorted(MARKABLE))
            raise ValueError(f"{key}={text}: a mark may not give attackers {rule.name}: {allowed}")
        found.append(SpellEffect(GRANTED, kind, rule.rating or 0, rule=rule.name))
    return tuple(found)


def put(opts: Options, attacker: Unit, target: Unit) -> None:
    """Put what the options say spells gave on the attacker and the target."""
    attacker.effects = effects(opts, "spells")
    target.effects = effects(opts, "target-spells") + effects(opts, "target-marks")


def described(unit: Unit) -> str:
    """`, spells: Rending, AP(+1)` for the situation (empty without any)."""
    words = []
    for e in unit.effects:
        rated = f"{e.rule}({e.value:+d})" if e.rule == "AP" else f"{e.rule}({e.value})"
        if e.kind == "attacks":
            words.append(f"+{counted(e.value, 'attack')}")
        elif e.kind == "reroll":
            roll, dice = e.rule.split(":")
            words.append(f"re-roll {WORDS[dice]} {'to hit' if roll == 'to_hit' else 'Defense'}")
        elif e.kind in ("to_hit", "defense"):
            words.append(f"{e.value:+d} {'to hit' if e.kind == 'to_hit' else 'Defense'}")
        else:
            word = rated if e.value else e.rule
            words.append(f"mark {word}" if e.kind == "mark" else word)
        if e.when == CHARGE:
            words[-1] += " when charging"
    return f", spells: {', '.join(words)}" if words else ""


def _on_charge(found: tuple[SpellEffect, ...], text: str) -> SpellEffect:
    """The one effect `found` tied to the charge (GFF-R39): a to-hit modifier, a re-roll to
    hit or a weapon rule; ValueError otherwise."""
    (effect,) = found
    weapon_rule = effect.kind in ("rule", "mark") and is_weapon_rule(effect.rule)
    if not (weapon_rule or effect.kind == "to_hit" or effect.rule.startswith("to_hit:")):
        raise ValueError(
            f"{text}: 'when charging' goes with +K to hit, re-rolls to hit and weapon rules"
        )
    return replace(effect, when=CHARGE)
