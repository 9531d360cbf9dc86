"""Rendering is a pure function of a view: texts, labels, buttons, no hidden cards."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot import render, render_hand
from bot.callbacks import CardCb, LobbyCb, LobbyOp, MoveCb
from bot.card_labels import card_label
from bot.config import ConfigError, zone_from_env
from bot.i18n import lang_of, t
from bot.keyboard import Keyboard
from engine import Rules, State
from engine.actions import THROW
from engine.cards import CARDS
from engine.rules import ThrowOrder
from service import Seat, TableSettings
from storage.records import SeatKind, TableRecord
from tests.helpers import act, game, outcome_of, turn_of
from tests.records import lobby_record

NAMES = ["Аня", "Борис", "Вика"]

NB = "\u00a0"  # a space a line never breaks at


def buttons(markup: Keyboard | None) -> list[tuple[str, str]]:
    """(label, data) with the suits' colour selector dropped and a playable card (its
    style) marked «• »."""
    assert markup is not None, "no buttons"
    return [
        (("• " if b.style == "success" and (b.data or "")[:2] == "c:" else "")
         + b.text.replace("\ufe0f", ""), b.data or "")
        for row in markup.rows for b in row
    ]  # fmt: skip


def test_russian_plurals_and_language_choice() -> None:
    assert [t("ru", "cards", n=n) for n in (1, 3, 5, 21)] == [
        "1 карта",
        "3 карты",
        "5 карт",
        "21 карта",
    ]
    assert t("ru", "seats", n=4) == "4 места" and t("en", "cards", n=1) == "1 card"
    assert lang_of("en-GB") == "en" and lang_of("uk") == "ru" and lang_of(None) == "ru"


def test_lobby_shows_settings_seats_and_buttons() -> None:
    table = lobby_record(
        7,
        TableSettings("perevodnoy", 36, 3, "neighbors", speed="fast"),
        [Seat(SeatKind.HUMAN, "Аня <3", 1), Seat(SeatKind.BOT, "Новичок 1")],
    )  # fmt: skip
    text, markup = render.lobby("ru", table, "Аня <3")
    assert "Переводной · 36 карт · 3 места\n" in text  # all three are neighbours
    assert "подкидывают" not in text
    assert "Аня &lt;3" in text and "🤖 Новичок 1" in text and "— свободно —" in text
    data = {text: LobbyCb.unpack(d) for text, d in buttons(markup)}
    assert data["Сесть за стол"].op == "join" and data["Начать"].op == "start"
    assert all(d.table == 7 for d in data.values())
    assert all(len(d.pack().encode()) <= 64 for d in data.values())
    assert len(markup.rows) == 5  # no pairs nor neighbours at three seats


def test_the_free_seats_of_a_lobby_take_one_line_unless_they_show_teams() -> None:
    seats = [Seat(SeatKind.HUMAN, "Аня", 1)]
    table = lobby_record(7, TableSettings(seats=6), seats)
    text, _ = render.lobby("ru", table, "Аня")
    assert "Места:\n1. Аня\n2–6. — свободно —\n\nСоздатель стола — Аня." in text
    table = replace(table, settings=TableSettings(seats=4, pairs=True))
    text, _ = render.lobby("en", table, "Anna")
    assert "1. Аня · team 1\n2. — free — · team 2\n3. — free — · team 1\n" in text


def test_hand_keyboard_sorts_by_suit_with_trumps_last_and_marks_playable_cards() -> None:
    state = game(["7H 6S AS 8C 6H", "9S 10S 9D", "JD"], trump="6H", stock="QD KD AD", players=3)
    drawn = render_hand.hand("ru", state.view(0), 5)
    text, markup = drawn.text, drawn.markup
    cards = [label for label, data in buttons(markup) if data.startswith("c:")]
    assert cards == ["• 6♠", "• Т♠", "• 8♣", "• 6♥", "• 7♥"]  # any card may open
    assert "Ваш ход" in text
    act(state, "0 a 6S")
    act(state, "1 d 9S>6S")
    drawn = render_hand.hand("ru", state.view(0), 5)
    text, markup = drawn.text, drawn.markup
    cards = [label for label, data in buttons(markup) if data.startswith("c:")]
    assert cards == ["Т♠", "8♣", "• 6♥", "7♥"]  # only a six or a nine may be thrown in
    assert [label for label, _ in buttons(markup)][-2:] == ["Бито", "⋯"]  # «Сдаться» behind it


def test_defender_keyboard_offers_take_transfer_and_target_choice() -> None:
    state = game(["7S 7D", "8S 9S 7C 6H", "10S JS QS"], trump="6H", stock="QD KD",
                 players=3, mode="perevodnoy")  # fmt: skip
    act(state, "0 a 7S 7D")
    drawn = render_hand.hand("ru", state.view(1), 5)
    text, markup = drawn.text, drawn.markup
    labels = [label for label, _ in buttons(markup)]
    assert "↪ 7♣" in labels and "Беру" in labels and "⋯" in labels
    moves = {label: MoveCb.unpack(d) for label, d in buttons(markup) if d.startswith("m:")}
    assert moves["Беру"].a == "take" and moves["↪ 7♣"].a == "x 7C"
    assert "Отбивайтесь" in text
    trump = CARDS[4 * 4 + 3]  # 6♥ beats both sevens: the player chooses
    drawn = render_hand.hand("ru", state.view(1), 5, picking=trump)
    text, markup = drawn.text, drawn.markup
    assert "Какую карту побить?" in text
    targets = {label: MoveCb.unpack(d).a for label, d in buttons(markup) if d.startswith("m:")}
    assert targets == {"Побить 7♠": "d 6H>7S", "Побить 7♦": "d 6H>7D"}
    assert CardCb.unpack(buttons(markup)[-1][1]).card == "-"


def test_table_message_shows_public_facts_and_never_a_hidden_card() -> None:
    state = State(Rules(players=3, deck=36), 12)
    for _ in range(25):
        turn = state.turn()
        if turn is None:
            break
        state.apply(state.timeout_actions()[0])
    text = render.table_message("ru", state.view(), NAMES, [False, False, state.idle(2)])
    public = set(state.view().discard) | {c for pair in state.view().table for c in pair if c}
    public.add(state.trump_card)
    known = {c for cards in state.view().known for c in cards}
    for seat in range(3):
        for card in state.view(seat).hand:
            if card not in public | known:
                assert card.label("ru") not in text.replace(state.trump_card.label("ru"), "")
    assert "Козырь:" in text and "В колоде:" in text and "Последние ходы:" in text
    for name in NAMES:
        assert name in text


def test_outcome_text_names_the_fool_and_places() -> None:
    from engine import Outcome

    text = render.outcome_text("ru", Outcome((2,), (1, 2, 3)), NAMES)
    assert "Дурак — Вика" in text and "1. Аня" in text and "3. Вика" in text
    assert "Ничья" in render.outcome_text("ru", Outcome((), (1, 1, 1), draw=True), NAMES)


def lobby_table(bots: str) -> TableRecord:
    seats = [Seat(SeatKind.HUMAN, "Аня", 1), Seat(SeatKind.BOT, "x", level="master")]
    return lobby_record(3, TableSettings(seats=3, bots=bots), seats)


def test_the_bots_button_shows_their_strength_and_goes_round_the_three() -> None:
    text, markup = render.lobby("ru", lobby_table(bots="master"), "Аня")
    assert "Боты: Мастер" in text and "2. 🤖 Мастер 1" in text
    strengths = {label: LobbyCb.unpack(d) for label, d in buttons(markup) if "bots" in d}
    assert {k: (d.op, d.arg) for k, d in strengths.items()} == {"🤖 Мастер": ("bots", "novice")}
    _, markup = render.lobby("ru", lobby_table(bots="novice"), "Аня")
    assert ("🤖 Новичок", "l:3:bots:expert") in buttons(markup)
    text, _ = render.lobby("en", lobby_table(bots="expert"), "Anna")
    assert "Bots: Expert" in text and "🤖 Master 1" in text and "A Durak table" in text


def test_bots_are_named_by_strength_and_number_in_the_table_language() -> None:
    seats = [
        Seat(SeatKind.BOT, "Новичок 1", level="novice"),
        Seat(SeatKind.HUMAN, "Аня", 1),
        Seat(SeatKind.BOT, "Мастер 2", level="master"),
    ]
    assert render.seat_names("ru", seats) == ["Новичок 1", "Аня", "Мастер 2"]
    assert render.seat_names("en", seats) == ["Novice 1", "Аня", "Master 2"]


def test_the_table_message_starts_with_whose_move_and_until_when() -> None:
    state = State(Rules(players=2, deck=36), 3)
    names = ["Аня", "Борис"]
    mover = names[turn_of(state).seats[0]]
    deadline = datetime(2024, 5, 1, 21, 4, 35, 600_000, tzinfo=ZoneInfo("Europe/Moscow"))
    view = state.view()
    text = render.table_message("ru", view, names, [False, False], deadline)
    assert text.startswith(f"⏳ <b>Ходит {mover} · до{NB}21:04:36{NB}мск</b>\n")  # to the second
    assert render.table_message("ru", view, names, [False, False], deadline) == text
    # «до 21:04:36 мск» wraps as one on a phone: never «до» at a line's end
    text = render.table_message("en", view, names, [False, False], deadline)
    assert text.startswith(f"⏳ <b>{mover} to lead · until{NB}21:04:36{NB}MSK</b>\n")
    # another zone is named by its offset; without a timer, the seconds a move has
    east = deadline.astimezone(ZoneInfo("Asia/Novosibirsk"))
    text = render.table_message("ru", view, names, [False, False], east)
    assert text.startswith(f"⏳ <b>Ходит {mover} · до{NB}01:04:36{NB}UTC+7</b>\n")
    text = render.table_message("ru", view, names, [False, False])
    assert text.startswith(f"⏳ <b>Ходит {mover} · 30 с на ход</b>\n")


def test_deadlines_are_shown_in_the_configured_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DURAK_TZ", raising=False)
    assert zone_from_env() == ZoneInfo("Europe/Moscow")
    monkeypatch.setenv("DURAK_TZ", "Asia/Novosibirsk")
    assert zone_from_env() == ZoneInfo("Asia/Novosibirsk")
    monkeypatch.setenv("DURAK_TZ", "Mars/Olympus")
    with pytest.raises(ConfigError, match="DURAK_TZ"):
        zone_from_env()


def test_a_player_out_of_cards_may_leave_the_table_while_the_others_play() -> None:
    state = game(["7S", "8S 9S", "10S JS"], trump="6H", stock="", players=3)
    act(state, "0 a 7S")
    act(state, "1 d 8S>7S")
    act(state, "2 done")
    assert state.place[0] and not state.is_over
    drawn = render_hand.hand("ru", state.view(0), 5, leave=3)
    text, markup = drawn.text, drawn.markup
    assert "не осталось карт" in text and "выйти из-за стола" in text
    assert [(label, LobbyCb.unpack(d)) for label, d in buttons(markup)] == [
        ("Выйти из-за стола", LobbyCb(table=3, op=LobbyOp.LEAVE))
    ]
    drawn = render_hand.hand("ru", state.view(0), 5)  # they left: nothing to press
    text, markup = drawn.text, drawn.markup
    assert markup is None and "Итоги будут в группе" in text


def test_the_fool_is_not_congratulated() -> None:
    state = game(["7S", "8S 9S"], trump="6H", stock="", players=2)
    act(state, "0 a 7S")
    act(state, "1 d 8S>7S")
    assert state.is_over and outcome_of(state).fools == (1,)
    for seat in (0, 1):
        drawn = render_hand.hand("ru", state.view(seat), 5, leave=3)
        text, markup = drawn.text, drawn.markup
        assert "Партия окончена" in text and "оздравля" not in text and markup is None


def test_a_thrower_is_told_when_there_is_nothing_to_throw_in() -> None:
    seen: dict[bool, str] = {}  # could throw in -> the hand's text
    for seed in range(40):
        state, pick = State(Rules(), seed), random.Random(seed)
        while state.outcome is None and len(seen) < 2:
            turn = state.turn()
            if turn is not None and turn.kind == "throw":
                view = state.view(turn.seats[0])
                seen[any(a.kind == THROW for a in view.legal)] = render_hand.hand(
                    "ru", view, 1
                ).text
            state.apply(pick.choice(state.all_legal_actions()))
    assert "<b>Подкидывайте</b> — или «" in seen[True]
    assert "Подкинуть нечего — «" in seen[False]


def test_the_table_says_who_opens_with_the_lowest_trump_until_the_first_move() -> None:
    state = next(s for seed in range(20) if (s := State(Rules(), seed)).shown is not None)
    text = render.table_message("ru", state.view(), NAMES[:2], [False, False])
    name = NAMES[state.attacker]
    assert state.shown is not None
    card = card_label(state.shown, "ru")  # in colour, as everywhere
    assert f"Первым ходит тот, у кого младший козырь ({card}): {name}." in text
    state.apply(state.legal_actions(state.attacker)[0])
    assert "младший козырь" not in render.table_message("ru", state.view(), NAMES[:2], [False] * 2)


def test_one_thrower_is_named_in_the_singular() -> None:
    rules = Rules(players=3, throw_in_order=ThrowOrder.CIRCLE)
    texts: dict[int, str] = {}  # throwers waited for -> the turn line
    for seed in range(20):
        state, pick = State(rules, seed), random.Random(seed)
        while state.outcome is None:
            turn = state.turn()
            if turn is not None and turn.kind == "throw":
                texts[len(turn.seats)] = render.table_message(
                    "ru", state.view(), NAMES, [False] * 3
                )
            state.apply(pick.choice(state.all_legal_actions()))
    assert texts and all(n == 1 for n in texts)
    assert "Подкидывает " in texts[1] and "Подкидывают " not in texts[1]
    free = State(Rules(players=3), 1)
    while (turn := free.turn()) is None or turn.kind != "throw" or len(turn.seats) < 2:
        free.apply(random.Random(len(free.history)).choice(free.all_legal_actions()))
    text = render.table_message("ru", free.view(), NAMES, [False] * 3)
    assert text.startswith("⏳ <b>Подкидывают ") and " и " in text.split("\n")[0]
