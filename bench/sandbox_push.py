"""How late the sandbox page shows the other player a move: two pages (Аня and Борис)
on the sandbox's WebSocket, the real bot at Telegram's pace, moves at a human pace.

    python -m bench.sandbox_push [--moves 8] [--pace 2.0] [--group-only]

For each move: from the press on one page to the bot's Bot API call that redraws the
other player's hand (the bot's part), and to the other page receiving its new view (the
bot's part and the sandbox's push). Prints the medians and their difference, which is
what the page's server adds. ``--group-only``: Борис never starts the bot and plays
from the group (his hand is an ephemeral message there).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, ClientWebSocketResponse

from bot.config import Config
from sandbox import sandbox
from sandbox.world import GROUP_ID

ANYA, BORIS = 1, 2
REDRAWS = ("editMessageText", "sendMessage", "editMessageReplyMarkup")  # a private hand
EPHEMERAL = ("editEphemeralMessageText", "editEphemeralMessageReplyMarkup")  # one in the group
State = dict[str, Any]


class Player:
    """One page acting as one person: their latest view and their hand in it."""

    def __init__(self, ws: ClientWebSocketResponse, uid: int, private: bool) -> None:
        self.ws, self.uid, self.private = ws, uid, private
        self.view: State | None = None

    @property
    def chat(self) -> int:
        return self.uid if self.private else GROUP_ID

    def hand(self, view: State | None = None) -> State | None:
        view = view or self.view
        if view is None:
            return None
        chat = next(c for c in view["chats"] if c["id"] == self.chat)
        held = [m for m in chat["messages"] if m["keyboard"] and (self.private or m["ephemeral"])]
        return held[-1] if held else None

    async def next_view(self, timeout: float = 20.0) -> State:
        async with asyncio.timeout(timeout):
            while True:
                data = json.loads(await self.ws.receive_str())
                if data["type"] == "state":
                    view: State = data
                    self.view = view
                    return view

    async def until(self, check: Any, timeout: float = 20.0) -> State:
        while self.view is None or not check(self.view):
            await self.next_view(timeout)
        return self.view

    async def drain(self) -> None:
        """Takes every view pushed so far."""
        while True:
            try:
                await self.next_view(0.2)
            except TimeoutError:
                return

    def move(self) -> tuple[int, str, str] | None:
        """A playable card (green), else «Беру» or «Бито»: (message, data, label)."""
        held = self.hand()
        if held is None:
            return None
        buttons = [b for row in held["keyboard"] for b in row if "callback_data" in b]
        chosen = next((b for b in buttons if b.get("style") == "success"), None)
        chosen = chosen or next((b for b in buttons if b["text"] in ("Беру", "Бито")), None)
        return None if chosen is None else (held["id"], chosen["callback_data"], chosen["text"])


def _lobby_button(view: State, label: str) -> tuple[int, str] | None:
    group = next(c for c in view["chats"] if c["id"] == GROUP_ID)
    for message in reversed(group["messages"]):
        for row in message["keyboard"]:
            for button in row:
                if button["text"] == label:
                    return message["id"], button["callback_data"]
    return None


async def measure(
    moves: int, pace: float, group_only: bool, scratch: str
) -> list[tuple[float, float]]:
    """(the Bot API call, the page's push) in seconds after each press."""
    config = Config(token="", db_path=str(Path(scratch) / "bench.sqlite3"))  # Telegram's pace
    async with sandbox(config, 0) as box, ClientSession() as http:
        running = asyncio.create_task(box.app.run())
        tg = box.tg
        await tg.wait_for(lambda: tg.count("getUpdates"), 30.0, what="polling")
        tg.start_private(tg.users[ANYA])
        if not group_only:
            tg.start_private(tg.users[BORIS])
        anya = Player(await http.ws_connect(f"{box.url}ws?as={ANYA}"), ANYA, True)
        boris = Player(await http.ws_connect(f"{box.url}ws?as={BORIS}"), BORIS, not group_only)
        await anya.ws.send_json({"op": "send", "chat": GROUP_ID, "text": "/durak"})
        for player in (anya, boris):
            view = await player.until(lambda v: _lobby_button(v, "Сесть за стол") is not None)
            message, data = _lobby_button(view, "Сесть за стол") or (0, "")
            await player.ws.send_json(
                {"op": "press", "chat": GROUP_ID, "message": message, "data": data}
            )
            await tg.wait_quiet()
        for player in (anya, boris):
            await player.until(lambda v, p=player: p.hand(v) is not None)
        figures: list[tuple[float, float]] = []
        while len(figures) < moves:
            await asyncio.sleep(pace)
            await tg.wait_quiet()
            for player in (anya, boris):
                await player.drain()
            mover = next((p for p in (anya, boris) if p.move() is not None), None)
            if mover is None:
                break  # the game is over
            other = boris if mover is anya else anya
            message, data, _ = mover.move() or (0, "", "")
            before, calls = other.hand(), len(tg.calls)
            started = time.monotonic()
            await mover.ws.send_json(
                {"op": "press", "chat": mover.chat, "message": message, "data": data}
            )
            try:
                await other.until(lambda v, o=other, b=before: o.hand(v) != b, 10.0)
            except TimeoutError:  # a move that leaves the other hand as it was
                continue
            shown = time.monotonic()
            kinds = REDRAWS if other.private else EPHEMERAL
            redraws = [
                c.time
                for c in tg.calls[calls:]
                if c.method in kinds and c.chat_id == other.chat and c.time >= started
            ]
            figures.append((min(redraws, default=shown) - started, shown - started))
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sandbox_push")
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between two moves")
    parser.add_argument("--group-only", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="durak-bench-") as scratch:
        figures = asyncio.run(measure(args.moves, args.pace, args.group_only, scratch))
    if not figures:
        print("no move was made", file=sys.stderr)
        return 1
    api = statistics.median(f[0] for f in figures) * 1000
    page = statistics.median(f[1] for f in figures) * 1000
    where = "in the group" if args.group_only else "in private"
    print(f"moves: {len(figures)}, pace {args.pace} s, Борис {where}")
    print(f"the bot's Bot API call redrawing the other hand: median {api:.1f} ms after the press")
    print(f"the other page's new view: median {page:.1f} ms after the press")
    print(f"the sandbox's push adds: {page - api:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
