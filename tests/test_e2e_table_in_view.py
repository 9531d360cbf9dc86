"""End to end: /rules in a group with a game on does not bury its table: the table
message is posted again below the answer (the old one goes), and the game goes on in
it; a short answer leaves the table where it is. A hand the group shows comes back
below it too."""

from __future__ import annotations

from pathlib import Path

from bench.playing import ephemeral_hand
from tests.e2e_helpers import (
    latest,
    open_table,
    play_round,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram
from tests.test_e2e_ephemeral import friends, seated_then_blocked


def tables_shown(tg: FakeTelegram, group: FakeChat) -> list[FakeMessage]:
    return [m for m in tg.messages(group) if "Козырь" in (m.text or "")]


async def test_the_table_comes_back_below_a_long_answer(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        (first,) = tables_shown(tg, group)

        await tg.send_text(boris, group, "/rules")
        rules = await tg.wait_for_message(group, lambda m: "Правила" in (m.text or ""))
        await tg.wait_for_message(
            group, lambda m: m.message_id > rules.message_id and "Козырь" in (m.text or "")
        )
        await settle(app)
        (table,) = tables_shown(tg, group)
        assert first.deleted and table.message_id > rules.message_id
        assert latest(tg, group) is table and table.keyboard  # «🃏 Мои карты»
        record = await app.tables.records.table(1)
        assert record is not None and record.table_message_id == table.message_id

        before = table.text
        await play_round(tg, app, [anna, boris])
        await settle(app)
        assert tables_shown(tg, group) == [table] and table.text != before

        # A short answer (no statistics yet) leaves the table where it is.
        await tg.send_text(boris, group, "/stats")
        short = await tg.wait_for_message(group, lambda m: m.message_id > table.message_id)
        await settle(app)
        assert tables_shown(tg, group) == [table] and latest(tg, group) is short
    assert tg.unanswered_callbacks() == []


async def test_a_hand_the_group_shows_comes_back_below_the_table_too(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """One who plays from the group (he blocked the bot) keeps his hand in view: a bot
    that administers the group sends it again below the table posted anew."""
    anna, boris, group = friends(tg, admin=True)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seated_then_blocked(tg, app, group)
        old = ephemeral_hand(tg, boris, group)
        assert old is not None  # pushed at the start: nobody pressed anything

        await tg.send_text(anna, group, "/rules")
        rules = await tg.wait_for_message(group, lambda m: "Правила" in (m.text or ""))
        table = await tg.wait_for_message(
            group, lambda m: m.message_id > rules.message_id and "Козырь" in (m.text or "")
        )
        await settle(app)
        assert tables_shown(tg, group) == [table]
        hand = ephemeral_hand(tg, boris, group)
        assert hand is not None and hand is not old and old.deleted
        assert hand.after >= table.message_id and "Козырь" in (hand.text or "")
        assert len([h for h in tg.ephemerals(group, boris) if not h.deleted]) == 1
    assert tg.unanswered_callbacks() == []
