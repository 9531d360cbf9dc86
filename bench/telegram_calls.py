"""The bot's CPU per Telegram call: aiogram's form session and models against
``bot.session``'s JSON bodies, with aiogram's models and with the bot's own keyboard
and answer (``bot.outgoing``), posted by aiohttp's client and by the bot's own
(``bot.http``), in one run.

    python -m bench.telegram_calls [--calls 2000] [--rounds 5]

The fake Bot API server runs in a child process, so only the caller's CPU is counted
(``time.process_time``). Each call edits a private hand message: a status text and a
36-card hand's keyboard (as ``bot.render_hand`` draws it mid-game), alternating with
a second keyboard so that no edit is "not modified"; each call builds its keyboard,
as a render does. Prints the CPU per call, the median of the rounds, for each way and
its ratio to the last.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.methods import EditMessageText, TelegramMethod
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiohttp import ClientError, ClientSession, ClientTimeout
from yarl import URL

from bot.http import Answer, HttpError
from bot.keyboard import Button, Keyboard
from bot.outgoing import EditText
from bot.render_hand import hand
from bot.session import JsonSession
from engine import Rules, State
from telegram_emulator import TOKEN, FakeTelegram

USER = 1000


def _serve(conn: Connection) -> None:
    async def serve() -> None:
        async with FakeTelegram(token=TOKEN) as tg:
            tg.add_user(USER, "Аня", started=True)
            conn.send(tg.base_url)
            await asyncio.get_running_loop().run_in_executor(None, conn.recv)

    asyncio.run(serve())


def _hands() -> list[tuple[str, Keyboard | None]]:
    """Two different renderings of a hand in the middle of a game."""
    state = State(Rules(players=2), 7)
    out: list[tuple[str, Keyboard | None]] = []
    for _ in range(2):
        drawn = hand("ru", state.view(0), 1, names=("Аня", "Борис"), seconds=25)
        out.append((drawn.text, drawn.markup))
        seat = next(s for s in range(state.n) if state.legal_actions(s))
        state.apply(state.legal_actions(seat)[0])
    return out


Edit = Callable[[str, Keyboard | None, int], TelegramMethod[Any]]


class AiohttpPoster:
    """The JSON bodies posted by aiohttp's client, as the bot did before ``bot.http``
    (its headers made once, a timeout per limit)."""

    def __init__(self) -> None:
        self._session: ClientSession | None = None
        self._headers = {"Content-Type": "application/json"}

    async def post(self, url: URL, body: bytes, timeout: float) -> Answer:
        if self._session is None:
            self._session = ClientSession()
        headers, limit = self._headers, _timeout(timeout)
        try:
            async with self._session.post(url, data=body, headers=headers, timeout=limit) as r:
                return Answer(r.status, await r.read())
        except ClientError as e:
            raise HttpError(str(e)) from e

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()


@functools.cache
def _timeout(seconds: float) -> ClientTimeout:
    return ClientTimeout(total=seconds)


def with_models(text: str, markup: Keyboard | None, message_id: int) -> TelegramMethod[Any]:
    """As the bot drew and sent a hand before ``bot.keyboard``: aiogram's models."""
    rows = [
        [InlineKeyboardButton(text=b.text, callback_data=b.data, style=b.style) for b in row]
        for row in (markup.rows if markup else ())
    ]
    keyboard = InlineKeyboardMarkup(inline_keyboard=rows) if rows else None
    return EditMessageText(text=text, chat_id=USER, message_id=message_id, reply_markup=keyboard)


def with_own(text: str, markup: Keyboard | None, message_id: int) -> TelegramMethod[Any]:
    """As the bot draws and sends a hand now (``bot.outgoing``)."""
    keyboard = None if markup is None else Keyboard([Button(*b) for b in r] for r in markup.rows)
    return EditText(text=text, chat_id=USER, message_id=message_id, reply_markup=keyboard)


async def _round(bot: Bot, edit: Edit, message_id: int, calls: int) -> float:
    hands = _hands()
    start = time.process_time()
    for i in range(calls):
        text, markup = hands[i % 2]
        await bot(edit(text, markup, message_id))
    return (time.process_time() - start) / calls


async def _measure(base: str, calls: int, rounds: int) -> dict[str, list[float]]:
    api = TelegramAPIServer.from_base(base)
    defaults = DefaultBotProperties(parse_mode="HTML")
    form = Bot(TOKEN, session=AiohttpSession(api=api), default=defaults)
    json_ = Bot(TOKEN, session=JsonSession(api=api), default=defaults)
    by_aiohttp = Bot(TOKEN, session=JsonSession(api=api, http=AiohttpPoster()), default=defaults)
    ways: dict[str, tuple[Bot, Edit]] = {
        "form, aiogram models": (form, with_models),
        "json, aiogram models": (json_, with_models),
        "json, own keyboard, aiohttp": (by_aiohttp, with_own),
        "json, own keyboard": (json_, with_own),
    }
    figures: dict[str, list[float]] = {name: [] for name in ways}
    for bot, edit in ways.values():
        sent = await bot.send_message(USER, "…")
        await _round(bot, edit, sent.message_id, calls // 10)  # warm up: connection, caches
    for _ in range(rounds):  # interleaved, so a busy moment hurts all alike
        for name, (bot, edit) in ways.items():
            sent = await bot.send_message(USER, "…")
            figures[name].append(await _round(bot, edit, sent.message_id, calls))
    for bot in (form, json_, by_aiohttp):
        await bot.session.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="edits per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    ours, theirs = multiprocessing.get_context("fork").Pipe()
    child = multiprocessing.get_context("fork").Process(target=_serve, args=(theirs,), daemon=True)
    child.start()
    try:
        base = ours.recv()
        figures = asyncio.run(_measure(base, args.calls, args.rounds))
    finally:
        ours.send("stop")
        child.join(10)
    print(f"Python {sys.version.split()[0]}; {args.rounds} rounds of {args.calls} hand edits")
    medians = {name: statistics.median(values) for name, values in figures.items()}
    last = list(medians.values())[-1]
    for name, value in medians.items():
        print(f"  {name:28s} {value * 1e6:7.0f} µs of CPU per call, {value / last:5.2f}x the last")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
