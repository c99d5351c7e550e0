"""Grimdark Future Firefight (grimdark-future-firefight.txt), registered as `gff`."""

from warbench.core.registry import register
from warbench.rulesets.gff.ruleset import GrimdarkFutureFirefight

register(GrimdarkFutureFirefight())
