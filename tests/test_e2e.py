"""End to end: the real dispatcher and polling loop against a fake Bot API server."""

from __future__ import annotations

import gc
from pathlib import Path

from bot.callbacks import LobbyCb, LobbyOp, MoveCb
from tests.e2e_helpers import (
    choose,
    hand_key,
    hand_message,
    hand_of,
    latest,
    open_table,
    play_round,
    running_bot,
    settle,
)
from tests.fakes import FakeChat, FakeTelegram
from tests.service_helpers import held

GAME_OVER = ("Партия окончена", "Ничья")


def game_over(tg: FakeTelegram, group: FakeChat) -> bool:
    return any(any(w in (m.text or "") for w in GAME_OVER) for m in tg.messages(group))


async def test_a_full_two_player_game(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    group = tg.add_group(-100, "Друзья", members=[anna, boris])
    tg.start_private(anna)
    tg.start_private(boris)
    gc.unfreeze()
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        assert gc.get_freeze_count() > 0  # start-up objects are out of the collector's way
        lobby = await open_table(tg, app, group, anna)
        assert "2 места" in (lobby.text or "") and "Подкидной" in (lobby.text or "")
        for user in (anna, boris):
            join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
            answer = await (await tg.press(user, latest(tg, group), join))
            assert answer.text == "Вы за столом!"
        await settle(app)
        table_message = latest(tg, group)
        assert "Козырь:" in (table_message.text or "")  # the lobby became the table message
        for user in (anna, boris):
            assert hand_message(tg, user) is not None
        for _ in range(300):
            if game_over(tg, group) or not await play_round(tg, app, [anna, boris]):
                break
        assert game_over(tg, group)
        summary = latest(tg, group)
        assert [t for t, _ in tg.keyboard(summary)[0]] == ["Ещё партию"]
        game = held(app.service, 1).state
        assert game.is_over and len(game.history) > 10
        await tg.send_text(boris, group, "стата")
        stats = await tg.wait_for_message(group, lambda m: "Статистика чата" in (m.text or ""))
        assert "Аня — 1 партия" in (stats.text or "") and "Борис — 1 партия" in (stats.text or "")
    assert tg.unanswered_callbacks() == []
    assert tg.internal_errors == []
    # one table message in the group, edited in place; then the summary and the statistics
    bot_messages = [m for m in tg.messages(group) if m.from_user and m.from_user.is_bot]
    assert len(bot_messages) == 3
    in_groups = tg.commands({"type": "all_group_chats"})
    assert {c["command"]: c["description"] for c in in_groups}["durak"] == "Открыть стол"
    in_english = tg.commands({"type": "all_private_chats"}, language_code="en")
    assert {c["command"] for c in in_english} == {"start", "help", "me"}


async def test_joining_without_the_private_chat_uses_a_deep_link(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """Where the group cannot show a hand (a server without ephemeral messages; else see
    tests/test_e2e_ephemeral.py: the newcomer is seated and plays from the group)."""
    tg.ephemeral_api = False
    anna, vika = tg.add_user(1, "Аня"), tg.add_user(3, "Вика")
    group = tg.add_group(-100, "Друзья", members=[anna, vika])
    tg.start_private(anna)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        join = LobbyCb(table=1, op=LobbyOp.JOIN).pack()
        answer = await (await tg.press(vika, lobby, join))
        token = (await app.tables.get(1)).join_token
        assert answer.url == f"https://t.me/durak_test_bot?start=join_{token}"
        tg.start_private(vika, payload=f"join_{token}")
        await tg.wait_for(lambda: "Вика" in (latest(tg, group).text or ""))
        await tg.wait_for_message(  # (its reply may come after the lobby: the join shows it)
            tg.private(vika), lambda m: "Вы за столом в группе «Друзья»" in (m.text or "")
        )


async def test_forged_and_foreign_presses_get_polite_answers_and_change_nothing(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, boris, gleb = tg.add_user(1, "Аня"), tg.add_user(2, "Борис"), tg.add_user(4, "Глеб")
    group = tg.add_group(-100, "Друзья", members=[anna, boris, gleb])
    for user in (anna, boris, gleb):
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        for user in (anna, boris):
            await (await tg.press(user, lobby, LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
        await settle(app)
        before = held(app.service, 1).state.to_dict()
        owner, hand = next((u, h) for u in (anna, boris) if choose(tg, h := hand_of(tg, u)))
        data = choose(tg, hand)
        assert data is not None
        table_message = latest(tg, group)  # a stranger can only forge the data
        stranger = await (await tg.press(gleb, table_message, data, forge=True))
        assert stranger.text == "Вы не играете в этой партии."
        illegal = MoveCb(game=1, a="d 2S>3S", k=hand_key(hand)).pack()
        forged = await (await tg.press(owner, hand, illegal, forge=True))
        assert forged.text == "Сейчас так сходить нельзя."
        garbage = await (await tg.press(owner, hand, "totally:forged", forge=True))
        assert garbage.text == "Кнопка устарела: игра уже ушла дальше."
        stale = LobbyCb(table=1, op=LobbyOp.SET, arg="deck").pack()  # a lobby button, now gone
        settings = await (await tg.press(boris, lobby, stale, forge=True))
        assert settings.text == "Это может только создатель стола."
        assert held(app.service, 1).state.to_dict() == before
    assert tg.unanswered_callbacks() == []
