"""End to end: the lobby's buttons and the preset's answer, a newcomer through the deep
link, and the group's messages of a 3-player game and a pairs game as people read them."""

from __future__ import annotations

import re
from pathlib import Path

from bot.callbacks import LobbyCb, LobbyOp
from bot.rules_text import fits
from tests.e2e_helpers import (
    TOKEN,
    latest,
    open_table,
    play_to_the_end,
    running_bot,
    seat_everyone,
    settle,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.helpers import outcome_of
from tests.service_helpers import held


async def press(
    tg: FakeTelegram, user: FakeUser, group: FakeChat, op: str, arg: str = ""
) -> str | None:
    data = LobbyCb(table=1, op=LobbyOp(op), arg=arg).pack()
    return (await (await tg.press(user, latest(tg, group), data))).text


def friends(tg: FakeTelegram, count: int) -> tuple[list[FakeUser], FakeChat]:
    names = ("Аня", "Борис", "Вика", "Гена")[:count]
    users = [tg.add_user(i, name) for i, name in enumerate(names, 1)]
    group = tg.add_group(-100, "Друзья", members=users)
    return users, group


def labels(tg: FakeTelegram, message: FakeMessage) -> list[list[str]]:
    return [[text for text, _ in row] for row in tg.keyboard(message)]


def results(tg: FakeTelegram, group: FakeChat) -> tuple[FakeMessage, FakeMessage]:
    """The game's table message (its last state) and the summary after it."""
    messages = tg.messages(group)
    ends = ("🃏 Партия окончена.", "🤝 Ничья")
    summary = next(m for m in reversed(messages) if (m.text or "").startswith(ends))
    table = next(m for m in reversed(messages) if (m.text or "").startswith("🏁"))
    return table, summary


async def test_the_lobby_fits_a_phone_at_every_number_of_seats(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        (anna, _), group = friends(tg, 2)
        async with running_bot(tg, tmp_path / "db.sqlite3") as app:
            lobby = await open_table(tg, app, group, anna)
            for seats in (2, 3, 4, 5, 6):
                rows = labels(tg, lobby)
                assert f"{seats} " in rows[3][0] and all(fits(row) for row in rows)
                assert len(rows) == (5 if seats < 4 else 6), rows  # it was 7
                shown = [label for row in rows for label in row]
                assert ("Пары: нет" in shown or "Команды: нет" in shown) == (seats in (4, 6))
                assert ("Подкидывают все" in shown) == (seats > 3)  # neighbours are all, else
                cards = (lobby.text or "").split("\n")[-1]  # for everyone: no advice for the owner
                assert cards.startswith("🃏 Карты") and len(cards) < 60, cards
                assert len((lobby.text or "").split("\n")) == 12  # the free seats in one line
                await press(tg, anna, group, "set", "seats")
                await settle(app)
            assert len(labels(tg, lobby)) == 5  # round to two seats again
        assert tg.unanswered_callbacks() == []


async def test_a_lobby_a_newcomer_by_link_and_a_three_player_game(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    (anna, boris, vika), group = friends(tg, 3)
    for user in (anna, boris):
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        lobby = await open_table(tg, app, group, anna)
        assert all(fits(row) for row in labels(tg, lobby))
        assert await press(tg, anna, group, "set", "seats") == "Теперь: 3 места."
        await press(tg, anna, group, "rules")
        await settle(app)
        assert await press(tg, anna, group, "preset", "transfer_cheating") == (
            "Выбрано: «Переводной с мухлежом» — теперь переводной."
        )
        await settle(app)
        assert await press(tg, anna, group, "preset", "classic") == (
            "Выбрано: «Классика» — теперь подкидной."
        )
        await press(tg, anna, group, "back")
        await settle(app)
        lobby = latest(tg, group)
        assert "Подкидной · 36 карт · 3 места\n" in (lobby.text or "")  # all are neighbours
        assert ["3 места", "⏱ 30 с на ход"] in labels(tg, lobby)  # and no pairs
        await seat_everyone(tg, app, group, [anna, boris])
        assert app.service.game_of(1) is None  # a seat is still free
        token = (await app.tables.get(1)).join_token
        tg.start_private(vika, f"join_{token}")
        welcome = await tg.wait_for_message(
            tg.private(vika), lambda m: "за столом" in (m.text or "")
        )
        assert welcome.text == (
            "Вы за столом в группе «Друзья», место 3 из 3. Когда партия начнётся, "
            "карты придут сюда, в этот чат."
        )
        await tg.wait_for(lambda: app.service.game_of(1) is not None)  # every seat taken
        await settle(app)
        table = latest(tg, group)
        assert (table.text or "").split("\n")[0].startswith("⏳ Ходит ")
        await play_to_the_end(tg, app, group, [anna, boris, vika])
        await settle(app)
        table, summary = results(tg, group)
        outcome = outcome_of(held(app.service, 1).state)
        if not outcome.draw:
            fool = ("Аня", "Борис", "Вика")[outcome.fools[0]]
            assert f"{fool} — " in (table.text or "") and (table.text or "").count("🃏 дурак") == 1
            assert (summary.text or "").startswith(f"🃏 Партия окончена. Дурак — {fool}")
        assert not re.search(r"(?<!\d)0 карт", table.text or "")  # «без карт», not «0 карт»
        assert "Места:" in (summary.text or "") or outcome.draw
        assert labels(tg, summary) == [["Ещё партию"]]


async def test_a_pairs_game_shows_the_teams_and_the_winning_team(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    users, group = friends(tg, 4)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, users[0])
        for _ in range(2):
            await press(tg, users[0], group, "set", "seats")
            await settle(app)  # «Пары» come with the fourth seat
        assert await press(tg, users[0], group, "set", "pairs") == "Теперь: парами."
        await settle(app)
        lobby = latest(tg, group)
        assert "1. — свободно — · команда 1" in (lobby.text or "") and [
            "4 места",
            "Пары: да",
        ] in labels(tg, lobby)
        await seat_everyone(tg, app, group, users)
        assert "Команды: Аня + Вика против Борис + Гена" in (latest(tg, group).text or "")
        await play_to_the_end(tg, app, group, users)
        await settle(app)
        table, summary = results(tg, group)
        outcome = outcome_of(held(app.service, 1).state)
        if not outcome.draw:
            won = "Борис + Гена" if 0 in outcome.fools else "Аня + Вика"
            assert (summary.text or "").startswith(f"🃏 Партия окончена. Победили {won}, в дураках")
            assert (table.text or "").count("— победа") == 2 and (table.text or "").count(
                "🃏 дурак"
            ) == 2
        assert "Места:" not in (summary.text or "")
