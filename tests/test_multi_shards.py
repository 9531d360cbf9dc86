"""Several bot processes (Apps) on one PostgreSQL database sharing the shards of the
chats (``storage.shards``, ``bot.delivery.holder``): they split the shards evenly, each
chat is sent to by the process holding its shard only, a process that joins takes its
share without two processes ever sending to one chat at once, and the shards of one
that stops are taken over and their games shown again (one killed:
``tests.test_multi_shards_kill``)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.app import App
from storage.shards import shard_of
from tests.backends import PgDatabases
from tests.e2e_helpers import TOKEN, choose, open_table, seat_everyone
from tests.fakes import FakeChat, FakeTelegram, FakeUser, hand_message
from tests.processes import (
    Process,
    bot_processes,
    delivering,
    hands_current,
    settled,
    start_process,
)

SHARDS = 8
TAKEOVER = 5.0  # seconds for a process's shards to be taken over (2 s or so is expected)
ROUNDS = 14  # moves of each game while shards move; a 36-card game takes over 24
# (its stock is drawn from only in place of cards played, and the winner plays out last)
BOUND = 240.0  # seconds the three-process test may take at most (about 60 here)


@dataclass(frozen=True)
class Call:
    process: str
    chat: int
    method: str
    began: float
    ended: float


@dataclass
class Calls:
    """Every call to a chat, by every process (a session middleware each)."""

    calls: list[Call] = field(default_factory=list)

    def watch(self, process: Process, name: str) -> None:
        async def record(make_request: Any, bot: Any, method: Any) -> Any:
            chat = getattr(method, "chat_id", None)
            began = time.monotonic()
            try:
                return await make_request(bot, method)
            finally:
                if isinstance(chat, int):
                    ended = time.monotonic()
                    self.calls.append(Call(name, chat, method.__api_method__, began, ended))

        process.app.bot.session.middleware(record)

    def senders(self, chat: int, since: float = 0.0) -> set[str]:
        return {c.process for c in self.calls if c.chat == chat and c.began >= since}

    def overlapping(self) -> list[tuple[Call, Call]]:
        """Calls to one chat by two processes at once."""
        by_chat: dict[int, list[Call]] = {}
        for call in self.calls:
            by_chat.setdefault(call.chat, []).append(call)
        return [
            (a, b)
            for calls in by_chat.values()
            for a, b in itertools.combinations(calls, 2)
            if a.process != b.process and a.began < b.ended and b.began < a.ended
        ]


@dataclass
class Table:
    group: FakeChat
    users: list[FakeUser]
    game: int = 0

    @property
    def chats(self) -> list[int]:
        return [self.group.id, *(u.id for u in self.users)]


def holder(processes: list[Process], chat: int) -> Process:
    (owner,) = [p for p in processes if shard_of(chat, SHARDS) in p.delivery.holder.shards]
    return owner


def split(processes: list[Process]) -> list[int]:
    """The shards each process holds, once every shard is held by one."""
    return sorted(len(p.delivery.holder.shards) for p in processes)


def even(processes: list[Process]) -> bool:
    held = [p.delivery.holder.shards for p in processes]
    whole = sum(map(len, held)) == SHARDS and len(frozenset().union(*held)) == SHARDS
    return whole and max(map(len, held)) - min(map(len, held)) <= 1


def groups(tg: FakeTelegram, processes: list[Process], per: int) -> list[Table]:
    """``per`` groups in each process's shards, each with two people of its own."""
    tables: list[Table] = []
    counts = {id(p): 0 for p in processes}
    for n in itertools.count(1):
        owner = id(holder(processes, -1000 - n))
        if counts[owner] < per:
            counts[owner] += 1
            users = [tg.add_user(100 * n + i, f"Игрок {100 * n + i}") for i in (1, 2)]
            for user in users:
                tg.start_private(user)
            tables.append(Table(tg.add_group(-1000 - n, f"Группа {n}", members=users), users))
        if all(c == per for c in counts.values()):
            return tables
    raise AssertionError("unreachable")


def round_robin(processes: list[Process]) -> Iterator[str]:
    return itertools.cycle([p.address for p in processes])


@contextlib.asynccontextmanager
async def turns(tg: FakeTelegram, processes: list[Process]) -> AsyncIterator[None]:
    """Telegram giving the updates to the processes in turn."""
    addresses = round_robin(processes)
    async with delivering(tg, lambda _: next(addresses)):
        yield


async def start_games(tg: FakeTelegram, processes: list[Process], tables: list[Table]) -> None:
    """A game at each table, one after the other (table and game n at the nth)."""
    apps = [p.app for p in processes]
    for n, table in enumerate(tables, 1):
        await open_table(tg, apps[0], table.group, table.users[0])
        await tg.wait_quiet(0.1)
        await seat_everyone(tg, apps[0], table.group, table.users, table=n)
        table.game = n
        keeper = holder(processes, table.group.id).app

        def started(game: int = n, keeper: App = keeper) -> bool:  # (by its shard's holder)
            return game in keeper.service.game_ids()

        await tg.wait_for(started)
    await settled(*apps)


async def move(tg: FakeTelegram, table: Table) -> bool:
    """One sensible press by whoever has one at the table; False if nobody had."""
    for user in table.users:
        message = hand_message(tg, user)
        data = choose(tg, message) if message else None
        if message is not None and data is not None:
            await (await tg.press(user, message, data))
            return True
    return False


async def shown_by(tg: FakeTelegram, processes: list[Process], table: Table) -> Process:
    """The holder of the table's shard draws its hands as they are now."""
    owner = holder(processes, table.group.id)
    await tg.wait_for(
        lambda: hands_current(tg, owner.app, table.game, table.users),
        timeout=10,
        what=f"game {table.game}'s hands as its shard's holder draws them",
    )
    return owner


async def test_two_processes_split_the_shards_and_each_chat_is_sent_to_by_one(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("shards_two")
    calls = Calls()
    async with (
        FakeTelegram(token=TOKEN) as tg,
        bot_processes(tg, url, 2, holder_first=False, shards=SHARDS) as processes,
    ):
        for name, process in zip("ab", processes, strict=True):
            calls.watch(process, name)
        await tg.wait_for(lambda: even(processes), timeout=TAKEOVER, what="an even split")
        assert split(processes) == [4, 4]
        assert all(p.delivery.holder.members == 2 for p in processes)
        tables = groups(tg, processes, 2)
        async with turns(tg, processes):  # each process makes moves, of every game
            await tg.wait_for(lambda: tg.count("sendMessage") == 2 * len(tables))
            since = time.monotonic()  # (the replies to /start: sent by their chat's holder)
            await start_games(tg, processes, tables)
            for _ in range(4):
                for table in tables:
                    await move(tg, table)
                await settled(*(p.app for p in processes))
            for table in tables:
                owner = await shown_by(tg, processes, table)
                name = "ab"[processes.index(owner)]
                assert calls.senders(table.group.id) == {name}
                for chat in table.chats:  # the group and the players' hands
                    assert calls.senders(chat, since) == {name}, [
                        (c.process, c.method) for c in calls.calls if c.chat == chat
                    ]
        relayed = [p.delivery.relayed for p in processes]
        assert all(relayed), relayed  # each sent its groups' lobbies

        def kept() -> bool:  # each keeps its shards' games only (others' let go)
            return all(
                set(p.app.service.game_ids())
                == {t.game for t in tables if holder(processes, t.group.id) is p}
                for p in processes
            )

        await tg.wait_for(kept, timeout=5, what="each process keeping its games")
    assert not calls.overlapping()
    assert tg.too_many_requests_sent == 0


async def test_shards_move_to_a_joining_process_and_from_a_stopped_or_cut_off_one(
    pg_databases: PgDatabases,
) -> None:
    url = await pg_databases.target("shards_three")
    async with asyncio.timeout(BOUND):  # a hang fails with where it waited
        calls = Calls()
        names: dict[int, str] = {}
        async with (
            FakeTelegram(token=TOKEN) as tg,
            bot_processes(tg, url, 2, holder_first=False, shards=SHARDS) as processes,
        ):
            for name, process in zip("ab", processes, strict=True):
                calls.watch(process, name)
                names[id(process)] = name
            await tg.wait_for(lambda: even(processes), timeout=TAKEOVER, what="an even split")
            tables = groups(tg, processes, 2)
            async with turns(tg, processes):
                await start_games(tg, processes, tables)

            async def playing() -> None:  # moves in every game while the shards move, not
                for _ in range(ROUNDS):  # so many that one ends (its hands show no key)
                    for table in tables:
                        await move(tg, table)
                    await asyncio.sleep(0.5)  # (through the split and on)

            # A third process joins: the others let its share go, each once what it
            # took of a shard has been sent, and it shows their games from then on.
            third = await start_process(tg, url, shards=SHARDS)
            try:
                calls.watch(third, "c")
                names[id(third)] = "c"
                processes.append(third)
                async with turns(tg, processes):
                    player = asyncio.create_task(playing())
                    try:
                        await tg.wait_for(lambda: even(processes), timeout=TAKEOVER, what="3 ways")
                        assert split(processes) == [2, 3, 3]
                        await asyncio.sleep(1.0)  # (moves go on after the split)
                    finally:
                        player.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await player
                    await settled(*(p.app for p in processes))
                    assert third.delivery.holder.taken >= 1
                    for table in tables:  # every game shown by its shard's (new) holder
                        await move(tg, table)
                        await settled(*(p.app for p in processes))
                        await shown_by(tg, processes, table)
                    assert not calls.overlapping(), calls.overlapping()[:3]

                    # One stops: the two left take its shards and show their games again.
                    gone = holder(processes, tables[0].group.id)
                    await gone.stop()
                    processes.remove(gone)
                    began = time.monotonic()
                    await tg.wait_for(lambda: even(processes), timeout=TAKEOVER, what="2 ways")
                    took = time.monotonic() - began
                    assert split(processes) == [4, 4] and took < TAKEOVER
                async with turns(tg, processes):
                    since = time.monotonic()
                    for table in tables:
                        await move(tg, table)
                        await settled(*(p.app for p in processes))
                        owner = await shown_by(tg, processes, table)
                        assert calls.senders(table.group.id, since) <= {names[id(owner)]}
            finally:
                await third.stop()
        assert not calls.overlapping(), calls.overlapping()[:3]
