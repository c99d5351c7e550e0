"""A Fistful of TOWs 3, introductory rules (fistful-of-tows-3-intro.txt), registered as `fft3`."""

from warbench.core.registry import register
from warbench.rulesets.fft3.ruleset import FistfulOfTows3

register(FistfulOfTows3())
