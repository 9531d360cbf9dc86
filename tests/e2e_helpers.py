"""Simulated people playing through the real bot and a fake Telegram server."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bench.playing import PRIORITY, choose, hand_buttons, hand_key, hand_message
from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from bot.config import Config
from bot.outbox import Limits
from bot.polling import Polling
from service import Clock, LiveGame
from tests.fakes import TOKEN, ChatRef, FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.service_helpers import held

__all__ = [  # with what the tests take from here: bench.playing's and the emulator's token
    "GAME_OVER",
    "PRIORITY",
    "TOKEN",
    "choose",
    "game_over",
    "hand_buttons",
    "hand_key",
    "hand_message",
    "hand_of",
    "latest",
    "message_in",
    "open_table",
    "play_round",
    "play_to_the_end",
    "polling",
    "running_bot",
    "seat_everyone",
    "served_bot",
    "settle",
    "three_friends",
    "three_seated",
    "two_friends",
    "user_at",
]


@asynccontextmanager
async def running_bot(
    tg: FakeTelegram, db: Path | str, clock: Clock | None = None
) -> AsyncIterator[App]:
    limits = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)  # see test_outbox
    config = Config(
        token=TOKEN, db_path=str(db), api_base=tg.base_url, limits=limits, bot_pause=(0.0, 0.0)
    )
    app = await App.create(config, clock)
    await app.start()
    try:
        async with polling(app, tg):
            yield app
            await settle(app)
    finally:
        await app.stop()


@asynccontextmanager
async def polling(app: App, tg: FakeTelegram) -> AsyncIterator[None]:
    """The bot's long polling (``bot.polling``) until the block ends, as ``App.run``
    polls; from its first request on."""
    before = tg.count("getUpdates")
    task = asyncio.create_task(Polling(app.dp, app.bot).run(), name="polling")

    def asking() -> bool:
        if task.done():
            task.result()  # (a failed start raises here)
            raise AssertionError("polling ended before its first request")
        return tg.count("getUpdates") > before

    try:
        await tg.wait_for(asking, what="the first getUpdates")
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@asynccontextmanager
async def served_bot(
    tg: FakeTelegram, config: Config, clock: Clock | None = None
) -> AsyncIterator[tuple[App, str]]:
    """The bot of ``config`` polling the emulator, its web server on a port of its own
    (``metrics_port`` 0: any free one): the app, and the server's base URL."""
    app = await App.create(config, clock)
    await app.start()
    try:
        assert app.site is not None and app.site.port is not None
        async with polling(app, tg):
            yield app, f"http://127.0.0.1:{app.site.port}"
    finally:
        await app.stop()


async def settle(app: App) -> None:
    """Wait until the computer players have made their moves and every committed step
    has been rendered and sent."""
    await app.service.idle()
    await app.delivery.drawn()
    await app.presenter.idle()
    await app.outbox.drain()


async def play_round(
    tg: FakeTelegram, app: App, users: list[FakeUser], priority: tuple[str, ...] = PRIORITY
) -> bool:
    """Each user presses one sensible button if they have one; False if nobody did."""
    pressed = False
    for user in users:
        message = hand_message(tg, user)
        data = choose(tg, message, priority) if message else None
        if message is None or data is None:
            continue
        answer = await (await tg.press(user, message, data))
        assert answer is not None
        pressed = True
        await settle(app)
    return pressed


def latest(tg: FakeTelegram, chat: ChatRef, *, from_bot: bool | None = True) -> FakeMessage:
    """The newest message in ``chat`` (by default the bot's), which the test knows is there."""
    message = tg.latest_message(chat, from_bot=from_bot)
    assert message is not None, f"no message in {chat}"
    return message


def message_in(tg: FakeTelegram, chat: ChatRef, message_id: int) -> FakeMessage:
    """Message ``message_id`` of ``chat`` as it is now, which the test knows is there."""
    message = tg.chat(chat).message(message_id)
    assert message is not None, f"no message {message_id} in {chat}"
    return message


def hand_of(tg: FakeTelegram, user: FakeUser) -> FakeMessage:
    """The message with ``user``'s hand, which the test knows is shown."""
    message = hand_message(tg, user)
    assert message is not None, f"no hand shown to {user.first_name}"
    return message


def user_at(live: LiveGame, seat: int, users: list[FakeUser]) -> FakeUser:
    """Which of ``users`` sits in ``seat`` of the game."""
    return next(u for u in users if u.id == live.seats[seat].user_id)


async def open_table(tg: FakeTelegram, app: App, group: FakeChat, creator: FakeUser) -> FakeMessage:
    await tg.send_text(creator, group, "/durak")
    return await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))


GAME_OVER = ("Партия окончена", "Ничья")


def game_over(tg: FakeTelegram, group: FakeChat) -> bool:
    return any(any(w in (m.text or "") for w in GAME_OVER) for m in tg.messages(group))


async def play_to_the_end(
    tg: FakeTelegram,
    app: App,
    group: FakeChat,
    users: list[FakeUser],
    priority: tuple[str, ...] = PRIORITY,
    rounds: int = 400,
) -> None:
    for _ in range(rounds):
        if game_over(tg, group) or not await play_round(tg, app, users, priority):
            break
    assert game_over(tg, group)


def two_friends(tg: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeChat]:
    """Аня and Борис, who both started the bot, in the group «Друзья»."""
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    group = tg.add_group(-100, "Друзья", members=[anna, boris])
    for user in (anna, boris):
        tg.start_private(user)
    return anna, boris, group


def three_friends(tg: FakeTelegram) -> tuple[list[FakeUser], FakeChat]:
    """Аня, Борис and Вика, who all started the bot, in the group «Друзья»."""
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис"), tg.add_user(3, "Вика")]
    group = tg.add_group(-100, "Друзья", members=users)
    for user in users:
        tg.start_private(user)
    return users, group


async def three_seated(
    tg: FakeTelegram, app: App, group: FakeChat, users: list[FakeUser], seed: int
) -> LiveGame:
    """The three at a table of three seats, dealt with ``seed``: the running game."""
    app.service.new_seed = lambda: seed
    await open_table(tg, app, group, users[0])
    seats = LobbyCb(table=1, op=LobbyOp.SET, arg="seats").pack()
    assert (await (await tg.press(users[0], latest(tg, group), seats))).text
    await settle(app)
    await seat_everyone(tg, app, group, users)
    live = held(app.service, 1)
    assert live is not None
    return live


async def seat_everyone(
    tg: FakeTelegram, app: App, group: FakeChat, users: list[FakeUser], table: int = 1
) -> None:
    for user in users:
        join = LobbyCb(table=table, op=LobbyOp.JOIN).pack()
        lobby = latest(tg, group)
        assert lobby is not None
        answer = await (await tg.press(user, lobby, join))
        assert answer.text == "Вы за столом!"
    await settle(app)
