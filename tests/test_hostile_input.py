"""Hostile input end to end: 10,000 random and mutated callback data, command arguments
and deep-link payloads from a stranger, through the real dispatcher and the fake Bot
API. No handler fails, every press is answered, and the database does not change."""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path

import aiosqlite
import pytest

from bot.callbacks import MoveCb
from service import FakeClock
from storage.db import Database
from tests.backends import sqlite_file
from tests.e2e_helpers import (
    TOKEN,
    hand_key,
    open_table,
    play_round,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, PressHandle

INPUTS = 10_000
ODD = [
    "", "0", "-1", "00", "9" * 25, "-" + "9" * 19, "1e9", "nan", " 1", "1 ", "٣", "1_0",
    "0x1f", "true", "null", "%s", "{}", "\\", "..", "join", "set", "seats+", "10H", "-",
    "d 9H>7H", "accuse 9", "ё", "🃏", "\x00", ":", "::", "a" * 40,
]  # fmt: skip
CHARS = "abcdefghijklmnopqrstuvwxyzACDHJKQS0123456789:_-+>. ё🃏\x00"
COMMANDS = ("start", "help", "rules", "stats", "settings", "stop", "me", "mystats")


def fit(text: str, limit: int = 64) -> str:
    """At most ``limit`` bytes of UTF-8 (Telegram's limit for callback data), never empty."""
    data = text.encode()[:limit].decode(errors="ignore")
    return data or "x"


def mutated(rng: random.Random, seed: str) -> str:
    fields = seed.split(":")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(fields))
        op = rng.randrange(6)
        if op == 0:
            fields[i] = rng.choice(ODD)
        elif op == 1 and fields[i]:
            j = rng.randrange(len(fields[i]))
            fields[i] = fields[i][:j] + rng.choice(CHARS) + fields[i][j + 1 :]
        elif op == 2:
            fields.insert(i, rng.choice(ODD))
        elif op == 3 and len(fields) > 1:
            del fields[i]
        elif op == 4:
            rng.shuffle(fields)
        else:
            fields[i] += rng.choice(ODD)
    return ":".join(fields)


def random_text(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, n)))


def callback_data(rng: random.Random, seeds: list[str]) -> str:
    roll = rng.random()
    if roll < 0.6:
        return fit(mutated(rng, rng.choice(seeds)))
    if roll < 0.9:  # a known prefix with random fields
        fields = [random_text(rng, 12) for _ in range(rng.randint(0, 5))]
        return fit(":".join([rng.choice("lcmpf"), *fields]))
    return fit(random_text(rng, 64))


def payload(rng: random.Random, token: str) -> str:
    roll = rng.random()
    if roll < 0.5:
        return mutated(rng, f"join_{token}").replace(":", rng.choice(["", "_", ":"]))
    if roll < 0.8:
        return "join_" + random_text(rng, 40)
    return random_text(rng, 300)  # typed by hand: any text


async def dump(db: Database) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in order (users without ``updated_at``: a /start sets it)."""
    async with aiosqlite.connect(sqlite_file(db).path) as conn:
        cur = await conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        names = [r[0] for r in await cur.fetchall()]
        rows = {}
        for name in names:
            cur = await conn.execute(f"SELECT * FROM {name}")
            columns = [d[0] for d in cur.description]
            keep = [i for i, c in enumerate(columns) if (name, c) != ("users", "updated_at")]
            rows[name] = sorted(tuple(r[i] for i in keep) for r in await cur.fetchall())
    return rows


def button_data(tg: FakeTelegram, messages: list[FakeMessage]) -> list[str]:
    return [d for m in messages for row in tg.keyboard(m) for _, d in row if d]


async def test_random_and_mutated_input_is_answered_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    rng = random.Random(20260112)
    async with FakeTelegram(token=TOKEN) as tg:
        anna, boris, group = two_friends(tg)
        eve = tg.add_user(66, "Ева")
        lair = tg.add_group(-666, "Логово", members=[eve])
        # a clock that stands still: no move timer fires while the inputs go in
        async with running_bot(tg, tmp_path / "db.sqlite3", FakeClock()) as app:
            await open_table(tg, app, group, anna)
            await seat_everyone(tg, app, group, [anna, boris])  # the game starts
            for _ in range(2):
                await play_round(tg, app, [anna, boris])
            hands = [m for u in (anna, boris) for m in tg.messages(u) if m.keyboard]
            seeds = button_data(tg, [*tg.messages(group), *hands])
            seeds += ["l:1:join:", "l:1:set:seats+", "l:1:start:", "l:1:bots:master"]
            seeds += [MoveCb(game=1, a="quit", k=hand_key(m)).pack() for m in hands]  # behind «⋯»
            assert {s[0] for s in seeds} >= {"l", "c", "m"}
            token = (await app.tables.get(1)).join_token
            tg.start_private(eve)
            here = await tg.wait_for_message(eve, lambda m: "Привет" in (m.text or ""))
            await tg.send_text(eve, lair, "/help")
            there = await tg.wait_for_message(lair)
            await settle(app)
            before = await dump(app.db)
            started = time.monotonic()
            presses = await feed(tg, rng, seeds, token, [here, there], lair)
            answers = [await press for press in presses]
            await settle(app)
            elapsed = time.monotonic() - started
            assert await dump(app.db) == before
        assert all(a is not None for a in answers) and tg.unanswered_callbacks() == []
        assert tg.internal_errors == []
    failed = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert failed == [], failed[:5]  # no handler raised (the error handler logs each)
    print(f"{INPUTS} inputs in {elapsed:.1f} s")


async def feed(
    tg: FakeTelegram,
    rng: random.Random,
    seeds: list[str],
    token: str,
    targets: list[FakeMessage],
    lair: FakeChat,
) -> list[PressHandle]:
    """The stranger's inputs: 70% presses, 20% /start payloads, 10% command arguments."""
    eve = targets[0].chat.user
    assert eve is not None
    presses = []
    for i in range(INPUTS):
        kind = i % 10
        if kind < 7:
            data = callback_data(rng, seeds)
            presses.append(await tg.press(eve, rng.choice(targets), data, forge=True))
        elif kind < 9:
            tg.start_private(eve, payload(rng, token))
        else:
            command = rng.choice(COMMANDS)
            await tg.send_text(eve, lair, f"/{command} {random_text(rng, 80)}")
        if i % 500 == 499:  # let the bot keep up, as Telegram would
            await tg.wait_quiet(0.05, timeout=30)
    return presses
