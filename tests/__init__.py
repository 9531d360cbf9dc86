"""The test suites, a package so that every helper has one name (``tests.helpers``) for
pytest, mypy and ``python -m tests.crash_child`` alike."""
