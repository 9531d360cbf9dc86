"""End to end: two ``python -m bot`` webhook processes on one PostgreSQL database behind
one fake Bot API, the test playing the proxy (each update to the processes in turn, to the
other when one is down), which keeps Telegram's per-chat and per-group limits. Two people
and two computer players play a game; mid-game the process that shows the games is
SIGKILLed, the other plays on alone, then it is started again and the game is played to
the end: no answered move is lost or applied twice, no call got a 429, and every deadline
that came (the people let a few bouts' throw-in time run out) fired exactly once."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bot.callbacks import LobbyCb, LobbyOp
from storage.connect import open_database
from tests.backends import PgDatabases
from tests.e2e_helpers import (
    TOKEN,
    choose,
    game_over,
    hand_buttons,
    hand_message,
    latest,
    two_friends,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser, RateLimits
from tests.test_main import STARTUP, stop
from tests.test_multi_processes import webhook_bot
from tests.test_webhook import free_port

SETTINGS = {
    "DURAK_BOT_PAUSE": "0",  # the computer players move at once
    "DURAK_BOT_WORKERS": "1",  # two processes on a small machine
    "DURAK_CHAT_INTERVAL": "1.0",  # Telegram's limits, as the fake keeps them
    "DURAK_SHARDS": "1",  # one process shows every chat (with more: test_multi_shards_kill)
}
LIMITS = RateLimits(chat_burst=3)  # 1 a second per chat (3 at once), 20 a minute per group
DEADLINES = 2  # throw-in times the people let run out
FIRED = re.compile(r"game (\d+): the deadline at version (\d+) fired")
WAIT = 60.0  # seconds for any one thing to happen; generous, the machine may be busy
MOVES = ("c:", "m:", "f:")  # a card, a word, a cheat: the presses that make a move
HAND_OVER = "Партия окончена — итоги в группе."
TABLE_OVER = "Партия окончена — итоги ниже."


@dataclass
class Upstream:
    """One bot process behind the proxy, and the updates it took."""

    name: str
    port: int
    process: asyncio.subprocess.Process
    log: Path
    got: int = 0

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}/tg"


@dataclass
class Proxy:
    """nginx's part: each pending update to the next process in turn; a process that
    does not take it (down: refused, reset) gives its turn to the next one."""

    tg: FakeTelegram
    upstreams: list[Upstream]
    turn: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    took: dict[int, str] = field(default_factory=dict)  # update id -> the process's name

    async def deliver_one(self) -> bool:
        for _ in range(len(self.upstreams)):
            upstream = self.upstreams[self.turn % len(self.upstreams)]
            self.turn += 1
            update = self.tg.pending_updates[0]["update_id"]
            try:
                statuses = await self.tg.deliver_to_webhook(upstream.address, limit=1)
            except aiohttp.ClientError:
                self.refused[upstream.name] += 1
                continue
            if statuses == [200]:
                upstream.got += 1
                self.took[update] = upstream.name
                return True
            self.refused[upstream.name] += 1
        return False

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async def run() -> None:
            while True:
                if not (self.tg.pending_updates and await self.deliver_one()):
                    await asyncio.sleep(0.01)

        task = asyncio.create_task(run())
        try:
            yield
            if task.done():
                task.result()  # the delivery itself failed
        finally:
            task.cancel()


@dataclass
class Press:
    user: FakeUser
    data: str
    answer: str | None
    update_id: int

    @property
    def made(self) -> bool:
        """Answered as a made move: a move's button, answered without a word."""
        return self.data.startswith(MOVES) and not self.answer


async def start(tg: FakeTelegram, tmp_path: Path, url: str, name: str, port: int) -> Upstream:
    process, log = await webhook_bot(tmp_path, tg.base_url, url, port, name, SETTINGS)
    return Upstream(name, port, process, log)


async def webhooks_set(tg: FakeTelegram, count: int, upstreams: list[Upstream]) -> None:
    """Until ``count`` setWebhook calls came; fails at once if a process exits instead."""

    def done() -> bool:
        for u in upstreams:
            assert u.process.returncode is None, f"{u.name} exited:\n{u.log.read_text()}"
        return tg.count("setWebhook") == count

    await tg.wait_for(done, STARTUP, what=f"{count} x setWebhook")


def shows_the_games(upstream: Upstream) -> bool:
    return "took shards [0]" in upstream.log.read_text()


async def lobby_press(
    tg: FakeTelegram, user: FakeUser, group: FakeChat, op: str, arg: str = ""
) -> str:
    lobby = latest(tg, group)
    assert lobby is not None
    answer = await (
        await tg.press(user, lobby, LobbyCb(table=1, op=LobbyOp(op), arg=arg).pack())
    ).wait_answer(WAIT)
    await tg.wait_quiet(0.2, WAIT)
    return answer.text or ""


def words(message: FakeMessage) -> bool:
    """Whether the hand may say «Бито» or «Пас» (a throw-in is up to its player)."""
    return any(text.startswith(("Бито", "Пас")) for text, _ in hand_buttons(message))


def fired(logs: list[Path]) -> list[int]:
    """The versions whose deadline fired, in every process's log."""
    return [int(m[2]) for log in logs for m in FIRED.finditer(log.read_text())]


async def play(
    tg: FakeTelegram,
    users: list[FakeUser],
    presses: list[Press],
    until: Callable[[], bool],
    logs: list[Path],
) -> None:
    """The people press a sensible button of their hands, one at a time once the bot is
    quiet, until ``until()``; with nothing to press they wait for the bot to show more.
    Until ``DEADLINES`` deadlines have fired they neither throw in nor say «Бито» or «Пас»."""
    deadline = time.monotonic() + 3 * WAIT
    while not until():
        assert time.monotonic() < deadline, f"the game got stuck: {presses[-5:]}"
        await tg.wait_quiet(0.3, WAIT)
        pressed = False
        for user in users:
            message = hand_message(tg, user)
            if message is not None and len(fired(logs)) < DEADLINES and words(message):
                continue  # may throw in or say «Бито»: lets the throw-in time run out
            data = choose(tg, message) if message is not None else None
            if message is None or data is None:
                continue
            handle = await tg.press(user, message, data)
            answer = await handle.wait_answer(WAIT)
            presses.append(Press(user, data, answer.text, handle.update_id))
            pressed = True
            if until():  # at once: the bot may still be showing the move, or answering it
                return
            await tg.wait_quiet(0.3, WAIT)
        if not pressed:  # the computer players, a deadline or a new holder of the lease
            await news(tg, until)


async def news(tg: FakeTelegram, until: Callable[[], bool]) -> None:
    """Until the bot calls the server again (or ``until()``)."""
    seen = len(tg.calls)
    await tg.wait_for(lambda: len(tg.calls) > seen or until(), WAIT, what="the bot's next call")


def made(presses: list[Press]) -> int:
    return sum(p.made for p in presses)


async def test_a_game_goes_on_through_a_killed_process_and_loses_no_move(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    url = await pg_databases.target("sigkill")
    async with FakeTelegram(token=TOKEN) as tg:
        tg.enforce_rate_limits(LIMITS)
        anna, boris, group = two_friends(tg)
        ports = [free_port(), free_port()]
        first, second = [await start(tg, tmp_path, url, f"bot{i}", p) for i, p in enumerate(ports)]
        proxy = Proxy(tg, [first, second])
        running = [first, second]
        logs = [first.log, second.log]
        presses: list[Press] = []
        try:
            await webhooks_set(tg, 2, running)
            await tg.wait_for(lambda: any(map(shows_the_games, running)), WAIT)
            async with proxy.running():
                await tg.send_text(anna, group, "/durak")
                await tg.wait_for_message(group, lambda m: "Стол для игры" in (m.text or ""), WAIT)
                await tg.wait_quiet(0.2, WAIT)
                for seats in (3, 4):  # 2 seats, then 3, then 4
                    answer = await lobby_press(tg, anna, group, "set", "seats")
                    assert answer == f"Теперь: {seats} места."
                speed = await lobby_press(tg, anna, group, "set", "speed")
                assert speed == "Теперь: ⏱ Быстрая игра: 15 с на ход, 5 с на подкидывание."
                for user in (anna, boris):
                    assert await lobby_press(tg, user, group, "join") == "Вы за столом!"
                for _ in range(2):
                    await lobby_press(tg, anna, group, "bot")
                await tg.wait_for(lambda: hand_message(tg, anna) and hand_message(tg, boris), WAIT)
                people = [anna, boris]

                victim = next(u for u in running if shows_the_games(u))
                survivor = first if victim is second else second

                def by_the_holder() -> bool:  # a move it made, just answered
                    last = presses[-1] if presses else None
                    if last is None or not last.made or made(presses) < 4:
                        return game_over(tg, group)
                    # (taken: answered 200, which comes after the press's answer)
                    return proxy.took.get(last.update_id) == victim.name

                await play(tg, people, presses, by_the_holder, logs)
                # Killed just after it answered a move it made: its edits (it shows the
                # games) and its computer players' moves may not have gone out yet.
                victim.process.kill()
                await victim.process.wait()
                running.remove(victim)
                before = made(presses)
                await play(
                    tg,
                    people,
                    presses,
                    lambda: made(presses) >= before + 3 or game_over(tg, group),
                    logs,
                )
                assert not game_over(tg, group), "the game ended before the restart"
                assert shows_the_games(survivor)

                again = await start(tg, tmp_path, url, "restarted", victim.port)
                proxy.upstreams[proxy.upstreams.index(victim)] = again
                running.append(again)
                logs.append(again.log)
                await webhooks_set(tg, 3, running)
                await play(tg, people, presses, lambda: game_over(tg, group), logs)
                await tg.wait_quiet(0.5, WAIT)
                await tg.wait_for(lambda: all(over_in_hand(tg, u) for u in people), WAIT)
        finally:
            for upstream in running:
                await stop(upstream.process)

    db = await open_database(url, shared=True)
    try:
        (game,) = await db.fetch_all("SELECT id, status, version, seats FROM games")
        actions = await db.fetch_all(
            "SELECT seq, seat, auto FROM actions WHERE game_id = ? ORDER BY seq", (game[0],)
        )
        (table,) = await db.fetch_all("SELECT table_message_id FROM tables")
    finally:
        await db.close()
    assert game[1] == "over" and game[2] == len(actions)
    assert [a[0] for a in actions] == list(range(1, len(actions) + 1))  # none lost or doubled
    seats = json.loads(game[3])
    for user in people:  # every press answered as made is one move of that person's
        (seat,) = [i for i, s in enumerate(seats) if s.get("user_id") == user.id]
        moves = sum(1 for a in actions if a[1] == seat and not a[2])
        assert moves == sum(p.made for p in presses if p.user is user), (user.first_name, presses)
    assert sum(s["kind"] == "bot" for s in seats) == 2
    humans = {i for i, s in enumerate(seats) if s["kind"] == "human"}
    assert any(a[1] not in humans for a in actions)  # the computer players played
    versions = fired(logs)  # each deadline fired once, in one of the processes
    assert len(versions) >= DEADLINES and len(versions) == len(set(versions)), versions
    assert all(actions[v][2] for v in versions), versions  # its moves: automatic ones

    assert game_over(tg, group)  # the summary, once (not again by the next holder)
    summaries = [m for m in tg.messages(group) if any(":again" in d for d in m.button_data())]
    assert len(summaries) == 1, summaries
    (shown,) = [m for m in tg.messages(group) if m.message_id == table[0]]
    assert TABLE_OVER in (shown.text or "") and not shown.keyboard, shown.text
    for user in people:
        assert over_in_hand(tg, user)
    assert first.got and second.got and again.got, (first.got, second.got, again.got)
    assert proxy.refused[victim.name] > 0  # a delivery met the dead process and moved on
    assert victim.process.returncode == -9
    for upstream in (survivor, again):
        text = upstream.log.read_text()
        assert upstream.process.returncode == 0 and "Traceback" not in text, text
    assert tg.too_many_requests_sent == 0 and tg.unanswered_callbacks() == []


def over_in_hand(tg: FakeTelegram, user: FakeUser) -> bool:
    """The person's newest hand message says the game is over and has no buttons."""
    hands = [
        m
        for m in tg.messages(tg.private(user))
        if m.from_user is tg.bot_user
        and ("Козырь" in (m.text or "") or HAND_OVER in (m.text or ""))
    ]
    return bool(hands) and HAND_OVER in (hands[-1].text or "") and not hands[-1].keyboard
