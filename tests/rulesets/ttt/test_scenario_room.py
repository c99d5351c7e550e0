"""An operation whose pieces cannot all be placed is refused when it is read: with more
pieces than the placement limits hold, or more free choices than `max_each` of each kind
allows, play stopped at a decision with no legal action (the AI crashed on it)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from warbench.core import registry

RS = registry.get("ttt")


def _with_force(operation: str, side: str, **force: Any) -> dict[str, Any]:
    data = copy.deepcopy(RS.load_scenario(operation))
    data["forces"][side] = {**data["forces"][side], **force}
    return data


def test_more_pieces_than_the_placement_limits_hold_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "crowded.yaml"
    path.write_text(yaml.safe_dump(_with_force("cap-the-capn", "red", choose=50)))
    with pytest.raises(ValueError) as info:
        RS.load_scenario(str(path))
    assert str(info.value).endswith(
        "cap-the-capn: red has 51 pieces to place but its placement limits hold 10 squares"
    )


def test_more_free_choices_than_max_each_allows_are_refused() -> None:
    # a whole board to place on; six kinds at two of each allow only 12 free choices
    data = _with_force("sweep-the-settlement", "blue", choose=13)
    with pytest.raises(ValueError) as info:
        RS.check_scenario(data)
    message = str(info.value)
    assert "blue chooses 13 pieces freely, but at most 2 of each of" in message
    assert message.endswith("allows 12")


def test_a_balance_sweep_cannot_overfill_the_placement_limits() -> None:
    data = RS.load_scenario("cap-the-capn")
    assert RS.vary(data, "red.choose", 9)["forces"]["red"]["choose"] == 9
    with pytest.raises(ValueError, match="placement limits hold 10"):
        RS.vary(data, "red.choose", 10)


@pytest.mark.parametrize("operation", [s.id for s in RS.scenarios()])
def test_every_shipped_operation_fits(operation: str) -> None:
    assert RS.check_scenario(RS.load_scenario(operation)).id == operation
