"""Pure rendering of the option ``cheating``: the defender's cheat page, the
«Антимухлёж» buttons and the words of an accusation.

A cheat shows only on its player's own keyboard, and only when ``render_hand.hand`` is
given that seat's ``State.cheat_actions``: views never list cheats. The words of
an accusation come from public facts alone (see ``accusation_exposed``).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from engine import Action, Card, View
from engine.actions import ACCUSE, BACK, BEAT, OPEN, QUIT
from engine.cards import sort_for_hand

from .callbacks import DRAFT, CheatCb, MoveCb, PageCb, PageName, packed
from .card_labels import ROW_WIDTH, card_label, width
from .i18n import t
from .keyboard import Button

Rows = list[list[Button]]
MAX_ROWS = 9  # of cheat buttons, with «Назад» under them


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else str(seat + 1)


def accusation_exposed(view: View, index: int) -> bool:
    """Whether the accusation ``view.history[index]`` caught a cheat. A caught cheater
    takes the table at once, so the bout ends right there: the next move of play
    opens a new bout, or the table is empty now. A wrong accusation changes nothing
    on the table (a surrender, too, leaves the table as it was)."""
    for action in view.history[index + 1 :]:
        if action.kind not in (QUIT, BACK):
            return action.kind == OPEN
    return not view.table


def accusation_words(lang: str, action: Action, names: Sequence[str], exposed: bool) -> str:
    """The accusation as the table message tells it (HTML)."""
    assert action.accused is not None
    return t(
        lang,
        "act.accuse_caught" if exposed else "act.accuse_missed",
        name=escape(names[action.seat]),
        accused=escape(names[action.accused]),
    )


def accusation_answer(lang: str, accused: str, exposed: bool) -> str:
    """The answer to the accuser's press (plain text)."""
    return t(lang, "answer.caught" if exposed else "answer.missed", name=accused)


def cheat_label(lang: str, action: Action) -> str:
    card = card_label(action.cards[0], lang)
    if action.kind == BEAT and action.target is not None:
        return t(lang, "cheat.beat", card=card, target=card_label(action.target, lang))
    return t(lang, "cheat.transfer", card=card)


def _accusations(view: View) -> list[Action]:
    return [a for a in view.legal if a.kind == ACCUSE]


def hand_rows(
    lang: str, view: View, game_id: int, cheats: Sequence[Action], names: Sequence[str]
) -> Rows:
    """The row under the hand: «🤫 Мухлёж» for a defender with cheats, and «Антимухлёж»
    against the one other player (or «Антимухлёж…» opening the choice of several)."""
    row = []
    if cheats:
        data = packed(PageCb, game=game_id, k=DRAFT, page="cheat")
        row.append(Button(t(lang, "cheat.toggle"), data))
    accusations = _accusations(view)
    if len(accusations) == 1:
        row.append(_accuse_button(lang, accusations[0], game_id, names))
    elif accusations:
        data = packed(PageCb, game=game_id, k=DRAFT, page="accuse")
        row.append(Button(t(lang, "accuse.more"), data))
    return [row] if row else []


def _accuse_button(lang: str, action: Action, game_id: int, names: Sequence[str]) -> Button:
    assert action.accused is not None
    text = t(lang, "accuse.button", name=_name(names, action.accused))
    return Button(text, packed(MoveCb, game=game_id, k=DRAFT, a=action.text))


def accuse_page(
    lang: str, view: View, game_id: int, names: Sequence[str]
) -> tuple[str, Rows] | None:
    """«Антимухлёж» against each player the seat may accuse; None when there is none."""
    accusations = _accusations(view)
    if not accusations:
        return None
    rows = [[_accuse_button(lang, a, game_id, names)] for a in accusations]
    back = packed(PageCb, game=game_id, k=DRAFT, page="hand")
    rows.append([Button(t(lang, "hand.cancel"), back)])
    return t(lang, "accuse.page"), rows


def cheat_page(
    lang: str, view: View, game_id: int, cheats: Sequence[Action], card: Card | None = None
) -> tuple[str, Rows] | None:
    """The defender's cheats, every button marked 🤫. A card with one cheat plays it;
    a card with several opens their choice (``card``). None when there is no cheat."""
    if not cheats:
        return None

    def cheat(a: Action) -> Button:
        return Button(cheat_label(lang, a), packed(CheatCb, game=game_id, k=DRAFT, a=a.text))

    mine = [a for a in cheats if a.cards[0] == card]
    if mine:
        buttons = [cheat(a) for a in mine]
        back = packed(PageCb, game=game_id, k=DRAFT, page="cheat")
        status = t(lang, "cheat.choose", card=card_label(mine[0].cards[0], lang))
    else:
        buttons = []
        for c in sort_for_hand(view.hand, view.trump):
            of_card = [a for a in cheats if a.cards[0] == c]
            if len(of_card) == 1:
                buttons.append(cheat(of_card[0]))
            elif of_card:
                data = PageCb(game=game_id, k=DRAFT, page=PageName.CHEAT, card=str(c)).pack()
                buttons.append(Button(t(lang, "cheat.card", card=card_label(c, lang)), data))
        back = packed(PageCb, game=game_id, k=DRAFT, page="hand")
        status = t(lang, "cheat.page")
    rows = _packed(buttons)
    rows.append([Button(t(lang, "hand.cancel"), back)])
    return status, rows


def _packed(buttons: list[Button]) -> Rows:
    """Rows that fit a phone's width; as many per row as it takes to stay within
    ``MAX_ROWS`` (a hand of dozens of cards)."""
    budget = ROW_WIDTH
    while True:
        rows: Rows = []
        for b in buttons:
            if rows and sum(width(x.text) for x in rows[-1]) + width(b.text) <= budget:
                rows[-1].append(b)
            else:
                rows.append([b])
        if len(rows) <= MAX_ROWS:
            return rows
        budget += 4
