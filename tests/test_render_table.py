"""The group's table message and the result: whose move it is first, the trump line,
the right words at the end, teams, timeouts, and lobby labels a phone shows uncut."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from bot import render, rules_text
from bot.i18n import LANGS
from bot.keyboard import Keyboard
from engine import Action, Rules, State
from engine.actions import ACCUSE, BACK, DONE, PASS, QUIT, THROW
from engine.presets import PRESETS
from engine.rules import DECK_PLAYERS
from service import TableSettings
from service.lobby_rules import with_preset
from storage.records import Seat, SeatKind
from tests.helpers import act, game, outcome_of
from tests.records import lobby_record

NAMES = ["Аня", "Борис", "Вика", "Гена"]

NB = "\u00a0"  # a space a line never breaks at


def finished(rules: Rules, seed: int, *, want_draw: bool = False) -> State:
    """A random game played to its end (the first seed from ``seed`` that draws, if
    ``want_draw``)."""
    for s in itertools.count(seed):
        state, rng = State(rules, s), random.Random(s)
        while state.outcome is None:
            state.apply(rng.choice(state.all_legal_actions()))
        if outcome_of(state).draw == want_draw:
            return state
    raise AssertionError  # pragma: no cover


def seat_lines(text: str, names: list[str]) -> dict[str, str]:
    return {n: line for line in text.split("\n") for n in names if line.startswith(f"<b>{n}</b>")}


def test_the_fool_is_the_fool_and_only_those_without_cards_are_without_cards() -> None:
    state = finished(Rules(players=3), 1)
    fool = outcome_of(state).fools[0]
    lines = seat_lines(render.table_message("ru", state.view(), NAMES[:3], [False] * 3), NAMES)
    assert lines[NAMES[fool]].endswith("— 🃏 дурак") and "без карт" not in lines[NAMES[fool]]
    assert f"{state.view().hand_sizes[fool]} карт" in lines[NAMES[fool]]
    for seat in set(range(3)) - {fool}:
        place = outcome_of(state).places[seat]
        assert lines[NAMES[seat]] == f"<b>{NAMES[seat]}</b> — без карт, {place}-е место"
    summary = render.outcome_text("ru", outcome_of(state), NAMES[:3])
    assert summary.startswith(f"🃏 Партия окончена. Дурак — {NAMES[fool]}!")


def test_a_surrender_is_told_as_one_and_the_others_keep_their_cards() -> None:
    state = State(Rules(players=3), 4)
    state.apply(Action(1, QUIT))
    view = state.view()
    lines = seat_lines(render.table_message("ru", view, NAMES[:3], [False] * 3), NAMES)
    assert lines["Борис"] == "<b>Борис</b> — 6 карт — 🏳 сдаётся"  # not «сдача»: the deal
    assert lines["Аня"] == "<b>Аня</b> — 6 карт — 1-е место"  # cards in hand: not «без карт»
    summary = render.outcome_text("ru", outcome_of(state), NAMES[:3])
    assert summary.split("\n")[0] == "🃏 Партия окончена: Борис сдаётся и остаётся в дураках."
    assert render.outcome_text("en", outcome_of(state), NAMES[:3]).startswith(
        "🃏 Game over: Борис gives up and is the fool."
    )


def test_a_surrender_in_a_team_game_names_who_gave_up_and_the_winning_team() -> None:
    state = State(Rules(players=4, teams=True), 4)
    state.apply(Action(3, QUIT))
    lines = seat_lines(render.table_message("ru", state.view(), NAMES, [False] * 4), NAMES)
    assert lines["Гена"].endswith("— 🏳 сдаётся") and lines["Борис"].endswith("— 🃏 дурак")
    assert lines["Аня"].endswith("— победа")
    assert render.outcome_text("ru", outcome_of(state), NAMES) == (
        "🃏 Партия окончена: Гена сдаётся. Победили Аня + Вика, в дураках — Борис + Гена."
    )


def test_a_draw_is_a_draw_for_everyone() -> None:
    state = finished(Rules(players=2), 1, want_draw=True)
    text = render.table_message("ru", state.view(), NAMES[:2], [False] * 2)
    assert seat_lines(text, NAMES) == {"Аня": "<b>Аня</b> — ничья", "Борис": "<b>Борис</b> — ничья"}
    assert "0 карт" not in text and text.startswith("🏁 <b>Партия окончена</b>")
    summary = render.outcome_text("ru", outcome_of(state), NAMES[:2])
    assert summary == "🤝 Ничья: дурака нет, выиграли все."


def test_teams_are_shown_at_the_table_and_the_result_names_the_winning_team() -> None:
    state = finished(Rules(players=4, teams=True), 3)
    fools = outcome_of(state).fools
    text = render.table_message("ru", state.view(), NAMES, [False] * 4)
    assert "Команды: Аня + Вика против Борис + Гена" in text
    lines = seat_lines(text, NAMES)
    for seat, name in enumerate(NAMES):
        assert lines[name].endswith("🃏 дурак" if seat in fools else "— победа"), lines[name]
    won, lost = ("Борис + Гена", "Аня + Вика") if 0 in fools else ("Аня + Вика", "Борис + Гена")
    summary = render.outcome_text("ru", outcome_of(state), NAMES)
    assert summary == f"🃏 Партия окончена. Победили {won}, в дураках — {lost}."
    assert "Места:" not in summary and "1." not in summary  # places mean nothing here


def test_the_summary_shows_the_series_score_and_names_givers_with_and() -> None:
    state = finished(Rules(players=3), 1)
    pogony = [(s, outcome_of(state).fools[0]) for s in range(3) if s != outcome_of(state).fools[0]]
    text = render.outcome_text("ru", outcome_of(state), NAMES[:3], pogony, [3, 1, 0])
    assert text.endswith(
        f"Счёт: Аня{NB}—{NB}<b>3</b> · Борис{NB}—{NB}<b>1</b> · Вика{NB}—{NB}<b>0</b>"
    )
    with_bots = ["Аня", "Опытный 1", "Опытный 2"]
    bots = render.outcome_text("ru", outcome_of(state), with_bots, (), [0, 2, 1])
    assert bots.endswith(
        f"Опытный{NB}1{NB}—{NB}<b>2</b> · Опытный{NB}2{NB}—{NB}<b>1</b>"
    )  # not «Опытный 1 2»

    givers = " и ".join(NAMES[g] for g, _ in pogony)
    assert f"вешают {givers}" in text
    assert render.names_list("ru", ["Аня", "Борис", "Вика"]) == "Аня, Борис и Вика"
    assert render.names_list("en", ["Anna", "Boris"]) == "Anna and Boris"


def test_a_players_name_and_wins_never_part_at_a_lines_end() -> None:
    """On a phone the score wraps: only between players (« · »), never inside «Мастер 2 —
    1» (a wrap there reads as «Мастер» with 2, or a line that starts with «— 1»)."""
    line = render.score_line(["Аня", "Мастер 1", "Мастер 2"], [0, 1, 1])
    assert line.split(" · ") == [
        f"Аня{NB}—{NB}<b>0</b>", f"Мастер{NB}1{NB}—{NB}<b>1</b>", f"Мастер{NB}2{NB}—{NB}<b>1</b>"
    ]  # fmt: skip


def test_a_fixed_diamond_trump_shows_the_suit_and_the_turned_card_apart() -> None:
    state = game(["7S 6D", "8S 9C"], trump="JC", stock="QH KH", fixed_trump="diamonds")
    text = render.table_message("ru", state.view(), NAMES[:2], [False] * 2)
    assert text.split("\n")[1].startswith("Козырь: всегда ♦️ (открыта В♣️) · В колоде: 3")
    plain = game(["7S 6D", "8S 9C"], trump="JC", stock="QH KH")
    assert (
        render.table_message("ru", plain.view(), NAMES[:2], [False] * 2)
        .split("\n")[1]
        .startswith("Козырь: В♣️ · ")
    )
    bare = game(["7S 6D", "8S 9C"], trump="JC", stock="QH KH", no_trump=True)
    assert "Без козырей (открыта В♣️)" in render.table_message(
        "ru", bare.view(), NAMES[:2], [False] * 2
    )


def test_whose_move_it_is_comes_first_with_the_seconds_of_a_move_without_a_timer() -> None:
    state = game(["7S 6D", "8S 9C"], trump="6H", stock="QH KH", speed="fast")
    text = render.table_message("ru", state.view(), NAMES[:2], [False] * 2)
    assert text.split("\n")[0] == "⏳ <b>Ходит Аня · 15 с на ход</b>"
    act(state, "0 a 7S")
    text = render.table_message("en", state.view(), NAMES[:2], [False] * 2)
    assert text.split("\n")[0] == "⏳ <b>Борис to defend · 15 s a move</b>"
    act(state, "1 d 8S>7S")
    text = render.table_message("ru", state.view(), NAMES[:2], [False] * 2)
    assert "На столе: 7♠️\u00a0/\u00a08♠️" in text  # a pair never wraps; suits in colour
    assert "Борис: 8♠️ на 7♠️" in text


def test_only_a_real_timeout_is_labelled_time_ran_out() -> None:
    """Checked against the engine: an automatic attack or defence is a timeout's when
    its seat was not yet handed to a bot (``State.idle``) before it; words are not."""
    for seed in range(30):
        state, rng = State(Rules(players=3), seed), random.Random(seed)
        truth = []
        while state.outcome is None:
            action = rng.choice(state.all_legal_actions())
            auto = action.seat != 2 and rng.random() < 0.7  # seats 0 and 1 often time out
            counted = action.kind not in (THROW, DONE, PASS, QUIT, BACK, ACCUSE)
            truth.append(auto and counted and not state.idle(action.seat))
            state.apply(action, auto=auto)
        assert render.timed_out(state.view()) == truth
    assert any(a and not b for a, b in zip(state.auto, truth, strict=True))  # stand-ins moved


# ------------------------------------------------------------------ lobby labels


def rows_of(markup: Keyboard) -> list[list[str]]:
    return [[b.text for b in row] for row in markup.rows]


@pytest.mark.parametrize("lang", LANGS)
def test_no_lobby_or_rules_page_label_is_cut_on_a_phone(lang: str) -> None:
    seen = 0
    for mode, deck, seats, throw_in, speed, bots in itertools.product(
        ("podkidnoy", "perevodnoy"), (24, 36, 52), (2, 4, 6), ("all", "neighbors"),
        ("normal", "fast"), ("novice", "expert", "master"),
    ):  # fmt: skip
        if seats > DECK_PLAYERS[deck][1]:
            continue
        s = TableSettings(mode, deck, seats, throw_in, seats in (4, 6), speed, bots)
        table = lobby_record(2**40, s, [Seat(SeatKind.HUMAN, "Аня", 1)])
        pages = [render.lobby(lang, table, "Аня")[1]]
        for key in PRESETS:
            table = replace(table, settings=with_preset(s, key, 0))
            pages += [rules_text.rules_page(lang, table, p)[1] for p in ("rules", "house")]
        for markup in pages:
            for row in rows_of(markup):
                assert rules_text.fits(row), row
                seen += 1
    assert seen > 1000


def test_every_setting_button_shows_its_value() -> None:
    s = TableSettings("perevodnoy", 52, 4, "neighbors", True, "fast", "master")
    table = lobby_record(1, s)
    labels = [label for row in rows_of(render.lobby("ru", table, "Аня")[1]) for label in row]
    for label in ("Переводной", "Колода: 52", "4 места", "Пары: да", "Подкидывают соседи"):
        assert label in labels
    assert "⏱ 15 с на ход" in labels and "🤖 Мастер" in labels
    text = render.lobby("ru", table, "Аня")[0]
    assert "⏱ Быстрая игра: 15 с на ход, 5 с на подкидывание" in text
    assert "1. — свободно — · команда 1" in text and "2. — свободно — · команда 2" in text
