"""Pure rendering of a player's private message: their hand as a keyboard. Texts are HTML."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Action, Card, View
from engine.actions import BACK, BEAT, DONE, OPEN, PASS, QUIT, SHOW, TAKE, THROW, TRANSFER
from engine.cards import sort_for_hand

from .callbacks import CardCb, LobbyCb, MoveCb, tap_meaning
from .i18n import t
from .render import WORD_KEYS, button, cards_text
from .render_cheating import accuse_page, cheat_page, hand_rows

ROW = 6  # cards per keyboard row


def is_tap(a: Action) -> bool:
    """A move that a tap on its card makes: a single-card opening, a throw-in or a beat."""
    return a.kind in (THROW, BEAT) or (a.kind == OPEN and len(a.cards) == 1)


def tap_kinds(view: View) -> dict[Card, str]:
    """The cards that a tap can play now, with the kind of move it makes."""
    return {a.cards[0]: a.kind for a in view.legal if is_tap(a)}


def hand(
    lang: str,
    view: View,
    game_id: int,
    *,
    picking: Card | None = None,
    idle: bool = False,
    leave: int | None = None,
    names: Sequence[str] = (),
    cheats: Sequence[Action] = (),
    page: str | None = None,
    cheat_card: Card | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """A player's private message: their cards as buttons, and the moves they have.
    ``leave``: the table a player out of cards may leave while the others play on.
    With the option ``cheating``: ``cheats`` are this seat's own (``State.cheat_actions``),
    ``page`` is ``cheat`` (``cheat_card``: the card whose target is being chosen) or
    ``accuse`` when the player opened that page; ``names`` name whom one may accuse."""
    assert view.seat is not None
    version = len(view.history)
    trump_line = (
        t(lang, "table.trump", card=view.trump_card.label(lang))
        + " · "
        + t(lang, "table.stock", n=view.stock_size)
    )
    if view.table:
        pairs = [a.label(lang) + (f" / {d.label(lang)}" if d else "") for a, d in view.table]
        trump_line += "\n" + t(lang, "table.on_table") + " " + "   ".join(pairs)
    if view.outcome is not None:
        return trump_line + "\n\n" + t(lang, "hand.game_over"), None
    if view.places[view.seat]:
        if leave is None:
            return trump_line + "\n\n" + t(lang, "hand.you_out"), None
        data = LobbyCb(table=leave, op="leave").pack()
        markup = InlineKeyboardMarkup(inline_keyboard=[[button(t(lang, "hand.leave"), data)]])
        return trump_line + "\n\n" + t(lang, "hand.you_out_may_leave"), markup
    status = _status(lang, view, idle)
    if picking is not None:
        status = t(lang, "answer.choose_target")
    other = None
    if page == "cheat":
        other = cheat_page(lang, view, game_id, cheats, cheat_card)
    elif page == "accuse":
        other = accuse_page(lang, view, game_id, names)
    if other is not None:
        return f"{trump_line}\n\n{other[0]}", InlineKeyboardMarkup(inline_keyboard=other[1])

    def move(a: Action) -> str:
        return MoveCb(game=game_id, v=version, a=a.text).pack()

    rows: list[list[InlineKeyboardButton]] = []
    if picking is not None:
        targets = [a for a in view.legal if a.kind == BEAT and a.cards[0] == picking]
        rows += [
            [button(t(lang, "hand.beat_target", target=a.target.label(lang)), move(a))]
            for a in targets
            if a.target
        ]
        rows.append(
            [button(t(lang, "hand.cancel"), CardCb(game=game_id, v=version, card="-").pack())]
        )
        return f"{trump_line}\n\n{status}", InlineKeyboardMarkup(inline_keyboard=rows)
    taps = tap_kinds(view)
    meanings = {kind: tap_meaning(view, kind) for kind in set(taps.values())}  # one, mostly
    cards = sort_for_hand(view.hand, view.trump)
    buttons = [
        button(
            ("• " if c in taps else "") + c.label(lang),
            CardCb(
                game=game_id, v=version, card=str(c), meant=meanings[taps[c]] if c in taps else ""
            ).pack(),
        )
        for c in cards
    ]
    rows += [buttons[i : i + ROW] for i in range(0, len(buttons), ROW)]
    extra = [a for a in view.legal if a.kind == OPEN and len(a.cards) > 1]
    extra += [a for a in view.legal if a.kind in (TRANSFER, SHOW)]
    keys = {OPEN: "hand.open_all", TRANSFER: "hand.transfer", SHOW: "hand.show"}
    for a in extra:
        key = keys[a.kind]
        rows.append(
            [
                button(
                    t(lang, key, cards=cards_text(a.cards, lang), card=a.cards[0].label(lang)),
                    move(a),
                )
            ]
        )
    words = [a for a in view.legal if a.kind in (TAKE, DONE, PASS)]
    if words:
        rows.append([button(t(lang, f"hand.{WORD_KEYS[a.kind]}"), move(a)) for a in words])
    rows += hand_rows(lang, view, game_id, cheats, names)
    last = [button(t(lang, "hand.surrender"), move(Action(view.seat, QUIT)))]
    if idle:
        last.insert(0, button(t(lang, "hand.back"), move(Action(view.seat, BACK))))
    rows.append(last)
    return f"{trump_line}\n\n{status}", InlineKeyboardMarkup(inline_keyboard=rows)


def _status(lang: str, view: View, idle: bool) -> str:
    if idle:
        return t(lang, "hand.idle")
    turn = view.turn
    seat = view.seat
    if turn is not None and seat in turn.seats:
        if turn.kind == "attack":
            return t(lang, "hand.you_attack")
        if turn.kind == "defend":
            return t(lang, "hand.you_defend")
        word = t(lang, "hand.pass" if view.taking else "hand.done")
        can = any(a.kind == THROW for a in view.legal)
        return t(lang, "hand.you_throw" if can else "hand.nothing_to_throw", word=word)
    if any(a.kind == THROW for a in view.legal):
        return t(lang, "hand.may_throw")
    return t(lang, "hand.you_wait")
