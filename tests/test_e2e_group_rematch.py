"""End to end: one who plays only from the group (never started the bot) is put in
front of their cards at every game start, «Ещё партию» included: the new table
message mentions them until they open their cards, and their own «Ещё партию» is
answered with their hand (and the table then does not remind them)."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import CardsCb, LobbyCb, LobbyOp
from tests.e2e_helpers import game_over, latest, open_table, running_bot, seat_everyone, settle
from tests.fakes import FakeChat, FakeMessage, FakeTelegram
from tests.test_e2e_ephemeral import newcomer, play_on

AGAIN = LobbyCb(table=1, op=LobbyOp.AGAIN).pack()
SHOWN = "Ваши карты — внизу чата, их видите только вы."
REMINDER = "ваши карты — по кнопке «Мои карты» ниже."


async def summary_of(tg: FakeTelegram, group: FakeChat) -> FakeMessage:
    """The latest result, with «Ещё партию» (sent after the table's last edit)."""
    return await tg.wait_for_message(
        group, lambda m: [t for row in m.keyboard for t, _ in row] == ["Ещё партию"]
    )


async def test_a_rematch_puts_the_cards_in_front_of_one_who_plays_from_the_group(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, gleb, group = newcomer(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna])
        lobby = latest(tg, group)
        assert lobby is not None
        assert (await (await tg.press(gleb, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))).text
        await settle(app)
        await play_on(tg, app, group, [anna, gleb])
        assert game_over(tg, group)

        # Аня starts another game: Глеб is named on the new table message, once.
        summary = await summary_of(tg, group)
        assert (await (await tg.press(anna, summary, AGAIN))).text is None
        await settle(app)
        table = latest(tg, group)
        assert table is not None and "Козырь" in (table.text or "")
        assert f"Глеб, {REMINDER}" in (table.text or "")
        mention = {"type": "text_link", "url": "tg://user?id=4"}
        assert any(
            {k: e.get(k) for k in mention} == mention for e in table.entities or []
        ) or "tg://user?id=4" in (table.raw_text or "")
        cards = CardsCb(game=2).pack()
        assert (await (await tg.press(gleb, table, cards))).text == SHOWN
        await settle(app)
        assert REMINDER not in (table.text or "")  # shown: the line goes at once
        for _ in range(400):  # (play_on stops at the first game's result)
            live = app.service.live(2)  # (None once the ended game is let go)
            if live is None or live.state.is_over:
                break
            await play_on(tg, app, group, [anna, gleb], rounds=1)

        # Глеб starts the next one himself: his hand answers his press.
        summary = await summary_of(tg, group)
        assert (await (await tg.press(gleb, summary, AGAIN))).text == SHOWN
        await settle(app)
        hands = [h for h in tg.ephemerals(group, gleb) if not h.deleted]
        assert hands and "Козырь" in (hands[-1].text or "")
        table = latest(tg, group)  # the new game's: he has his cards, nothing to remind
        assert "Козырь" in (table.text or "") and REMINDER not in (table.text or "")
        assert tg.calls_to("sendMessage", gleb) == []  # nothing was ever sent privately
    assert tg.unanswered_callbacks() == []
