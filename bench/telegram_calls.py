"""The bot's CPU per Telegram call: aiogram's form session against ``bot.session``'s
JSON bodies, in one run.

    python -m bench.telegram_calls [--calls 2000] [--rounds 5]

The fake Bot API server runs in a child process, so only the caller's CPU is counted
(``time.process_time``). Each call edits a private hand message: a status text and a
36-card hand's keyboard (as ``bot.render_hand`` draws it mid-game), alternating with
a second keyboard so that no edit is "not modified". Prints the CPU per call, the
median of the rounds, for both sessions and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import time
from multiprocessing.connection import Connection

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import InlineKeyboardMarkup

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


def _hands() -> list[tuple[str, InlineKeyboardMarkup | None]]:
    """Two different renderings of a hand in the middle of a game."""
    state = State(Rules(players=2), 7)
    out: list[tuple[str, InlineKeyboardMarkup | None]] = []
    for _ in range(2):
        drawn = hand("ru", state.view(0), 1, names=("Аня", "Борис"), seconds=25)
        out.append((drawn.text, drawn.markup))
        seat = next(s for s in range(state.n) if state.legal_actions(s))
        state.apply(state.legal_actions(seat)[0])
    return out


async def _round(bot: Bot, message_id: int, calls: int) -> float:
    hands = _hands()
    start = time.process_time()
    for i in range(calls):
        text, markup = hands[i % 2]
        await bot.edit_message_text(
            text=text, chat_id=USER, message_id=message_id, reply_markup=markup
        )
    return (time.process_time() - start) / calls


async def _measure(base: str, calls: int, rounds: int) -> dict[str, list[float]]:
    api = TelegramAPIServer.from_base(base)
    defaults = DefaultBotProperties(parse_mode="HTML")
    bots = {
        "form (aiogram)": Bot(TOKEN, session=AiohttpSession(api=api), default=defaults),
        "json (bot.session)": Bot(TOKEN, session=JsonSession(api=api), default=defaults),
    }
    figures: dict[str, list[float]] = {name: [] for name in bots}
    for bot in bots.values():
        sent = await bot.send_message(USER, "…")
        await _round(bot, sent.message_id, calls // 10)  # warm up: the connection, caches
    for _ in range(rounds):  # interleaved, so a busy moment hurts both alike
        for name, bot in bots.items():
            sent = await bot.send_message(USER, "…")
            figures[name].append(await _round(bot, sent.message_id, calls))
    for bot in bots.values():
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
    for name, value in medians.items():
        print(f"  {name:20s} {value * 1e6:7.0f} µs of CPU per call")
    form, json_ = medians.values()
    print(f"  ratio form/json      {form / json_:7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
