"""A game for the search agent to look ahead in, built only from what one player may see
(`FFTTGame.view`): whatever of the enemy the view does not show is thrown away and sampled
again through the given dice, consistently with what it does show.

Hidden from a player, and so sampled: before the screen comes down, the enemy's race (among
the races of its lists in the scenario, which both players agreed; R52) and whole force
(placed in its deployment zone when it has already deployed behind the screen); afterwards,
the enemy's flanking forces still in hidden movement — how many, on which flanks, and their
figures — within what the player knows (the agreed force points less the enemy figures seen,
a quarter of them per flank, one force per flank, the flanks by which forces already
entered); the labels of every enemy flanking force; the enemy general's ability (OPTIONAL
RULES); and the dice to come. The enemy's forces are drawn from its race's profiles (an HQ
first for marines and machina), figure by figure through the dice. A force not yet written
down (the `force` step, R52) has nothing to sample: the look-ahead's players write theirs
when they come to it.
"""

from __future__ import annotations

import re

from warbench.core.dice import DiceSource, RollRequest
from warbench.core.odds import DiceReferee
from warbench.rulesets.fftt import movement, setup
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.profiles import forces, tables
from warbench.rulesets.fftt.scenario import FigureSpec, FlankSpec, ForceSpec
from warbench.rulesets.fftt.state import Fig, Flank, State, other

NUMBERED = re.compile(r"[a-z](\d+)$")  # a main force's figures (not `re1`, `rfw1`: R56)
FLANKS = ("west", "east")
UNKNOWN = "flanking force"  # the only label a player knows an enemy flanking force by


def _pick(ref: DiceReferee, label: str, count: int) -> int:
    """A uniform choice of 0..count-1 through the dice (one die of `count` sides)."""
    if count == 1:
        return 0
    return ref.roll(RollRequest(label, sides=count)).total - 1


def _fill(ref: DiceReferee, race: str, budget: int, *, hq: bool) -> list[str]:
    """Profiles of a force of at most `budget` FP: an HQ first when asked, then figures
    drawn one by one among those that still fit (HQs and queens only once)."""
    table = forces()[race]
    chosen: list[str] = []
    if hq and "hq" in table and table["hq"].fp <= budget:
        chosen.append("hq")
        budget -= table["hq"].fp
    while True:
        fits = [
            k
            for k, p in table.items()
            if p.fp <= budget and not p.hq and not (p.queen and k in chosen)
        ]
        if not fits:
            return chosen
        key = fits[_pick(ref, f"sampled {race} figure", len(fits))]
        chosen.append(key)
        budget -= table[key].fp


def _visible(s: State, fig: Fig, player: str) -> bool:
    """What `FFTTGame.view` shows `player` of a figure."""
    return fig.side == player or (s.revealed and fig.where in ("table", "dead"))


def determinise(game: FFTTGame, player: str, dice: DiceSource) -> FFTTGame:
    """A fork of `game` with `dice`, in which the enemy's hidden parts are sampled anew."""
    sim = game.fork(dice)
    assert isinstance(sim, FFTTGame)
    s = sim.state
    ref = DiceReferee(dice)
    enemy = other(player)
    spec = game.spec
    points = spec.force_points
    quarter = points // 4
    if not s.races[enemy]:  # nothing written yet: nothing of the enemy's to hide (R52)
        sim.setup_rolls = ()
        return sim
    if s.revealed:
        race = s.races[enemy]
    else:  # R52: a race among those of the enemy's lists (the agreed scenario's), never its own
        races = sorted({force.race for force in spec.lists(enemy)})
        race = races[_pick(ref, "sampled enemy race", len(races))]
    seen = [f for f in s.figs.values() if f.side == enemy and _visible(s, f, player)]
    figs = {k: f for k, f in s.figs.items() if f.side != enemy or _visible(s, f, player)}
    numbers = [int(m.group(1)) for f in seen if (m := NUMBERED.match(f.id))]
    counter = max(numbers, default=0)

    def new_fig(key: str, where: str, flank: int | None = None, fid: str = "") -> Fig:
        """A sampled enemy figure: of the main force, numbered on, unless given its id."""
        nonlocal counter
        if not fid:
            counter += 1
            fid = setup.figure_id(enemy, counter)
        fig = Fig(fid, enemy, race, key, where=where, flank=flank)
        figs[fid] = fig
        return fig

    # flanking forces: the player's own; the enemy's that entered (every player is told
    # which flank they came by) under a label the player does not know; the rest sampled
    kept = [f for f in s.flanks if f.side == player or f.entered]
    flanks = [
        Flank(f.side, f.flank, f.label, list(f.figures), f.entered)
        if f.side == player
        else Flank(f.side, f.flank, UNKNOWN, [i for i in f.figures if i in figs], True)
        for f in kept
    ]
    index = {id(f): n for n, f in enumerate(kept)}
    for fig in figs.values():
        if fig.flank is not None:
            fig.flank = index.get(id(s.flanks[fig.flank]))
    spent = sum(f.fp for f in seen if not f.hatched)
    if not s.revealed:
        main = _fill(ref, race, points - 2 * quarter, hq=race != "insectoids")
        placed = s.stage == "deploy" and enemy == s.attacker and s.player != enemy
        for key in main:
            new_fig(key, "table" if placed else "reserve")
        spent = sum(forces()[race][k].fp for k in main)
    taken = {f.flank for f in flanks if f.side == enemy}
    last = max(tables().flank_entry)
    late = s.revealed and (s.turn > last or (s.turn == last and s.phase > 1))
    for side_flank in FLANKS:
        if late or side_flank in taken:
            continue
        budget = min(quarter, points - spent)
        if budget < 1 or _pick(ref, f"sampled enemy {side_flank} flank", 3) == 0:
            continue
        keys = _fill(ref, race, budget, hq=False)
        if not keys:
            continue
        at = len(flanks)
        ids = [
            new_fig(k, "flank", at, setup.figure_id(enemy, n, side_flank)).id
            for n, k in enumerate(keys, start=1)
        ]
        flanks.append(Flank(enemy, side_flank, UNKNOWN, ids))
        spent += sum(forces()[race][k].fp for k in keys)
    for n, flank in enumerate(flanks):
        if flank.side == enemy and not flank.figures:  # entering now, not yet placed
            keys = _fill(ref, race, quarter, hq=False)
            flank.figures = [
                new_fig(k, "flank", n, setup.figure_id(enemy, m, flank.flank)).id
                for m, k in enumerate(keys, start=1)
            ]
            s.to_enter += flank.figures
    s.figs = figs
    s.flanks = flanks
    s.races = {**s.races, enemy: race}
    s.to_enter = [f for f in s.to_enter if f in figs]
    s.score = {}
    _place_behind_the_screen(ref, s, enemy)
    _sample_general(ref, sim, s, enemy)
    sim.spec = spec.model_copy(update={"forces": {**spec.forces, enemy: _force(s, enemy)}})
    sim.scenario = sim.spec.model_dump(mode="json")
    sim.setup_rolls = ()
    return sim


def _place_behind_the_screen(ref: DiceReferee, s: State, side: str) -> None:
    """Sampled figures of a force that already deployed behind the screen stand somewhere in
    its deployment zone, at points the deployment rules allow."""
    placed = [f for f in s.figs.values() if f.side == side and f.where == "table"]
    if s.revealed or not placed:
        return
    depth = s.table.zone_depth
    north = s.edge(side) == "north"
    for fig in placed:
        fig.facing = 180.0 if north else 0.0
        spots = [
            (
                round(s.table.width * (i + 0.5) / 8, 1),
                round(s.table.depth - depth * j if north else depth * j, 1),
            )
            for i in range(8)
            for j in (0.3, 0.7)
        ]
        free = [p for p in spots if movement.deploy_problem(s, fig, p) is None] or spots
        fig.x, fig.y = free[_pick(ref, "sampled deployment", len(free))]


def _sample_general(ref: DiceReferee, sim: FFTTGame, s: State, side: str) -> None:
    """OPTIONAL RULES: the enemy's general and its ability are the enemy's secret."""
    mine = [f for f in s.figs.values() if f.side == side and f.flank is None and not f.hatched]
    for fig in mine:
        fig.ability = 0
    if not sim.spec.optional.generals or not mine:
        return
    general = mine[_pick(ref, "sampled enemy general", len(mine))]
    general.ability = ref.roll(RollRequest("sampled enemy general's ability", dice=2)).total


def _force(s: State, side: str) -> ForceSpec:
    """The side's force as the sample has it (its scenario entry in the look-ahead)."""
    own = [f for f in s.figs.values() if f.side == side and not f.hatched]
    flanks = [
        FlankSpec.model_construct(
            flank=f.flank,  # type: ignore[arg-type]
            label=f.label,
            figures=tuple(FigureSpec(profile=s.figs[i].key) for i in f.figures if i in s.figs),
        )
        for f in s.flanks
        if f.side == side
    ]
    return ForceSpec.model_construct(
        race=s.races[side],  # type: ignore[arg-type]
        general=None,
        figures=tuple(FigureSpec(profile=f.key) for f in own if f.flank is None),
        flanks=tuple(flanks),
    )
