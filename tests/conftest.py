"""Test-wide settings: Hypothesis runs deterministically (a fixed seed per test, no example
database) and with no per-example deadline, so a loaded machine cannot fail a property."""

from hypothesis import settings

settings.register_profile("warbench", derandomize=True, database=None, deadline=None)
settings.load_profile("warbench")
