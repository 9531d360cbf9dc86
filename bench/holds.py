"""The computers' thinking held and let go in turns, within one run (``bench.bot_tables
--hold``).

Two runs, one beside the bot tables and one without them, seldom meet the same host: on
a shared virtual machine the time other guests take moves the presses' p99 eightfold
from one minute to the next. Here the worker processes are stopped (SIGSTOP) and
continued (SIGCONT) every few seconds in one run: while they are held, the bot tables
neither think nor move (their people wait for the bots), so the people tables play
beside idle tables; while they think, beside the bot tables at work. The presses of the
two kinds of window meet the same host, a few seconds apart. A press counts when it and
its answer fall in one window, after its first ``MARGIN`` seconds (what the other kind
left running). Eight runs of 90-180 s, 20 bot tables beside 100 people tables, one
worker, 2 cores, ``--hold 3``, 0-15% steal: p99 while thinking over held x0.89-1.21,
median x1.07; p50 x0.90-1.12, median x1.06 (at 0% steal 19 against 15 ms at p99).
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass, field

from bench.host import Steal, steal
from bench.load_world import ms, p50_p99_ratios

MARGIN = 0.25  # seconds
STEP = 0.1  # seconds between two signals in a window (a worker started in it is held too)


@dataclass(frozen=True)
class Window:
    start: float  # time.monotonic() (system-wide, so the people's process compares)
    end: float
    held: bool
    steal: Steal


@dataclass
class Holds:
    """Holds the processes ``pids()`` names (asked anew at each turn: a pool may have
    been replaced) for ``seconds``, then lets them think as long, and so on."""

    pids: Callable[[], Iterable[int]]
    seconds: float
    after: float = 0.0  # seconds before the first window (the tables still join in)
    windows: list[Window] = field(default_factory=list)

    async def run(self) -> None:
        """In turns until cancelled; every process is let go in the end."""
        await asyncio.sleep(self.after)
        held = False
        try:
            while True:
                start, stolen = time.monotonic(), steal()
                try:
                    while time.monotonic() < start + self.seconds:
                        self._signal(signal.SIGSTOP if held else signal.SIGCONT)
                        await asyncio.sleep(STEP)
                finally:
                    self._note(held, start, stolen)
                held = not held
        finally:
            self._signal(signal.SIGCONT)

    def _note(self, held: bool, start: float, stolen: Steal) -> None:
        self.windows.append(Window(start, time.monotonic(), held, steal() - stolen))

    def _signal(self, sig: signal.Signals) -> None:
        for pid in self.pids():
            with suppress(ProcessLookupError):  # a worker that is gone
                os.kill(pid, sig)

    def kind(self, pressed: float, answered: float) -> bool | None:
        """Whether the computers were held from ``pressed`` to ``answered`` (None: not
        inside one window's body)."""
        for w in self.windows:
            if w.start + MARGIN <= pressed and answered < w.end:
                return w.held
        return None

    def steal(self, held: bool) -> Steal:
        return sum((w.steal for w in self.windows if w.held == held), Steal(0, 0))


def compare(holds: Holds, presses: Iterable[tuple[float, float]]) -> str:
    """Lines on the presses ``(pressed, answered)`` while the computers thought and
    while they were held, and the ratio of the two."""
    took: dict[bool, list[float]] = {True: [], False: []}
    for pressed, answered in presses:
        kind = holds.kind(pressed, answered)
        if kind is not None:
            took[kind].append(answered - pressed)
    thinking, held = took[False], took[True]
    lines = [
        f"    while the computers think  {ms(thinking, (0.5, 0.99))}; steal {holds.steal(False)}",
        f"    while they are held        {ms(held, (0.5, 0.99))}; steal {holds.steal(True)}",
    ]
    if thinking and held:
        p50, p99 = p50_p99_ratios(thinking, held)
        lines.append(f"    thinking / held: p50 x{p50:.2f}, p99 x{p99:.2f} (target ≈ 1)")
    return "\n".join(lines)
