"""End to end: two ``python -m bot`` webhook processes on one PostgreSQL database share 8
shards of the chats; the one holding the group's shard (which shows its game) is
SIGKILLed mid-game, and the other takes its shards within a few seconds and shows the
game's next move (it makes every move: the updates all go to it)."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import aiohttp

from bot.callbacks import LobbyCb, LobbyOp
from storage.shards import shard_of
from tests.backends import PgDatabases
from tests.e2e_helpers import TOKEN, choose, hand_message, latest, two_friends
from tests.fakes import FakeTelegram
from tests.test_main import STARTUP, stop
from tests.test_multi_processes import webhook_bot
from tests.test_webhook import free_port

SHARDS = 8
SETTINGS = {"DURAK_SHARDS": str(SHARDS), "DURAK_BOT_PAUSE": "0", "DURAK_BOT_WORKERS": "1"}
TAKEOVER = 5.0  # seconds (about 1 s is expected: the server ends the dead one's session)
WAIT = 60.0
TOOK = re.compile(r"took shards \[([\d, ]*)\]")
LET_GO = re.compile(r"letting shards \[([\d, ]*)\] go")


def held(log: Path) -> set[int]:
    """The shards a process holds, as its log tells."""
    shards: set[int] = set()
    for line in log.read_text().splitlines():
        for pattern, change in ((TOOK, shards.update), (LET_GO, shards.difference_update)):
            if found := pattern.search(line):
                change(int(s) for s in found.group(1).split(", ") if s)
    return shards


async def showing(port: int) -> float | None:
    """The process's ``durak_showing`` (None: it does not answer)."""
    try:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/metrics") as response,
        ):
            text = await response.text()
    except aiohttp.ClientError:
        return None
    found = re.search(r"^durak_showing ([\d.]+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else None


async def test_a_killed_process_shards_are_taken_over_and_its_game_shown_again(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    url = await pg_databases.target("shards_kill")
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        ports = [free_port(), free_port()]
        bots = [
            await webhook_bot(tmp_path, tg.base_url, url, port, f"bot{i}", SETTINGS)
            for i, port in enumerate(ports)
        ]
        logs = [log for _, log in bots]
        try:

            async def split() -> bool:
                for process, log in bots:
                    assert process.returncode is None, log.read_text()
                return [await showing(p) for p in ports] == [SHARDS / 2] * 2

            await tg.wait_for(split, STARTUP, what="4 shards each")
            (victim,) = [i for i in (0, 1) if shard_of(group.id, SHARDS) in held(logs[i])]
            survivor = 1 - victim
            address = f"http://127.0.0.1:{ports[survivor]}/tg"

            async def deliver() -> None:  # every update to the survivor
                while True:
                    if tg.pending_updates:
                        await tg.deliver_to_webhook(address, limit=1)
                    await asyncio.sleep(0.01)

            delivering = asyncio.create_task(deliver())
            try:
                await tg.send_text(anna, group, "/durak")
                lobby = await tg.wait_for_message(
                    group, lambda m: "Стол для игры" in (m.text or ""), WAIT
                )
                for user in (anna, boris):
                    join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
                    assert (await (await tg.press(user, lobby, join))).text == "Вы за столом!"
                await tg.wait_for(lambda: hand_message(tg, anna) and hand_message(tg, boris), WAIT)
                await tg.wait_quiet(0.5, WAIT)

                killed = time.monotonic()
                bots[victim][0].kill()  # it showed the game
                await bots[victim][0].wait()

                async def taken() -> bool:
                    return await showing(ports[survivor]) == SHARDS

                await tg.wait_for(taken, TAKEOVER, what="every shard taken by the survivor")
                took = time.monotonic() - killed
                assert held(logs[survivor]) == set(range(SHARDS))
                shown_at = time.monotonic()
                before = tg.count("editMessageText", group)
                user, hand = next(
                    (u, h)
                    for u in (anna, boris)
                    if (h := hand_message(tg, u)) is not None and choose(tg, h)
                )
                data = choose(tg, hand)
                assert data is not None
                await (await tg.press(user, hand, data))  # made by the survivor...
                await tg.wait_for(  # ...and shown by it: the table edited after the move
                    lambda: tg.count("editMessageText", group) > before, WAIT, what="the move"
                )
                assert "Козырь" in (latest(tg, group).text or "")
                shown = time.monotonic() - shown_at
            finally:
                delivering.cancel()
            print(f"shards taken over {took:.2f} s after the kill; a move shown {shown:.2f} s")
        finally:
            for process, _ in bots:
                await stop(process)
    assert tg.too_many_requests_sent == 0
