"""The texts read as their language writes them: plural forms, numbers, quotes, terms."""

from __future__ import annotations

import re

import pytest

from bot.handlers.commands import _standing_line
from bot.handlers.lobby import error_text
from service.rating import new_stats, rating_points
from service.tables import TableError, TableRefusal
from storage.repos import Standing, Stats
from tests.locale_files import texts


@pytest.mark.parametrize(
    ("deck", "low", "high", "cards"),
    [(24, 2, 4, "24 карты"), (36, 2, 6, "36 карт"), (52, 2, 8, "52 карты")],
)
def test_a_deck_is_named_with_the_right_plural_form(
    deck: int, low: int, high: int, cards: str
) -> None:
    e = TableError(TableRefusal.BAD_SETTINGS, reason="deck_players", deck=deck, low=low, high=high)
    assert error_text("ru", e) == f"Так нельзя: колода в {cards} — для {low}–{high} игроков"
    assert (
        error_text("en", e)
        == f"Not possible: a deck of {deck} cards is for {low} to {high} players"
    )
    e = TableError(
        TableRefusal.BAD_SETTINGS, reason="preset_deck", preset="durak_online", deck=deck
    )
    assert error_text("ru", e).startswith(f"Так нельзя: в «Дурак онлайн» играют колодой в {cards}.")


def test_a_new_players_rating_is_not_negative_after_a_lost_game() -> None:
    fresh = new_stats(-1, 1)
    lost = Stats(-1, 1, 1, 0, 1, 0, 0, 0, mu=22.4, sigma=8.0)  # mu - 3 sigma = -1.6
    assert rating_points(fresh) == 1000 and 900 < rating_points(lost) < 1000
    line = _standing_line("ru", Standing(lost, "Друзья", place=2, players=2))
    assert f"рейтинг {rating_points(lost)} — 2-е место" in line


def test_quotes_inside_quotes_are_low_quotes() -> None:
    for text in (m.text for m in texts("ru").values()):
        depth = 0
        for char in text:
            depth += {"«": 1, "»": -1}.get(char, 0)
            assert depth <= 1, text


def test_a_bout_is_a_kon_and_the_discard_pile_an_otboy() -> None:
    ru = {key: m.text for key, m in texts("ru").items()}
    assert "коне" in ru["explain-cheating"] and "кон " in ru["rule-first-bout-no-transfer"]
    # The cap of 5 lasts until the first «Бито», not just the first bout (RULES §4).
    for text in (ru["rule-no-first-bout-cap-5"], ru["opt-first-bout-cap-5"]):
        assert "«Бито»" in text and "коне" not in text
    assert not [t for t in ru.values() if "отбое" in t and "в отбое" not in t.lower()]


def test_a_sdacha_is_the_deal_never_a_surrender() -> None:
    """«Сдача» in Durak is the deal; who gave up «сдаётся» (or «сдаться», the button)."""
    ru = texts("ru")
    assert not [k for k, m in ru.items() if re.search(r"\bсдач", m.text, re.I)]
    for key in ("table-surrendered", "end-fool-surrendered", "end-team-surrendered"):
        assert "сдаётся" in ru[key].text


def test_every_suit_in_a_text_is_in_colour_and_english_quotes_are_english() -> None:
    for lang in ("ru", "en"):
        for key, m in texts(lang).items():
            bare = re.findall("[♠♣♥♦](?!\ufe0f)", m.text)
            assert not bare, (lang, key, m.text)  # red and black apart (issue 13)
    assert not [k for k, m in texts("en").items() if "«" in m.text or "»" in m.text]


def test_anyone_may_throw_in_is_said_in_good_russian() -> None:
    order = texts("ru")["opt-throw-in-order"].text
    assert "кто угодно" not in order and "Подкидывают в любом порядке" in order
