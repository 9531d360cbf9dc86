"""End to end: command replies go through the outbox, paced like every other message
to the group, so a reply right after a game's summary is sent, not refused."""

from __future__ import annotations

import itertools
from pathlib import Path

from bot.app import App
from bot.config import Config
from bot.outbox import Limits
from tests.e2e_helpers import (
    TOKEN,
    hand_message,
    open_table,
    polling,
    seat_everyone,
    two_friends,
)
from tests.fakes import FakeTelegram, RateLimits

# Telegram's limits, six times faster: a group gets a message every 0.6 s at most.
SPACING = 0.6
BOT_LIMITS = Limits(per_chat=0.2, chat_burst=3, group_per_minute=int(60 / SPACING))
SERVER_LIMITS = RateLimits(per_chat=(5, 1.0), chat_burst=3, per_group=(2, 1.0), total=None)


async def test_stats_right_after_a_game_is_answered_in_the_groups_pace(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    tg.enforce_rate_limits(SERVER_LIMITS)
    config = Config(
        token=TOKEN,
        db_path=str(tmp_path / "db.sqlite3"),
        api_base=tg.base_url,
        limits=BOT_LIMITS,
        bot_pause=(0.0, 0.0),
    )
    app = await App.create(config)
    await app.start()
    try:
        async with polling(app, tg):
            await open_table(tg, app, group, anna)
            await seat_everyone(tg, app, group, [anna, boris])
            hand = hand_message(tg, anna)
            assert hand is not None
            await (await tg.press(anna, hand, button_text="⋯"))  # «Сдаться» is behind it
            await tg.wait_for(lambda: "Сдаться" in str(hand.keyboard), timeout=15)
            await (await tg.press(anna, hand, button_text="Сдаться"))
            await tg.send_text(boris, group, "/stats")  # while the summary waits
            stats = await tg.wait_for_message(
                group, lambda m: "Статистика чата" in (m.text or ""), timeout=15
            )
            assert "Аня" in (stats.text or "") and "Борис" in (stats.text or "")
            assert any("Партия окончена" in (m.text or "") for m in tg.messages(group))
            sends = [c for c in tg.calls_to(chat=group) if c.method.startswith(("send", "edit"))]
            gaps = [b.time - a.time for a, b in itertools.pairwise(sends)]
            assert min(gaps) >= SPACING - 0.05  # the reply took its turn too
            assert tg.too_many_requests_sent == 0
    finally:
        await app.stop()
