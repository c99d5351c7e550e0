"""Table Top Troopers (table-top-troopers.txt), registered as `ttt`."""

from warbench.core.registry import register
from warbench.rulesets.ttt.ruleset import TableTopTroopers

register(TableTopTroopers())
