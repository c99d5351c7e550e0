"""The game record: ruleset, scenario, seed, every action and every roll (docs/records.md).

A record is versioned. `Record.from_json` reads the versions it knows and refuses any other
with a message saying which versions this warbench reads, so a record is never misread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warbench.core.words import noun

FORMAT = "warbench-record"
FORMAT_VERSION = 1
READABLE_VERSIONS = (1,)


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says why."""


def _text_or_none(value: object, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise RecordError(f"record is damaged: {name} {value!r} is not text")
    return value


@dataclass(frozen=True)
class Step:
    """One applied action: who took it, its text form, the faces of each roll, the state hash."""

    player: str
    action: str
    rolls: tuple[tuple[int, ...], ...] = ()
    hash: str | None = None


@dataclass
class Record:
    """Everything needed to reproduce a game step by step."""

    ruleset: str
    ruleset_version: str
    scenario: dict[str, Any]
    seed: int | None
    initial_hash: str | None = None
    setup_rolls: tuple[tuple[int, ...], ...] = ()
    steps: list[Step] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON data, format tag and version first."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "ruleset": self.ruleset,
            "ruleset_version": self.ruleset_version,
            "scenario": self.scenario,
            "seed": self.seed,
            "initial_hash": self.initial_hash,
            "setup_rolls": [list(r) for r in self.setup_rolls],
            "steps": [
                {"player": s.player, "action": s.action, "rolls": [list(r) for r in s.rolls]}
                | ({"hash": s.hash} if s.hash else {})
                for s in self.steps
            ],
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read a record, refusing unknown formats and versions with a clear message."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a warbench record (expected "format": "{FORMAT}")')
        version = data.get("format_version")
        if version not in READABLE_VERSIONS:
            readable = ", ".join(str(v) for v in READABLE_VERSIONS)
            raise RecordError(
                f"record format version {version!r} cannot be read by this warbench, "
                f"which reads {noun(len(READABLE_VERSIONS), 'version')} {readable}"
            )
        if not isinstance(data.get("scenario"), dict):
            raise RecordError("record is damaged: scenario is not a mapping of fields")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError(f"record is damaged: seed {seed!r} is not a whole number")
        try:
            steps = [
                Step(
                    player=str(s["player"]),
                    action=str(s["action"]),
                    rolls=tuple(tuple(int(f) for f in r) for r in s["rolls"]),
                    hash=_text_or_none(s.get("hash"), "hash"),
                )
                for s in data["steps"]
            ]
            return cls(
                ruleset=str(data["ruleset"]),
                ruleset_version=str(data["ruleset_version"]),
                scenario=dict(data["scenario"]),
                seed=seed,
                initial_hash=_text_or_none(data.get("initial_hash"), "initial_hash"),
                setup_rolls=tuple(tuple(int(f) for f in r) for r in data.get("setup_rolls", [])),
                steps=steps,
                result=data.get("result"),
            )
        except KeyError as err:
            raise RecordError(f"record is damaged: the field {err.args[0]!r} is missing") from None
        except (TypeError, ValueError) as err:
            raise RecordError(
                "record is damaged: steps are {player, action, rolls} with every roll a list of"
                f" whole numbers ({err})"
            ) from None

    def write(self, path: Path) -> None:
        """Save as JSON."""
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def read(cls, path: Path) -> Record:
        """Load from a JSON file; RecordError says why it cannot be (callers name the file)."""
        try:
            raw = path.read_bytes()
        except OSError as err:
            raise RecordError(f"cannot read the record: {err.strerror}") from None
        return cls.loads(raw)

    @classmethod
    def loads(cls, raw: bytes) -> Record:
        """A record from its JSON text (a file's or an upload's); RecordError says why not."""
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as err:
            raise RecordError(f"not a record: not UTF-8 text (byte {err.start + 1})") from None
        except json.JSONDecodeError as err:
            raise RecordError(
                f"not a record: not JSON (line {err.lineno}, column {err.colno}: {err.msg}); "
                "a record is the JSON file `warbench play --save FILE` writes"
            ) from None
        return cls.from_json(data)
