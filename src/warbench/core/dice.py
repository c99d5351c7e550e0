"""Dice: labelled roll requests, (reason, value) modifiers, and three dice sources.

Every roll in every ruleset is a `RollRequest` sent to the game's `DiceSource`
(ARCHITECTURE.md, "Dice"). The source only chooses faces; `resolve` reads them, so the
seeded, scripted and exact sources all serve the very same rules code.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import secrets
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Literal, Protocol, TypeVar

from warbench.core.words import counted, noun


class Read(StrEnum):
    """How the faces of a roll are read."""

    TOTAL = "total"  # sum of faces plus modifiers; no target
    OVER = "over"  # success when modified total > target (Table Top Troopers to hit)
    AT_LEAST = "at_least"  # success when modified total >= target (quality tests)
    AT_MOST = "at_most"  # success when modified total <= target (roll-under systems)
    COUNT_AT_LEAST = "count_at_least"  # successes = dice (each modified, naturals first) >= target


Modifier = tuple[str, int]


@dataclass(frozen=True)
class RollRequest:
    """What is rolled, how it is read, and why: one labelled request to the dice.

    `always_succeed` / `always_fail` name natural totals that succeed or fail whatever the
    modifiers ("a roll of 1 always misses and a roll of 6 always hits").
    """

    label: str
    dice: int = 1
    sides: int = 6
    read: Read = Read.TOTAL
    target: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    always_succeed: frozenset[int] = frozenset()
    always_fail: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.dice < 1 or self.sides < 2:
            raise ValueError(f"{self.label}: need at least one die of at least two sides")
        if self.read is not Read.TOTAL and self.target is None:
            raise ValueError(f"{self.label}: reading {self.read} needs a target")

    @property
    def modifier_total(self) -> int:
        """Sum of the (reason, value) modifiers."""
        return sum(value for _, value in self.modifiers)

    @property
    def dice_text(self) -> str:
        """The dice in the rulebooks' notation: d6, 2d6, 3d6."""
        return f"{'' if self.dice == 1 else self.dice}d{self.sides}"


@dataclass(frozen=True)
class Roll:
    """A resolved request: the faces, the modified result, and whether it succeeded."""

    request: RollRequest
    faces: tuple[int, ...]
    total: int
    success: bool | None
    successes: int | None = None
    forced: str = ""  # why the natural roll decided it, when it did

    def explain(self) -> str:
        """One line a player can check: dice, each modifier, the number needed, the result."""
        req = self.request
        faces = "+".join(str(f) for f in self.faces)
        text = f"{req.label}: {req.dice_text} rolled {faces}"
        if req.modifiers:
            mods = " ".join(f"{v:+d} {reason}" for reason, v in req.modifiers)
            text += f" {mods}"
        if req.read is Read.COUNT_AT_LEAST:
            verb = noun(self.successes or 0, "succeeds", "succeed")
            return f"{text}; {self.successes} of {req.dice} {verb} at {req.target}+"
        text += f" = {self.total}"
        if req.read is Read.OVER:
            text += f", needs more than {req.target}"
        elif req.read is Read.AT_LEAST:
            text += f", needs {req.target} or more"
        elif req.read is Read.AT_MOST:
            text += f", needs {req.target} or less"
        if self.forced:
            text += f" ({self.forced})"
        if self.success is not None:
            text += ": success" if self.success else ": failure"
        return text


def resolve(request: RollRequest, faces: Sequence[int]) -> Roll:
    """Read `faces` as `request` says. Pure: the same faces always give the same Roll."""
    if len(faces) != request.dice or any(not 1 <= f <= request.sides for f in faces):
        raise ValueError(f"{request.label}: faces {list(faces)} do not fit {request.dice_text}")
    natural = sum(faces)
    total = natural + request.modifier_total
    target = request.target
    read = request.read
    if read is Read.TOTAL or target is None:
        return Roll(request, tuple(faces), total, None)
    if read is Read.COUNT_AT_LEAST:
        hits = sum(1 for f in faces if _die_succeeds(request, f, target))
        return Roll(request, tuple(faces), total, hits > 0, hits)
    if read is Read.OVER:
        success = total > target
    elif read is Read.AT_LEAST:
        success = total >= target
    else:
        success = total <= target
    if not success and natural in request.always_succeed:
        return Roll(request, tuple(faces), total, True, forced=f"natural {natural} always succeeds")
    if success and natural in request.always_fail:
        return Roll(request, tuple(faces), total, False, forced=f"natural {natural} always fails")
    return Roll(request, tuple(faces), total, success)


def _die_succeeds(request: RollRequest, face: int, target: int) -> bool:
    """One die of a pool: natural faces first, then the modified face against the target."""
    if face in request.always_succeed:
        return True
    if face in request.always_fail:
        return False
    return face + request.modifier_total >= target


class DiceSource(Protocol):
    """Chooses the faces of each request; the rules read them with `resolve`."""

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        """The faces rolled for `request`."""
        ...


class SeededDice:
    """Pseudo-random dice from a seed: play and simulation. Uses its own `random.Random`."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        """Roll each die uniformly: `randint(1, sides)` a die, the same draws (CPython's
        `randrange` over `getrandbits`, rejecting draws past the range) without its three
        Python calls a die."""
        sides = request.sides
        bits = sides.bit_length()
        getrandbits = self._rng.getrandbits
        faces = []
        for _ in range(request.dice):
            face = getrandbits(bits)
            while face >= sides:
                face = getrandbits(bits)
            faces.append(face + 1)
        return tuple(faces)


def fresh_seed() -> int:
    """An unguessable seed for a real game (`secrets`)."""
    return secrets.randbits(63)


class DiceExhausted(RuntimeError):
    """A scripted source was asked for more dice than its script holds."""


class ScriptedDice:
    """Dice forced by a test or a record: faces are taken in order; running out is an error."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted faces are left."""
        return len(self._faces) - self._next

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        """The next `request.dice` scripted faces."""
        end = self._next + request.dice
        if end > len(self._faces):
            raise DiceExhausted(
                f"{request.label}: needs {request.dice_text} but the script has "
                f"{counted(self.remaining, 'face')} left"
            )
        chosen = tuple(self._faces[self._next : end])
        for face in chosen:
            if not 1 <= face <= request.sides:
                raise ValueError(
                    f"{request.label}: scripted face {face} is not on a d{request.sides}"
                )
        self._next = end
        return chosen


class ReplayedDice:
    """A seedless record's faces in order, then fresh unguessable dice for play to go on."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._script = ScriptedDice(faces)
        self._fresh: SeededDice | None = None

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        """Recorded faces while they last, then new ones."""
        if self._script.remaining:
            return self._script.faces(request)
        if self._fresh is None:
            self._fresh = SeededDice(fresh_seed())
        return self._fresh.faces(request)


@dataclass(frozen=True)
class Reading:
    """How the rules read one request's faces, so the exact source may enumerate classes of
    outcomes instead of every ordered outcome (the odds of a ten-dice pool in 3,003 sorted
    multisets, or 11 counts of successes, rather than 6^10 ordered rolls).

    Giving a Reading claims that the rules read the faces in any order alike (a multiset),
    and cannot tell apart faces of one class: `classes[face - 1]` is the class of each face.
    `summary` says what of that multiset the rules read: all of it (`multiset`, e.g. a count
    of successes), only the sum of the faces (`total`), or only which classes are present
    (`present`: "any 6 destroys, else any 4-5 forces a check"). The source then rolls one
    representative roll per class of rolls (sorted, with the lowest face of each class)
    weighted by how many ordered rolls it stands for, so every probability stays exact. A
    finer partition is always safe; tests check each ruleset's readings against
    face-by-face enumeration.
    """

    classes: tuple[int, ...]
    summary: Literal["multiset", "total", "present"] = "multiset"

    @classmethod
    def unordered(cls, sides: int = 6) -> Reading:
        """Order does not matter; every face is read for itself (sorted multisets)."""
        return cls(tuple(range(sides)))

    @classmethod
    def natural_total(cls, sides: int = 6) -> Reading:
        """Only the natural total is read (a 3d6 roll-under with criticals on the total)."""
        return cls(tuple(range(sides)), summary="total")

    @classmethod
    def keyed(
        cls,
        sides: int,
        key: Callable[[int], Hashable],
        summary: Literal["multiset", "total", "present"] = "multiset",
    ) -> Reading:
        """Faces with equal `key` are read alike (order does not matter)."""
        keys = [key(face) for face in range(1, sides + 1)]
        return cls(tuple(keys.index(k) for k in keys), summary)

    @classmethod
    def by_success(cls, request: RollRequest, keep: frozenset[int] = frozenset()) -> Reading:
        """Each die is read only as success or failure against the request (natural
        successes and failures included; a count of successes), except the natural faces in
        `keep`, which stay classes of their own (Rending's 6s)."""
        target = request.target
        if target is None or request.read is Read.TOTAL:
            return cls.unordered(request.sides)
        return cls.keyed(
            request.sides,
            lambda face: face if face in keep else _die_succeeds(request, face, target),
        )


Outcomes = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


@functools.lru_cache(maxsize=4096)
def reduced_outcomes(dice: int, sides: int, reading: Reading) -> Outcomes:
    """The representative rolls of `dice` d`sides` read as `reading` says, each with how
    many of the sides**dice ordered rolls it stands for (multinomial weights)."""
    if len(reading.classes) != sides:
        raise ValueError(f"a reading of d{sides} needs {sides} face classes")
    members: dict[int, list[int]] = {}
    for face, cls in enumerate(reading.classes, start=1):
        members.setdefault(cls, []).append(face)
    groups = list(members.values())
    ways: dict[object, tuple[tuple[int, ...], int]] = {}
    for combo in itertools.combinations_with_replacement(range(len(groups)), dice):
        count = math.factorial(dice)
        for g, group in enumerate(groups):
            n = combo.count(g)
            count = count // math.factorial(n) * len(group) ** n
        faces = tuple(groups[g][0] for g in combo)  # sorted: groups are in face order
        key: object = faces
        if reading.summary == "total":
            key = sum(faces)
        elif reading.summary == "present":
            key = frozenset(combo)
        first, seen = ways.get(key, (faces, 0))
        ways[key] = (first, seen + count)
    return tuple(faces for faces, _ in ways.values()), tuple(n for _, n in ways.values())


ReadingPolicy = Callable[[RollRequest], Reading | None]


@dataclass
class _Branch:
    outcomes: Sequence[tuple[int, ...]]
    index: int = 0


@dataclass
class ExactDice:
    """One walk of an exact enumeration: follows a forced prefix, then the first outcome.

    `exact_outcomes` drives it depth first over every outcome of every request. With a
    `reading` policy, a request it gives a `Reading` for is enumerated by classes of
    outcomes (weighted representatives); any other request face by face.
    """

    prefix: list[int] = field(default_factory=list)
    branches: list[_Branch] = field(default_factory=list)
    reading: ReadingPolicy | None = None
    ways: int = 1  # ordered rolls this walk stands for ...
    of: int = 1  # ... out of this many

    @property
    def probability(self) -> Fraction:
        """The exact probability of this walk."""
        return Fraction(self.ways, self.of)

    def faces(self, request: RollRequest) -> tuple[int, ...]:
        """Outcome number `prefix[depth]` of this request (or the first, past the prefix)."""
        depth = len(self.branches)
        index = self.prefix[depth] if depth < len(self.prefix) else 0
        how = self.reading(request) if self.reading is not None else None
        if how is None:
            outcomes: Sequence[tuple[int, ...]] = list(
                itertools.product(range(1, request.sides + 1), repeat=request.dice)
            )
            self.branches.append(_Branch(outcomes, index))
            self.of *= len(outcomes)
        else:
            outcomes, counts = reduced_outcomes(request.dice, request.sides, how)
            self.branches.append(_Branch(outcomes, index))
            self.ways *= counts[index]
            self.of *= request.sides**request.dice
        return outcomes[index]


T = TypeVar("T", bound=Hashable)


def exact_outcomes(
    experiment: Callable[[DiceSource], T], reading: ReadingPolicy | None = None
) -> dict[T, Fraction]:
    """Every outcome of `experiment` with its exact probability.

    `experiment` runs the real rules code with the dice it is given; it is re-run once per
    combination of faces (depth first), so it must not keep state between runs. `reading`
    says, request by request, how the rules read the faces (see `Reading`); without it
    every ordered outcome is enumerated.
    """
    counted: dict[tuple[T, int], int] = {}  # (outcome, ordered rolls of a walk) -> ways
    prefix: list[int] = []
    while True:
        dice = ExactDice(prefix=list(prefix), reading=reading)
        outcome = experiment(dice)
        key = (outcome, dice.of)
        counted[key] = counted.get(key, 0) + dice.ways
        indices = [b.index for b in dice.branches]
        while indices and indices[-1] + 1 >= len(dice.branches[len(indices) - 1].outcomes):
            indices.pop()
        if not indices:
            break
        indices[-1] += 1
        prefix = indices
    result: dict[T, Fraction] = {}
    for (outcome, of), ways in counted.items():
        result[outcome] = result.get(outcome, Fraction(0)) + Fraction(ways, of)
    return result
