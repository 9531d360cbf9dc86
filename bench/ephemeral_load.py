"""Hands in the group itself: the bot's Telegram calls per move and press → answer when
some players play from ephemeral hands (Bot API 10.2), against a fake Telegram that
enforces Telegram's limits.

    python -m bench.ephemeral_load [--tables 10] [--seconds 60] [--think 0.5 1.5]

N tables of two people, played twice: once with both playing from their private chats,
once with the second player of each table pressing «🃏 Мои карты» and playing from the
ephemeral hand in the group (everyone started the bot, so their private hand is still
sent: it stays the reliable copy). One process holds the bot (real Dispatcher, polling,
SQLite, outbox with the production ``Limits``) and the fake server with the people; the
server answers 429 above 1 call a second per chat (a burst of 3) and 20 a minute per
group, and paces ephemeral calls per group and receiver like a private chat (Telegram
does not say they count against the group). Figures from a busy machine are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field

from bench.load_world import group_id, ms
from bench.local_bot import polling_bot
from bench.playing import choose, ephemeral_hand, hand_key, hand_message
from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from bot.outbox import Limits
from telegram_emulator import TOKEN, FakeChat, FakeTelegram, FakeUser, RateLimits

TELEGRAM = RateLimits(per_chat=(1, 1.0), per_group=(20, 60.0), total=None, chat_burst=3)
OPEN = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)  # setting up


@dataclass
class Figures:
    moves: int = 0
    calls: Counter[str] = field(default_factory=Counter)
    group_calls: int = 0  # calls to the groups that count against their 20 a minute
    press: dict[str, list[float]] = field(default_factory=lambda: {"private": [], "group": []})
    opens: list[float] = field(default_factory=list)  # «Мои карты» → answer
    refused: int = 0  # 429s


def kind(method: str, params: dict[str, object]) -> str:
    if method == "sendMessage" and params.get("ephemeral_message_parameters"):
        return "sendMessage (ephemeral)"
    return method


async def person(
    tg: FakeTelegram, group: FakeChat, user: FakeUser, from_group: bool, figures: Figures,
    think: tuple[float, float], stop: asyncio.Event,
) -> None:  # fmt: skip
    rng = random.Random(user.id)
    seen = ""
    while not stop.is_set():
        hand = ephemeral_hand(tg, user, group) if from_group else hand_message(tg, user)
        table = tg.latest_message(group)
        mine = [d for d in table.button_data() if d.startswith("e:")] if table else []
        if from_group and hand is None and table and mine:  # «Мои карты» on the table
            started = time.monotonic()
            handle = await tg.press(user, table, mine[0])
            with suppress(AssertionError):
                await handle.wait_answer(30.0)
                figures.opens.append(time.monotonic() - started)
            continue
        data = choose(tg, hand) if hand is not None else None
        if hand is None or data is None or hand_key(hand) == seen:
            await _again(tg, group, user)
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(rng.uniform(*think))
        hand = ephemeral_hand(tg, user, group) if from_group else hand_message(tg, user)
        data = choose(tg, hand) if hand is not None else None  # it may have changed
        if hand is None or data is None or stop.is_set():
            continue
        seen = hand_key(hand)
        started = time.monotonic()
        handle = await tg.press(user, hand, data)
        with suppress(AssertionError):
            answer = await handle.wait_answer(30.0)
            figures.press["group" if from_group else "private"].append(time.monotonic() - started)
            figures.moves += answer.text is None


async def _again(tg: FakeTelegram, group: FakeChat, user: FakeUser) -> None:
    """The table's creator starts the next game when one ends."""
    last = tg.latest_message(group)
    if user.id % 2 == 1 or last is None:
        return
    for data in last.button_data():
        if data.startswith("l:") and LobbyCb.unpack(data).op == "again":
            with suppress(AssertionError):
                await (await tg.press(user, last, data)).wait_answer(30.0)


async def run(tables: int, seconds: float, think: tuple[float, float], half: bool) -> Figures:
    figures = Figures()
    async with FakeTelegram(token=TOKEN) as tg, polling_bot(tg.base_url, OPEN) as app:
        seats = await set_up(tg, app, tables)
        app.outbox.limits = Limits()  # production pacing from now on
        tg.enforce_rate_limits(TELEGRAM)
        stop = asyncio.Event()
        first = len(tg.calls)
        people = [
            person(tg, group, user, half and j == 1, figures, think, stop)
            for group, users in seats for j, user in enumerate(users)
        ]  # fmt: skip
        running = asyncio.gather(*people)
        await asyncio.sleep(seconds)
        stop.set()
        await running
        for call in tg.calls[first:]:
            if call.method != "getUpdates":
                figures.calls[kind(call.method, call.params)] += 1
                eph = bool(call.params.get("ephemeral_message_parameters"))
                counted = call.method in ("sendMessage", "editMessageText")
                figures.group_calls += bool(
                    isinstance(call.chat_id, int) and call.chat_id < 0 and counted and not eph
                )
        figures.refused = tg.rate_limited
    return figures


async def set_up(tg: FakeTelegram, app: App, tables: int) -> list[tuple[FakeChat, list[FakeUser]]]:
    seats = []
    for i in range(tables):
        users = [tg.add_user(10_000 + 2 * i + j, f"Игрок {i}-{j}", started=True) for j in (0, 1)]
        group = tg.add_group(group_id(i), f"Стол {i}", members=users)
        for user in users:  # they started the bot: the private hand is sent too
            tg.start_private(user)
        await tg.wait_quiet()
        await tg.send_text(users[0], group, "/durak")
        lobby = await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""))
        for user in users:
            join = LobbyCb(table=i + 1, op=LobbyOp.JOIN).pack()
            await (await tg.press(user, lobby, join))
        seats.append((group, users))
    await app.service.idle()
    await app.presenter.idle()
    await app.outbox.drain()
    return seats


def report(name: str, f: Figures, tables: int, seconds: float) -> None:
    per = max(f.moves, 1)
    print(f"\n{name}: {f.moves} moves, {f.refused} answers 429")
    for method, n in sorted(f.calls.items()):
        print(f"  {method:<32} {n / per:6.2f} a move")
    print(f"  {'all calls':<32} {sum(f.calls.values()) / per:6.2f} a move")
    budget = f.group_calls / tables / (seconds / 60)
    print(f"  group's own calls: {budget:.1f} a minute per group (Telegram's limit: 20)")
    for where, values in f.press.items():
        if values:
            print(f"  press -> answer, {where + ' hand':<13} {ms(values, (0.5, 0.9, 0.99))}")
    if f.opens:
        print(f"  «Мои карты» -> answer      {ms(f.opens, (0.5, 0.9, 0.99))}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 1.5))
    args = parser.parse_args(argv)
    think = (args.think[0], args.think[1])
    print(f"{args.tables} tables x 2 players, {args.seconds:g} s, think {think[0]}-{think[1]} s")
    print("(p50 p90 p99; one process for the bot and the fake server, so noisy)")
    for name, half in (("everyone from the private chat", False), ("half from the group", True)):
        figures = asyncio.run(run(args.tables, args.seconds, think, half))
        report(name, figures, args.tables, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
