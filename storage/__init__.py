"""Storage: aiosqlite schema, migrations and repositories (issue 3)."""
