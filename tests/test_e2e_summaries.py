"""End to end: only the table's latest result keeps «Ещё партию»; an older one loses
the button, and a press on an old one is refused with a clear answer."""

from __future__ import annotations

from pathlib import Path

from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from tests.e2e_helpers import (
    open_table,
    play_round,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser

AGAIN = LobbyCb(table=1, op=LobbyOp.AGAIN).pack()
OLD = (
    "Эти итоги уже не последние: сыграть ещё можно из последнего сообщения стола — "
    "оно ниже — или командой /durak."
)


async def finish(tg: FakeTelegram, app: App, game_id: int, users: list[FakeUser]) -> None:
    for _ in range(400):
        live = app.service.live(game_id)  # (None once the ended game is let go)
        if live is None or live.state.is_over or not await play_round(tg, app, users):
            break
    await settle(app)


def summaries(tg: FakeTelegram, group: FakeChat) -> list[FakeMessage]:
    """The results (the table message says «Партия окончена — итоги ниже»)."""
    return [
        m
        for m in tg.messages(group)
        if m.text and m.text.startswith(("🃏 Партия окончена", "🤝 Ничья"))
    ]


async def lobby_again(tg: FakeTelegram, app: App, group: FakeChat, user: FakeUser) -> FakeMessage:
    """/durak after a game: the lobby posted anew below the result."""
    await tg.send_text(user, group, "/durak")
    lobby = await tg.wait_for_message(
        group, lambda m: "Начать" in [t for row in m.keyboard for t, _ in row]
    )
    await settle(app)
    return lobby


async def test_only_the_latest_result_keeps_another_game(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        await finish(tg, app, 1, [anna, boris])
        (first,) = summaries(tg, group)
        assert first.keyboard

        # A lobby below the result, a game from it, and its result: the first one's
        # «Ещё партию» is gone, and a press on it (an old client's) starts nothing.
        lobby = await lobby_again(tg, app, group, anna)
        start = LobbyCb(table=1, op=LobbyOp.START).pack()
        assert (await (await tg.press(anna, lobby, start))).text is None
        await settle(app)
        await finish(tg, app, 2, [anna, boris])
        first, second = summaries(tg, group)
        assert not first.keyboard and second.keyboard
        assert (await (await tg.press(boris, first, AGAIN, forge=True))).text == OLD
        await settle(app)
        assert app.service.live(3) is None

        # The latest result, under a lobby posted since: its button goes with the lobby,
        # and a press on it (an old client's) is refused.
        await lobby_again(tg, app, group, anna)
        assert not second.keyboard
        assert (await (await tg.press(boris, second, AGAIN, forge=True))).text == OLD
        await settle(app)
        assert not second.keyboard and app.service.live(3) is None
    assert tg.unanswered_callbacks() == []
