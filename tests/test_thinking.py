"""The worker processes computer players think in: real processes, killed and hung."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import pytest

from engine import Rules, State
from engine.bots import decide
from service.thinking import NICENESS, Thinker
from tests.thinking_targets import (
    cores,
    niceness,
    policy,
    policy_after_stuck,
    share_after_a_while,
    slow,
    stuck_once,
)

VIEW = (lambda s: s.view(s.attacker))(State(Rules(players=2, deck=36), seed=8))


async def test_a_worker_decides_as_the_bot_does_in_process() -> None:
    thinker = Thinker(1)
    try:
        for level in ("novice", "expert"):
            assert await thinker.decide(level, VIEW, 5) == decide(level, VIEW, 5)
        assert thinker.replaced == 0
    finally:
        thinker.close()


async def test_a_worker_killed_mid_decision_is_replaced_and_the_move_made(
    tmp_path: Path,
) -> None:
    thinker = Thinker(1, target=partial(stuck_once, str(tmp_path)))
    try:
        decision = asyncio.create_task(thinker.decide("expert", VIEW, 5))
        pid_file = tmp_path / "pid"
        for _ in range(500):
            if pid_file.exists() and pid_file.read_text():
                break
            await asyncio.sleep(0.02)
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
        assert await asyncio.wait_for(decision, 30) == decide("expert", VIEW, 5)
        assert thinker.replaced == 1
    finally:
        thinker.close()


async def test_a_hung_worker_is_killed_after_the_timeout_and_the_move_made(
    tmp_path: Path,
) -> None:
    thinker = Thinker(1, target=partial(stuck_once, str(tmp_path)), timeout=1.0)
    try:
        assert await asyncio.wait_for(thinker.decide("expert", VIEW, 5), 30) == decide(
            "expert", VIEW, 5
        )
        assert thinker.replaced == 1
        hung = int((tmp_path / "pid").read_text())
        await asyncio.sleep(0.2)
        assert not _alive(hung), "the hung worker still runs"
    finally:
        thinker.close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


async def test_workers_think_at_a_lower_priority_than_the_event_loop() -> None:
    thinker = Thinker(1, target=niceness)  # type: ignore[arg-type]  # a probe: no move
    try:
        told: object = await thinker.decide("novice", VIEW, 0)  # what the probe saw
        assert told == min(19, os.nice(0) + NICENESS)
    finally:
        thinker.close()


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle policy")
async def test_workers_think_only_on_what_the_event_loop_leaves() -> None:
    """At nice 10 alone, the people's presses beside tables of «Мастер» were answered in
    57-63 ms p99 (bench.bot_tables, a quiet 2-core machine); under the idle policy in
    29-42 ms, and the bots decided 15-30% more a second."""
    thinker = Thinker(1, target=policy)  # type: ignore[arg-type]  # a probe: no move
    try:
        told: object = await thinker.decide("novice", VIEW, 0)  # what the probe saw
        assert told == os.SCHED_IDLE
    finally:
        thinker.close()


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle policy")
async def test_after_a_worker_timed_out_the_new_ones_keep_a_fair_share(tmp_path: Path) -> None:
    """Other work on the workers' cores starves them under the idle policy, and a
    starved worker looks hung: its successors think at nice 10 alone."""
    target = partial(policy_after_stuck, str(tmp_path))
    thinker = Thinker(1, target=target, timeout=1.0)  # type: ignore[arg-type]  # a probe: no move
    try:
        ours = os.sched_getscheduler(0)  # the policy they are forked with
        told: object = await asyncio.wait_for(thinker.decide("novice", VIEW, 0), 30)
        assert told == ours
        assert thinker.replaced == 1 and not thinker.idle
    finally:
        thinker.close()


async def test_workers_leave_the_first_core_to_the_event_loop() -> None:
    """On 2 cores the people's presses beside tables of «Мастер» were answered p99 ×3.2
    slower than without them (bench.bot_tables); off that core, ×1.05-2.8."""
    ours = sorted(os.sched_getaffinity(0))
    thinker = Thinker(1, target=cores)  # type: ignore[arg-type]  # a probe: no move
    try:
        told: object = await thinker.decide("novice", VIEW, 0)  # what the probe saw
        assert told == (ours[1:] if len(ours) > 1 else ours)
    finally:
        thinker.close()


async def test_decisions_waiting_for_a_busy_worker_are_not_taken_for_hung() -> None:
    thinker = Thinker(1, target=slow, timeout=1.2)  # each takes 0.5 s; four queue up
    try:
        moves = await asyncio.gather(*(thinker.decide("novice", VIEW, s) for s in range(4)))
        assert moves == [decide("novice", VIEW, s) for s in range(4)]
        assert thinker.replaced == 0
        # Each decision's own time in its worker, not its wait for the worker.
        assert len(thinker.seconds) == 4
        assert all(0.5 <= t < thinker.timeout for t in thinker.seconds)
    finally:
        thinker.close()


async def test_decisions_with_others_queued_behind_them_get_less_of_the_budget() -> None:
    # (a probe: the share it saw comes back where a move would)
    thinker = Thinker(1, target=share_after_a_while, timeout=60)  # type: ignore[arg-type]
    try:
        shares: Sequence[object] = await asyncio.gather(
            *(thinker.decide("master", VIEW, s) for s in range(4))
        )
        # The first found the worker free; the second had two behind it, the third one.
        assert shares == [1.0, 1 / 3, 0.5, 1.0]
        assert thinker.share() == 1.0
    finally:
        thinker.close()


async def test_the_share_counts_what_queues_for_any_of_the_workers() -> None:
    # (a probe: the share it saw comes back where a move would)
    thinker = Thinker(2, target=share_after_a_while, timeout=60)  # type: ignore[arg-type]
    try:
        shares: Sequence[object] = await asyncio.gather(
            *(thinker.decide("master", VIEW, s) for s in range(6))
        )
        assert shares == [1.0, 1.0, 2 / 5, 2 / 4, 2 / 3, 1.0]
    finally:
        thinker.close()


async def test_a_decision_given_up_while_queued_no_longer_counts() -> None:
    # (a probe: the share it saw comes back where a move would)
    thinker = Thinker(1, target=share_after_a_while, timeout=60)  # type: ignore[arg-type]
    try:
        tasks = [asyncio.create_task(thinker.decide("master", VIEW, s)) for s in range(3)]
        await asyncio.sleep(0.05)  # the first thinks, the other two queue
        tasks[2].cancel()
        shares: Sequence[object] = await asyncio.gather(*tasks[:2])
        assert shares == [1.0, 1.0]
        assert thinker.share() == 1.0
    finally:
        thinker.close()
