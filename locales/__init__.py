"""Message catalogs: ``ru.toml`` (default) and ``en.toml``."""
