"""End to end: a player's own statistics, in the private chat (/me, «моя стата») and in
the group («моя стата»)."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import LobbyCb, LobbyOp
from tests.e2e_helpers import (
    latest,
    open_table,
    play_to_the_end,
    running_bot,
    seat_everyone,
    settle,
)
from tests.fakes import FakeTelegram
from tests.service_helpers import held


async def test_my_statistics_in_the_private_chat_and_in_the_group(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    john = tg.add_user(3, "John", language_code="en")
    group = tg.add_group(-100, "Друзья <3", members=[anna, boris])
    for user in (anna, boris, john):
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await tg.send_text(anna, anna, "/me")
        none = await tg.wait_for_message(anna, lambda m: "ни одной партии" in (m.text or ""))
        assert "/durak" in (none.text or "")

        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna])
        bot_seat = LobbyCb(table=1, op=LobbyOp.BOT).pack()
        await (await tg.press(anna, latest(tg, group), bot_seat))
        await settle(app)
        await play_to_the_end(tg, app, group, [anna])
        outcome = held(app.service, 1).state.outcome
        assert outcome is not None

        await tg.send_text(anna, anna, "Моя стата")
        mine = await tg.wait_for_message(anna, lambda m: "Ваша статистика" in (m.text or ""))
        result = (  # no «0 раз», no «0 ничьих»
            "ни одной победы, ни разу в дураках, 1 ничья"
            if outcome.draw
            else "ни одной победы, в дураках 1 раз"
            if 0 in outcome.fools
            else "1 победа, ни разу в дураках"
        )
        scale = "Рейтинг новичка — 1000: победы его поднимают, поражения опускают."
        assert f"Друзья <3: 1 партия, {result}; рейтинг " in (mine.text or "")
        assert "место" not in (mine.text or "")  # the only player rated in that chat
        assert (mine.text or "").endswith(scale)  # what «рейтинг 1013» means

        await tg.send_text(anna, group, "моя статистика")
        here = await tg.wait_for_message(group, lambda m: "в этом чате" in (m.text or ""))
        assert (here.text or "").startswith(f"📊 Ваша статистика в этом чате: 1 партия, {result}, ")
        assert (here.text or "").endswith(scale)
        await tg.send_text(boris, group, "/stats")  # the same words for the same things
        top = await tg.wait_for_message(group, lambda m: "Статистика чата" in (m.text or ""))
        assert f"1. Аня — 1 партия, {result}, рейтинг " in (top.text or "")
        assert (top.text or "").endswith(scale)
        await tg.send_text(boris, group, "моя стата")
        await tg.wait_for_message(group, lambda m: "нет сыгранных партий" in (m.text or ""))

        await tg.send_text(john, john, "/mystats")
        english = await tg.wait_for_message(john, lambda m: "finished a game" in (m.text or ""))
        assert (english.text or "").startswith("You have not")
    assert tg.internal_errors == []
    private = tg.commands({"type": "all_private_chats"})
    assert {c["command"]: c["description"] for c in private}["me"] == "Моя статистика"
    in_english = tg.commands({"type": "all_private_chats"}, language_code="en")
    assert {c["command"]: c["description"] for c in in_english}["me"] == "My statistics"


async def test_help_and_me_in_a_group(tg: FakeTelegram, tmp_path: Path) -> None:
    anna = tg.add_user(1, "Аня")
    group = tg.add_group(-100, "Друзья", members=[anna])
    async with running_bot(tg, tmp_path / "db.sqlite3"):
        await tg.send_text(anna, group, "/help")
        shown = await tg.wait_for_message(group, lambda m: "Что я умею в группе" in (m.text or ""))
        for command in ("/durak", "/settings", "/rules", "/stats", "/me", "/stop"):
            assert command in (shown.text or "")
        await tg.send_text(anna, group, "/start")
        await tg.wait_for(lambda: len(tg.messages(group)) >= 4, what="help after /start")
        assert "Что я умею в группе" in (latest(tg, group).text or "")
        await tg.send_text(anna, group, "/me")
        await tg.wait_for_message(
            group, lambda m: "нет сыгранных партий в этом чате" in (m.text or "")
        )
    in_groups = tg.commands({"type": "all_group_chats"})
    assert "help" in {c["command"] for c in in_groups}
