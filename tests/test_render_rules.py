"""Rendering the optional rules: the rules line, /rules, the lobby's rules pages, the
transfer by a shown trump, who may throw in now, and «погоны» in the result."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot import render, render_hand, rules_text
from bot.callbacks import LobbyCb, LobbyOp, MoveCb
from bot.i18n import LANGS, t
from bot.keyboard import Keyboard
from engine import Action, Outcome, State
from engine.presets import durak_online
from service import TableSettings
from service.lobby_rules import OPTIONS, table_rules, with_option, with_preset
from storage.records import TableRecord
from tests.helpers import act, game
from tests.records import lobby_record

NAMES = ["Аня", "Борис", "Вика"]
ONLINE = with_preset(TableSettings(), "durak_online", 0)


def buttons(markup: Keyboard | None) -> list[tuple[str, str]]:
    assert markup is not None, "no buttons"
    return [(b.text, b.data or "") for row in markup.rows for b in row]


def test_the_rules_line_names_the_preset_and_the_options_in_force() -> None:
    line = rules_text.lobby_rules_line("ru", replace(ONLINE, mode="perevodnoy"))
    assert line == (
        "Правила: Дурак онлайн — подкидывают по кругу, первый кон без перевода, "
        "перевод показом козыря, ходят под дурака, погоны"
    )
    podkidnoy = rules_text.lobby_rules_line("ru", ONLINE)  # no transfers to speak of
    assert "перевод" not in podkidnoy and "погоны" in podkidnoy
    custom = with_option(ONLINE, "pogony")
    assert rules_text.lobby_rules_line("ru", custom).startswith(
        "Правила: свои, на основе «Дурака онлайн» — подкидывают по кругу"
    )
    assert rules_text.lobby_rules_line("ru", TableSettings()) == "Правила: Классика"
    assert rules_text.lobby_rules_line("en", ONLINE).startswith("Rules: Durak Online — ")


@pytest.mark.parametrize("lang", LANGS)
def test_every_option_value_has_its_words(lang: str) -> None:
    for name, values in OPTIONS.items():
        for value in values:
            assert rules_text.option_label(lang, name, value)
            key = rules_text._key(name, value)
            if value != values[0]:
                assert t(lang, f"rule.{key}") and t(lang, f"explain.{key}")


def test_rules_explains_each_option_of_the_table() -> None:
    settings = with_option(replace(ONLINE, mode="perevodnoy"), "spades_by_spades")
    text = rules_text.explained("ru", table_rules(settings), settings)
    assert "переводного" in text and "свои, на основе «Дурака онлайн»" in text
    assert text.count("\n• ") == 6
    assert "показав козырь того же достоинства" in text and "пику бьют только" in text
    plain = rules_text.explained("ru", table_rules(TableSettings()), TableSettings())
    assert "Дополнительных правил нет." in plain


def lobby_table(settings: TableSettings) -> TableRecord:
    return lobby_record(123456789, settings)


def test_the_lobby_opens_the_rules_pages_and_every_button_does_something() -> None:
    text, markup = render.lobby("ru", lobby_table(ONLINE), "Аня")
    assert "Правила: Дурак онлайн — подкидывают по кругу" in text
    assert ("Правила…", LobbyCb(table=123456789, op=LobbyOp.RULES).pack()) in buttons(markup)
    seen = set()
    for settings in (ONLINE, replace(ONLINE, mode="perevodnoy")):
        for page in ("rules", "house"):
            text, markup = rules_text.rules_page("ru", lobby_table(settings), page)
            for _, data in buttons(markup):
                assert len(data.encode()) <= 64
                cb = LobbyCb.unpack(data)
                assert cb.op in ("preset", "opt", "rules", "back") and cb.table == 123456789
                seen.add((cb.op, cb.arg))
                if cb.op == "opt":
                    assert cb.arg in OPTIONS
    assert {arg for op, arg in seen if op == "opt"} == set(OPTIONS)
    assert {arg for op, arg in seen if op == "preset"} == {
        "classic", "duraka_net", "transfer_cheating", "durak_online"
    }  # fmt: skip
    text, markup = rules_text.rules_page("ru", lobby_table(ONLINE), "rules")
    labels = [label for label, _ in buttons(markup)]
    assert "✓ Дурак онлайн" in labels and "Подкидывают по кругу" in labels
    assert "✅ Погоны" in labels and "⬜ Ход одной картой" in labels
    assert "✅ Перевод показом" not in labels  # podkidnoy: no transfer options to press
    _, markup = rules_text.rules_page("ru", lobby_table(ONLINE), "house")
    assert "⬜ Вини винями" in [label for label, _ in buttons(markup)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_house_rules_page_has_a_line_for_each_rule(lang: str) -> None:
    text, markup = rules_text.rules_page(lang, lobby_table(ONLINE), "house")
    lines = text.split("\n")
    for label, _ in buttons(markup)[:-1]:  # every rule but «Назад»
        name = label[2:].split(":")[0]
        assert sum(x.startswith(f"<b>{name}") for x in lines) == 1, (name, text)


def test_a_pressed_setting_or_option_is_answered_with_its_new_value() -> None:
    """For the lobby's handler to answer with (as the bots' press does), not «Готово.»."""
    s = TableSettings("perevodnoy", 36, 4, "neighbors", True, "fast")
    answers = {name: render.setting_answer("ru", s, name) for name in ("mode", "seats", "pairs")}
    assert answers == {
        "mode": "Теперь: переводной.", "seats": "Теперь: 4 места.", "pairs": "Теперь: парами."
    }  # fmt: skip
    assert render.setting_answer("ru", s, "speed") == (
        "Теперь: ⏱ Быстрая игра: 15 с на ход, 5 с на подкидывание."
    )
    assert render.setting_answer("en", s, "throw_in") == "Now: neighbours throw in."
    custom = with_option(with_option(TableSettings(), "spades_by_spades"), "throw_in_order")
    assert rules_text.option_answer("ru", custom, "spades_by_spades") == "«Вини винями»: включено."
    assert rules_text.option_answer("ru", custom, "pogony") == "«Погоны»: выключено."
    assert rules_text.option_answer("en", custom, "throw_in_order") == (
        "Now: attacker throws in first."
    )
    for lang in LANGS:
        for name in OPTIONS:
            assert rules_text.option_answer(lang, custom, name) != t(lang, "answer.ok")


def test_teams_of_three_are_named_so() -> None:
    text, _ = render.lobby("ru", lobby_table(TableSettings(seats=6, pairs=True)), "Аня")
    assert "6 мест · подкидывают все · командами по трое" in text
    text, _ = render.lobby("ru", lobby_table(TableSettings(seats=4, pairs=True)), "Аня")
    assert "4 места · подкидывают все · парами" in text


def test_the_defender_may_transfer_by_showing_a_trump() -> None:
    state = game(["7S 8D", "7H 7C 10S", "9S JS QS KS"], trump="6H", stock="QD KD",
                 players=3, mode="perevodnoy", transfer_by_trump_show=True)  # fmt: skip
    act(state, "0 a 7S")
    drawn = render_hand.hand("ru", state.view(1), 5)
    text, markup = drawn.text, drawn.markup
    moves = {label: MoveCb.unpack(d).a for label, d in buttons(markup) if d.startswith("m:")}
    assert moves["↪ показать 7♥️"] == "s 7H"
    assert moves["↪ 7♥️"] == "x 7H" and moves["↪ 7♣️"] == "x 7C"
    act(state, "1 s 7H")
    text = render.table_message("ru", state.view(), NAMES, [False] * 3)
    assert "Борис переводит, показав 7♥️" in text
    assert render.action_words("en", Action(1, "s", state.history[-1].cards), NAMES) == (
        "Борис transfers by showing 7♥️"
    )


def test_an_action_of_an_unknown_kind_is_shown_by_its_text() -> None:
    assert render.action_words("ru", Action(0, "zz"), NAMES) == "Аня: zz"


def test_only_who_may_throw_in_now_is_marked() -> None:
    state = game(["7S 8H", "8S 9C", "7D 10S"], trump="6H", stock="QD KD",
                 players=3, throw_in_order="circle")  # fmt: skip
    act(state, "0 a 7S")
    act(state, "1 d 8S>7S")
    text = render.table_message("ru", state.view(), NAMES, [False] * 3)
    assert "Вика</b> — 2 карты — подкидывает" in text
    assert "Подкидывает Вика" in text and "Аня</b> — 1 карта — ходит" in text


@pytest.mark.parametrize("order", ["free", "attacker_first", "circle"])
def test_the_table_message_marks_whom_the_view_lets_throw_in(order: str) -> None:
    rng, names = random.Random(order), ["Аня", "Борис", "Вика", "Гоша"]
    for seed in range(10):
        state = State(durak_online(players=4, throw_in_order=order), seed)
        while not state.is_over:
            view = state.view()
            lines = render.table_message("ru", view, names, [False] * 4).splitlines()
            for seat, name in enumerate(names):
                line = next(x for x in lines if x.startswith(f"<b>{name}</b>"))
                others = seat not in (view.attacker, view.defender) and not view.places[seat]
                assert line.endswith("подкидывает") == (others and seat in view.may_throw)
            state.apply(rng.choice(state.all_legal_actions()))


def test_the_result_says_who_gets_pogony_from_whom() -> None:
    outcome = Outcome((2,), (1, 2, 3), pogony=(0, 1))
    text = render.outcome_text("ru", outcome, NAMES, [(0, 2), (1, 2)])
    assert "🎖 Вика получает погоны — вешают Аня и Борис" in text
    text = render.outcome_text("ru", Outcome((2,), (1, 2, 3), pogony=(0,)), NAMES, [(0, 2)])
    assert "🎖 Вика получает погоны — вешает Аня" in text
    assert "погоны" not in render.outcome_text("ru", Outcome((2,), (1, 2, 3)), NAMES)
