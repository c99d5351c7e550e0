"""Scenario files: YAML read and validated by a ruleset's pydantic model, with errors that
name every broken field and what it expects (ARCHITECTURE.md, "The game contract")."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def validate_model(model: type[M], data: Any, source: str) -> M:
    """`data` as `model`; ValueError lists each broken field with its path."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        broken = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'scenario'}: {e['msg']}" for e in err.errors()
        )
        raise ValueError(f"{source}: {broken}") from None


def read_yaml(path: Path) -> Any:
    """A YAML file's data; ValueError says why it cannot be read."""
    try:
        return yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as err:
        raise ValueError(f"{path}: cannot read scenario: {err}") from None


def shipped_data(package: str, folder: str = "data/scenarios") -> list[tuple[str, Any]]:
    """(file name, data) of every YAML file a ruleset package ships in `folder`, by name."""
    entries = resources.files(package).joinpath(folder).iterdir()
    return [
        (entry.name, yaml.safe_load(entry.read_text()))
        for entry in sorted(entries, key=lambda e: e.name)
        if entry.name.endswith(".yaml")
    ]
