"""Shared pytest configuration."""

# The local stand-in for Discord: fixtures such as ``discord_env`` (tests/fakediscord).
pytest_plugins = ["fakediscord.fixtures"]
