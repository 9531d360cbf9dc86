"""End to end, the outbox under a real game: the table message rendered when its slot
comes, faults that are not Bot API answers on each kind of message, idle workers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.app import App
from tests.e2e_helpers import (
    choose,
    hand_key,
    hand_message,
    open_table,
    play_round,
    play_to_the_end,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeChat, FakeTelegram, FakeUser
from tests.service_helpers import held


def shows_now(tg: FakeTelegram, app: App, game: int, user: FakeUser) -> bool:
    """Whether the user's hand shows the game as it is now (its key is the newest)."""
    message = hand_message(tg, user)
    return message is not None and hand_key(message) == app.presenter.hand_key(game, user.id)


async def start(tg: FakeTelegram, app: App) -> tuple[FakeChat, list[FakeUser], int]:
    anna, boris, group = two_friends(tg)
    await open_table(tg, app, group, anna)
    await seat_everyone(tg, app, group, [anna, boris])
    game = app.service.game_of(1)
    assert game is not None
    return group, [anna, boris], game


async def move(tg: FakeTelegram, app: App, users: list[FakeUser], game: int) -> None:
    """Someone makes a move; returns when both hands show it (the group may lag)."""
    live = held(app.service, game)
    assert live is not None
    before = len(live.state.history)
    for _ in range(10):
        for user in users:
            message = hand_message(tg, user)
            data = choose(tg, message) if message else None
            if message is not None and data is not None:
                await (await tg.press(user, message, data))
                break
        await app.presenter.idle()
        version = len(live.state.history)
        await tg.wait_for(
            lambda: all(shows_now(tg, app, game, u) for u in users),
            what="the hands to show the move",
        )
        if version > before:
            return
    raise AssertionError("no move was made")


async def test_the_table_after_a_burst_of_moves_shows_the_last_state_once(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        group, users, game = await start(tg, app)
        # The group's next slot comes 2 s after its last edit (Telegram's: 3 s).
        app.outbox.limits = replace(app.outbox.limits, group_per_minute=30)
        await play_round(tg, app, users)
        mark = len(tg.calls)
        for _ in range(4):  # moves in quick succession, all before that slot
            await move(tg, app, users, game)
        last_move = max(c.time for c in tg.calls_to("answerCallbackQuery"))
        await settle(app)
        edits = [c for c in tg.calls[mark:] if c.chat_id == group.id and c.ok]
        assert {c.method for c in edits} == {"editMessageText"}
        assert len([c for c in edits if c.time > last_move]) == 1  # not a stale one first
        texts = [c.params["text"] for c in edits]
        assert len(set(texts)) == len(texts)  # no state shown twice
        shown = app.presenter.rendered(game)
        assert shown is not None and texts[-1] == shown[0]  # the last state


@pytest.mark.parametrize("fault", ["502", "timeout", "reset"])
async def test_a_failed_hand_table_or_summary_is_sent_again(
    tg: FakeTelegram, tmp_path: Path, fault: str
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.outbox.limits = replace(app.outbox.limits, timeout=0.5, backoff=0.05)
        group, users, game = await start(tg, app)
        anna = users[0]
        for chat, method in (
            (anna, "editMessageText"),  # her hand's next edit
            (group, "editMessageText"),  # the table's next edit
            (group, "sendMessage"),  # the summary
        ):
            tg.inject_fault(fault, chat=chat, methods=[method], delay=2.0)
        await move(tg, app, users, game)  # both hands show it: hers was sent again
        await settle(app)
        shown = app.presenter.rendered(game)
        table = tg.calls_to("editMessageText", group)[-1]
        assert table.ok and shown is not None and table.params["text"] == shown[0]
        await play_to_the_end(tg, app, group, users)
        assert tg.faults == 3
        summary = tg.calls_to("sendMessage", group)[-2:]
        failed = {"502": 502, "timeout": 504, "reset": 599}[fault]
        assert [c.status for c in summary] == [failed, 200]  # the summary came after all


async def test_an_idle_chats_worker_is_dropped_and_a_later_move_still_arrives(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.outbox.limits = replace(app.outbox.limits, idle=0.1)
        group, users, game = await start(tg, app)
        await settle(app)
        await tg.wait_for(lambda: app.outbox.workers == 0, what="the idle workers to end")
        await move(tg, app, users, game)  # both hands show it: new workers sent it
        await settle(app)
        shown = app.presenter.rendered(game)
        assert shown is not None
        assert tg.calls_to("editMessageText", group)[-1].params["text"] == shown[0]
