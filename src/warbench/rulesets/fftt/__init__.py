"""Futuristic Fast Tactics Tabletop (fftt.txt), registered as `fftt`."""

from warbench.core.registry import register
from warbench.rulesets.fftt.ruleset import FFTT

register(FFTT())
