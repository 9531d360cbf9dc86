"""What a new holder of the sending lease (``bot.delivery.holder``) must know when it takes over
from another bot process on one PostgreSQL database: which game of a table is the newest,
and what the processes that got the updates learned (the bot made an administrator, a
table closed by /stop)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.app import App
from bot.callbacks import CardsCb, LobbyCb, LobbyOp
from engine import Action
from storage.outgoing import OutgoingRepo
from tests.backends import PgDatabases
from tests.e2e_helpers import (
    GAME_OVER,
    hand_buttons,
    latest,
    message_in,
    open_table,
    seat_everyone,
    two_friends,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram
from tests.processes import Process, bot_processes, delivering, settled
from tests.service_helpers import held


class ToChat:
    """A session middleware: the methods one process called for one chat."""

    def __init__(self, chat_id: int) -> None:
        self.chat_id = chat_id
        self.calls: list[tuple[str, str]] = []  # (method, text)

    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any:
        if getattr(method, "chat_id", None) == self.chat_id:
            self.calls.append((method.__api_method__, getattr(method, "text", None) or ""))
        return await make_request(bot, method)


AGAIN = LobbyCb(table=1, op=LobbyOp.AGAIN).pack()


def summaries(tg: FakeTelegram, group: FakeChat) -> list[FakeMessage]:
    """The group's messages that sum a game up, with «Ещё партию» under them."""
    return [m for m in tg.messages(group) if any(d == AGAIN for _, d in hand_buttons(m))]


@asynccontextmanager
async def three_processes(tg: FakeTelegram, url: str) -> AsyncIterator[list[Process]]:
    """The holder of the lease; one that gets the updates and never holds it; and one
    waiting to take over."""
    async with bot_processes(tg, url, 3) as processes:
        await processes[1].delivery.holder.stop()  # it never shows the games
        yield processes


async def test_a_new_holder_does_not_show_an_old_games_result_once_a_new_game_runs(
    tg: FakeTelegram,
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("handover")
    anna, boris, group = two_friends(tg)
    async with three_processes(tg, url) as (holder, other, heir):
        seen = ToChat(group.id)
        heir.app.bot.session.middleware(seen)
        async with delivering(tg, lambda _: other.address):  # every update to the other
            await open_table(tg, other.app, group, anna)
            await seat_everyone(tg, other.app, group, [anna, boris])
            first = other.app.service.game_ids()[0]
            await tg.wait_for(lambda: first in heir.app.service.game_ids())
            await heir.app.service.follower.stop()  # it hears of the game's end late
            live = held(other.app.service, first)
            assert live is not None
            await other.app.service.act(first, Action.from_text(0, "quit"), len(live.state.history))
            await tg.wait_for(lambda: len(summaries(tg, group)) == 1, what="the result")
            summary = summaries(tg, group)[0]
            await (await tg.press(boris, summary, AGAIN))  # «Ещё партию»: a new game
            ids = other.app.service.game_ids
            await tg.wait_for(lambda: len(ids()) == 1 and ids()[0] != first, what="a new game")
            second = ids()[0]
            await settled(holder.app, other.app)
            table = await other.app.tables.record(1)
            assert table is not None and table.table_message_id is not None
            shown = tg.chat(group).message(table.table_message_id)
            assert shown is not None and "Партия окончена" not in (shown.text or "")

            await holder.stop()  # the heir takes over: its cache holds both games
            await tg.wait_for(lambda: heir.delivery.holder.held)
            await settled(heir.app, other.app)
        again = [m for m in tg.messages(group) if m.text == summary.text]
        assert again == [summary], again  # before: posted again
        assert heir.app.service.game_ids() == [second]  # before: the first stayed too
        assert not [c for c in seen.calls if c[0] == "sendMessage"], seen.calls
        now = tg.chat(group).message(table.table_message_id)  # the new game's: not the old
        assert now is not None and not any(w in (now.text or "") for w in GAME_OVER)
    assert tg.too_many_requests_sent == 0


MODE_ADMIN = "к вашему ходу бот покажет их"  # the lobby's line where the bot is an admin


async def test_the_holder_learns_the_bot_was_made_an_admin_through_another_process(
    tg: FakeTelegram,
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("admin")
    anna, boris, group = two_friends(tg)
    async with (
        bot_processes(tg, url) as (_, other),
        delivering(tg, lambda _: other.address),  # every update to the other
    ):
        lobby = await open_table(tg, other.app, group, anna)
        assert MODE_ADMIN not in (lobby.text or "")  # asked: not an admin (for 60 s)
        tg.add_bot_to(group, admin=True)  # made an admin: the other hears of it
        join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
        assert (await (await tg.press(boris, lobby, join))).text == "Вы за столом!"
        await tg.wait_for(  # drawn by the holder, which knows it now (before: 60 s on)
            lambda: MODE_ADMIN in (message_in(tg, group, lobby.message_id).text or ""),
            timeout=5,
            what="the lobby of an admin bot",
        )


async def test_stop_through_another_process_takes_the_hands_in_the_group_away(
    tg: FakeTelegram,
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("stop")
    cards = CardsCb(game=1).pack()
    anna, boris, group = two_friends(tg)
    async with bot_processes(tg, url) as (holder, other):

        def address(update: dict[str, Any]) -> str:  # «Мои карты» where the hands are shown
            pressed = update.get("callback_query", {}).get("data")
            return holder.address if pressed == cards else other.address

        async with delivering(tg, address):
            await open_table(tg, other.app, group, anna)
            await seat_everyone(tg, other.app, group, [anna, boris])
            await settled(holder.app, other.app)
            table = latest(tg, group)
            assert "Козырь" in (table.text or "")
            assert (await (await tg.press(boris, table, cards))).text  # shown to him there
            await tg.wait_for(lambda: len(tg.ephemerals(group, boris)) == 1)
            await tg.send_text(anna, group, "/stop")  # to the other: the table closes
            await tg.wait_for(  # deleted by the holder (before: it never heard)
                lambda: not tg.ephemerals(group), timeout=5, what="the hand to go"
            )


async def test_play_again_taken_after_the_new_game_ended_edits_the_old_result(
    tg: FakeTelegram,
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("again")
    anna, boris, group = two_friends(tg)

    async def surrender(app: App, game: int) -> None:
        live = held(app.service, game)
        await app.service.act(game, Action.from_text(0, "quit"), len(live.state.history))

    async with bot_processes(tg, url) as (holder, other):
        seen = ToChat(group.id)
        holder.app.bot.session.middleware(seen)
        async with delivering(tg, lambda _: other.address):  # every update to the other
            await open_table(tg, other.app, group, anna)
            await seat_everyone(tg, other.app, group, [anna, boris])
            first = other.app.service.game_ids()[0]
            await surrender(other.app, first)
            await tg.wait_for(lambda: len(summaries(tg, group)) == 1, what="the result")
            old = summaries(tg, group)[0]
            await holder.app.delivery.halt()  # it takes the start's row only later
            await (await tg.press(boris, old, AGAIN))  # «Ещё партию»: a new game...
            await tg.wait_for(lambda: other.app.service.game_ids() not in ([], [first]))
            second = other.app.service.game_ids()[0]
            await surrender(other.app, second)  # ...that ends at once
            await tg.wait_for(lambda: len(summaries(tg, group)) == 2, what="its result")
            new = summaries(tg, group)[1]
            posted = len([c for c in seen.calls if c[0] == "sendMessage"])
            holder.app.delivery.start(holder.app.service)
            await tg.wait_for(lambda: _none_waiting(holder), what="the start's row sent")
            await settled(holder.app, other.app)
        assert summaries(tg, group) == [new]  # the old result lost «Ещё партию» only
        sends = len([c for c in seen.calls if c[0] == "sendMessage"])
        assert sends == posted  # before: a new lobby under the new result
    assert tg.too_many_requests_sent == 0


async def _none_waiting(process: Process) -> bool:
    return not await OutgoingRepo(process.app.db).waiting()
