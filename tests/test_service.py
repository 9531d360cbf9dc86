"""The game service: every move committed before it is reported; nothing lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import Action, Mode, Rules, Speed, State
from service import FakeClock, Refused, Seat, Update
from service.rating import new_stats
from storage.records import SeatKind
from storage.repos import GameRepo, StatsRepo
from tests.service_helpers import (
    CHAT,
    held,
    humans,
    next_move,
    open_service,
    play_moves,
    say_forced_words,
    start,
)

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL

RULES = Rules(players=2, deck=36)


def play_in_engine(rules: Rules, seed: int) -> State:
    state = State(rules, seed)
    say_forced_words(state)
    while not state.is_over:
        seat, text = next_move(state)
        state.apply(Action.from_text(seat, text))
        say_forced_words(state)
    return state


async def test_a_whole_game_through_the_service_equals_the_engine_game(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "g.sqlite3")
    update = await start(service, RULES, 11, humans(2))
    await play_moves(service, update.game_id, 1000)
    state = held(service, update.game_id).state
    assert state.is_over and state == play_in_engine(RULES, 11)
    record = await GameRepo(service.db).get(update.game_id)
    assert record is not None and record.status == "over" and record.deadline is None
    assert record.version == len(state.history) == len(await GameRepo(service.db).actions(1))
    assert state.outcome is not None and len(state.outcome.fools) == 1
    fresh = new_stats(CHAT, 0)
    for user in (1, 2):  # statistics were updated in the same transaction
        stats = await StatsRepo(service.db).get(CHAT, user)
        assert stats is not None and stats.games == 1
        fool = (user - 1) in state.outcome.fools
        assert (stats.fools, stats.wins) == (int(fool), int(not fool))
        assert (stats.mu < fresh.mu) == fool and stats.sigma < fresh.sigma
    await service.db.close()


async def test_a_game_survives_losing_every_object_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    first = await open_service(path)
    update = await start(first, RULES, 23, humans(2))
    assert await play_moves(first, update.game_id, 25) == 25
    await first.db.close()  # as after kill -9: nothing in memory survives, only the file

    second = await open_service(path)
    assert await second.restore() == 1
    await play_moves(second, update.game_id, 1000)
    assert held(second, update.game_id).state == play_in_engine(RULES, 23)
    await second.db.close()


async def test_snapshot_and_action_log_rebuild_the_same_state(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "r.sqlite3")
    update = await start(service, Rules(players=3, deck=36, mode=Mode.PEREVODNOY), 5, humans(3))
    await play_moves(service, update.game_id, 40)
    fresh = await open_service(tmp_path / "r.sqlite3")
    await fresh.restore()
    from_snapshot = held(fresh, update.game_id).state
    assert from_snapshot == await fresh.rebuild_from_log(update.game_id)
    assert from_snapshot == held(service, update.game_id).state
    await service.db.close()
    await fresh.db.close()


async def test_stale_and_illegal_moves_are_refused_and_change_nothing(
    tmp_path: Path,
) -> None:
    service = await open_service(tmp_path / "x.sqlite3")
    update = await start(service, RULES, 3, humans(2))
    game = update.game_id
    state = held(service, game).state
    before = state.to_dict()
    seat, text = next_move(state)
    cases = [
        (seat, text, 99, "stale"),
        (seat, "a 2S", 0, "illegal"),  # (no 2 in a 36-card deck)
        (1 - seat, text, 0, "illegal"),
    ]
    for who, what, version, reason in cases:
        with pytest.raises(Refused) as info:
            await service.act(game, Action.from_text(who, what), version)
        assert info.value.reason == reason and str(info.value)
    assert held(service, game).state.to_dict() == before
    assert await GameRepo(service.db).actions(game) == []
    with pytest.raises(Refused, match="not running"):
        await service.act(999, Action.from_text(0, "take"), 0)
    await service.db.close()


async def test_a_double_click_is_applied_once(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "d.sqlite3")
    game = (await start(service, RULES, 8, humans(2))).game_id
    seat, text = next_move(held(service, game).state)
    first = await service.act(game, Action.from_text(seat, text), 0)
    with pytest.raises(Refused) as info:
        await service.act(game, Action.from_text(seat, text), 0)
    assert info.value.reason == "stale"
    assert len(await GameRepo(service.db).actions(game)) == first.version == 1
    await service.db.close()


async def test_concurrent_moves_apply_one_at_a_time_in_a_consistent_order(
    tmp_path: Path,
) -> None:
    service = await open_service(tmp_path / "c.sqlite3")
    rules = Rules(players=4, deck=36)
    game = (await start(service, rules, 17, humans(4))).game_id
    state = held(service, game).state
    presses = [
        service.act(game, Action.from_text(seat, action.text), 0)
        for seat in range(4)
        for action in [*state.legal_actions(seat), *state.legal_actions(seat)]
    ] + [service.act(game, Action.from_text(seat, "take"), 0) for seat in range(4)]
    results = await asyncio.gather(*presses, return_exceptions=True)
    applied = [r for r in results if isinstance(r, Update)]
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(applied) == 1 and len(applied) + len(refused) == len(results)
    assert {r.reason for r in refused} <= {"stale", "illegal"}
    log = await GameRepo(service.db).actions(game)
    assert [a.seq for a in log] == [1] and log[0].action == applied[0].actions[0][0].text
    await service.db.close()


async def test_bot_seats_move_on_their_own_in_the_same_commit(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "b.sqlite3")
    seats = [Seat(SeatKind.HUMAN, "Аня", user_id=1), Seat(SeatKind.BOT, "Новичок", level="novice")]
    update = await start(service, RULES, 31, seats)
    game = update.game_id
    await play_moves(service, game, 1000)
    state = held(service, game).state
    assert state.is_over
    assert {a.seat for a in state.history} == {0, 1}
    log = await GameRepo(service.db).actions(game)
    assert len(log) == len(state.history)
    # The only automatic moves: the words said for Аня when she had nothing to add.
    automatic = [a for a in log if a.auto]
    assert all(a.seat == 0 and a.action in ("done", "pass") for a in automatic)
    await service.db.close()


@pytest.mark.parametrize("speed", list(Speed))
async def test_a_timeout_makes_the_automatic_move(tmp_path: Path, speed: Speed) -> None:
    clock = FakeClock()
    service = await open_service(tmp_path / "t.sqlite3", clock)
    rules = Rules(players=2, deck=36, speed=speed)
    game = (await start(service, rules, 4, humans(2))).game_id
    state = held(service, game).state
    expected = state.timeout_actions()[0]
    clock.advance(rules.move_seconds - 1)
    assert await service.fire_due() == 0
    clock.advance(1)
    assert await service.fire_due() == 1
    state = held(service, game).state
    assert state.history == [expected] and state.auto == [True]
    record = await GameRepo(service.db).get(game)
    assert record is not None and record.deadline == clock.now() + rules.move_seconds
    await service.db.close()


async def test_a_timer_made_stale_by_a_move_does_nothing(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "s.sqlite3")
    game = (await start(service, RULES, 6, humans(2))).game_id
    await play_moves(service, game, 1)
    before = held(service, game).state.to_dict()
    await service._on_timer(game, 0)  # the timer set for version 0 fires late
    assert held(service, game).state.to_dict() == before
    await service.db.close()


async def test_two_missed_moves_hand_the_seat_to_a_bot_until_it_comes_back(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    service = await open_service(tmp_path / "i.sqlite3", clock)
    game = (await start(service, RULES, 9, humans(2))).game_id
    idle_seat = None
    for _ in range(10):
        clock.advance(RULES.move_seconds)
        await service.fire_due()
        state = held(service, game).state
        idle = [s for s in range(2) if state.idle(s)]
        if idle:
            idle_seat = idle[0]
            break
    assert idle_seat is not None
    state = held(service, game).state
    turn = state.turn()
    assert turn is not None and idle_seat not in turn.seats  # its stand-in moved at once
    version = len(state.history)
    await service.act(game, Action.from_text(idle_seat, "back"), version)
    assert not held(service, game).state.idle(idle_seat)
    await service.db.close()


async def test_restore_rearms_deadlines_and_a_passed_one_fires_at_once(tmp_path: Path) -> None:
    path = tmp_path / "re.sqlite3"
    clock = FakeClock()
    first = await open_service(path, clock)
    game = (await start(first, RULES, 12, humans(2))).game_id
    await play_moves(first, game, 3)
    version = len(held(first, game).state.history)  # with any words said for them
    await first.db.close()

    clock.advance(3600)  # the bot was down for an hour
    second = await open_service(path, clock)
    await second.restore()
    assert second.deadline(game) is not None  # the stored one, passed an hour ago
    assert await second.fire_due() == 1
    assert len(held(second, game).state.history) > version
    assert held(second, game).state.auto[version] is True
    await second.db.close()


async def test_the_background_timer_loop_fires_with_a_fast_clock(tmp_path: Path) -> None:
    clock = FakeClock(speed=600.0)  # 30 seconds pass in 50 ms
    service = await open_service(tmp_path / "loop.sqlite3", clock)
    game = (await start(service, RULES, 2, humans(2))).game_id
    service.start()
    try:
        for _ in range(100):
            await asyncio.sleep(0.02)
            if held(service, game).state.history:
                break
        assert held(service, game).state.auto[:1] == [True]
    finally:
        await service.stop()
        await service.db.close()


async def test_a_table_keeps_only_its_newest_game_in_memory(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "g.sqlite3")
    first = await start(service, RULES, 11, humans(2))
    await play_moves(service, first.game_id, 1000)
    table_id = held(service, first.game_id).table_id
    second = await service.create_game(table_id, RULES, humans(2), 12)
    assert first.game_id not in service.game_ids()  # finished: only its rows remain
    assert second.game_id in service.game_ids()
    record = await GameRepo(service.db).get(first.game_id)
    assert record is not None and record.status == "over"
    await service.db.close()
