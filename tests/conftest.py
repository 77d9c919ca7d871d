"""Shared pytest configuration, and the database fixtures that run the storage tests on both backends."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from pg_cluster import Cluster, missing_reason

# The local stand-in for Discord: fixtures such as ``discord_env`` (tests/fakediscord).
pytest_plugins = ["fakediscord.fixtures"]

# In CI the property tests draw the same examples every run (no flaky red from a rare draw);
# locally they explore new examples each run, so rare cases still turn up.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

BACKENDS = ("sqlite", "postgresql")
"""The storage backends; a test taking ``database`` runs once on each."""


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the whole session (tests/pg_cluster.py).

    Without PostgreSQL the PostgreSQL half of the storage tests fails in CI
    (``CI`` set: the backend must be tested) and is skipped, with the reason, elsewhere.
    """
    reason = missing_reason()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test the PostgreSQL backend: {reason}")
        pytest.skip(reason)
    cluster = Cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where to open a migrated database: an SQLite file path, or the URL of a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "baloot.db"
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return await cluster.new_database()


@pytest.fixture(params=BACKENDS)
async def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Like ``database``, but with no schema at all (for the migration tests)."""
    if request.param == "sqlite":
        return tmp_path / "empty.db"
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return await cluster.new_database(empty=True)
