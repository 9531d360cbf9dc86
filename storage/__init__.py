"""Storage: the schema, its migrations and the repositories, on SQLite or PostgreSQL."""
