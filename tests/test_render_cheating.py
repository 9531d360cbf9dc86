"""Rendering the option ``cheating``: the defender's cheat page, «Антимухлёж» buttons,
the words of an accusation, and no trace of a cheat anywhere else."""

from __future__ import annotations

import random

from bot import render, render_hand, rules_text
from bot.callbacks import DRAFT, CheatCb, MoveCb, PageCb, PageName
from bot.keyboard import Keyboard
from bot.render_cheating import accusation_exposed
from bot.render_hand import Drawn
from engine import Accused, Action, Card, Mode, State
from engine.presets import transfer_cheating
from service import TableSettings
from service.lobby_rules import option_values, with_option, with_preset
from tests.helpers import act, game
from tests.records import lobby_record

NAMES = ["Аня", "Борис", "Вика"]
BIG_GAME = 10**12  # callback data must fit 64 bytes even for huge ids


def buttons(markup: Keyboard | None) -> list[tuple[str, str]]:
    """(label, data) with the suits' colour selector dropped and the hand's key as drafted."""
    assert markup is not None, "no buttons"
    return [
        (b.text.replace("\ufe0f", ""), unsealed(b.data or "")) for row in markup.rows for b in row
    ]


def unsealed(data: str) -> str:
    return data[: -len(DRAFT)] + DRAFT if data[:2] in ("c:", "m:", "p:", "f:") else data


def opened(*, cheating: bool = False, mode: Mode = Mode.PODKIDNOY) -> State:
    """Аня opens with both nines against Борис, who holds no honest beat for 9♥ but 8♥."""
    hands = ["9H 9S 10S JS", "7S 8C QD 10H"]
    state = game(hands, trump="6D", stock="AC AS AH", cheating=cheating, mode=mode)
    act(state, "0 a 9H 9S")
    return state


def hand(
    state: State,
    seat: int,
    game_id: int = 5,
    *,
    page: str | None = None,
    cheat_card: Card | None = None,
) -> Drawn:
    cheats = state.cheat_actions(seat)
    view = state.view(seat)
    return render_hand.hand(
        "ru", view, game_id, names=NAMES, cheats=cheats, page=page, cheat_card=cheat_card
    )


def test_the_defender_has_a_cheat_toggle_and_everyone_an_accusation() -> None:
    state = opened(cheating=True)
    defender = dict(buttons(hand(state, 1).markup))
    assert PageCb.unpack(defender["🤫 Мухлёж"]) == PageCb(game=5, page=PageName.CHEAT, k=DRAFT)
    assert MoveCb.unpack(defender["🕵 Антимухлёж: Аня"]).a == "accuse 0"
    attacker = buttons(hand(state, 0).markup)
    assert ("🕵 Антимухлёж: Борис", MoveCb(game=5, a="accuse 1", k=DRAFT).pack()) in attacker
    assert not any("🤫" in text or data.startswith("f:") for text, data in attacker)


def test_without_the_option_the_keyboards_are_as_before() -> None:
    state = opened()
    for seat in (0, 1):
        assert not any("🤫" in t or "🕵" in t for t, _ in buttons(hand(state, seat).markup))
    assert render_hand.hand("ru", state.view(1), 5).markup == hand(state, 1).markup


def test_the_cheat_page_offers_every_card_marked_as_a_cheat() -> None:
    state = opened(cheating=True)
    drawn = hand(state, 1, page="cheat")
    text, markup = drawn.text, drawn.markup
    assert "эти кнопки видите только вы" in text
    pressed = buttons(markup)
    assert pressed[-1] == ("Назад", PageCb(game=5, page=PageName.HAND, k=DRAFT).pack())
    assert [t for t, _ in pressed[:-1]] == ["🤫 7♠…", "🤫 8♣…", "🤫 10♥ на 9♠"]
    assert CheatCb.unpack(pressed[2][1]) == CheatCb(game=5, a="d 10H>9S", k=DRAFT)
    seven = PageCb.unpack(pressed[0][1])
    assert (seven.page, seven.card) == ("cheat", "7S")


def test_a_card_with_several_cheats_asks_for_the_target() -> None:
    state = opened(cheating=True)
    drawn = hand(state, 1, page="cheat", cheat_card=Card.parse("7S"))
    text, markup = drawn.text, drawn.markup
    assert "Куда положить 7♠️?" in text
    assert buttons(markup) == [
        ("🤫 7♠ на 9♠", CheatCb(game=5, a="d 7S>9S", k=DRAFT).pack()),
        ("🤫 7♠ на 9♥", CheatCb(game=5, a="d 7S>9H", k=DRAFT).pack()),
        ("Назад", PageCb(game=5, page=PageName.CHEAT, k=DRAFT).pack()),
    ]


def test_a_cheating_transfer_is_offered_when_a_transfer_is_possible() -> None:
    state = game(
        ["9H 10S JS QS", "7S 8C QD 10H", "6C 7C 8D 9D"],
        trump="6D",
        mode="perevodnoy",
        cheating=True,
    )
    act(state, "0 a 9H")
    labels = [
        t for t, _ in buttons(hand(state, 1, page="cheat", cheat_card=Card.parse("7S")).markup)
    ]
    assert labels == ["🤫 7♠ на 9♥", "🤫 Перевести 7♠", "Назад"]


def test_every_cheat_button_is_a_cheat_of_that_seat_and_fits_callback_data() -> None:
    state = opened(cheating=True, mode=Mode.PEREVODNOY)
    cheats = {a.text for a in state.cheat_actions(1)}
    seen = set()
    for card in (None, *state.view(1).hand):
        for page in ("cheat", "accuse", None):
            markup = hand(state, 1, BIG_GAME, page=page, cheat_card=card).markup
            for text, data in buttons(markup):
                assert len(data.encode()) <= 64
                if data.startswith("f:"):
                    assert text.startswith("🤫 ") and CheatCb.unpack(data).a in cheats
                    seen.add(CheatCb.unpack(data).a)
                elif text.startswith("🤫"):
                    assert PageCb.unpack(data).page == "cheat"
    assert seen == cheats  # every cheat can be reached


def test_several_players_to_accuse_open_their_own_page() -> None:
    state = game(["9H 10S", "7S 8C", "6C 7C"], trump="6D", cheating=True)
    act(state, "0 a 9H")
    row = [b for b in buttons(hand(state, 2).markup) if "🕵" in b[0]]
    assert row == [("🕵 Антимухлёж…", PageCb(game=5, page=PageName.ACCUSE, k=DRAFT).pack())]
    drawn = hand(state, 2, page="accuse")
    text, markup = drawn.text, drawn.markup
    assert "Кого поймать на мухлеже?" in text
    assert buttons(markup) == [
        ("🕵 Антимухлёж: Аня", MoveCb(game=5, a="accuse 0", k=DRAFT).pack()),
        ("🕵 Антимухлёж: Борис", MoveCb(game=5, a="accuse 1", k=DRAFT).pack()),
        ("Назад", PageCb(game=5, page=PageName.HAND, k=DRAFT).pack()),
    ]
    act(state, "2 accuse 1")  # wrong: Вика may accuse only Аня in this bout
    assert [b[0] for b in buttons(hand(state, 2).markup) if "🕵" in b[0]] == ["🕵 Антимухлёж: Аня"]


def test_a_page_with_nothing_to_press_falls_back_to_the_hand() -> None:
    state = opened(cheating=True)
    assert hand(state, 0, page="cheat") == hand(state, 0)  # the attacker has no cheats
    act(state, "1 take")
    assert hand(state, 1, page="cheat") == hand(state, 1)


def table(state: State) -> str:
    return render.table_message("ru", state.view(), NAMES[:2], [False, False])


def test_the_table_tells_a_cheat_like_any_beat_and_an_accusation_with_its_result() -> None:
    state = opened(cheating=True)
    act(state, "1 d 7S>9H")
    text = table(state)
    assert "Борис: 7♠️ на 9♥️" in text and "🤫" not in text and "🕵" not in text
    act(state, "0 accuse 1")
    caught = "🕵 Аня: «Антимухлёж» против игрока Борис — поймали! Борис забирает карты."
    assert caught in table(state)
    honest = opened(cheating=True)
    act(honest, "1 d QD>9H")
    act(honest, "0 accuse 1")
    assert (
        "🕵 Аня: «Антимухлёж» против игрока Борис — мимо: Борис играет честно. "
        "До конца кона Аня не может снова обвинить этого игрока."
    ) in table(honest)
    english = render.table_message("en", honest.view(), ["Anna", "Boris"], [False, False])
    assert "🕵 Anna calls cheat on Boris: wrong, Boris played fair." in english


def test_group_texts_and_other_hands_never_depend_on_the_secret_record() -> None:
    state = opened(cheating=True)
    act(state, "1 d 7S>9H")
    assert state.cheats
    shown = (table(state), hand(state, 0))
    state.cheats = 0  # as if Борис had played fair
    assert (table(state), hand(state, 0)) == shown


def random_game_with_accusations(seed: int) -> tuple[State, list[bool]]:
    """Random moves and random cheats; returns the game and the engine's verdicts."""
    rng = random.Random(seed)
    state = State(transfer_cheating(players=rng.choice((2, 3, 4))), seed)
    verdicts: list[bool] = []
    while not state.is_over and len(state.history) < 400:
        moves = [*state.all_legal_actions(), *state.cheat_actions(state.defender)]
        accuse = [a for a in moves if a.kind == "accuse"]
        pick = rng.choice(accuse if accuse and rng.random() < 0.2 else moves)
        verdicts += [e.exposed for e in state.apply(pick) if isinstance(e, Accused)]
    return state, verdicts


def test_the_words_of_an_accusation_agree_with_the_engine() -> None:
    checked = 0
    for seed in range(40):
        state, verdicts = random_game_with_accusations(seed)
        view = state.view()
        said = [
            accusation_exposed(view, i) for i, a in enumerate(view.history) if a.kind == "accuse"
        ]
        assert said == verdicts
        checked += len(verdicts)
    assert checked > 50


def test_the_option_has_its_lobby_button_rules_line_and_explanation() -> None:
    preset = with_preset(TableSettings(), "transfer_cheating", 0)
    assert option_values(preset)["cheating"] is True
    assert "мухлёж и «Антимухлёж»" in rules_text.lobby_rules_line("ru", preset)
    _, markup = rules_text.rules_page("ru", lobby_record(1, preset), "rules")
    assert "✅ Мухлёж" in [t for t, _ in buttons(markup)]
    off = with_option(preset, "cheating")
    assert option_values(off)["cheating"] is False
    assert "«Антимухлёж»" not in rules_text.lobby_rules_line("ru", off)
    rules = transfer_cheating(players=2)
    text = rules_text.explained("ru", rules, preset)
    assert "«🕵 Антимухлёж»" in text and "забирает все карты со стола" in text
    assert "Call cheat" in rules_text.explained("en", rules, preset)


def test_an_accusation_is_an_ordinary_action_in_words() -> None:
    words = render.action_words("ru", Action(1, "accuse", accused=0), NAMES, exposed=True)
    assert words == "🕵 Борис: «Антимухлёж» против игрока Аня — поймали! Аня забирает карты."
