"""End to end: presets and options chosen in the lobby, «Ещё партию» under «Дурак онлайн»
(against the last fool, with «погоны»), and a transfer by a shown trump."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import LobbyCb, LobbyOp
from service.tables import rules_for
from tests.e2e_helpers import (
    PRIORITY,
    TOKEN,
    latest,
    open_table,
    play_round,
    play_to_the_end,
    running_bot,
    seat_everyone,
    settle,
    two_friends,
)
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.helpers import outcome_of
from tests.service_helpers import held


def lobby(op: str, arg: str = "") -> str:
    return LobbyCb(table=1, op=LobbyOp(op), arg=arg).pack()


async def press(tg: FakeTelegram, user: FakeUser, message: FakeMessage, data: str) -> str | None:
    return (await (await tg.press(user, message, data))).text


def labels(tg: FakeTelegram, message: FakeMessage) -> list[str]:
    return [text for row in tg.keyboard(message) for text, _ in row]


async def test_a_game_with_a_preset_chosen_in_the_lobby(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        message = await open_table(tg, app, group, anna)
        assert "Правила: Классика" in (message.text or "")
        assert await press(tg, boris, message, lobby("rules")) == (
            "Правила меняет только создатель стола. Какие они сейчас — /rules."
        )
        assert await press(tg, anna, message, lobby("set", "mode")) == "Теперь: переводной."
        await press(tg, anna, message, lobby("rules"))
        await settle(app)
        assert "Правила стола" in (message.text or "") and "✓ Классика" in labels(tg, message)
        assert await press(tg, boris, message, lobby("preset", "duraka_net")) == (
            "Это может только создатель стола."
        )
        assert await press(tg, anna, message, lobby("preset", "duraka_net")) == (
            "Выбрано: «DURAKA.NET» — теперь подкидной."  # it was perevodnoy
        )
        await settle(app)
        assert "✓ DURAKA.NET" in labels(tg, message)
        assert "Правила: DURAKA.NET — заходят одной картой" in (message.text or "")
        await press(tg, anna, message, lobby("rules", "house"))
        await settle(app)
        assert "Домашние правила" in (message.text or "")
        assert await press(tg, anna, message, lobby("opt", "no_trump")) == "«Бескозырка»: включено."
        await settle(app)
        assert "✅ Бескозырка" in labels(tg, message)
        assert await press(tg, anna, message, lobby("opt", "fixed_trump")) == (
            "Так нельзя: в бескозырной игре не бывает постоянного козыря — выключите одно из двух"
        )
        await press(tg, anna, message, lobby("opt", "no_trump"))
        await press(tg, anna, message, lobby("rules"))  # «Назад» from the house rules
        await press(tg, anna, message, lobby("back"))
        await settle(app)
        assert "Стол для игры" in (message.text or "") and "Правила…" in labels(tg, message)
        assert "Подкидной · 36 карт · 2 места" in (message.text or "")  # the preset set them
        assert await press(tg, anna, message, lobby("set", "seats")) == (
            "Так нельзя: «DURAKA.NET» — игра для 2 игроков. "
            "Чтобы играть иначе, нажмите «Правила…» и выберите «Классику»."
        )
        await seat_everyone(tg, app, group, [anna, boris])
        rules = held(app.service, 1).state.rules
        assert rules.single_card_opening and rules.no_trump_opener == "random"
        assert "Правила: DURAKA.NET" in (latest(tg, group).text or "")
        await tg.send_text(boris, group, "/rules")
        explained = await tg.wait_for_message(group, lambda m: "Набор правил" in (m.text or ""))
        assert "Набор правил: DURAKA.NET." in (explained.text or "")
        assert "Кон начинают одной картой" in (explained.text or "")
        await play_to_the_end(tg, app, group, [anna, boris])
        await tg.send_text(anna, group, "/durak")  # the chat remembers the rules
        await tg.send_text(anna, group, "/stop")
        await tg.wait_for_message(group, lambda m: m.text == "Стол закрыт.")
        await tg.send_text(anna, group, "/durak")
        again = await tg.wait_for_message(
            group, lambda m: "Стол для игры" in (m.text or "") and m is not message
        )
        assert "Правила: DURAKA.NET" in (again.text or "")
    assert tg.unanswered_callbacks() == []


async def test_the_house_rules_page_says_what_each_rule_does(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        anna, _, group = two_friends(tg)
        async with running_bot(tg, tmp_path / "db.sqlite3") as app:
            message = await open_table(tg, app, group, anna)
            for arg in ("", "house"):
                await press(tg, anna, message, lobby("rules", arg))
                await settle(app)
            lines = (message.text or "").split("\n")
            rules = [label[2:] for label in labels(tg, message) if label[:2] in ("✅ ", "⬜ ")]
            assert len(rules) == 7
            for rule in rules:  # a line for each button, named as the button is
                [line] = [x for x in lines if x.startswith(rule.split(":")[0])]
                assert len(line) > len(rule) + 15, line  # and what it does
            assert "Вини винями — пику бьют только старшей пикой, даже козырем нельзя." in lines
            assert "Выберите набор правил" not in (message.text or "")  # no presets on this page
        assert tg.unanswered_callbacks() == []


async def test_the_next_game_of_durak_online_opens_against_the_last_fool(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис"), tg.add_user(3, "Вика")]
    group = tg.add_group(-100, "Друзья", members=users)
    for user in users:
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: 112  # a deal where Борис hangs pogony on Вика
        message = await open_table(tg, app, group, users[0])
        await press(tg, users[0], message, lobby("set", "seats"))
        await press(tg, users[0], message, lobby("rules"))
        await press(tg, users[0], message, lobby("preset", "durak_online"))
        await press(tg, users[0], message, lobby("back"))
        await settle(app)
        await seat_everyone(tg, app, group, users)
        table_message = latest(tg, group)
        assert "Правила: Дурак онлайн — подкидывают по кругу" in (table_message.text or "")
        await play_to_the_end(tg, app, group, users)
        first = outcome_of(held(app.service, 1).state)
        assert first.fools == (2,) and first.pogony == (1,)
        summary = latest(tg, group)
        assert "Дурак — Вика" in (summary.text or "")
        assert "🎖 Вика получает погоны — вешает Борис" in (summary.text or "")
        await press(tg, users[1], summary, lobby("again"))
        await settle(app)
        second = held(app.service, 2).state
        assert (second.attacker, second.defender, second.last_fool) == (1, 2, 2)
        assert second.pogony_ranks == (4, 5, 4)  # Борис's pogony are sevens now
        assert "Ходит Борис" in (latest(tg, group).text or "")
        rebuilt = await app.service.rebuild_from_log(2)
        assert rebuilt.to_dict() == second.to_dict()
        await tg.send_text(users[1], group, "стата")
        stats = await tg.wait_for_message(group, lambda m: "Статистика чата" in (m.text or ""))
        assert "погоны: выдано 1, получено 0" in (stats.text or "")
        assert "погоны: выдано 0, получено 1" in (stats.text or "")
    assert tg.unanswered_callbacks() == []


async def test_a_transfer_by_showing_a_trump_from_the_hand_keyboard(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: 1  # an early chance to show a trump
        message = await open_table(tg, app, group, anna)
        await press(tg, anna, message, lobby("set", "mode"))
        await press(tg, anna, message, lobby("rules"))
        await press(tg, anna, message, lobby("preset", "durak_online"))
        await press(tg, anna, message, lobby("back"))
        await settle(app)
        assert rules_for((await app.tables.get(1)).settings, 2).transfer_by_trump_show
        await seat_everyone(tg, app, group, [anna, boris])
        live = held(app.service, 1)
        for _ in range(40):  # a player shows a trump as soon as their keyboard offers it
            if any(a.kind == "s" for a in live.state.history):
                break
            await play_round(tg, app, [anna, boris], ("↪ показать", *PRIORITY))
        history, auto = live.state.history, live.state.auto
        shows = [a for i, a in enumerate(history) if a.kind == "s" and not auto[i]]
        assert shows, "nobody pressed a show"
        card = shows[0].cards[0].label("ru")
        assert shows[0].cards[0].suit == live.state.trump
        shower = (anna, boris)[shows[0].seat]
        assert f"{shower.first_name} переводит, показав {card}" in (latest(tg, group).text or "")
    assert tg.unanswered_callbacks() == []


async def test_group_commands_speak_the_tables_language(tg: FakeTelegram, tmp_path: Path) -> None:
    anna, boris = tg.add_user(1, "Anna", language_code="en"), tg.add_user(2, "Борис")
    group = tg.add_group(-100, "Friends", members=[anna, boris])
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await tg.send_text(anna, group, "/durak")
        await tg.wait_for_message(group, lambda m: "A Durak table" in (m.text or ""))
        await tg.send_text(boris, group, "/rules")
        rules = await tg.wait_for_message(group, lambda m: "Preset: Classic." in (m.text or ""))
        assert "No optional rules." in (rules.text or "")
        await tg.send_text(boris, group, "/stats")
        await tg.wait_for_message(group, lambda m: (m.text or "").startswith("No game has been"))
        await tg.send_text(boris, group, "/stop")
        await tg.wait_for_message(group, lambda m: "can be closed by its creator" in (m.text or ""))
        await tg.send_text(anna, group, "/stop")
        await tg.wait_for_message(group, lambda m: m.text == "The table is closed.")
        await settle(app)
