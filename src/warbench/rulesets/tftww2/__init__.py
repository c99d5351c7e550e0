"""TFT WW2 man-to-man skirmish (tft-ww2-skirmish.txt), registered as `tftww2`."""

from warbench.core.registry import register
from warbench.rulesets.tftww2.ruleset import TFTWW2

register(TFTWW2())
