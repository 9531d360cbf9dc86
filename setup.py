"""Compiles the engine's core with mypyc at install time (see README, "The compiled engine").

The compiled modules are the same typed Python source (``engine.build.CORE`` and
``BOTS``).
Without a working compiler the install goes on with the pure-Python engine and
one warning; ``DURAK_PURE_PYTHON=1`` at install time skips compiling.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

BUILD = runpy.run_path("engine/build.py")  # CORE and the hash, without importing the engine


def warn(why: object) -> None:
    print(f"warning: the engine is not compiled ({why}); it runs as pure Python", file=sys.stderr)


class OptionalBuildExt(build_ext):  # type: ignore[misc]
    """Compiles, and stamps the build with its sources' hash; warns instead of failing."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler, no Python headers, a compile error
            warn(e)
            return
        folder = Path(self.get_ext_fullpath("engine.core__mypyc")).parent
        (folder / BUILD["STAMP"]).write_text(BUILD["sources_hash"](Path("engine")) + "\n")


def ext_modules() -> list[Any]:
    # An earlier build's modules go first: they would shadow the sources otherwise.
    for old in (*Path("engine").glob("**/*.so"), Path("engine") / BUILD["STAMP"]):
        old.unlink(missing_ok=True)
    if os.environ.get("DURAK_PURE_PYTHON") == "1":
        return []
    try:
        from mypyc.build import mypycify

        # One shared library, engine/core__mypyc*.so, beside a small one per module.
        sources = [str(p) for p in BUILD["sources"](Path("engine"))]
        return mypycify(sources, opt_level="3", group_name="engine.core")  # type: ignore[no-any-return]
    except BaseException as e:  # mypyc missing or refusing the source (it exits on errors)
        warn(e)
        return []


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
