"""Counted nouns in text shown to players: "1 template", "3 templates", never "3 template(s)"."""

from __future__ import annotations


def noun(n: int, singular: str, plural: str = "") -> str:
    """`singular` if `n` is 1, else `plural` (by default `singular` + "s")."""
    return singular if n == 1 else plural or singular + "s"


def counted(n: int, singular: str, plural: str = "") -> str:
    """`n` followed by its noun: `counted(1, "action")` is "1 action", of 2 "2 actions"."""
    return f"{n} {noun(n, singular, plural)}"
