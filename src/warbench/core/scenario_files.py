"""Scenario files: YAML read and validated by a ruleset's pydantic model, with errors that
name every broken field and what it expects (ARCHITECTURE.md, "The game contract")."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


_PYDANTIC_PREFIXES = ("Value error, ", "Assertion failed, ")


def problem_text(error: Mapping[str, Any]) -> str:
    """One pydantic error's message as our own sentence: without the "Value error, " that
    pydantic puts before the text of a ValueError raised by a validator."""
    msg = str(error["msg"])
    for prefix in _PYDANTIC_PREFIXES:
        msg = msg.removeprefix(prefix)
    return msg


def validate_model(model: type[M], data: Any, source: str) -> M:
    """`data` as `model`; ValueError lists each broken field with its path."""
    if not isinstance(data, dict):
        held = "nothing" if data is None else f"a {type(data).__name__}"
        raise ValueError(
            f"{source}: a scenario is a mapping of fields ({', '.join(model.model_fields)}), "
            f"not {held}"
        )
    try:
        return model.model_validate(data)
    except ValidationError as err:
        broken = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'scenario'}: {problem_text(e)}"
            for e in err.errors()
        )
        raise ValueError(f"{source}: {broken}") from None


_YAML_HINTS = {
    "found character '\\t' that cannot start any token": "YAML indents with spaces, not tabs",
    "mapping values are not allowed here": (
        "a value holding ': ' needs quotes, and a line may not be indented under a plain value"
    ),
}


def yaml_problem(err: yaml.YAMLError) -> str:
    """A YAML syntax error in one line: where (line and column, from 1), what is wrong, and
    the part being read, without the excerpt of the text PyYAML quotes."""
    if not isinstance(err, yaml.MarkedYAMLError):
        return " ".join(str(err).split())
    mark = err.problem_mark or err.context_mark
    what = err.problem or err.context or "not YAML"
    text = f"line {mark.line + 1}, column {mark.column + 1}: {what}" if mark else what
    if err.context and err.problem and err.context_mark:
        part = re.sub(r"^while (parsing|scanning|constructing) ", "", err.context)
        at = err.context_mark
        text += f", in {part} that starts at line {at.line + 1}, column {at.column + 1}"
    hint = _YAML_HINTS.get(what)
    return f"{text} ({hint})" if hint else text


def yaml_data(text: str, source: str) -> Any:
    """The data of YAML `text`; ValueError names `source` and the syntax error's place."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise ValueError(f"{source}: not valid YAML: {yaml_problem(err)}") from None


def read_yaml(path: Path, what: str = "scenario") -> Any:
    """A YAML file's data (`what` it holds, for messages); ValueError says why it cannot be
    read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ValueError(f"{path}: cannot read {what}: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{path}: cannot read {what}: not UTF-8 text (byte {err.start + 1})"
        ) from None
    return yaml_data(text, str(path))


def shipped_data(package: str, folder: str = "data/scenarios") -> list[tuple[str, Any]]:
    """(file name, data) of every YAML file a ruleset package ships in `folder`, by name."""
    entries = resources.files(package).joinpath(folder).iterdir()
    return [
        (entry.name, yaml.safe_load(entry.read_text()))
        for entry in sorted(entries, key=lambda e: e.name)
        if entry.name.endswith(".yaml")
    ]


class ScenarioFiles(Generic[M]):
    """A ruleset's scenario files: data validated as `model`, YAML files read from disk, and
    the ones its `package` ships in data/scenarios/. `check` runs what the model cannot (ttt
    builds its board) and raises ValueError naming the problem."""

    def __init__(
        self, model: type[M], package: str, check: Callable[[M], object] | None = None
    ) -> None:
        self.model = model
        self.package = package
        self.check = check
        self._shipped: dict[str, M] | None = None

    def validate(self, data: Any, source: str) -> M:
        """`data` as a checked scenario; ValueError names every broken field."""
        spec = validate_model(self.model, data, source)
        if self.check is not None:
            self.check(spec)
        return spec

    def read_file(self, path: Path) -> M:
        """A scenario from a YAML file."""
        return self.validate(read_yaml(path), str(path))

    def shipped(self) -> dict[str, M]:
        """The shipped scenarios by id, read once."""
        if self._shipped is None:
            found = [self.validate(data, name) for name, data in shipped_data(self.package)]
            self._shipped = {str(s.model_dump(include={"id"})["id"]): s for s in found}
        return self._shipped
