"""One bot process per database file: an exclusive ``flock`` on a file next to it.

Two processes on one file would each keep their own games in memory and fire their
own timers against the same action log; the second one must not start at all.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


class Locked(Exception):
    """Another process holds the database's lock file."""


def lock_path(db_path: str | Path) -> Path:
    """The lock file of a database: ``durak.sqlite3`` -> ``durak.sqlite3.lock``."""
    return Path(f"{db_path}.lock")


def acquire(db_path: str | Path) -> IO[str]:
    """Lock the database for this process (until the returned file is closed or the
    process ends) and write this process's id into the lock file. Raises ``Locked``
    naming the lock file and the other process when it is taken."""
    path = lock_path(db_path)
    file = path.open("a+", encoding="ascii")  # "a+": do not wipe the holder's pid
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        file.seek(0)
        holder = file.read().strip() or "?"
        file.close()
        raise Locked(
            f"{path} is held by another bot process (pid {holder}) using the same database"
        ) from None
    file.seek(0)
    file.truncate()
    file.write(f"{os.getpid()}\n")
    file.flush()
    return file
