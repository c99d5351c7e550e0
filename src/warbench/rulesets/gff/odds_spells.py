"""What spells have put on the units of an odds query (GFF-R31, R33): special rules granted
to the attacker or to the target, extra attacks, and marks on the target giving its
attackers rules. They go on the units as the lasting effects a casting leaves
(`state.SpellEffect`), so the play code reads them exactly as in a game: `spell_grants.armed`
and `marked` on the weapons, `Unit.all_have` and `rating` for unit rules.
"""

from __future__ import annotations

import re

from warbench.core.odds import Options
from warbench.rulesets.gff.profiles import MARKABLE, UNGRANTED, Rule, ungranted
from warbench.rulesets.gff.state import SpellEffect, Unit

OPTIONS: dict[str, str] = {
    "spells": "what spells gave the attacker: special rules like Rending,AP(+1) or Poison (read "
    "as Bane), and +N attacks (default none)",
    "target-spells": "special rules spells gave the target, like Regeneration,Stealth "
    "(default none)",
    "target-marks": "rules a mark on the target gives the units attacking it, like "
    "Rending,AP(+1) (default none)",
}
_ATTACKS = re.compile(r"^\+\s*([1-3])\s*attacks?$", re.IGNORECASE)
GRANTED = "spell"  # the name the effects carry (the log's "spell" modifiers)


def effects(opts: Options, key: str) -> tuple[SpellEffect, ...]:
    """The effects option `key` names; ValueError naming what is wrong and what is allowed."""
    text = opts.text(key, "").strip()
    if not text:
        return ()
    kind = "mark" if key == "target-marks" else "rule"
    found: list[SpellEffect] = []
    for part in (p.strip() for p in text.split(",")):
        extra = _ATTACKS.match(part)
        if extra and key == "spells":
            found.append(SpellEffect(GRANTED, "attacks", int(extra.group(1))))
            continue
        try:
            rule = Rule.parse(part.replace(" ", "").replace("−", "-"), "any")
        except ValueError as err:
            raise ValueError(f"{key}={text}: {err}") from None
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
            words.append(f"+{e.value} attack(s)")
        else:
            word = rated if e.value else e.rule
            words.append(f"mark {word}" if e.kind == "mark" else word)
    return f", spells: {', '.join(words)}" if words else ""
