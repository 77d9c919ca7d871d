"""Shared pytest configuration."""

import os

from hypothesis import settings

# The local stand-in for Discord: fixtures such as ``discord_env`` (tests/fakediscord).
pytest_plugins = ["fakediscord.fixtures"]

# In CI the property tests draw the same examples every run (no flaky red from a rare draw);
# locally they explore new examples each run, so rare cases still turn up.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
