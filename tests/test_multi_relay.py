"""Lobby messages and command replies among several bot processes on one PostgreSQL
database (``bot.delivery.shared``): whichever process gets the update, the one holding the
sending lease sends them, through its own outbox; with no holder they wait in the
database until one takes the lease."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.callbacks import LobbyCb, LobbyOp
from bot.delivery.posts import (
    Admin,
    Closed,
    Edit,
    Hand,
    Lobby,
    Post,
    Send,
    from_json,
    keyboard,
    markup_json,
    to_json,
)
from bot.keyboard import Button, Keyboard
from storage.lease import PgShards
from storage.outgoing import OutgoingRepo
from storage.records import TableRecord
from tests.backends import PgDatabases
from tests.e2e_helpers import (
    TOKEN,
    hand_buttons,
    hand_message,
    hand_of,
    latest,
    message_in,
    open_table,
    seat_everyone,
    two_friends,
)
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.processes import bot_processes, delivering, hands_current

SENT = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage")


class Sent:
    """A session middleware: the messages one process sent or edited, by method."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any:
        if method.__api_method__ in SENT:
            self.calls[method.__api_method__] += 1
        return await make_request(bot, method)


async def test_the_lobby_and_replies_of_another_process_are_sent_by_the_holder(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("relay")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with bot_processes(tg, url) as (holder, other):
            sent = {holder: Sent(), other: Sent()}
            for process, its in sent.items():
                process.app.bot.session.middleware(its)
            async with delivering(tg, lambda _: other.address):  # every update to the other
                await tg.send_text(anna, group, "/durak")
                lobby = await tg.wait_for_message(
                    group, lambda m: "Стол для игры" in (m.text or "")
                )
                answer = await (
                    await tg.press(boris, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack())
                )
                assert answer.text == "Вы за столом!"
                await tg.wait_for(lambda: "Борис" in (latest(tg, group).text or ""))
                await tg.send_text(anna, group, "/stats")
                await tg.wait_for_message(group, lambda m: "не доиграли" in (m.text or ""))
                await tg.send_text(anna, group, "/settings")  # the lobby anew, the old one moved
                await tg.wait_for(lambda: "Стол для игры" in (latest(tg, group).text or ""))
                await tg.wait_for(
                    lambda: any("ниже" in (m.text or "") for m in tg.messages(group)), timeout=5
                )
                newest = latest(tg, group)
                table = await other.app.tables.record(1)  # noted by the holder once sent
                assert table is not None and table.lobby_message_id == newest.message_id
                await tg.wait_for(lambda: _waiting(other.app.db, 0), what="every row sent")
            assert not sent[other].calls, sent[other].calls  # it sent nothing
            assert sent[holder].calls["sendMessage"] >= 3  # lobby, stats, lobby
            assert holder.delivery.relayed >= 5 and other.delivery.relayed == 0
        assert tg.too_many_requests_sent == 0


async def _waiting(db: Any, rows: int) -> bool:
    return len(await OutgoingRepo(db).waiting()) == rows


async def test_what_waits_for_a_holder_is_sent_once_a_process_takes_the_lease(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("waiting")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, _, group = two_friends(tg)
        away = PgShards(url, 1)  # a holder of the one shard that never sends (and then dies)
        assert await away.take(0)
        try:
            async with bot_processes(tg, url, 1, holder_first=False) as (process,):
                async with delivering(tg, lambda _: process.address):
                    await tg.send_text(anna, group, "/durak")  # (after the two /start replies)
                    await tg.wait_for(lambda: _waiting(process.app.db, 3), what="the lobby")
                    await tg.send_text(anna, group, "/rules")
                    await tg.wait_for(lambda: _waiting(process.app.db, 4), what="the rules")
                    assert tg.count("sendMessage") == 0  # nobody sends while the lease is away
                    records = process.app.presenter.records  # (the delivery's too)
                    real = records.table
                    failed: list[int] = []

                    async def hiccup(table_id: int) -> TableRecord | None:  # the first read fails
                        if not failed:
                            failed.append(table_id)
                            raise ConnectionError("the database went away for a moment")
                        return await real(table_id)

                    records.table = hiccup  # type: ignore[method-assign]  # a read made to fail
                    await away.close()  # its holder died: this process takes the lease, sends
                    await tg.wait_for(lambda: _waiting(process.app.db, 0), what="every row sent")
                assert process.delivery.holder.held
                sent = [m for m in tg.messages(group) if m.from_user.is_bot]
                assert failed == [1]  # tried again, and the reply after it waited its turn:
                assert len(sent) == 2 and "Стол для игры" in (sent[0].text or ""), sent  # ordered
                table = await process.app.tables.record(1)  # the lobby noted once it was sent
                assert table is not None and table.lobby_message_id == sent[0].message_id
        finally:
            await away.close()


def test_a_post_keeps_its_text_and_keyboard_through_the_database() -> None:
    markup = Keyboard(
        [
            [Button("Сесть", "l:1:join:", style="success")],
            [Button("Правила", url="https://t.me/durak_bot?start=x")],
            [Button("Стол", app="https://durak.example.org/app?startapp=x")],
        ]
    )
    post = Send(-100, "<b>Стол</b>", markup_json(markup), thread_id=7, reply_to=3)
    again = from_json(to_json(post))
    assert again == post and isinstance(again, Send) and keyboard(again.markup) == markup
    posts: list[Post] = [
        Edit(5, 9),
        Lobby(-100, 3, "rules", new=True, full=True, message_id=8),
        Closed(-100, 3, "closed.stopped", "Друзья", 4),
        Hand(2, 4),
        Admin(-100, True),
    ]
    assert [from_json(to_json(p)) for p in posts] == posts


def test_the_rows_of_an_older_bot_still_read() -> None:
    """The bodies as the bot wrote them before its posts were typed records."""
    rows = {
        '{"kind": "hand", "chat_id": 2, "game_id": 4}': Hand(2, 4),
        '{"kind": "closed", "chat_id": -100, "table_id": 3, "closed": "closed.stopped", '
        '"title": "Друзья", "game_id": 4}': Closed(-100, 3, "closed.stopped", "Друзья", 4),
        '{"kind": "lobby", "chat_id": -100, "table_id": 3, "new": true}': Lobby(-100, 3, new=True),
        '{"kind": "edit", "chat_id": 5, "message_id": 9}': Edit(5, 9),
    }
    assert {body: from_json(body) for body in rows} == rows
    # a keyboard as aiogram's InlineKeyboardMarkup.model_dump_json(exclude_none=True) wrote it
    old = (
        '{"inline_keyboard":[[{"text":"Сесть","callback_data":"l:1:join:","style":"success"}],'
        '[{"text":"Правила","url":"https://t.me/durak_bot?start=x"}],'
        '[{"text":"Стол","web_app":{"url":"https://durak.example.org/app?startapp=x"}}]]}'
    )
    assert keyboard(old) == Keyboard(
        [
            [Button("Сесть", "l:1:join:", style="success")],
            [Button("Правила", url="https://t.me/durak_bot?start=x")],
            [Button("Стол", app="https://durak.example.org/app?startapp=x")],
        ]
    )
    with pytest.raises(ValueError, match="not a button the bot draws"):
        keyboard('{"inline_keyboard":[[{"text":"Войти","login_url":{"url":"https://x"}}]]}')


def _data(message: FakeMessage | None, page: str) -> str | None:
    """The callback data of the hand's button to the page ``page`` (``hand``: back)."""
    for _, data in hand_buttons(message) if message else []:
        if data.startswith("p:") and data.split(":")[2] == page:
            return data
    return None


def _on_page(tg: FakeTelegram, user: FakeUser) -> bool:
    message = hand_message(tg, user)
    return message is not None and "Сдаться?" in (message.text or "")


async def test_a_hand_page_opened_through_one_process_is_pressed_through_the_other(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("pages")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with bot_processes(tg, url) as (holder, other):
            sent = Sent()
            other.app.bot.session.middleware(sent)
            to = [other.address]
            async with delivering(tg, lambda _: to[0]):
                await open_table(tg, other.app, group, anna)
                await seat_everyone(tg, other.app, group, [anna, boris])
                game = other.app.service.game_ids()[0]
                await tg.wait_for(lambda: hands_current(tg, holder.app, game, [anna]))
                for opened_by, pressed_by in ((holder, other), (other, holder)):
                    to[0] = opened_by.address  # «⋯» through one process...
                    more = _data(hand_message(tg, anna), "more")
                    assert more is not None
                    answer = await (await tg.press(anna, hand_of(tg, anna), more))
                    assert answer.text is None, answer.text
                    await tg.wait_for(lambda: _on_page(tg, anna), what="the «⋯» page")
                    to[0] = pressed_by.address  # ...and its «Вернуть управление» through the other
                    back = _data(hand_message(tg, anna), "hand")
                    assert back is not None
                    answer = await (await tg.press(anna, hand_of(tg, anna), back))
                    assert answer.text is None, answer.text  # before: «Кнопка устарела»
                    await tg.wait_for(lambda: not _on_page(tg, anna), what="the hand again")
                    await tg.wait_for(lambda: hands_current(tg, holder.app, game, [anna]))
            assert not sent.calls, sent.calls  # the pages too were drawn by the holder
        assert tg.too_many_requests_sent == 0


async def test_a_lobby_change_and_its_message_are_written_in_one_transaction(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("atomic")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with (
            bot_processes(tg, url) as (_, other),  # (the holder shows what it gets)
            delivering(tg, lambda _: other.address),  # every update to the other
        ):
            lobby = await open_table(tg, other.app, group, anna)
            tables, reads = other.app.tables, []
            real = tables.get

            async def dies(table_id: int) -> Any:  # the join reads the table twice:
                reads.append(table_id)  # before its change, and after its commit
                if len(reads) == 2:
                    raise ConnectionError("the process dies right after the commit")
                return await real(table_id)

            tables.get = dies  # type: ignore[method-assign]  # the process dies there
            join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
            await (await tg.press(boris, lobby, join))
            assert len(reads) == 2
            await tg.wait_for(  # shown all the same (before: its row came after the commit)
                lambda: "Борис" in (message_in(tg, group, lobby.message_id).text or ""),
                timeout=5,
                what="the lobby with Борис",
            )
            await tg.wait_for(lambda: _waiting(other.app.db, 0), what="every row sent")


async def test_a_closed_tables_messages_are_written_with_its_closing(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("closing")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with (
            bot_processes(tg, url) as (holder, other),
            delivering(tg, lambda _: other.address),  # every update to the other
        ):
            await open_table(tg, other.app, group, anna)
            await seat_everyone(tg, other.app, group, [anna, boris])
            game = other.app.service.game_ids()[0]
            await tg.wait_for(lambda: hands_current(tg, holder.app, game, [anna, boris]))

            def table_shows_the_game() -> bool:
                latest = tg.latest_message(group)
                return latest is not None and "Козырь" in (latest.text or "")

            # The group's table edit is paced: it may come after the hands.
            await tg.wait_for(table_shows_the_game, what="the game's table message")
            table = tg.latest_message(group)
            assert table is not None
            hands = {u: m.message_id for u in (anna, boris) if (m := hand_message(tg, u))}
            assert len(hands) == 2

            async def dies(table_id: int) -> None:  # after the close's commit
                raise ConnectionError("the process dies right after the commit")

            other.app.service.end_table = dies  # type: ignore[method-assign]  # dies there
            await tg.send_text(anna, group, "/stop")
            await tg.wait_for(  # said all the same (before: edited after the commit)
                lambda: "закрыт" in (message_in(tg, group, table.message_id).text or ""),
                timeout=5,
                what="the table message saying it was closed",
            )
            for user, hand in hands.items():

                def told(user: FakeUser = user, hand: int = hand) -> bool:
                    return "закрыли" in (message_in(tg, user, hand).text or "")

                await tg.wait_for(told, timeout=5, what="the hand saying why")
            await tg.wait_for(  # and /stop's reply (before: sent after the commit)
                lambda: any(m.text == "Стол закрыт." for m in tg.messages(group)),
                timeout=5,
                what="the reply to /stop",
            )


async def test_a_join_taking_the_last_seat_shows_the_lobby_if_its_process_dies(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("full")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with bot_processes(tg, url) as (_, other):
            async with delivering(tg, lambda _: other.address):  # every update to the other
                lobby = await open_table(tg, other.app, group, anna)
                join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
                await (await tg.press(anna, lobby, join))
                await tg.wait_for(lambda: "Аня" in (lobby.text or ""), what="Аня seated")

                async def dies(table_id: int, *args: Any, **kwargs: Any) -> Any:
                    raise ConnectionError("the process dies before the start that follows")

                other.app.tables.start = dies  # type: ignore[method-assign]  # dies there
                await tg.press(boris, lobby, join)  # the last seat: no game follows
                await tg.wait_for(  # shown all the same (before: only if the start refused)
                    lambda: "Борис" in (message_in(tg, group, lobby.message_id).text or ""),
                    timeout=8,
                    what="the lobby with Борис",
                )
                await tg.wait_for(lambda: _waiting(other.app.db, 0), what="every row sent")
            assert not other.app.service.game_ids()


async def test_a_deep_links_join_and_its_reply_are_written_in_one_transaction(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("link")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        async with (
            bot_processes(tg, url) as (_, other),
            delivering(tg, lambda _: other.address),  # every update to the other
        ):
            await open_table(tg, other.app, group, anna)
            tables, reads = other.app.tables, []
            real = tables.get

            async def dies(table_id: int) -> Any:  # after the join's commit
                reads.append(table_id)
                if len(reads) == 2:
                    raise ConnectionError("the process dies right after the commit")
                return await real(table_id)

            tables.get = dies  # type: ignore[method-assign]  # the process dies there
            token = (await real(1)).join_token
            tg.start_private(boris, payload=f"join_{token}")
            reply = await tg.wait_for_message(  # before: sent after the commit, so lost
                boris, lambda m: "Вы за столом в группе" in (m.text or ""), timeout=5
            )
            assert "место 1 из 2" in (reply.text or ""), reply.text
            await tg.wait_for(lambda: _waiting(other.app.db, 0), what="every row sent")
