"""Decisions for the worker-process tests: they run in the workers, so they live in
a module the workers can import."""

from __future__ import annotations

import os
import time
from pathlib import Path

from engine import Action, View
from engine.bots import decide


def stuck_once(folder: str, level: str, view: View, seed: int, share: float) -> Action | None:
    """The first call writes its worker's pid to ``folder``/pid and never returns;
    later calls decide as the bots do."""
    marker = Path(folder) / "pid"
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        time.sleep(3600)
    return decide(level, view, seed, share)


def policy_after_stuck(folder: str, level: str, view: View, seed: int, share: float) -> int:
    """``stuck_once``, then the worker's scheduling policy in place of a move."""
    stuck_once(folder, level, view, seed, share)
    return os.sched_getscheduler(0)


def signed(folder: str, level: str, view: View, seed: int, share: float) -> Action | None:
    """Decides as the bots do and leaves a file named after the deciding process."""
    (Path(folder) / str(os.getpid())).touch()
    return decide(level, view, seed, share)


def niceness(level: str, view: View, seed: int, share: float) -> int:
    """The worker's nice value (returned in place of a move)."""
    return os.nice(0)


def policy(level: str, view: View, seed: int, share: float) -> int:
    """The worker's scheduling policy (returned in place of a move)."""
    return os.sched_getscheduler(0)


def cores(level: str, view: View, seed: int, share: float) -> list[int]:
    """The cores the worker may run on (returned in place of a move)."""
    return sorted(os.sched_getaffinity(0))


def slow(level: str, view: View, seed: int, share: float) -> Action | None:
    """Decides as the bots do, after half a second."""
    time.sleep(0.5)
    return decide(level, view, seed, share)


def share_after_a_while(level: str, view: View, seed: int, share: float) -> float:
    """The share of the budget this decision was given (in place of a move), after 0.2 s."""
    time.sleep(0.2)
    return share
