"""Move timers fire side by side, and a fire that fails is tried again later."""

from __future__ import annotations

import asyncio

from service import FakeClock, Timers


async def first_fire(fired: list[int], seconds: float) -> None:
    """Until the background loop has fired a game (or ``seconds`` have passed)."""
    for _ in range(int(seconds / 0.01)):
        if fired:
            return
        await asyncio.sleep(0.01)


async def test_two_games_due_at_once_fire_without_waiting_for_each_other() -> None:
    clock = FakeClock()
    started = {1: asyncio.Event(), 2: asyncio.Event()}

    async def fire(game: int, version: int) -> None:
        started[game].set()
        other = started[3 - game]
        await asyncio.wait_for(other.wait(), 2)  # one after the other would time out here

    timers = Timers(clock, fire)
    timers.arm(1, 4, clock.now() + 10)
    timers.arm(2, 7, clock.now() + 10)
    clock.advance(10)
    assert await timers.fire_due() == 2
    assert started[1].is_set() and started[2].is_set()
    assert timers.deadline(1) is None and timers.deadline(2) is None


async def test_a_failed_fire_is_rearmed_with_back_off_and_succeeds_later() -> None:
    clock = FakeClock()
    calls: list[tuple[int, int]] = []

    async def fire(game: int, version: int) -> None:
        calls.append((game, version))
        if len(calls) <= 2:
            raise OSError("database is locked")

    timers = Timers(clock, fire)
    timers.arm(5, 3, clock.now())
    assert await timers.fire_due() == 1
    assert timers.deadline(5) == (clock.now() + 1.0, 3)  # first back-off: 1 s
    clock.advance(1)
    assert await timers.fire_due() == 1
    assert timers.deadline(5) == (clock.now() + 2.0, 3)  # then longer
    clock.advance(2)
    assert await timers.fire_due() == 1
    assert calls == [(5, 3)] * 3 and timers.deadline(5) is None


async def test_a_failed_fire_does_not_override_a_timer_armed_meanwhile() -> None:
    clock = FakeClock()
    timers: Timers

    async def fire(game: int, version: int) -> None:
        timers.arm(game, version + 1, clock.now() + 30)  # a move was committed meanwhile
        raise OSError("disk full")

    timers = Timers(clock, fire)
    timers.arm(1, 0, clock.now())
    await timers.fire_due()
    assert timers.deadline(1) == (clock.now() + 30, 1)


async def test_the_background_loop_fires_a_game_while_another_fire_hangs() -> None:
    clock = FakeClock(speed=1000.0)
    fired: list[int] = []
    never = asyncio.Event()

    async def fire(game: int, version: int) -> None:
        if game == 1:
            await never.wait()  # e.g. a commit stuck on a locked database
        fired.append(game)

    timers = Timers(clock, fire)
    timers.arm(1, 0, clock.now() + 1)
    timers.arm(2, 0, clock.now() + 5)
    timers.start()
    try:
        await first_fire(fired, 2.0)
        assert fired == [2]
    finally:
        await timers.stop()


async def test_only_the_last_arming_of_a_game_fires_and_a_cancelled_one_never() -> None:
    clock = FakeClock()
    fired: list[tuple[int, int]] = []

    async def fire(game: int, version: int) -> None:
        fired.append((game, version))

    timers = Timers(clock, fire)
    for version in range(500):  # a game re-armed at every move, sooner and later
        timers.arm(1, version, clock.now() + 10 + (version % 7))
    timers.arm(2, 0, clock.now() + 5)
    timers.cancel(2)
    timers.arm(3, 0, clock.now() + 20)
    clock.advance(11)  # past game 2's and game 1's earlier deadlines
    assert await timers.fire_due() == 0
    clock.advance(1)  # game 1's last one: 10 + 499 % 7
    assert await timers.fire_due() == 1
    assert fired == [(1, 499)]
    clock.advance(8)
    assert await timers.fire_due() == 1
    assert fired == [(1, 499), (3, 0)]
    assert await timers.fire_due() == 0


async def test_the_loop_wakes_for_a_deadline_sooner_than_the_one_it_waits_for() -> None:
    clock = FakeClock(speed=1000.0)  # 1,000 clock seconds a second
    fired: list[int] = []

    async def fire(game: int, version: int) -> None:
        fired.append(game)

    timers = Timers(clock, fire)
    timers.arm(1, 0, clock.now() + 3600)  # an hour: 3.6 s of real time
    timers.start()
    try:
        await asyncio.sleep(0.01)  # the loop now waits for game 1
        timers.arm(2, 0, clock.now() + 5)
        timers.arm(3, 0, clock.now() + 4000)  # later: no need to wake the loop for it
        await first_fire(fired, 1.0)
        assert fired == [2]
    finally:
        await timers.stop()
