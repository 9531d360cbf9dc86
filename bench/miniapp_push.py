"""The Mini App under load: N tables of two people who play from their private
keyboards (the creator starts another game when one ends), with the table open on two
pages each (the bot's WebSocket, as the page's script talks to it).

    python -m bench.miniapp_push [--tables 100] [--seconds 60] [--think 2.0]

Two processes: the bot (real dispatcher and long poll, SQLite file, its web server with
the Mini App) in this one, measured alone; in a child process the fake Bot API server,
the people and the pages. Two phases of the same play, one after the other: first
without pages, then with both pages of every table open. Printed:
- a page's load: from its first request (``GET /app``, then its script and style) to
  the first table on its socket, p50 (a browser's drawing not counted);
- from a press that made a move to each open page of that table showing it, p50/p95;
- bytes pushed per move (every page of the table), and per push;
- the bot's CPU per move in each phase, and the difference per open page.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import aiohttp

from bench.local_bot import polling_bot
from bench.playing import choose, hand_message
from bot.callbacks import LobbyCb, LobbyOp
from bot.miniapp import sign
from bot.outbox import Limits
from telegram_emulator import TOKEN, FakeChat, FakeTelegram, FakeUser

FAST = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6)
PAGES = 2  # open pages per table: both players'


@dataclass
class Figures:
    """What the world measured in a phase."""

    moves: int = 0
    loads: list[float] = field(default_factory=list)  # seconds, first request -> table
    shown: list[float] = field(default_factory=list)  # seconds, press -> a page shows it
    pushed: int = 0  # bytes of every push after the first
    pushes: int = 0


# --- the child: Telegram, the people, the pages ------------------------------------


class Tables:
    """The people at each table, and when each table's last move was pressed."""

    def __init__(self, tg: FakeTelegram, count: int) -> None:
        self.tg = tg
        self.pairs: list[tuple[FakeUser, FakeUser]] = []
        self.groups: list[FakeChat] = []
        for i in range(count):
            a = tg.add_user(1000 + 2 * i, f"Аня {i}")
            b = tg.add_user(1001 + 2 * i, f"Борис {i}")
            group = tg.add_group(-1000 - i, f"Стол {i}", members=[a, b])
            for user in (a, b):
                tg.start_private(user)
            self.pairs.append((a, b))
            self.groups.append(group)
        self.pressed: dict[int, float] = {}  # table index -> monotonic time of its last move

    async def seat(self) -> None:
        for (a, b), group in zip(self.pairs, self.groups, strict=True):
            await self.tg.send_text(a, group, "/durak")
            lobby = await self.tg.wait_for_message(
                group, lambda m: "Стол для игры" in (m.text or ""), timeout=30
            )
            for user in (a, b):
                data = LobbyCb(table=len(self.pressed) + 1, op=LobbyOp.JOIN).pack()
                await (await self.tg.press(user, lobby, data))
            self.pressed[len(self.pressed)] = 0.0
        await self.tg.wait_for(
            lambda: all(hand_message(self.tg, u) for pair in self.pairs for u in pair),
            timeout=120, what="every hand",
        )  # fmt: skip

    async def play(self, until: float, think: float, figures: Figures) -> None:
        await asyncio.gather(
            *(
                self._person(i, u, until, think, figures)
                for i, p in enumerate(self.pairs)
                for u in p
            )
        )

    async def _person(
        self, table: int, user: FakeUser, until: float, think: float, figures: Figures
    ) -> None:
        rng = random.Random(user.id)
        while time.monotonic() < until:
            await asyncio.sleep(think * rng.uniform(0.67, 1.33))
            hand = hand_message(self.tg, user)
            if hand is None and user is self.pairs[table][0]:
                await self._again(table)  # the game ended: its creator starts another
                continue
            data = choose(self.tg, hand) if hand is not None else None
            if hand is None or data is None:
                continue
            before, self.pressed[table] = self.pressed[table], time.monotonic()
            answer = await (await self.tg.press(user, hand, data))  # (shown maybe before)
            if answer is not None and answer.text is None:  # a move made
                figures.moves += 1
            elif self.pressed[table] > before:
                self.pressed[table] = before  # no move: why not, or a choice asked

    async def _again(self, table: int) -> None:
        """«Ещё партию» under the table's result, if it is there."""
        group, creator = self.groups[table], self.pairs[table][0]
        again = LobbyCb(table=table + 1, op=LobbyOp.AGAIN).pack()
        for message in reversed(self.tg.messages(group)):
            if again in message.button_data():
                await (await self.tg.press(creator, message, again))
                return


class Page:
    """One open page: its socket, and what it showed."""

    def __init__(self, table: int, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.table, self.ws = table, ws
        self.shown = (-1, -1)  # (game, version) of the table it shows
        self.seen_press = 0.0  # the press its last move came from

    async def follow(self, tables: Tables, figures: Figures) -> None:
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            data: dict[str, Any] = message.json()
            if data.get("type") != "table" or (data["game"], data["version"]) <= self.shown:
                continue
            first = self.shown[0] < 0
            self.shown = (data["game"], data["version"])
            pressed = tables.pressed[self.table]
            if first or not pressed or pressed == self.seen_press:
                continue  # the first table, or a move nobody pressed (a forced word)
            self.seen_press = pressed
            figures.shown.append(time.monotonic() - pressed)
            figures.pushed += len(message.data.encode())
            figures.pushes += 1


async def open_page(
    http: aiohttp.ClientSession, base: str, user: FakeUser, token: str, table: int
) -> tuple[Page, float]:
    """A page as Telegram opens it: the page, its script and style, then its launch."""
    began = time.monotonic()
    async with http.get(f"{base}/app") as page:
        await page.read()
    for name in ("app.js", "app.css"):
        async with http.get(f"{base}/app/static/{name}") as static:
            await static.read()
    ws = await http.ws_connect(f"{base}/app/ws")
    launch = sign(TOKEN, user_id=user.id, first_name=user.first_name,
                  auth_date=int(time.time()), start_param=token)  # fmt: skip
    await ws.send_json({"type": "hello", "init_data": launch, "start": token})
    opened = Page(table, ws)
    async for message in ws:
        data = message.json() if message.type is aiohttp.WSMsgType.TEXT else {}
        if data.get("type") == "table":
            opened.shown = (data["game"], data["version"])
            break
    return opened, time.monotonic() - began


async def world(conn: Connection, tables: int, seconds: float, think: float) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        conn.send(tg.base_url)
        people = Tables(tg, tables)
        base = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        await people.seat()
        conn.send("seated")
        tokens: list[str] = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        alone = Figures()
        await _phase(conn, people, seconds, think, alone)
        with_pages = Figures()
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            pages: list[Page] = []
            for i, pair in enumerate(people.pairs):
                for user in pair:
                    page, took = await open_page(http, base, user, tokens[i], i)
                    pages.append(page)
                    with_pages.loads.append(took)
            following = [asyncio.create_task(p.follow(people, with_pages)) for p in pages]
            await _phase(conn, people, seconds, think, with_pages)
            await asyncio.sleep(1.0)  # the last pushes
            for page in pages:
                await page.ws.close()
            await asyncio.gather(*following, return_exceptions=True)
        conn.send((alone, with_pages))


async def _phase(
    conn: Connection, people: Tables, seconds: float, think: float, figures: Figures
) -> None:
    conn.send("begin")
    await asyncio.get_running_loop().run_in_executor(None, conn.recv)  # the bot is counting
    await people.play(time.monotonic() + seconds, think, figures)
    conn.send("end")


def _world(conn: Connection, tables: int, seconds: float, think: float) -> None:
    asyncio.run(world(conn, tables, seconds, think))


# --- this process: the bot -----------------------------------------------------------


async def run(tables: int, seconds: float, think: float) -> tuple[Figures, Figures, list[float]]:
    here, there = multiprocessing.get_context("spawn").Pipe()
    child = multiprocessing.get_context("spawn").Process(
        target=_world, args=(there, tables, seconds, think), daemon=True
    )
    child.start()
    loop = asyncio.get_running_loop()
    api = await loop.run_in_executor(None, here.recv)
    cpu: list[float] = []
    page = "https://durak.example.org/app"
    async with polling_bot(api, FAST, metrics_port=0, miniapp_url=page) as app:
        assert app.site is not None and app.site.port is not None
        here.send(f"http://127.0.0.1:{app.site.port}")
        await loop.run_in_executor(None, here.recv)  # seated
        here.send([(await app.tables.get(i + 1)).join_token for i in range(tables)])
        for _ in range(2):  # the phases
            await loop.run_in_executor(None, here.recv)  # begin
            began = time.process_time()
            here.send("go")
            await loop.run_in_executor(None, here.recv)  # end
            cpu.append(time.process_time() - began)
        alone, with_pages = await loop.run_in_executor(None, here.recv)
    child.join(10)
    return alone, with_pages, cpu


def _ms(values: list[float], share: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]:.0f} ms"


def report(tables: int, alone: Figures, with_pages: Figures, cpu: list[float]) -> None:
    pages = tables * PAGES
    print(f"{tables} tables, {pages} pages; Python {sys.version.split()[0]}")
    print(f"  page load (HTTP + socket, to the first table)  p50 {_ms(with_pages.loads, 0.5)}")
    print(
        f"  press -> a page shows the move  p50 {_ms(with_pages.shown, 0.5)}"
        f"  p95 {_ms(with_pages.shown, 0.95)}  ({len(with_pages.shown)} pushes)"
    )
    if with_pages.moves and with_pages.pushes:
        print(
            f"  bytes pushed per move {with_pages.pushed / with_pages.moves:.0f}"
            f" (per push {with_pages.pushed / with_pages.pushes:.0f})"
        )
    phases = zip(cpu, (alone, with_pages), strict=True)
    per_move = [c / f.moves if f.moves else float("nan") for c, f in phases]
    print(
        f"  bot CPU per move: without pages {1000 * per_move[0]:.2f} ms ({alone.moves} moves),"
        f" with {PAGES} a table {1000 * per_move[1]:.2f} ms ({with_pages.moves} moves);"
        f" x{per_move[1] / per_move[0]:.2f}"
    )
    print(f"  per open page and move: {1000 * (per_move[1] - per_move[0]) / PAGES:.2f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.miniapp_push")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0, help="play per phase")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a press")
    args = parser.parse_args(argv)
    alone, with_pages, cpu = asyncio.run(run(args.tables, args.seconds, args.think))
    report(args.tables, alone, with_pages, cpu)


if __name__ == "__main__":
    main()
