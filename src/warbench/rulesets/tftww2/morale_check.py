"""5.0 Morale at the end of each side's turn: squads whose nearest CO fell, that lost more
than one man this round, or that came under air, artillery or flame attack test LDR; a
failure makes the squad flee until a non-fleeing CO rallies it with an LDR roll.

Rulings: the squad's commander is its NCO, or its best-ranked man left (TFT-R14); each squad
tests at most once a round (TFT-R15); a non-fleeing CO within 12" tries to rally each
fleeing squad at his side's morale check (TFT-R16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warbench.rulesets.tftww2 import terrain
from warbench.rulesets.tftww2.attributes import attributes
from warbench.rulesets.tftww2.morale import ldr_check, ldr_modifiers
from warbench.rulesets.tftww2.state import Man, Squad
from warbench.rulesets.tftww2.vehicles import afv_within

if TYPE_CHECKING:
    from warbench.rulesets.tftww2.game import TFTGame

RANKS = {"CO": 3, "NCO": 2, "Private": 1}
RALLY_REACH = 12.0


def commander(game: TFTGame, squad: Squad) -> Man | None:
    """The squad's NCO, or its best-ranked man still in the fight."""
    men = game.state.squad_men(squad.id)
    nco = [m for m in men if m.rank == "NCO"]
    return nco[0] if nco else max(men, key=lambda m: RANKS[m.rank], default=None)


def _modifiers(game: TFTGame, squad: Squad) -> list[tuple[str, int]]:
    men = game.state.squad_men(squad.id)
    cos = [c for c in game.state.side_men(squad.side) if c.rank == "CO"]
    return ldr_modifiers(
        co_within_6=any(c.distance(m) <= 6 for c in cos for m in men if c is not m),
        casualties=squad.casualties,
        in_cover=sum(terrain.cover(game.table, m, None) != "none" for m in men) * 2 > len(men),
        under_air_flame_rocket=squad.air_flame_rocket,
        afv_within_12=afv_within(game, squad.side, men),
        quality=squad.quality,  # type: ignore[arg-type]
    )


def end_of_turn_morale(game: TFTGame) -> None:
    """Test every squad with a trigger this round; then COs try to rally fleeing squads."""
    s = game.state
    for squad in s.squads.values():
        triggered = squad.co_lost or squad.lost_this_round > 1 or squad.area_attack
        if not triggered or squad.fleeing or squad.tested == s.round:
            continue
        leader = commander(game, squad)
        if leader is None:
            continue
        squad.tested = s.round
        if not ldr_check(
            game,
            f"morale: {squad.name} ({leader.id})",
            attributes(leader).leadership,
            _modifiers(game, squad),
        ):
            squad.fleeing = True
            game.emit("flee", f"{squad.name} breaks and flees")
    for squad in s.squads.values():
        if not squad.fleeing or squad.side != s.side:
            continue
        men = s.squad_men(squad.id)
        for co in [
            c for c in s.side_men(squad.side) if c.rank == "CO" and not s.squads[c.squad].fleeing
        ]:
            if any(co.distance(m) <= RALLY_REACH for m in men) and ldr_check(
                game, f"rally: {co.id} rallies {squad.name}", attributes(co).leadership, ()
            ):
                squad.fleeing = False
                game.emit("rally", f"{co.id} rallies {squad.name}")
                break
