"""The hand's text as a 360-px phone shows it: every line of the status, the head and
the timer within ``STATUS_WIDTH`` over thousands of random positions (so none wraps),
and the bout left open for «Антимухлёж» (RULES §9) said as it is, in the hand and at
the table."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from html import unescape

from bot import render
from bot.card_labels import STATUS_WIDTH, fitted, width
from bot.hand_answers import why_not
from bot.i18n import t
from bot.render_hand import hand
from engine import Card, Rules, State
from engine.actions import BEAT
from engine.rules import MOVE_SECONDS, Mode
from tests.helpers import game, play

NAMES = ["Аня", "Борис", "Вика", "Гена", "Дина", "Егор"]


def lines(html: str) -> list[str]:
    """The lines of a text as shown: tags dropped, entities read."""
    return unescape(re.sub(r"<[^>]+>", "", html)).split("\n")


def positions(games: int, seed: int) -> Iterator[tuple[State, int]]:
    """(state, seat in the game) along random games of every size, deck, mode and trump
    (fixed ♦ and none too), a third of them with the option ``cheating``."""
    rng = random.Random(seed)
    for _ in range(games):
        players = rng.randint(2, 6)
        deck = rng.choice([d for d in (24, 36, 52) if d >= 6 * players])
        trump = rng.choice([{}, {}, {"fixed_trump": "diamonds"}, {"no_trump": True}])
        rules = Rules(
            players=players,
            deck=deck,
            mode=Mode(rng.choice(["podkidnoy", "perevodnoy"])),
            cheating=rng.random() < 0.35,
            **trump,  # type: ignore[arg-type]  # one trump option by name
        )
        state = State(rules, rng.randrange(10**9))
        while not state.is_over:
            seat = rng.randrange(players)
            if not state.place[seat]:
                yield state, seat
            state.apply(rng.choice(state.all_legal_actions()))


def test_every_status_line_fits_a_phone_in_every_position() -> None:
    rng = random.Random(11)
    seen = {"closing": 0, "fixed": 0, "table": 0, "lines": 0}
    for state, seat in positions(150, 13):
        if rng.random() > 0.25:
            continue
        view = state.view(seat)
        picks = [a.cards[0] for a in view.legal if a.kind == BEAT]
        for lang in ("ru", "en"):
            picking = rng.choice(picks) if picks and rng.random() < 0.3 else None
            drawn = hand(
                lang,
                view,
                5,
                names=NAMES,
                cheats=state.cheat_actions(seat),
                idle=rng.random() < 0.1,
                seconds=rng.choice([None, 7, 120]),
                styled=rng.random() < 0.8,
                picking=picking,
            )
            for line in lines(drawn.text):
                assert width(line) <= STATUS_WIDTH, (lang, line, drawn.text)
                seen["lines"] += 1
        seen["closing"] += view.closing
        seen["fixed"] += view.trump != view.trump_card.suit
        seen["table"] += len(view.table) >= 4
    assert seen["lines"] > 10_000 and min(seen.values()) > 30, seen


def test_the_defenders_status_no_longer_wraps() -> None:
    state = game(["7S 7D", "8S 9S 7C 6H", "10S JS QS"], trump="6H", stock="QD KD",
                 mode="perevodnoy")  # fmt: skip
    play(state, "0 a 7S 7D")
    for lang, words in (("ru", "«Беру»"), ("en", "“Take”")):
        status = lines(hand(lang, state.view(1), 5).text)[-2:]
        assert status[-1].endswith(words + ".")
        assert all(width(line) <= STATUS_WIDTH for line in status)


def test_a_full_table_is_laid_out_in_lines_never_breaking_a_pair() -> None:
    pairs = ["10♠️/10♣️"] * 6
    laid = fitted(["На столе: " + pairs[0], *pairs[1:]], "  ")
    assert laid.split("\n") == ["На столе: 10♠️/10♣️  10♠️/10♣️"] + ["10♠️/10♣️  10♠️/10♣️"] * 2
    assert fitted(["Козырь: 6♥️", "колода: 24"], " · ") == "Козырь: 6♥️ · колода: 24"


def closing_game() -> State:
    """Issue 13's deal, one card more for Аня: Борис beats 7♠ with his last card (a
    cheat), and the bout stays open for «Антимухлёж»."""
    state = game(["7S 8D", "6C", "9H KS"], trump="6H", cheating=True)
    play(state, "0 a 7S", "1 d 6C>7S")
    assert state.closing and state.outcome is None
    return state


def test_the_hand_says_the_bout_is_closing_and_it_is_the_last_chance_to_accuse() -> None:
    state = closing_game()
    for lang, closing, last in (
        ("ru", "Всё побито — кон закрывается.", "Последний шанс: «Антимухлёж»,"),
        ("en", "All beaten: the bout closes.", "Last chance to call cheat,"),
    ):
        thrower = hand(lang, state.view(2), 5, names=NAMES, seconds=8).text
        assert lines(thrower)[-4:-1] == [closing, last, lines(thrower)[-2]]
        assert lines(thrower)[-1] == "⏳ " + ("8 с" if lang == "ru" else "8 s")
        assert "Подкинуть нечего" not in thrower and "Nothing to throw" not in thrower
        defender = hand(lang, state.view(1), 5, names=NAMES, seconds=8).text
        assert ("Вы отбились" if lang == "ru" else "Others may still call cheat") in defender
        assert defender.endswith("⏳ 8 с" if lang == "ru" else "⏳ 8 s")  # closes for all
    play(state, "0 done")  # said «Бито», may still accuse
    assert lines(hand("ru", state.view(0), 5, names=NAMES).text)[-2:] == [
        "Всё побито — кон закрывается.",
        "Ещё можно нажать «Антимухлёж».",
    ]
    assert why_not("ru", state.view(2), Card.parse("KS"), NAMES).startswith(
        "Всё побито, кон закрывается: ходить больше нельзя"
    )
    # the defender, whose cheat may be the one caught, is not told to press «Антимухлёж»
    to_defender = why_not("ru", state.view(1), Card.parse("8D"), NAMES)
    assert to_defender.startswith("Вы отбились") and "Антимухлёж" not in to_defender


def test_pictographs_without_their_emoji_selector_count_two_columns() -> None:
    assert width("🕵 ab") == width("🏳 ab") == width("♥️ ab") == 5
    assert width("♥ ab") == 4  # a bare suit is a letter-wide glyph


def test_the_table_says_the_bout_is_closing_with_its_seconds() -> None:
    state = closing_game()
    for lang, turn, hint, role in (
        ("ru", "⏳ <b>Кон закрывается · 10 с</b>", "🕵 Ещё можно «Антимухлёж».",
         "<b>Борис</b> — без карт — всё побито"),
        ("en", "⏳ <b>The bout is closing · 10 s</b>", "🕵 Last chance to call cheat.",
         "<b>Борис</b> — no cards — beat it all"),
    ):  # fmt: skip
        text = render.table_message(lang, state.view(), NAMES[:3], [False] * 3)
        assert text.split("\n")[:2] == [turn, hint] and width(hint) <= STATUS_WIDTH
        assert role in text.split("\n") and "Подкидыва" not in text and "throw in" not in text
    play(state, "0 done", "2 done")  # nobody accuses: the bout ends, and the game with it
    text = render.table_message("ru", state.view(), NAMES[:3], [False] * 3)
    assert "Кон закрывается" not in text and "Антимухлёж" not in text.split("\n")[1]


def test_surrender_asks_in_the_words_of_the_game_alone_or_in_a_team() -> None:
    alone = State(Rules(players=2), 1)
    assert "дураком будете вы" in hand("ru", alone.view(0), 5, page="more").text
    team = State(Rules(players=4, teams=True), 1)
    text = hand("ru", team.view(0), 5, page="more").text
    assert "в дураках будет ваша команда" in text and "дураком будете вы" not in text
    assert "your team are the fools" in hand("en", team.view(0), 5, page="more").text


def test_the_turn_notice_fits_one_line_too() -> None:
    for lang in ("ru", "en"):
        for kind in ("attack", "defend"):
            longest = max(MOVE_SECONDS.values())  # a notice has less than a whole move
            notice = t(lang, f"hand.nudge_{kind}", n=longest)
            assert width(notice) <= STATUS_WIDTH, notice
            assert notice.endswith(t(lang, "hand.seconds", n=longest))  # the seconds left


def test_a_player_whose_last_card_is_on_the_table_is_shown_without_cards() -> None:
    state = closing_game()  # Борис beat with his last card; the bout is still open
    lines = render.table_message("ru", state.view(), NAMES[:3], [False] * 3).split("\n")
    assert "<b>Борис</b> — без карт — всё побито" in lines
    assert "<b>Аня</b> — 1 карта — ходит" in lines and "0 карт" not in "\n".join(lines)
