"""Which build of the engine runs: compiled by mypyc (``setup.py``) or pure Python.

The ``CORE`` modules and the bots' ``BOTS`` are compiled at install time when a C
compiler is there.
The engine imports its ``.py`` sources instead, even where compiled modules are
installed, when ``DURAK_PURE_PYTHON=1`` is set, and (with one warning) when a
source changed after it was compiled, so an edit is never shadowed by an old
build. Importing this module (the package does it first) decides.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

# The simulation path and the card masks. rules, events and view stay Python classes
# (they are pickled to the bots' worker processes), and so does card (mypyc compiles no
# int subclass such as Card natively, and its marker for that is not in the standard
# library).
CORE = (
    *("actions", "board", "bout", "cards", "deal", "ending", "legal"),
    *("moves", "position", "serialize", "state"),
)
# The bots' playouts, modules of engine.bots. Their players' classes stay Python
# (novice, pimc), so that other players can subclass them.
BOTS = ("endgame", "heuristic", "infer", "playout", "policy", "tracker", "tree", "world")
STAMP = "compiled.sha256"  # written beside the compiled modules: the hash of their sources
HERE = Path(__file__).resolve().parent
PACKAGE = __name__.rpartition(".")[0]


def sources(folder: Path = HERE) -> list[Path]:
    """The compiled modules' sources."""
    return [folder / f"{m}.py" for m in CORE] + [folder / "bots" / f"{m}.py" for m in BOTS]


def sources_hash(folder: Path = HERE) -> str:
    digest = hashlib.sha256()
    for source in sources(folder):
        digest.update(source.read_bytes())
    return digest.hexdigest()


class Sources:
    """Finds the engine's own modules (and the bots') as ``.py`` files."""

    @staticmethod
    def find_spec(
        name: str, path: object = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        package, _, module = name.rpartition(".")
        if package == PACKAGE:
            source = HERE / f"{module}.py"
        elif package == f"{PACKAGE}.bots":
            source = HERE / "bots" / f"{module}.py"
        else:
            return None  # not ours
        if not source.is_file():
            return None  # a package: found the usual way
        return spec_from_file_location(name, source)


def compiled() -> bool:
    """True when the engine's state module was loaded from a compiled extension."""
    return not str(sys.modules[f"{PACKAGE}.state"].__file__).endswith(".py")


def _stale() -> bool:
    stamp = HERE / STAMP
    return stamp.is_file() and stamp.read_text().strip() != sources_hash()


if PACKAGE and Sources not in sys.meta_path:
    if os.environ.get("DURAK_PURE_PYTHON") == "1":
        sys.meta_path.insert(0, Sources)
    elif _stale():
        warnings.warn(
            "the engine's sources changed after they were compiled: running them as "
            "pure Python (reinstall, e.g. pip install -e ., to compile them again)",
            stacklevel=2,
        )
        sys.meta_path.insert(0, Sources)
