"""Scenario files that are not a mapping of fields get a message naming the fields, not
pydantic's "valid dictionary or instance of Scenario"."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.core import registry


@pytest.mark.parametrize(("text", "held"), [("", "nothing"), ("- a\n- b\n", "a list")])
@pytest.mark.parametrize("ruleset", ["ttt", "fft3", "gff", "fftt", "tftww2"])
def test_a_file_that_is_not_a_mapping_names_the_fields(
    ruleset: str, text: str, held: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ValueError) as info:
        registry.get(ruleset).load_scenario(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}: a scenario is a mapping of fields (id, name, summary")
    assert message.endswith(f"not {held}")
    assert "instance of" not in message
