"""The ruleset registry: rulesets register themselves; everything else looks them up by id.

Core imports no ruleset. `load_all` imports every package under `warbench.rulesets`, each of
which registers its ruleset on import.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset

_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset under its id (once)."""
    if ruleset.id in _RULESETS and type(_RULESETS[ruleset.id]) is not type(ruleset):
        raise ValueError(f"ruleset id '{ruleset.id}' is registered twice")
    _RULESETS[ruleset.id] = ruleset
    return ruleset


def load_all() -> None:
    """Import every ruleset package so that each registers itself."""
    import warbench.rulesets as package

    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{module.name}")


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; KeyError names the ids there are. A ruleset registered
    already is found without listing the ruleset packages again (`sim` looks one up for
    every game it plays)."""
    if ruleset_id in _RULESETS:
        return _RULESETS[ruleset_id]
    load_all()
    if ruleset_id not in _RULESETS:
        known = ", ".join(sorted(_RULESETS)) or "none"
        raise KeyError(f"no ruleset '{ruleset_id}'; registered: {known}")
    return _RULESETS[ruleset_id]


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, by id."""
    load_all()
    return [_RULESETS[k] for k in sorted(_RULESETS)]
