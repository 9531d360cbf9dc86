"""What a press on a hand means (``bot.taps``): pure functions of the game and the button,
checked here on scripted deals without a bot, a database or a presenter."""

from __future__ import annotations

from bot.callbacks import PageName, tap_meaning
from bot.hand_pages import Page
from bot.taps import (
    ChooseTarget,
    NotMarkable,
    NotNow,
    NotPlayable,
    Play,
    Show,
    Stale,
    accuse_tap,
    card_tap,
    cheat_tap,
    mark_tap,
    parse_action,
    parse_card,
    toggled,
)
from engine import Action, Card
from engine.actions import ACCUSE, BEAT, OPEN, THROW
from tests.helpers import game, play

C = Card.parse


def test_a_fresh_tap_on_a_playable_card_plays_it_at_the_games_version() -> None:
    state = game(["7S 8S 9D", "9S KH QC"], trump="6H")
    assert card_tap(state, 0, C("7S"), "", fresh=True) == Play(Action(0, OPEN, (C("7S"),)), 0)


def test_a_card_that_makes_no_move_is_not_playable_and_out_of_turn_too() -> None:
    state = game(["7S 8S 9D", "9S KH QC"], trump="6H")
    assert card_tap(state, 1, C("9S"), "", fresh=True) == NotPlayable(C("9S"))  # not its turn
    play(state, "0 a 7S")
    assert card_tap(state, 1, C("QC"), "", fresh=True) == NotPlayable(C("QC"))  # beats nothing


def test_a_card_that_beats_two_attack_cards_asks_which() -> None:
    state = game(["7S 7C 9D", "9S KH QC"], trump="6H")
    play(state, "0 a 7S 7C")
    assert card_tap(state, 1, C("KH"), "", fresh=True) == ChooseTarget(C("KH"))  # a trump
    assert card_tap(state, 1, C("9S"), "", fresh=True) == Play(
        Action(1, BEAT, (C("9S"),), C("7S")), 1
    )


def test_an_old_tap_counts_while_it_means_the_move_it_meant_when_drawn() -> None:
    state = game(["7S 8S 7D", "9S KH QC 8C"], trump="6H", stock="6S 6C 6D")
    play(state, "0 a 7S")
    throw = tap_meaning(state, THROW)
    play(state, "1 d 9S>7S")  # the defender beat meanwhile: a throw-in still means one
    assert card_tap(state, 0, C("7D"), throw, fresh=False) == Play(Action(0, THROW, (C("7D"),)), 2)


def test_a_double_tap_or_a_tap_from_a_hand_with_nothing_to_play_is_stale() -> None:
    state = game(["7S 8S 9D", "9S KH QC"], trump="6H")
    meant = tap_meaning(state, OPEN)
    play(state, "0 a 7S")  # the first tap made the move
    assert card_tap(state, 0, C("8S"), meant, fresh=False) == Stale()
    assert card_tap(state, 0, C("8S"), "", fresh=False) == Stale()  # drawn unplayable


def test_the_pages_open_only_with_something_to_press() -> None:
    state = game(["7S 7C 9D", "9S KH QC"], trump="6H")
    mark = mark_tap(state, 0, None, None)
    assert mark == Show(Page(state.bouts, PageName.MARK))
    assert mark_tap(state, 0, C("9D"), None) == NotMarkable(C("9D"))
    assert mark_tap(state, 1, None, None) == NotNow()  # the defender opens nothing
    assert cheat_tap(state, 1, None) == NotNow()  # no option «cheating»
    assert accuse_tap(state, 0) == NotNow()


def test_marking_toggles_and_a_card_of_another_rank_starts_again() -> None:
    state = game(["7S 7C 9D 9S", "9H KH QC"], trump="6H")
    shown = Page(state.bouts, PageName.MARK, None, (C("7S"),))
    assert mark_tap(state, 0, C("7C"), shown) == Show(
        Page(state.bouts, PageName.MARK, None, (C("7S"), C("7C")))
    )
    assert mark_tap(state, 0, C("7S"), shown) == Show(Page(state.bouts, PageName.MARK))
    assert toggled((C("7S"), C("7C")), C("9D")) == (C("9D"),)


def test_the_cheat_page_lists_the_defenders_cheats_and_accusing_follows_the_rules() -> None:
    state = game(["7S 8S", "8D KH", "QC JD"], trump="6H", cheating=True)
    play(state, "0 a 7S")
    assert cheat_tap(state, 1, None) == Show(Page(state.bouts, PageName.CHEAT))
    assert cheat_tap(state, 1, C("8D")) == Show(Page(state.bouts, PageName.CHEAT, C("8D")))
    assert cheat_tap(state, 1, C("KH")) == NotNow()  # beats honestly: no cheat with it
    assert cheat_tap(state, 0, None) == NotNow()  # only the defender cheats
    accusers = [s for s in range(3) if any(a.kind == ACCUSE for a in state.legal_actions(s))]
    assert accusers  # with the option, someone may say «Антимухлёж» now
    for seat in range(3):
        page = Show(Page(state.bouts, PageName.ACCUSE)) if seat in accusers else NotNow()
        assert accuse_tap(state, seat) == page


def test_forged_texts_parse_to_nothing() -> None:
    assert parse_card("1S") is None and parse_card("") is None and parse_card("-") is None
    assert parse_action(0, "a 1S") is None and parse_action(0, "zz") is None
    assert parse_action(0, "accuse ²") is None and parse_action(0, "d 9H>") is None
    assert parse_action(1, "take") == Action(1, "take")
