"""End to end, what Telegram does to a running game: the group becomes a supergroup,
the bot is removed from the group, a player blocks the bot."""

from __future__ import annotations

from pathlib import Path

from bot.app import App
from service import FakeClock
from storage.repos import UserRepo
from tests.e2e_helpers import (
    GAME_OVER,
    hand_message,
    latest,
    open_table,
    play_round,
    play_to_the_end,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.service_helpers import held


async def start_game(tg: FakeTelegram, app: App, group: FakeChat, users: list[FakeUser]) -> None:
    await open_table(tg, app, group, users[0])
    await seat_everyone(tg, app, group, users)
    for _ in range(3):
        await play_round(tg, app, users)


def game_over(tg: FakeTelegram, chat: FakeChat) -> bool:
    return any(w in (m.text or "") for m in tg.messages(chat) for w in GAME_OVER)


def calls_since(tg: FakeTelegram, mark: int, chat_id: int) -> list[str]:
    return [c.method for c in tg.calls[mark:] if c.chat_id == chat_id]


async def test_the_table_follows_the_group_into_a_supergroup(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис")]
    group = tg.add_group(-100, "Друзья", members=users)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await start_game(tg, app, group, users)
        supergroup = tg.migrate_to_supergroup(group, -1001000)
        mark = len(tg.calls)

        async def moved() -> bool:
            return await app.tables.in_chat(supergroup.id) is not None

        await tg.wait_for(moved, what="the table to move")
        for _ in range(400):
            if game_over(tg, supergroup) or not await play_round(tg, app, users):
                break
        assert game_over(tg, supergroup)
        # the old table message cannot be edited there: a new one is sent and used
        assert any("Козырь" in (m.text or "") for m in tg.messages(supergroup))
        assert calls_since(tg, mark, group.id) == []
        await tg.send_text(users[1], supergroup, "стата")
        stats = await tg.wait_for_message(supergroup, lambda m: "Статистика чата" in (m.text or ""))
        assert "Аня — 1 партия" in (stats.text or "") and "Борис — 1 партия" in (stats.text or "")
    assert tg.unanswered_callbacks() == [] and tg.internal_errors == []


async def test_removing_the_bot_closes_the_table_and_leaves_the_group_alone(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3", clock) as app:
        await start_game(tg, app, group, [anna, boris])
        hand = hand_message(tg, anna)
        assert hand is not None and hand.keyboard
        tg.remove_bot_from(group)
        mark = len(tg.calls)

        async def closed() -> bool:
            return await app.tables.in_chat(group.id) is None

        await tg.wait_for(closed, what="the table to close")
        await tg.wait_for(
            lambda: all("удалили" in (latest(tg, u).text or "") for u in (anna, boris)),
            what="the hands to say why",
        )
        assert app.service.game_ids() == [] and app.service.deadline(1) is None
        for user in (anna, boris):  # each hand message says why and has no buttons
            last = latest(tg, user)
            assert "удалили из группы «Друзья»" in (last.text or "") and not last.keyboard
        assert latest(tg, anna).message_id == hand.message_id
        clock.advance(120)
        await app.service.fire_due()
        await settle(app)
        assert calls_since(tg, mark, group.id) == []
        await tg.send_text(anna, group, "правила")  # removed: nothing reaches the bot
        await tg.wait_quiet()
        assert calls_since(tg, mark, group.id) == []
    assert tg.calls_to(chat=group, status=403) == []


async def test_a_player_who_blocks_the_bot_is_replaced_and_the_game_ends(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3", clock) as app:
        await start_game(tg, app, group, [anna, boris])
        tg.block(boris)

        async def marked() -> bool:
            user = await UserRepo(app.db).get(boris.id)
            return user is not None and not user.can_message

        await tg.wait_for(marked, what="the block to be noticed")
        for _ in range(400):
            if game_over(tg, group):
                break
            if not await play_round(tg, app, [anna]):  # Boris's moves time out
                clock.advance(31)
                await app.service.fire_due()
                await settle(app)
        assert game_over(tg, group)
        state = held(app.service, 1).state
        seat = next(i for i, s in enumerate(held(app.service, 1).seats) if s.user_id == 2)
        assert state.idle(seat), "a bot did not take over Boris's seat"
        shown = [text for m in tg.messages(group) for text, _ in [*m.history, (m.text, None)]]
        assert any("🤖 играет бот" in (text or "") for text in shown)
    assert tg.calls_to(chat=boris, status=403) == []
    assert tg.unanswered_callbacks() == [] and tg.internal_errors == []


async def test_stopping_a_running_game_tells_the_players(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await start_game(tg, app, group, [anna, boris])
        table_message = tg.messages(group)[-1]
        assert (table_message.text or "").startswith("⏳ ")  # a move with its seconds
        await tg.send_text(boris, group, "/stop")
        await tg.wait_for_message(
            group, lambda m: "Закрыть стол может его создатель" in (m.text or "")
        )
        assert app.service.game_ids()
        await tg.send_text(anna, group, "/stop")
        await tg.wait_for_message(group, lambda m: m.text == "Стол закрыт.")
        await tg.wait_for(
            lambda: all("закрыли" in (latest(tg, u).text or "") for u in (anna, boris)),
            what="the hands to say why",
        )
        assert app.service.game_ids() == []
        assert not latest(tg, boris).keyboard
        await settle(app)
        # the group's table message says so too (before: it kept showing the move)
        assert table_message.text == "🃏 Стол закрыт командой /stop — партия остановлена."
        assert not table_message.keyboard


async def test_stop_after_a_finished_game_leaves_the_results_alone(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        await play_to_the_end(tg, app, group, [anna, boris])
        await settle(app)
        hands = {u.id: latest(tg, u).text for u in (anna, boris)}
        assert all("Партия окончена" in (text or "") for text in hands.values()), hands
        summary = latest(tg, group)
        assert summary.keyboard  # «Ещё партию»
        await tg.send_text(anna, group, "/stop")
        await tg.wait_for_message(group, lambda m: m.text == "Стол закрыт.")
        await settle(app)
        # before: both hands were rewritten to «Партия остановлена…»
        assert {u.id: latest(tg, u).text for u in (anna, boris)} == hands
        assert not summary.keyboard and "Партия остановлена" not in (summary.text or "")
    assert tg.unanswered_callbacks() == [] and tg.internal_errors == []


async def test_who_may_stop_and_a_failing_get_chat_member(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris, vika, dima = (
        tg.add_user(i, name) for i, name in enumerate(("Аня", "Борис", "Вика", "Дима"), 1)
    )
    group = tg.add_group(-100, "Друзья", members=[anna, boris, dima], admins=[vika])
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:

        async def say(user: FakeUser, text: str) -> FakeMessage:
            """The bot's first message in the group after ``user`` wrote ``text``."""
            mark = len(tg.messages(group))
            await tg.send_text(user, group, text)
            await tg.wait_for_message(group, lambda m: m in tg.messages(group)[mark:])
            await settle(app)  # the lobby's edit too
            return next(m for m in tg.messages(group)[mark:] if m.from_user.is_bot)

        lobby = await say(boris, "/durak")  # Борис creates the table
        assert (await say(dima, "/stop")).text == (
            "Закрыть стол может его создатель — Борис — или администратор группы."
        )
        unchecked = (
            "Не получилось узнать у Telegram, администратор ли вы."
            " Попробуйте /stop ещё раз чуть позже."
        )
        tg.inject_429(count=2, retry_after=30, methods=["getChatMember"])
        assert (await say(dima, "/stop")).text == unchecked
        assert (await app.tables.in_chat(group.id)) is not None
        # the creator needs no getChatMember (before: it failed, and no reply came)
        assert (await say(boris, "/stop")).text == "Стол закрыт."
        assert lobby.text == "Стол закрыт." and not lobby.keyboard
        await say(boris, "/durak")
        assert (await say(dima, "/stop")).text == unchecked  # the second failure
        assert (await say(vika, "/stop")).text == "Стол закрыт."  # a group admin
        await say(dima, "/durak")
        assert (await say(anna, "/stop")).text == "Стол закрыт."  # the group's creator
        rows = await app.db.fetch_all("SELECT creator_id, status FROM tables")
        assert [tuple(r) for r in rows] == [(2, "closed"), (2, "closed"), (4, "closed")]
    assert tg.internal_errors == []
