"""Every call is safe: a reply that is not JSON, a timeout, a reset, a bug in a render
is one failed call, retried or dropped, and the chat's worker goes on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from aiogram.types import Message

from bot.outbox import Limits, Outbox, Rendered
from bot.session import JsonSession
from tests.e2e_helpers import TOKEN, message_in
from tests.fakes import FakeTelegram, FakeUser

FAST = Limits(per_chat=0.0, group_per_minute=10**6, per_second=10**6, timeout=0.5, backoff=0.05)


@asynccontextmanager
async def outbox_for(limits: Limits = FAST) -> AsyncIterator[tuple[FakeTelegram, FakeUser, Outbox]]:
    async with FakeTelegram(token=TOKEN) as tg:
        anna = tg.add_user(1, "Аня", started=True)
        bot = tg.make_bot(JsonSession)
        outbox = Outbox(bot, limits)
        try:
            yield tg, anna, outbox
        finally:
            await outbox.close()
            await bot.session.close()


@pytest.mark.parametrize("fault", ["502", "timeout", "reset"])
async def test_a_failed_edit_is_retried_and_the_newest_state_arrives(fault: str) -> None:
    async with outbox_for() as (tg, anna, outbox):
        first = await outbox.send(anna.id, "ход 0")
        assert first is not None
        state = {"move": 1}
        tg.inject_fault(fault, chat=anna, methods=["editMessageText"], delay=2.0)
        done = outbox.show(anna.id, first.message_id, lambda: (f"ход {state['move']}", None))
        await tg.wait_for(lambda: tg.faults == 1, what="the fault")
        state["move"] = 2  # a move while the failed call waits for its retry
        await asyncio.wait_for(done, 5)
        assert message_in(tg, anna, first.message_id).text == "ход 2"
        assert outbox.failures == 1
        later = await asyncio.wait_for(outbox.send(anna.id, "ещё"), 5)  # the worker lives
        assert later is not None and message_in(tg, anna, later.message_id).text == "ещё"


@pytest.mark.parametrize("fault", ["502", "reset"])
async def test_a_failed_send_is_retried(fault: str) -> None:
    async with outbox_for() as (tg, anna, outbox):
        tg.inject_fault(fault, chat=anna, methods=["sendMessage"])
        sent = await asyncio.wait_for(outbox.send(anna.id, "итог"), 5)
        assert sent is not None and message_in(tg, anna, sent.message_id).text == "итог"
        assert [c.status for c in tg.calls_to("sendMessage")] == [
            502 if fault == "502" else 599,
            200,
        ]


async def test_a_call_that_keeps_failing_is_dropped_and_the_chat_goes_on() -> None:
    async with outbox_for() as (tg, anna, outbox):
        tg.inject_fault("502", count=FAST.attempts, chat=anna)
        assert await asyncio.wait_for(outbox.send(anna.id, "потеряно"), 5) is None
        sent = await asyncio.wait_for(outbox.send(anna.id, "дошло"), 5)
        assert sent is not None and message_in(tg, anna, sent.message_id).text == "дошло"


async def test_a_render_that_raises_loses_its_message_only() -> None:
    async with outbox_for() as (tg, anna, outbox):

        def broken() -> Rendered:
            raise RuntimeError("a bug in a render")

        assert await asyncio.wait_for(outbox.show(anna.id, None, broken), 5) is None
        sent = await asyncio.wait_for(outbox.send(anna.id, "дошло"), 5)
        assert sent is not None and message_in(tg, anna, sent.message_id).text == "дошло"


async def test_an_idle_chats_worker_ends_and_a_later_message_still_arrives() -> None:
    async with outbox_for(Limits(per_chat=0.05, idle=0.1)) as (tg, anna, outbox):
        assert await outbox.send(anna.id, "первое") is not None
        assert outbox.workers == 1
        await tg.wait_for(lambda: outbox.workers == 0, what="the idle worker to end")
        sent = await asyncio.wait_for(outbox.send(anna.id, "второе"), 5)
        assert sent is not None and message_in(tg, anna, sent.message_id).text == "второе"
        assert outbox.workers == 1


async def test_a_reply_goes_to_the_chat_and_quotes_when_asked() -> None:
    async with outbox_for() as (tg, anna, outbox):
        group = tg.add_group(-100, "Друзья", members=[anna])
        asked = await tg.send_text(anna, group, "/stats")
        message = Message.model_validate(asked.to_api())
        plain = await asyncio.wait_for(outbox.reply(message, "Рейтинг"), 5)
        quoted = await asyncio.wait_for(outbox.reply(message, "Ваши итоги", quote=True), 5)
        assert plain is not None and message_in(tg, group, plain.message_id).reply_to is None
        assert quoted is not None
        to = message_in(tg, group, quoted.message_id).reply_to
        assert to is not None and to.message_id == asked.message_id
