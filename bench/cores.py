"""How much a busy core slows another: the machine's share of issue 11's p99 gap.

A fixed piece of Python work runs on the first core while the other core is idle,
then while a process keeps it busy: spinning at the normal priority, and
thinking as the game service's workers do (nice 10, the idle policy, «Мастер»'s
decisions on positions of real games). The rounds alternate, so a
neighbour on the host slows each kind alike. If the cores were independent, every
ratio would be about 1; where they share a physical core or a power budget (a
VM's vCPUs), the loop that answers presses is slower whenever the bots think,
whatever the scheduler's priorities. The host's steal time while each kind ran tells
the two apart: a shared core runs slower without it, a host short of cores takes the
time back as steal.

    python -m bench.cores --rounds 20
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import multiprocessing
import os
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.synchronize import Event
from pathlib import Path
from time import perf_counter

from bench.agreement import positions
from engine.bots import decide
from service.thinking import yield_to_the_loop

KINDS = ("idle", "spinning", "thinking as a worker")


def steal() -> Steal:
    """The machine's CPU time so far, and the part of it the host gave to others."""
    with contextlib.suppress(OSError):
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        return Steal(ticks[7] if len(ticks) > 7 else 0, sum(ticks[:8]))
    return Steal(0, 0)


@dataclass(frozen=True)
class Steal:
    """Ticks of the cores' time (/proc/stat): ``stolen`` of ``total`` the host gave to
    other guests while ours were ready to run."""

    stolen: int
    total: int

    @property
    def share(self) -> float:
        return self.stolen / self.total if self.total else 0.0

    def __sub__(self, other: Steal) -> Steal:
        return Steal(self.stolen - other.stolen, self.total - other.total)

    def __add__(self, other: Steal) -> Steal:
        return Steal(self.stolen + other.stolen, self.total + other.total)

    def __str__(self) -> str:
        return f"{100 * self.share:.1f}%" if self.total else "?"


def arithmetic(n: int) -> float:
    """Seconds for ``n`` steps of plain Python arithmetic (fits in a core's cache)."""
    start = perf_counter()
    total = 0
    for i in range(n):
        total += i * i % 7
    return perf_counter() - start


def lookups(n: int, table: dict[int, list[int]]) -> float:
    """Seconds for ``n`` lookups at scattered keys of a large ``table`` (memory-bound,
    as the loop's work on many tables' objects is)."""
    start = perf_counter()
    total, key, size = 0, 1, len(table)
    for _ in range(n):
        key = (key * 1_103_515_245 + 12_345) % size
        total += table[key][0]
    return perf_counter() - start


def _spin(ready: Event) -> None:
    ready.set()
    while True:
        pass


def _think(ready: Event) -> None:
    yield_to_the_loop(True)
    views = list(positions(8))
    decide("master", views[0], 0)
    ready.set()
    for seed in itertools.count():
        decide("master", views[seed % len(views)], seed)


@contextlib.contextmanager
def other_core(kind: str, core: int) -> Iterator[None]:
    """The other core idle, or kept busy by a spinning process."""
    if kind == "idle":
        yield
        return
    context = multiprocessing.get_context("spawn")
    ready = context.Event()
    spinner = context.Process(
        target=_spin if kind == "spinning" else _think, args=(ready,), daemon=True
    )
    spinner.start()
    try:
        os.sched_setaffinity(spinner.pid or 0, {core})
        ready.wait()
        yield
    finally:
        spinner.kill()
        spinner.join()


def measure(
    args: argparse.Namespace, other: int, stolen: dict[str, Steal]
) -> dict[tuple[str, str], list[float]]:
    """Seconds of each work with the ``other`` core of each kind, ``args.rounds`` times;
    adds the host's steal time while each kind ran to ``stolen``."""
    table = {key: [key] for key in range(args.table)}
    works: dict[str, Callable[[], float]] = {
        "arithmetic": lambda: arithmetic(args.steps),
        f"lookups in {args.table:,} entries": lambda: lookups(args.steps, table),
    }
    times: dict[tuple[str, str], list[float]] = {
        (name, kind): [] for name in works for kind in KINDS
    }
    for _ in range(args.rounds):
        for kind in KINDS:
            with other_core(kind, other):
                before = steal()
                for name, run in works.items():
                    times[name, kind].append(run())
                stolen[kind] = stolen.get(kind, Steal(0, 0)) + (steal() - before)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.cores", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--steps", type=int, default=2_000_000, help="work per measurement")
    parser.add_argument("--table", type=int, default=1_000_000, help="the lookups' entries")
    args = parser.parse_args(argv)
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        print(f"{len(cores)} core: nothing to compare")
        return
    mine, other = cores[0], cores[1]
    os.sched_setaffinity(0, {mine})
    stolen: dict[str, Steal] = {}
    try:
        times = measure(args, other, stolen)
    finally:
        os.sched_setaffinity(0, cores)  # as it was (a test calls this in its process)
    print(f"{len(cores)} cores; {args.rounds} rounds on core {mine}, the other is core {other}")
    for name in dict.fromkeys(name for name, _ in times):
        print(f"  {name}, {args.steps:,} steps")
        idle = statistics.median(times[name, "idle"])
        for kind in KINDS:
            median = statistics.median(times[name, kind])
            print(
                f"    {kind:<22} median {median * 1000:6.1f} ms"
                f"  max {max(times[name, kind]) * 1000:6.1f} ms  x{median / idle:.2f}"
            )
    print("  the host's steal time of the cores' time while the other core was")
    for kind in KINDS:
        print(f"    {kind:<22} {stolen.get(kind, Steal(0, 0))}")


if __name__ == "__main__":
    main()
