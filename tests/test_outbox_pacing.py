"""Pacing by chat and by group, the adaptive global rate, rendering at send time."""

from __future__ import annotations

import asyncio
import itertools

from bot.outbox import Limits, Outbox
from bot.session import JsonSession
from tests.e2e_helpers import message_in
from tests.fakes import FakeTelegram, RateLimits


async def test_a_render_runs_when_the_slot_comes_and_sends_the_newest_state(
    tg: FakeTelegram,
) -> None:
    anna = tg.add_user(1, "Аня", started=True)
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.3, chat_burst=1))
    first = await outbox.send(anna.id, "ход 0")
    assert first is not None
    state = {"move": 1}
    futures = []
    for move in range(1, 6):  # five moves while the chat waits for its slot
        state["move"] = move
        futures.append(
            outbox.show(anna.id, first.message_id, lambda: (f"ход {state['move']}", None))
        )
    await asyncio.gather(*futures)
    edits = tg.calls_to("editMessageText")
    assert [c.params["text"] for c in edits] == ["ход 5"]  # the newest, once
    outbox.show(anna.id, first.message_id, lambda: ("ход 5", None))  # nothing new
    await outbox.drain()
    assert tg.count("editMessageText") == 1 and outbox.skipped == 1
    await outbox.close()
    await bot.session.close()


async def test_hands_get_a_burst_and_groups_an_even_pace_without_a_429(tg: FakeTelegram) -> None:
    users = [tg.add_user(i, f"Игрок {i}", started=True) for i in range(1, 21)]
    group = tg.add_group(-100, "Друзья", members=users)
    tg.enforce_rate_limits(
        RateLimits(per_chat=(1, 0.2), per_group=(3, 1.0), total=None, chat_burst=3)
    )
    bot = tg.make_bot(JsonSession)
    # the same shape as Telegram's limits, five times faster (a group: 3 a second)
    limits = Limits(per_chat=0.2, chat_burst=3, group_per_minute=180, per_second=10**4)
    outbox = Outbox(bot, limits)
    for i in range(6):
        for user in users:
            outbox.send(user.id, f"рука {i}")
        outbox.send(group.id, f"стол {i}")
    await asyncio.wait_for(outbox.drain(), 20)
    assert tg.rate_limited == 0 and outbox.retries == 0
    assert all(len(tg.messages(u)) == 6 for u in users) and len(tg.messages(group)) == 6
    first = [c.time for c in tg.calls_to("sendMessage", users[0])]
    assert first[2] - first[0] < 2 * 0.2  # a burst: three sooner than evenly spaced
    spaced = [c.time for c in tg.calls_to("sendMessage", group)]
    assert min(b - a for a, b in itertools.pairwise(spaced)) >= 1 / 3
    await outbox.close()
    await bot.session.close()


async def test_the_global_rate_halves_on_a_429_and_grows_again(tg: FakeTelegram) -> None:
    users = [tg.add_user(i, f"Игрок {i}", started=True) for i in range(1, 201)]
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.0, per_second=40))
    seen: list[float] = []

    async def watch() -> None:
        while True:
            seen.append(outbox.rate.rate)
            await asyncio.sleep(0.05)

    watcher = asyncio.create_task(watch())
    tg.inject_429(count=1, retry_after=1)
    for user in users:  # more than 40 a second want to go: the rate is the limit
        for i in range(2):
            outbox.send(user.id, f"рука {i}")
    await asyncio.wait_for(outbox.drain(), 30)
    watcher.cancel()
    assert outbox.retries == 1 and all(len(tg.messages(u)) == 2 for u in users)
    low = seen.index(min(seen))
    assert min(seen) == 20  # halved
    assert max(seen[low:]) > 40  # and grew past where it was, with no 429 since
    await outbox.close()
    await bot.session.close()


async def test_a_reply_right_after_a_summary_waits_for_the_groups_slot(tg: FakeTelegram) -> None:
    anna = tg.add_user(1, "Аня", started=True)
    group = tg.add_group(-100, "Друзья", members=[anna])
    tg.enforce_rate_limits(RateLimits(per_chat=(1, 0.2), per_group=(1, 0.5), total=None))
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.2, chat_burst=1, group_per_minute=120))
    table = await outbox.send(group.id, "стол")
    assert table is not None
    outbox.edit(group.id, table.message_id, "стол: партия окончена")
    outbox.send(group.id, "Партия окончена")
    stats = await asyncio.wait_for(outbox.send(group.id, "Рейтинг чата"), 5)  # /stats
    assert stats is not None and message_in(tg, group, stats.message_id).text == "Рейтинг чата"
    assert tg.rate_limited == 0
    await outbox.close()
    await bot.session.close()


async def test_a_new_holder_of_the_lease_paces_as_if_the_last_one_had_just_sent(
    tg: FakeTelegram,
) -> None:
    anna = tg.add_user(1, "Аня", started=True)
    group = tg.add_group(-100, "Друзья", members=[anna])
    tg.enforce_rate_limits(
        RateLimits(per_chat=(1, 0.2), per_group=(3, 1.0), total=None, chat_burst=3)
    )
    bot = tg.make_bot(JsonSession)
    limits = Limits(per_chat=0.2, chat_burst=3, group_per_minute=180, per_second=10**4)
    before, after = Outbox(bot, limits), Outbox(bot, limits)  # two processes' outboxes
    for i in range(3):  # the last holder: a burst to Аня, the group at its pace
        before.send(anna.id, f"рука {i}")
        before.send(group.id, f"стол {i}")
    await asyncio.wait_for(before.drain(), 5)
    after.assume_busy()  # it took the lease at once, as after a SIGKILL
    for i in range(3):
        after.send(anna.id, f"рука {i + 3}")
        after.send(group.id, f"стол {i + 3}")
    await asyncio.wait_for(after.drain(), 5)
    assert tg.rate_limited == 0 and after.retries == 0  # before: a 429
    assert len(tg.messages(anna)) == 6 and len(tg.messages(group)) == 6
    for outbox in (before, after):
        await outbox.close()
    await bot.session.close()
