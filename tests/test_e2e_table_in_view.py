"""End to end: /rules in a group with a game on does not bury its table: the table
message is posted again below the answer (the old one goes), and the game goes on in
it; a short answer leaves the table where it is."""

from __future__ import annotations

from pathlib import Path

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
