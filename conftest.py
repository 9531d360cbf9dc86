"""pytest's doctest collection imports every module of the packages by its file; the
engine's core modules may be compiled extensions (engine.build), which it cannot
import that way. They hold no doctests, so they are left out of that collection."""

from engine.build import CORE

collect_ignore = [f"engine/{module}.py" for module in CORE]
