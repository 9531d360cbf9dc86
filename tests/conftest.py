"""Fixtures shared by the suites: the backend a storage or service test runs on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from tests import backends


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: a test about SQLite itself")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize(
            "backend", ["sqlite"] if only else ["sqlite", "postgres"], indirect=True
        )


@pytest.fixture
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield "sqlite"
        return
    async with postgres_databases() as databases:
        backends.current.append(databases)
        try:
            yield "postgres"
        finally:
            backends.current.remove(databases)


@pytest.fixture
async def pg_databases() -> AsyncIterator[backends.PgDatabases]:
    """Fresh databases on the test server, for tests about PostgreSQL itself."""
    async with postgres_databases() as databases:
        yield databases


@asynccontextmanager
async def postgres_databases() -> AsyncIterator[backends.PgDatabases]:
    if not backends.PG_URL:
        if backends.REQUIRE_PG:
            pytest.fail("DURAK_REQUIRE_PG is set but DURAK_TEST_PG names no server")
        pytest.skip("PostgreSQL: set DURAK_TEST_PG=postgresql://user:password@host/db")
    databases = backends.PgDatabases(backends.PG_URL)
    try:
        yield databases
    finally:
        await databases.drop_all()
