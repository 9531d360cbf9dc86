"""The hand keyboard over thousands of positions from random games: its row bound (8
rows with up to 12 cards, 10 with more), labels that fit a 360-px phone, suits in
colour, playable cards styled (or marked «✓»), callback data within 64 bytes; the
marking of several cards; why a tap makes no move."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterator
from typing import TypedDict

import pytest

from bot.callbacks import DRAFT, CardCb, CheatCb, LobbyCb, MoveCb, PageCb, packed
from bot.card_labels import VS16, card_label
from bot.hand_answers import why_not
from bot.hand_moves import markable, tap_kinds
from bot.keyboard import Keyboard
from bot.render_hand import PLAYABLE, hand, retimed
from engine import Action, Card, Rules, State
from engine.actions import BEAT
from engine.cards import sort_for_hand
from engine.rules import Mode
from tests.helpers import act, game

NAMES = ["Аня", "Борис", "Вика", "Гена", "Дина", "Егор"]
BIG_GAME = 10**12  # the data must fit even for a huge game id
ROW_WIDTH = 28  # characters a row of a 360-px phone shows without cutting a label


def width(text: str) -> int:
    """Characters as a phone draws them: an emoji (a suit in colour, ⏳) counts two."""
    out = 0
    for i, ch in enumerate(text):
        if ch == VS16:
            continue
        coloured = i + 1 < len(text) and text[i + 1] == VS16
        out += 2 if coloured or unicodedata.east_asian_width(ch) == "W" else 1
    return out


def positions(games: int, seed: int) -> Iterator[tuple[State, int]]:
    """(state, seat) along random games of every size, deck and mode."""
    rng = random.Random(seed)
    for _ in range(games):
        players = rng.randint(2, 6)
        deck = rng.choice([d for d in (24, 36, 52) if d >= 6 * players])
        mode = rng.choice(["podkidnoy", "perevodnoy"])
        rules = Rules(players=players, deck=deck, mode=Mode(mode), cheating=rng.random() < 0.3)
        state = State(rules, rng.randrange(10**9))
        while not state.is_over:
            yield state, rng.randrange(players)
            state.apply(rng.choice(state.all_legal_actions()))


class Shown(TypedDict, total=False):
    """What a hand's keyboard shows besides the hand: ``hand``'s keyword arguments."""

    page: str
    marked: list[Card]
    picking: Card
    cheats: list[Action]
    cheat_card: Card
    idle: bool


def pages(state: State, seat: int, rng: random.Random) -> Iterator[Shown]:
    """Every page the seat's keyboard may show in this position."""
    view = state.view(seat)
    yield {}
    yield {"page": "more"}
    can = sorted(markable(view))
    if can:
        rank = rng.choice(can).rank
        yield {"page": "mark", "marked": [c for c in can if c.rank == rank][: rng.randint(0, 4)]}
    picks = {a.cards[0] for a in view.legal if a.kind == BEAT}
    for card in picks:
        yield {"picking": card}
    cheats = state.cheat_actions(seat)
    if cheats:
        yield {"page": "cheat", "cheats": cheats}
        yield {"page": "cheat", "cheats": cheats, "cheat_card": rng.choice(cheats).cards[0]}
    yield {"page": "accuse"}


def rows_of(markup: Keyboard | None) -> list[list[tuple[str, str | None, str]]]:
    rows = markup.rows if markup else []
    return [[(b.text, b.style, b.data or "") for b in row] for row in rows]


def test_the_keyboard_bound_holds_in_every_position_and_page() -> None:
    rng = random.Random(7)
    seen = {"small": 0, "big": 0}
    for state, seat in positions(120, 2026):
        if state.place[seat] or rng.random() > 0.3:
            continue
        view = state.view(seat)
        for kw in pages(state, seat, rng):
            styled = rng.random() < 0.8
            kw.setdefault("cheats", state.cheat_actions(seat))
            kw["idle"] = rng.random() < 0.1
            drawn = hand("ru", view, BIG_GAME, names=NAMES, seconds=17, styled=styled, **kw)
            rows = rows_of(drawn.markup)
            small = len(view.hand) <= 12
            seen["small" if small else "big"] += 1
            assert len(rows) <= (8 if small else 10), (len(view.hand), kw, rows)
            # A big hand's cheat page packs more per row (labels may be cut) to stay short.
            packed = not small and kw.get("page") == "cheat"
            for row in rows:
                labels = [text for text, _, _ in row]
                bound = ROW_WIDTH if styled else ROW_WIDTH + 2  # «✓» on a few cards
                assert packed or sum(map(width, labels)) <= bound, labels
                assert all(len(data.encode()) <= 64 for _, _, data in row)
    assert seen["small"] > 2000 and seen["big"] > 50  # thousands of keyboards, big hands too


def test_the_cards_are_shared_out_evenly_among_their_rows() -> None:
    """Seven cards lie 4 + 3, not 6 and one card alone across the phone's width; no
    more rows than six cards a row need."""
    card = f"{CardCb.__prefix__}{CardCb.__separator__}"
    lone = 0
    for state, seat in positions(40, 11):
        view = state.view(seat)
        if state.place[seat] or not 0 < len(view.hand) <= 36:
            continue
        drawn = hand("ru", view, 1, names=NAMES, seconds=17)
        sizes = [len(row) for row in rows_of(drawn.markup) if row[0][2].startswith(card)]
        assert len(sizes) == -(-len(view.hand) // 6) and max(sizes) - min(sizes) <= 1, sizes
        lone += len(view.hand) % 6 == 1
    assert lone > 100  # hands whose last card was alone in its row before


def test_every_button_packs_as_aiogram_would_and_unpacks() -> None:
    """The hand packs its buttons' data itself (``callbacks.packed``): each one must be
    what aiogram's ``pack`` makes of the same values, and unpack to them."""
    kinds = {cb.__prefix__: cb for cb in (CardCb, CheatCb, LobbyCb, MoveCb, PageCb)}
    rng = random.Random(11)
    seen: set[str] = set()
    for state, seat in positions(60, 404):
        if rng.random() > 0.3:
            continue
        for kw in pages(state, seat, rng):
            kw.setdefault("cheats", state.cheat_actions(seat))
            drawn = hand("ru", state.view(seat), BIG_GAME, names=NAMES, leave=7, **kw)
            for row in rows_of(drawn.markup):
                for _, _, data in row:
                    cb = kinds[data.split(":")[0]]
                    unpacked = cb.unpack(data)
                    assert unpacked.pack() == data
                    seen.add(cb.__prefix__)
    assert seen == set(kinds)  # every kind of button was drawn


def test_what_would_not_pack_as_aiogram_packs_it_is_refused() -> None:
    assert packed(CardCb, game=5, card="7S", k=DRAFT) == CardCb(game=5, card="7S", k=DRAFT).pack()
    for values in (
        {"game": 5, "card": "7S"},  # no key
        {"game": 5, "card": "7S", "k": DRAFT, "colour": "red"},  # no such field
        {"game": True, "card": "7S", "k": DRAFT},  # aiogram packs True as "1"
        {"game": 5, "card": "7:S", "k": DRAFT},  # the separator
        {"game": 5, "card": "7S" * 40, "k": DRAFT},  # over 64 bytes
    ):
        with pytest.raises(ValueError):
            packed(CardCb, **values)  # type: ignore[arg-type]  # mixed values, wrong on purpose


def test_other_seconds_left_change_only_the_line_of_seconds() -> None:
    timed = 0
    for state, seat in positions(10, 5):
        view = state.view(seat)
        drawn = hand("ru", view, 3, seconds=30)
        again = retimed("ru", drawn, 7)
        if again is None:  # a hand that shows no seconds
            assert "⏳" not in drawn.text
            continue
        assert again == hand("ru", view, 3, seconds=7)
        assert again.text != drawn.text and again.key == drawn.key
        timed += 1
    assert timed > 100


def test_suits_are_coloured_and_only_playable_cards_stand_out() -> None:
    rng = random.Random(3)
    checked = 0
    for state, seat in positions(30, 99):
        if state.place[seat] or rng.random() > 0.2:
            continue
        view = state.view(seat)
        taps = tap_kinds(view)
        for styled in (True, False):
            drawn = hand("en", view, 5, styled=styled)
            rows = drawn.markup.rows if drawn.markup else []
            cards = [b for row in rows for b in row if (b.data or "")[:2] == "c:"]
            assert len(cards) == len(view.hand)
            for button, card in zip(cards, sort_for_hand(view.hand, view.trump), strict=True):
                playable = card in taps
                if styled:
                    assert button.text == card_label(card, "en")
                    assert (button.style == PLAYABLE) == playable
                else:
                    assert button.style is None
                    assert button.text == ("✓" if playable else "") + card_label(card, "en")
                assert button.text.endswith(("♠️", "♣️", "♦️", "♥️"))
            checked += 1
    assert checked > 200


def test_the_attackers_keyboard_of_the_issue_fits_and_opens_several_sevens() -> None:
    state = game(["7S 7D 7H 8S 8C 8D 8H KS KD", "6S 6C 9S 9C 10S 10C", "JS"], trump="6H",
                 stock="QD", players=3)  # fmt: skip
    view = state.view(0)
    main = hand("ru", view, 5)
    rows = rows_of(main.markup)
    assert len(rows) == 3  # two rows of cards, one of words (it was 18 rows of openings)
    assert [text for text, _, _ in rows[-1]] == ["Несколько карт", "⋯"]
    marked = [Card.parse("7S"), Card.parse("7H")]
    page = hand("ru", view, 5, page="mark", marked=marked)
    buttons = [b for row in rows_of(page.markup) for b in row]
    styles = {text.replace(VS16, ""): style for text, style, _ in buttons}
    assert styles["✓7♠"] == styles["✓7♥"] == "primary" and styles["7♦"] == PLAYABLE
    assert styles["К♠"] == PLAYABLE and styles["8♠"] == PLAYABLE  # a tap marks it anew
    plain = hand("ru", view, 5, page="mark", marked=marked, styled=False)
    labels = [text.replace(VS16, "") for row in rows_of(plain.markup) for text, _, _ in row]
    assert [x for x in labels if "✓" in x] == ["✓7♠", "✓7♥"]  # marked: in words alone
    go = next(data for text, _, data in buttons if text == "Ходить (2)")
    assert go.startswith("m:5:a 7S 7H:") or go.startswith("m:5:a 7H 7S:")


def test_a_tap_that_makes_no_move_is_answered_with_the_reason() -> None:
    state = game(["7S 9H", "8S 6C 10H", "JS QS"], trump="6H", stock="QD KD", players=3)
    assert why_not("ru", state.view(1), Card.parse("8S"), NAMES) == (
        "Сейчас не ваш ход: ходит Аня."
    )
    act(state, "0 a 7S")
    assert why_not("ru", state.view(1), Card.parse("10H"), NAMES) == "10♥️ не бьёт 7♠️."
    assert why_not("ru", state.view(0), Card.parse("9H"), NAMES) == (
        "9♥️ не подкинуть: карт этого достоинства на столе нет."
    )
    assert why_not("en", state.view(1), Card.parse("10H"), NAMES) == "10♥️ does not beat 7♠️."


def test_the_hand_says_a_fixed_trump_apart_from_the_turned_card() -> None:
    state = game(["7S 6D", "8S 9C"], trump="JC", stock="QH KH", fixed_trump="diamonds")
    head = hand("ru", state.view(0), 5).text.split("\n")[:2]
    assert head == ["Козырь: ♦️ (открыта В♣️)", "колода: 3"]  # before: «Козырь: В♣»
    plain = game(["7S 6D", "8S 9C"], trump="JC", stock="QH KH")
    assert hand("ru", plain.view(0), 5).text.startswith("Козырь: В♣️ · ")
