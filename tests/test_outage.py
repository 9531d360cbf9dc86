"""An outage of the database does not cost a player the turn: the bot reaches PostgreSQL
through a cable the test cuts for longer than a move's time; the deadline that fell in
the outage is moved on by its length, the table and the mover's hand say so, and the
player moves."""

from __future__ import annotations

import asyncio
import time

from bot.callbacks import LobbyCb, LobbyOp
from service.outage import LEAST, moved_deadline
from storage.outage import Outage, Reach
from tests.backends import PgDatabases
from tests.cable import through_a_cable
from tests.e2e_helpers import (
    choose,
    hand_message,
    open_table,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeChat, FakeTelegram
from tests.service_helpers import held

MOVE = 15  # seconds a move has at a fast table
DOWN = MOVE + 5  # seconds the database is away: longer than a move's time
ADDED = "Ход продлён на"  # the table message's line


def test_an_outage_is_what_the_calls_saw() -> None:
    now = [100.0]
    reach = Reach(lambda: now[0])
    assert reach.outage() is None
    reach.reached()
    reach.failed()
    now[0] = 104.0
    reach.failed()  # (the outage began at the first failure)
    assert reach.outage() == Outage(100.0)
    now[0] = 130.0
    reach.reached()
    assert reach.outage() == Outage(100.0, 130.0)
    assert moved_deadline(115.0, reach.outage(), 131.0) == 145.0  # 15 s left, as at 100
    assert moved_deadline(129.0, reach.outage(), 131.0) == 159.0
    assert moved_deadline(100.5, reach.outage(), 140.0) == 140.0 + LEAST


def table_text(tg: FakeTelegram, group: FakeChat) -> str:
    return next((m.text or "" for m in tg.messages(group) if "Козырь" in (m.text or "")), "")


async def test_a_deadline_in_an_outage_of_the_database_is_moved_on_and_said(
    tg: FakeTelegram, pg_databases: PgDatabases
) -> None:
    anna, boris, group = two_friends(tg)
    async with (
        through_a_cable(await pg_databases.target("outage")) as (cable, url),
        running_bot(tg, url) as app,
    ):
        lobby = await open_table(tg, app, group, anna)
        speed = await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp.SET, arg="speed").pack())
        assert (await speed).text == "Теперь: ⏱ Быстрая игра: 15 с на ход, 5 с на подкидывание."
        await seat_everyone(tg, app, group, [anna, boris])
        (game,) = app.service.game_ids()
        deadline = app.service.deadline(game)
        assert deadline is not None and deadline - time.time() <= MOVE
        cut = time.time()
        cable.cut()
        await asyncio.sleep(DOWN)  # the deadline comes and goes meanwhile
        cable.mend()
        await tg.wait_for(lambda: ADDED in table_text(tg, group), 30, what="the time added")
        assert held(app.service, game).state.history == []  # nobody's turn was lost
        later = app.service.deadline(game)
        assert later is not None and later >= deadline + DOWN - 3  # the outage's length on
        assert later - time.time() >= LEAST - 2
        assert "бот был недоступен." in table_text(tg, group)
        user, hand, data = next(
            (u, h, d) for u in (anna, boris) if (h := hand_message(tg, u)) and (d := choose(tg, h))
        )
        waited = lambda: "Ход продлён на" in ((hand_message(tg, user) or hand).text or "")  # noqa: E731
        await tg.wait_for(waited, what="the mover's hand saying so")
        assert (await (await tg.press(user, hand, data))).text is None  # the move is made
        await settle(app)
        assert len(held(app.service, game).state.history) >= 1
        await tg.wait_for(lambda: ADDED not in table_text(tg, group), what="the next move's table")
    assert time.time() - cut >= DOWN
