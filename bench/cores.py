"""How much a busy core slows another: the machine's share of issue 11's p99 gap.

A fixed piece of Python work runs on the first core while the other core is idle,
then while a process keeps it busy: spinning at the normal priority, and
thinking as the game service's workers do (nice 10, the idle policy, «Мастер»'s
decisions on positions of real games). Each round runs every kind in turn, so the
host's slow spells fall on all kinds rather than on one. If the cores were independent,
every ratio would be about 1; where they share a physical core or a power budget (a
VM's vCPUs), the loop that answers presses is slower whenever the bots think,
whatever the scheduler's priorities. The host's steal time while each kind ran tells
the two apart: a shared core runs slower without it, a host short of cores takes the
time back as steal.

    python -m bench.cores [--rounds 20] [--steps 2000000] [--table-bits 20]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import multiprocessing
import os
import statistics
from collections.abc import Callable, Iterator
from multiprocessing.synchronize import Event
from time import perf_counter

from bench.agreement import positions
from bench.host import Steal, steal
from engine.bots import decide
from service.thinking import yield_to_the_loop

KINDS = ("idle", "spinning", "thinking as a worker")


def arithmetic(n: int) -> float:
    """Seconds for ``n`` steps of plain Python arithmetic (fits in a core's cache)."""
    start = perf_counter()
    total = 0
    for i in range(n):
        total += i * i % 7
    return perf_counter() - start


def lookups(n: int, table: dict[int, list[int]]) -> float:
    """Seconds for ``n`` lookups at scattered keys of a large ``table`` (memory-bound,
    as the loop's work on many tables' objects is). Its size is a power of two: then
    the generator visits every key before it repeats (a full-period LCG)."""
    start = perf_counter()
    total, key, mask = 0, 1, len(table) - 1
    assert len(table) & mask == 0, "a power of two"
    for _ in range(n):
        key = (key * 1_103_515_245 + 12_345) & mask
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
    """The other core idle, or kept busy by a process that spins or thinks."""
    if kind == "idle":
        yield
        return
    context = multiprocessing.get_context("spawn")
    ready = context.Event()
    busy = context.Process(
        target=_spin if kind == "spinning" else _think, args=(ready,), daemon=True
    )
    busy.start()
    try:
        assert busy.pid is not None
        os.sched_setaffinity(busy.pid, {core})
        while not ready.wait(1.0):  # it has started (or died trying: then say so)
            if not busy.is_alive():
                raise RuntimeError(f"the {kind} process exited with {busy.exitcode}")
        yield
    finally:
        busy.kill()
        busy.join()


def measure(
    args: argparse.Namespace, other: int
) -> tuple[dict[tuple[str, str], list[float]], dict[str, Steal]]:
    """Seconds of each work with the ``other`` core of each kind, ``args.rounds`` times,
    and the host's steal time while each kind ran."""
    table = {key: [key] for key in range(1 << args.table_bits)}
    works: dict[str, Callable[[], float]] = {
        "arithmetic": lambda: arithmetic(args.steps),
        f"lookups in {len(table):,} entries": lambda: lookups(args.steps, table),
    }
    times: dict[tuple[str, str], list[float]] = {
        (name, kind): [] for name in works for kind in KINDS
    }
    stolen = dict.fromkeys(KINDS, Steal(0, 0))
    for _ in range(args.rounds):
        for kind in KINDS:
            with other_core(kind, other):
                before = steal()
                for name, run in works.items():
                    times[name, kind].append(run())
                stolen[kind] += steal() - before
    return times, stolen


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.cores", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--steps", type=int, default=2_000_000, help="work per measurement")
    parser.add_argument("--table-bits", type=int, default=20, help="2**BITS lookups' entries")
    args = parser.parse_args(argv)
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        print(f"{len(cores)} core: nothing to compare")
        return
    mine, other = cores[0], cores[1]
    os.sched_setaffinity(0, {mine})
    try:
        times, stolen = measure(args, other)
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
    print("  the host's steal time, of the cores' time while the other core was")
    for kind in KINDS:
        print(f"    {kind:<22} {stolen[kind]}")


if __name__ == "__main__":
    main()
