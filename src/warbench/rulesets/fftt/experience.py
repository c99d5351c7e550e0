"""OPTIONAL RULES, Experience: 'When a determined figure ... kills enough enemy FPs, it gains
experience and bonuses ... 20 FPs ... veteran status. 8 FPs: +1 when shooting 16 FPs: an
extra wound 24 FPs: one permanent extra action 32 FPs: it can throw once in the chart above'.
A scenario switch: the figure that dealt a casualty's last wound is credited with its FPs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.core.dice import RollRequest
from warbench.rulesets.fftt.profiles import tables
from warbench.rulesets.fftt.state import Fig, State

if TYPE_CHECKING:
    from warbench.rulesets.fftt.wounds import Referee


def credit(ref: Referee, s: State, victim: Fig) -> None:
    """Credit `victim`'s FPs to the enemy figure that dealt its last wound (with the switch
    on), announcing each bonus reached; at 32 FPs one throw on the general's chart."""
    killer_id = s.last_hit.pop(victim.id, None)
    if not s.experience or killer_id is None:
        return
    killer = s.figs[killer_id]
    if killer.side == victim.side:
        return
    xp = tables().experience
    before = killer.xp
    killer.xp += victim.fp
    ref.emit("experience", f"{killer.id} has killed {killer.xp} enemy FPs")
    steps = (
        (xp.shooting, "+1 when shooting"),
        (xp.wound, "an extra wound"),
        (xp.veteran, "veteran status (+1 in hand to hand)"),
        (xp.action, "one permanent extra action"),
    )
    for at, bonus in steps:
        if before < at <= killer.xp:
            ref.emit("experience", f"{killer.id} gains {bonus}")
    if before < xp.chart <= killer.xp:
        label = f"experience: {killer.id} throws on the general's chart"
        throw = ref.roll(RollRequest(label, dice=2))
        name = tables().general_abilities[throw.total]
        if killer.ability:
            ref.emit("experience", f"{killer.id} keeps its ability; the throw ({name}) is lost")
        else:
            killer.ability = throw.total
            ref.emit("experience", f"{killer.id} becomes a {name}")
