"""The actions of FFTT in their text form. Distances in cm, points `x,y` (x west to east,
y south to north)."""

from __future__ import annotations

from dataclasses import dataclass

from warbench.core.actions import Action, ActionCodec

Point = tuple[float, float]


@dataclass(frozen=True)
class ChooseTable(Action):
    """THE GAME TABLE: the attacker chooses its size, 80, 100 or 120 cm a side."""

    verb = "table"
    summary = "choose the table size WIDTH DEPTH (80, 100 or 120 cm each)"
    width: int
    depth: int


@dataclass(frozen=True)
class PlaceScenery(Action):
    """THE GAME TABLE: the defender deploys the scenery (generated through the dice)."""

    verb = "scenery"
    summary = "place the scenery: at least one piece of 5-25 cm in each of the six zones"


@dataclass(frozen=True)
class PlacePiece(Action):
    """THE GAME TABLE, scenery placed by hand: the defender places one piece by two opposite
    corners; LAYOUT is a building's row (1-6) of the buildings table, 0 for other kinds."""

    verb = "piece"
    summary = (
        "place a piece KIND between corners X0,Y0 and X1,Y1 (5-25 cm a side; a low wall 1 cm "
        "thick); LAYOUT 1-6 picks a building's doors and floors, 0 for other kinds"
    )
    kind: str
    corner: Point
    far: Point
    layout: int


@dataclass(frozen=True)
class ChooseSide(Action):
    """THE GAME TABLE: the attacker chooses the side to deploy on."""

    verb = "side"
    summary = "deploy on the south or north side"
    edge: str


@dataclass(frozen=True)
class WriteForce(Action):
    """GAME STEPS, "write secretly the race and composition of your force as well as flanking
    forces": one of the side's lists in the scenario, by its number and race (R48, R52)."""

    verb = "force"
    summary = "write down secretly the force NUMBER of your lists, of RACE"
    number: int
    race: str


@dataclass(frozen=True)
class WriteForceSwapped(Action):
    """GAME STEPS: one of the side's lists, each of its flanking forces written down to come
    by the other flank, west or east (R54)."""

    verb = "force-swap"
    summary = (
        "write down secretly the force NUMBER of your lists, of RACE, each flanking force "
        "sent by the other flank"
    )
    number: int
    race: str


@dataclass(frozen=True)
class Compose(Action):
    """GAME STEPS: a force of the player's own composition, where the scenario allows it
    (R54): its race, its figures by profile, its flanking forces by flank."""

    verb = "compose"
    summary = (
        "write down secretly a force of your own: RACE, its FIGURES by profile, comma-"
        "separated, PROFILE*COUNT for several (hq,grunt*6), each with any marks the battle "
        "allows after a / (engineer/elite/general=Kowalski, sniper/xp=12), and its WEST and "
        "EAST flanking forces (FIGURES or LABEL:FIGURES, - for none), within the agreed force "
        "points, at most a quarter of them a flank"
    )
    race: str
    figures: str
    west: str
    east: str


@dataclass(frozen=True)
class Deploy(Action):
    """Deploy a figure in the deployment zone, behind the screen."""

    verb = "deploy"
    summary = "deploy FIGURE at a point of your deployment zone"
    figure: str
    at: Point


@dataclass(frozen=True)
class First(Action):
    """DEVELOPMENT OF A TURN: the player with the initiative decides who moves first."""

    verb = "first"
    summary = "decide who moves first this turn"
    player: str


@dataclass(frozen=True)
class Enter(Action):
    """Units in hidden movement: place an entering figure up to 10 cm in on its flank."""

    verb = "enter"
    summary = "place an entering flanking figure on its flank"
    figure: str
    at: Point


@dataclass(frozen=True)
class Move(Action):
    """MOVEMENT: a move in a straight line, one action per 10 cm (unless stated) or part."""

    verb = "move"
    summary = "move FIGURE to a point (1 action per 10 cm unless stated; terrain counts double)"
    figure: str
    to: Point


@dataclass(frozen=True)
class Climb(Action):
    """MOVEMENT: 'climbing stairs ... cost 1 action': up to the upper floor or down again."""

    verb = "climb"
    summary = "FIGURE climbs the stairs of its building, up or down (1 action)"
    figure: str


@dataclass(frozen=True)
class Charge(Action):
    """HAND TO HAND COMBAT: move (1 action) into base contact with an enemy."""

    verb = "charge"
    summary = "move FIGURE into base contact with TARGET (1 action)"
    figure: str
    target: str


@dataclass(frozen=True)
class Shoot(Action):
    """SHOOTING: fire at a figure in sight (1 action)."""

    verb = "shoot"
    summary = "fire FIGURE at TARGET (1 action)"
    figure: str
    target: str


@dataclass(frozen=True)
class Lob(Action):
    """Indirect fire: grenadiers (and acid spitters) need no sight, at -1."""

    verb = "lob"
    summary = "indirect fire of FIGURE at TARGET (no sight needed, -1)"
    figure: str
    target: str


@dataclass(frozen=True)
class CallSupport(Action):
    """Off-board artillery (or a Storm bringer's air) support on a target in sight (1 action)."""

    verb = "call"
    summary = "FIGURE calls artillery or air support on TARGET in sight (1 action)"
    figure: str
    target: str


@dataclass(frozen=True)
class Heal(Action):
    """HEALING: a medic or tank in base contact spends 2 actions to heal one wound."""

    verb = "heal"
    summary = "HEALER heals one wound of TARGET in base contact (2 actions)"
    healer: str
    target: str


@dataclass(frozen=True)
class Eat(Action):
    """Queen: eat a corpse in base contact (1 action)."""

    verb = "eat"
    summary = "the queen eats a corpse in base contact (1 action)"
    queen: str


@dataclass(frozen=True)
class Lay(Action):
    """Queen: lay an egg for a corpse eaten (1 action)."""

    verb = "lay"
    summary = "the queen lays an egg (1 action, one per corpse eaten)"
    queen: str


@dataclass(frozen=True)
class Explode(Action):
    """Bomb Bug: go off like a grenade (1 action)."""

    verb = "explode"
    summary = "the bomb bug goes off like a grenade (1 action)"
    bug: str


@dataclass(frozen=True)
class OpportunityFire(Action):
    """Opportunity fire at the moving figure at point AT of its path (2 actions)."""

    verb = "opfire"
    summary = "fire FIGURE at the mover when it reaches path point AT (2 actions)"
    figure: str
    at: int


@dataclass(frozen=True)
class Hold(Action):
    """Let the enemy move go on without (more) opportunity fire."""

    verb = "hold"
    summary = "no opportunity fire at this move"


@dataclass(frozen=True)
class Answer(Action):
    """A charged figure shoots its attacker instead of fighting."""

    verb = "answer"
    summary = "the charged figure shoots ATTACKER instead of fighting (2 actions)"
    attacker: str


@dataclass(frozen=True)
class Fight(Action):
    """A charged figure fights hand to hand."""

    verb = "fight"
    summary = "the charged figure fights hand to hand"


@dataclass(frozen=True)
class WoundAttacker(Action):
    """HAND TO HAND COMBAT: the defender selects which beaten attacker takes the wound."""

    verb = "wound"
    summary = "choose the beaten attacker who takes the defender's wound"
    attacker: str


@dataclass(frozen=True)
class Surrender(Action):
    """END OF THE GAME: a player may surrender at any of its decisions; the opponent wins."""

    verb = "surrender"
    summary = "surrender: the battle ends and your opponent wins"


@dataclass(frozen=True)
class Done(Action):
    """End your part of the step (the figures keep their unused actions)."""

    verb = "done"
    summary = "end your part of this step"


CODEC = ActionCodec(
    [
        ChooseTable,
        PlaceScenery,
        PlacePiece,
        ChooseSide,
        WriteForce,
        WriteForceSwapped,
        Compose,
        Deploy,
        First,
        Enter,
        Move,
        Climb,
        Charge,
        Shoot,
        Lob,
        CallSupport,
        Heal,
        Eat,
        Lay,
        Explode,
        OpportunityFire,
        Hold,
        Answer,
        Fight,
        WoundAttacker,
        Surrender,
        Done,
    ]
)
