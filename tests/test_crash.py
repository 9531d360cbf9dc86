"""Kill the service with SIGKILL in the middle of a game: nothing acknowledged is lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from engine import Action, Rules, State
from service import FakeClock
from storage.repos import GameRepo
from tests.service_helpers import held, open_service

ROOT = Path(__file__).resolve().parent.parent


async def test_sigkill_loses_nothing_acknowledged_and_the_timer_still_fires(
    tmp_path: Path,
) -> None:
    path = tmp_path / "killed.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.crash_child", str(path), "20"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acked = 0
    try:
        for line in child.stdout:
            if line.startswith("ack"):
                acked = int(line.split()[1])
                if acked >= 20:
                    break
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL and acked >= 20

    clock = FakeClock(start=time.time())
    service = await open_service(path, clock)
    assert await service.restore() == 1
    state = held(service, 1).state
    assert len(state.history) >= acked
    log = await GameRepo(service.db).actions(1)
    replayed = State(Rules(players=2, deck=36), 77)
    for row in log:
        replayed.apply(Action.from_text(row.seat, row.action), auto=row.auto)
    assert replayed == state

    clock.advance(Rules().move_seconds + 1)  # the pending timer, re-armed from the file
    assert await service.fire_due() == 1
    assert held(service, 1).state.auto[len(state.history)] is True
    await service.db.close()


async def test_sigkill_between_a_persons_move_and_the_bots_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bots.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.crash_child", str(path), "bots"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    try:
        line = child.stdout.readline()  # the person's move is committed; the bot waits
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    assert line == "ack 1\n"

    service = await open_service(path, FakeClock(start=time.time()))
    assert await service.restore() == 1
    assert len(held(service, 1).state.history) == 1
    service.start()
    try:
        await service.idle()  # the bot's move, after the restart
        log = await GameRepo(service.db).actions(1)
        assert [a.seat for a in log[:2]] == [0, 1]
    finally:
        await service.stop()
        await service.db.close()
