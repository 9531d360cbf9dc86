"""What grows in a benchmark's process (``bench.bot_load --trace-memory``): tracemalloc
snapshots and counts of the collector's objects by type, taken once after a warm-up
and again at the end; the difference is printed by allocation site.

Each site is the innermost frame of the allocation with, beside it, the innermost frame
in this project's code (which tells the bot's objects from this benchmark's records).
Tracing slows every allocation (the bot's CPU figures of such a run mean little), and
the snapshots stop the event loop for a few seconds each.
"""

from __future__ import annotations

import functools
import gc
import sys
import tracemalloc
from collections import Counter, defaultdict, deque
from pathlib import Path
from typing import NamedTuple

PACKAGES = ("engine", "storage", "service", "bot", "locales", "bench")
OURS = tuple(f"/{p}/" for p in PACKAGES)
FRAMES = 8  # enough to reach the project's code from inside aiogram or pydantic


def _site(frame: tracemalloc.Frame) -> str:
    parts = Path(frame.filename).parts
    return f"{'/'.join(parts[-2:])}:{frame.lineno}"


def _ours(trace: tracemalloc.Traceback) -> str:
    """The innermost frame of the project's own code (a traceback runs from the oldest
    frame to the most recent), or "-"."""
    return next((_site(f) for f in reversed(trace) if any(p in f.filename for p in OURS)), "-")


def _types() -> Counter[str]:
    return Counter(type(o).__name__ for o in gc.get_objects())


def _sized(value: object) -> bool:
    return isinstance(value, dict | set | list | deque)


def _ours_obj(value: object) -> bool:
    """Whether ``value`` is of one of this project's classes."""
    return type(value).__module__.split(".")[0] in PACKAGES


def containers(root: object, depth: int = 4) -> dict[str, int]:
    """The lengths of the dicts, sets, lists and deques held by ``root``'s attributes and
    theirs (objects of this project's classes only, ``depth`` levels down, each by its
    shortest path); for a dict of such objects also the sum of their containers'
    lengths (``outbox._chats[*].shown``)."""
    sizes: dict[str, int] = {}
    seen, level = {id(root)}, [("", root)]
    for _ in range(depth):
        below = []
        for path, obj in level:
            for name, value in getattr(obj, "__dict__", {}).items():
                where = f"{path}.{name}".lstrip(".")
                if _sized(value):
                    sizes[where] = len(value)
                    for item in value.values() if isinstance(value, dict) else ():
                        for inner, held in getattr(item, "__dict__", {}).items():
                            if _ours_obj(item) and _sized(held):
                                key = f"{where}[*].{inner}"
                                sizes[key] = sizes.get(key, 0) + len(held)
                elif _ours_obj(value) and id(value) not in seen:
                    seen.add(id(value))
                    below.append((where, value))
        level = below
    return sizes


def caches() -> dict[str, tuple[int, int | None]]:
    """The functools caches of this project's modules: (entries, most)."""
    found = {}
    for module in list(sys.modules.values()):
        for value in vars(module).values():
            cached = isinstance(value, functools._lru_cache_wrapper)
            if cached and value.__module__.split(".")[0] in PACKAGES:
                info = value.cache_info()
                found[f"{value.__module__}.{value.__qualname__}"] = (info.currsize, info.maxsize)
    return found


class _Point(NamedTuple):
    at: float  # seconds of play
    snapshot: tracemalloc.Snapshot
    types: Counter[str]
    sizes: dict[str, int]


class MemoryTrace:
    """Started before the measured window; ``sample`` is called every few seconds with
    the seconds of play, and takes the baseline at the first past ``after``."""

    def __init__(self, root: object, after: float) -> None:
        self.root, self.after = root, after
        self._base: _Point | None = None
        self._end: _Point | None = None
        tracemalloc.start(FRAMES)

    def sample(self, elapsed: float) -> None:
        if self._base is None and elapsed >= self.after:
            self._base = self._take(elapsed)

    def finish(self, elapsed: float) -> None:
        """The last snapshot (before the drain, while the games are still running)."""
        self._end = self._take(elapsed)
        tracemalloc.stop()

    def _take(self, elapsed: float) -> _Point:
        gc.collect()  # only what is reachable
        snapshot = tracemalloc.take_snapshot()
        snapshot = snapshot.filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        return _Point(elapsed, snapshot, _types(), containers(self.root))

    def lines(self, top: int = 20) -> list[str]:
        base, end = self._base, self._end
        if base is None or end is None:
            return ["  memory trace: the run ended before the baseline (see --trace-after)"]
        sites: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        for diff in end.snapshot.compare_to(base.snapshot, "traceback"):
            site = sites[(_site(diff.traceback[-1]), _ours(diff.traceback))]
            site[0] += diff.size_diff
            site[1] += diff.count_diff
        mb = sum(size for size, _ in sites.values()) / 2**20
        out = [
            f"  memory trace: {mb:+.1f} MB traced from {base.at:.0f} s to {end.at:.0f} s"
            f" ({60 * mb / max(end.at - base.at, 1e-9):+.2f} MB/min); top sites"
            " (allocated at, from this project's code at):"
        ]
        for (where, ours), (size, count) in sorted(sites.items(), key=lambda s: -s[1][0])[:top]:
            out.append(f"    {size / 2**10:+9.0f} KB {count:+8d} blocks  {where}  <- {ours}")
        grown = end.types - base.types
        out.append("  objects the collector tracks, growth by type:")
        out += [f"    {n:+8d}  {name}" for name, n in grown.most_common(12)]
        sizes = [(p, base.sizes.get(p, 0), n) for p, n in end.sizes.items()]
        out.append("  the bot's containers that grew (length then -> at the end):")
        out += [f"    {p}: {a} -> {b}" for p, a, b in sorted(sizes) if b > a]
        out.append("  the caches (functools) at the end, entries of most:")
        out += [f"    {p}: {n} of {most}" for p, (n, most) in sorted(caches().items()) if n]
        return out
