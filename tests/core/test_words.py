"""Counted nouns: "1 template", "2 templates", never "template(s)"."""

from __future__ import annotations

import pytest

from warbench.core.words import counted, noun


@pytest.mark.parametrize(
    ("n", "text"), [(0, "0 actions"), (1, "1 action"), (2, "2 actions"), (-1, "-1 actions")]
)
def test_a_count_of_one_is_singular_and_any_other_plural(n: int, text: str) -> None:
    assert counted(n, "action") == text


def test_an_irregular_plural_is_given() -> None:
    assert counted(3, "man", "men") == "3 men"
    assert counted(1, "man", "men") == "1 man"
    assert noun(2, "field") == "fields" and noun(1, "field") == "field"
