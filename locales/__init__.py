"""Message catalogs: ru (default) and en (issue 4)."""
