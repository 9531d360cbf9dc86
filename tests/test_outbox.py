"""The outbox against the fake Bot API: limits, coalescing, rendering at send time,
429 and the adaptive rate, faults that are not Bot API answers, idle workers."""

from __future__ import annotations

import asyncio
import sys

from bot.keyboard import Button, Keyboard
from bot.outbox import Limits, Outbox
from bot.outbox_jobs import seen
from bot.session import JsonSession
from tests.e2e_helpers import latest, message_in
from tests.fakes import FakeTelegram, RateLimits


async def test_429_is_retried_after_the_given_time(tg: FakeTelegram) -> None:
    anna = tg.add_user(1, "Аня", started=True)
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.0))
    tg.inject_429(count=1, retry_after=1)
    sent = await outbox.send(anna.id, "привет")
    assert sent is not None and message_in(tg, anna, sent.message_id).text == "привет"
    assert outbox.retries == 1 and tg.count("sendMessage", status=429) == 1
    await outbox.close()
    await bot.session.close()


async def test_edits_are_coalesced_and_not_modified_counts_as_done(tg: FakeTelegram) -> None:
    anna = tg.add_user(1, "Аня", started=True)
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.2))
    first = await outbox.send(anna.id, "версия 0")
    assert first is not None
    futures = [outbox.edit(anna.id, first.message_id, f"версия {i}") for i in range(1, 11)]
    await asyncio.gather(*futures)
    assert latest(tg, tg.private(anna)).text == "версия 10"
    assert tg.count("editMessageText") <= 2  # ten states, at most two edits
    edits = tg.count("editMessageText")
    await outbox.edit(anna.id, first.message_id, "версия 10")  # the same text again
    assert tg.count("editMessageText") == edits and outbox.skipped == 1  # not sent
    shown = tg.private(anna).message(first.message_id)
    assert shown is not None
    shown.text = shown.raw_text = "изменено"  # changed behind the outbox's back
    outbox2 = Outbox(bot, Limits(per_chat=0.0))  # knows nothing of what is shown
    await outbox2.edit(anna.id, first.message_id, "изменено")
    assert tg.count("editMessageText", status=400) == 1  # "not modified", taken as done
    await outbox2.close()
    await outbox.close()
    await bot.session.close()


def keyboard(last: str) -> Keyboard:
    return Keyboard([Button(f"{i}♠️", f"c:1:{i}:{last}")] for i in range(40))


async def test_what_a_message_shows_is_remembered_in_a_few_bytes(tg: FakeTelegram) -> None:
    # A chat remembers its last messages (a private one: a hand per game); a long text
    # and keyboard must not make that memory long (it was their whole text).
    text = "Ваши карты: 7♠️ 8♠️ 9♠️ 10♠️ В♠️ Д♠️ К♠️ Т♠️\n" * 60
    assert sys.getsizeof(seen(text, keyboard("a"))) <= 64 < len(text)
    assert seen(text, keyboard("a")) == seen(text, keyboard("a"))
    assert seen(text, keyboard("a")) != seen(text, keyboard("b")) != seen(text + ".", None)
    anna = tg.add_user(1, "Аня", started=True)
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.0))
    first = await outbox.send(anna.id, text, keyboard("a"))
    assert first is not None
    await outbox.edit(anna.id, first.message_id, text, keyboard("a"))  # shown already
    assert tg.count("editMessageText") == 0 and outbox.skipped == 1
    await outbox.edit(anna.id, first.message_id, text, keyboard("b"))  # one button differs
    assert tg.count("editMessageText") == 1
    await outbox.close()
    await bot.session.close()


async def test_default_limits_never_draw_a_429_from_an_enforcing_server(tg: FakeTelegram) -> None:
    group = tg.add_group(-100, "Друзья")
    tg.enforce_rate_limits(RateLimits(per_chat=(1, 1.0), per_group=(20, 60.0), total=(30, 1.0)))
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot)
    message = await outbox.send(group.id, "стол")
    assert message is not None
    for i in range(30):  # a burst of table updates
        outbox.edit(group.id, message.message_id, f"ход {i}")
    await outbox.drain()
    assert latest(tg, group).text == "ход 29"
    assert tg.rate_limited == 0 and outbox.retries == 0
    await outbox.close()
    await bot.session.close()


async def test_blocked_users_and_lost_messages_are_reported(tg: FakeTelegram) -> None:
    anna = tg.add_user(1, "Аня", started=True)
    boris = tg.add_user(2, "Борис", started=True)
    blocked: list[int] = []

    async def on_blocked(chat: int) -> None:
        blocked.append(chat)

    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.0), on_blocked=on_blocked)
    tg.block(boris)
    assert await outbox.send(boris.id, "карты") is None
    assert blocked == [boris.id]
    moved = await outbox.edit(anna.id, 999, "новая рука")  # no such message any more
    assert moved is not None and moved.message_id != 999
    assert message_in(tg, anna, moved.message_id).text == "новая рука"
    again = await outbox.edit(anna.id, 999, "рука")  # an edit of 999 goes to the new one
    assert again is not None and again.message_id == moved.message_id
    await outbox.close()
    await bot.session.close()


async def test_a_group_that_became_a_supergroup_does_not_stop_the_outbox(tg: FakeTelegram) -> None:
    group = tg.add_group(-100, "Друзья")
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.0, group_per_minute=6000))
    message = await outbox.send(group.id, "стол")
    assert message is not None
    new = tg.migrate_to_supergroup(group, -1001)
    # Each call comes back (a dead worker would leave it waiting forever).
    assert await asyncio.wait_for(outbox.edit(group.id, message.message_id, "ход"), 5) is None
    assert await asyncio.wait_for(outbox.send(group.id, "ещё"), 5) is None
    moved = await outbox.send(new.id, "стол")
    assert moved is not None and message_in(tg, new, moved.message_id).text == "стол"
    await outbox.close()
    await bot.session.close()
