"""Pure rendering of a player's private message: their hand as a keyboard (HTML text).

Every button of a hand ends its callback data with the hand's key, a digest of all the
hand shows but the seconds left (``seal``). A press counts while the hand would still be
drawn with that key, so a hand that a move did not change keeps its keyboard (no edit),
and a press on an older keyboard is refused: it never makes a move the player did not
see. Bound: at most 8 rows with up to 12 cards, at most 10 with more.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from html import escape

from engine import Action, Card, View
from engine.actions import ACCUSE, BACK, BEAT, DONE, PASS, QUIT, SHOW, TAKE, THROW, TRANSFER
from engine.cards import sort_for_hand

from .callbacks import DRAFT, CardCb, LobbyCb, LobbyOp, MoveCb, PageCb, packed, tap_meaning
from .card_labels import card_label, fitted, trump_words
from .hand_moves import markable, opening, tap_kinds
from .i18n import t
from .keyboard import Button, Keyboard
from .render_cheating import accuse_page, cheat_page, hand_rows

Rows = list[list[Button]]
ROW, WIDE_ROW = 6, 7  # cards per keyboard row; with more than 36 cards
PLAYABLE, MARKED, DANGER = "success", "primary", "danger"  # Bot API 9.4 button styles
WORDS = {TAKE: "take", DONE: "done", PASS: "pass"}


class Drawn:
    """A hand as drawn: its text, its key and its buttons. The keyboard, its buttons
    sealed with the key, is built when it is first asked for: a press is checked
    against the key alone, and a hand drawn for that is often never sent as it is."""

    __slots__ = ("_markup", "_rows", "key", "text", "untimed")

    def __init__(self, text: str, rows: Rows, key: str, untimed: str | None = None) -> None:
        self.text = text
        self.key = key  # the same key: the same hand, but for the seconds left
        self.untimed = untimed  # the text without its line of seconds left, if it has one
        self._rows = rows
        self._markup: Keyboard | None = None

    @property
    def markup(self) -> Keyboard | None:
        if self._markup is None and self._rows:
            key, draft = self.key, ":" + DRAFT

            def sealed(b: Button) -> Button:
                data = b.data
                return (
                    b._replace(data=data[: -len(DRAFT)] + key)
                    if data and data.endswith(draft)
                    else b
                )

            self._markup = Keyboard([sealed(b) for b in row] for row in self._rows)
        return self._markup

    def __iter__(self) -> Iterator[object]:
        """As the tuple (text, markup, key, untimed)."""
        return iter((self.text, self.markup, self.key, self.untimed))

    def __getitem__(self, index: int) -> object:
        return (self.text, self.markup, self.key, self.untimed)[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Drawn):
            return NotImplemented
        mine, theirs = (self.text, self.key, self.untimed), (other.text, other.key, other.untimed)
        return mine == theirs and self._rows == other._rows

    __hash__ = None  # type: ignore[assignment]

    def retimed(self, text: str) -> Drawn:
        """The same hand with another text (other seconds left): one keyboard for both."""
        again = Drawn(text, self._rows, self.key, self.untimed)
        again._markup = self._markup
        return again


def seal(text: str, rows: Rows, timer: str = "") -> Drawn:
    """The hand with its key filled in: the digest of the text and the buttons as drawn
    (with the ``DRAFT`` key, which ends every hand callback); then the ``timer`` (the
    seconds left) is added to the text, outside the key."""
    parts = [text] + [f"{b.text}\x1f{b.style}\x1f{b.data}" for row in rows for b in row]
    key = hashlib.blake2b("\x1e".join(parts).encode(), digest_size=4).hexdigest()
    return Drawn(text + timer, rows, key, text if timer else None)


def timer_line(lang: str, seconds: int) -> str:
    return "\n⏳ " + t(lang, "hand.seconds", n=max(0, seconds))


def retimed(lang: str, drawn: Drawn, seconds: int | None) -> Drawn | None:
    """The same hand with other seconds left, if it shows them; else None."""
    if drawn.untimed is None or seconds is None:
        return None
    return drawn.retimed(drawn.untimed + timer_line(lang, seconds))


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
    marked: Sequence[Card] = (),
    seconds: int | None = None,
    added: int | None = None,
    styled: bool = True,
) -> Drawn:
    """A player's private message: their cards as buttons, and the moves they have.
    ``leave``: the table a player out of cards may leave while the others play on.
    ``page``: ``more`` («⋯»), ``mark`` (``marked``: the cards marked for an opening),
    and with the option ``cheating`` ``cheat`` (``cheat_card``: the card whose target is
    being chosen) or ``accuse``; ``cheats`` are this seat's own (``State.cheat_actions``),
    ``names`` name whom one may accuse. ``seconds``: left for this seat's move;
    ``added``: the seconds an outage added to it (``service.outage``).
    ``styled``: the server shows button styles; else playable cards are marked «✓»."""
    assert view.seat is not None
    head = _head(lang, view)
    if view.outcome is not None:
        return seal(head + t(lang, "hand.game_over"), [])
    if view.places[view.seat]:
        if leave is None:
            return seal(head + t(lang, "hand.you_out"), [])
        data = LobbyCb(table=leave, op=LobbyOp.LEAVE).pack()
        return seal(
            head + t(lang, "hand.you_out_may_leave"), [[Button(t(lang, "hand.leave"), data)]]
        )
    timer = note = ""
    waited = view.turn is not None and view.seat in view.turn.seats
    if seconds is not None and (waited or view.closing):  # the open bout closes for all
        timer = timer_line(lang, seconds)
        if added is not None:  # (in the key: said by an edit)
            note = "\n" + t(lang, "outage.added", seconds=added)

    def timed(text: str, rows: Rows) -> Drawn:
        return seal(text + note, rows, timer)

    other = None
    if page == "cheat":
        other = cheat_page(lang, view, game_id, cheats, cheat_card)
    elif page == "accuse":
        other = accuse_page(lang, view, game_id, names)
    if other is not None:
        return timed(f"{head}{other[0]}", other[1])
    keys = _Keys(lang, view, game_id, styled)
    if page == "more":
        more = "hand.more_page_team" if view.rules.teams else "hand.more_page"
        return seal(head + t(lang, more), keys.more_page())
    if picking is not None:
        return timed(head + t(lang, "answer.choose_target"), keys.targets(picking))
    if page == "mark":
        return timed(head + t(lang, "hand.mark_page"), keys.mark_page(marked))
    rows = keys.cards(tap_kinds(view))
    moves = [a for a in view.legal if a.kind in (TRANSFER, SHOW)]
    rows += _packed([keys.transfer(a) for a in moves], 3)
    rows += hand_rows(lang, view, game_id, cheats, names)
    controls = [
        keys.move(t(lang, f"hand.{WORDS[a.kind]}"), a) for a in view.legal if a.kind in WORDS
    ]
    if markable(view):
        controls.append(keys.page(t(lang, "hand.several"), "mark"))
    controls.append(keys.page("⋯", "more"))
    if idle:  # a long label: a row of its own
        rows.append([keys.move(t(lang, "hand.back"), Action(view.seat, BACK))])
    rows.append(controls)
    return timed(head + _status(lang, view, idle, names), rows)


class _Keys:
    """The buttons of one hand, packed with the ``DRAFT`` key for ``seal``."""

    def __init__(self, lang: str, view: View, game_id: int, styled: bool) -> None:
        self.lang, self.view, self.game, self.styled = lang, view, game_id, styled

    def move(self, text: str, a: Action, style: str | None = None) -> Button:
        return Button(text, packed(MoveCb, game=self.game, a=a.text, k=DRAFT), style)

    def page(self, text: str, name: str, card: str = "") -> Button:
        return Button(text, packed(PageCb, game=self.game, page=name, card=card, k=DRAFT))

    def card(self, c: Card, data: str, style: str | None) -> Button:
        label = card_label(c, self.lang)
        if style is not None and not self.styled:
            return Button("✓" + label, data)  # the plain-text fallback of a style
        return Button(label, data, style)

    def cards(self, taps: dict[Card, str]) -> Rows:
        view = self.view
        meanings = {kind: tap_meaning(view, kind) for kind in set(taps.values())}  # one, mostly
        buttons = []
        for c in sort_for_hand(view.hand, view.trump):
            meant = meanings[taps[c]] if c in taps else ""
            data = packed(CardCb, game=self.game, card=str(c), meant=meant, k=DRAFT)
            buttons.append(self.card(c, data, PLAYABLE if c in taps else None))
        return _card_rows(buttons)

    def transfer(self, a: Action) -> Button:
        key = "hand.transfer" if a.kind == TRANSFER else "hand.show"
        return self.move(t(self.lang, key, card=card_label(a.cards[0], self.lang)), a, PLAYABLE)

    def targets(self, card: Card) -> Rows:
        """The attack cards that ``card`` may beat, and «Назад»."""
        beats = [a for a in self.view.legal if a.kind == BEAT and a.cards[0] == card and a.target]
        rows = _packed([self.move(self._target_label(a), a) for a in beats], 2)
        cancel = packed(CardCb, game=self.game, card="-", k=DRAFT)
        return [*rows, [Button(t(self.lang, "hand.cancel"), cancel)]]

    def _target_label(self, a: Action) -> str:
        assert a.target is not None
        return t(self.lang, "hand.beat_target", target=card_label(a.target, self.lang))

    def mark_page(self, marked: Sequence[Card]) -> Rows:
        """Cards of one rank are marked with a tap each; «Ходить (2)» opens with them.
        A marked card says so in its label too («✓7♠️»), not by its colour alone; the
        others that may be marked are coloured only (a «✓» here means marked)."""
        view, can = self.view, markable(self.view)
        buttons = []
        for c in sort_for_hand(view.hand, view.trump):
            data = packed(PageCb, game=self.game, page="mark", card=str(c), k=DRAFT)
            label = card_label(c, self.lang)
            if c in marked:
                buttons.append(Button("✓" + label, data, MARKED if self.styled else None))
            else:
                buttons.append(Button(label, data, PLAYABLE if c in can and self.styled else None))
        rows = _card_rows(buttons)
        controls = [self.page(t(self.lang, "hand.cancel"), "hand")]
        chosen = opening(view, marked) if marked else None
        if chosen is not None:
            go = t(self.lang, "hand.open_marked", n=len(chosen.cards))
            controls.insert(0, self.move(go, chosen, PLAYABLE))
        return [*rows, controls]

    def more_page(self) -> Rows:
        assert self.view.seat is not None
        quit_ = self.move(t(self.lang, "hand.surrender"), Action(self.view.seat, QUIT), DANGER)
        return [[quit_, self.page(t(self.lang, "hand.cancel"), "hand")]]


def _packed(buttons: list[Button], per_row: int) -> Rows:
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]


def _card_rows(buttons: list[Button]) -> Rows:
    """As few rows as the row's width allows, the cards shared out evenly among them
    (seven cards: 4 + 3, not 6 and a lone card across the whole width)."""
    per_row = ROW if len(buttons) <= 6 * ROW else WIDE_ROW
    rows = -(-len(buttons) // per_row)
    out, at = [], 0
    for row in range(rows):  # the first rows take one card more when they do not divide
        size = len(buttons) // rows + (row < len(buttons) % rows)
        out.append(buttons[at : at + size])
        at += size
    return out


def _head(lang: str, view: View) -> str:
    """The trump, the stock and, for a player in the bout, the table: a hand that no
    move of the bout concerns stays as it is (and is not edited). Lines fit a phone
    (``STATUS_WIDTH``), broken between parts, never inside a pair on the table."""
    trump = trump_words(lang, view, card_label(view.trump_card, lang), "hand")
    stock = t(lang, "hand.stock", n=view.stock_size) if view.stock_size else None
    lines = [fitted([trump, stock or t(lang, "hand.stock_empty")], " · ")]
    moves = any(a.kind not in (QUIT, BACK) for a in view.legal)
    if view.table and (moves or view.seat in (view.attacker, view.defender)):
        pairs = [
            card_label(a, lang) + (f"/{card_label(d, lang)}" if d else "") for a, d in view.table
        ]
        lines.append(fitted([t(lang, "hand.on_table", cards=pairs[0]), *pairs[1:]], "  "))
    return "\n".join(lines) + "\n\n"


def _status(lang: str, view: View, idle: bool, names: Sequence[str]) -> str:
    if idle:
        return t(lang, "hand.idle")
    turn = view.turn
    seat = view.seat
    if view.closing:
        return _closing_status(lang, view)
    if turn is not None and seat in turn.seats:
        if turn.kind == "attack":
            return t(lang, "hand.you_attack")
        if turn.kind == "defend":
            transfer = any(a.kind in (TRANSFER, SHOW) for a in view.legal)
            return t(lang, "hand.you_defend_transfer" if transfer else "hand.you_defend")
        word = t(lang, "hand.pass" if view.taking else "hand.done")
        can = any(a.kind == THROW for a in view.legal)
        return t(lang, "hand.you_throw" if can else "hand.nothing_to_throw", word=word)
    if any(a.kind == THROW for a in view.legal):
        return t(lang, "hand.may_throw")
    return _waiting(lang, view, names)


def _waiting(lang: str, view: View, names: Sequence[str]) -> str:
    """Whom the game waits for, when not this seat. In the bout: «Ходит Аня.»,
    «Отбивается Аня.», «Аня подкидывает.», «Ждём: Аня, Вика.». Outside it, who plays
    whom («Аня ходит, Борис отбивается.»), the same through the bout: a hand that no
    move of the bout concerns is not edited at each of its moves. Broken between
    words to fit a phone."""
    seats = view.turn.seats if view.turn is not None else ()
    if not seats or any(s >= len(names) for s in (*seats, view.attacker, view.defender)):
        return t(lang, "hand.you_wait")
    if view.seat not in (view.attacker, view.defender):
        attacker, defender = escape(names[view.attacker]), escape(names[view.defender])
        if view.taking:
            text = t(lang, "hand.bout_taking", defender=defender)
        else:
            text = t(lang, "hand.bout", attacker=attacker, defender=defender)
    elif len(seats) > 1:
        text = t(lang, "hand.wait_many", names=", ".join(escape(names[s]) for s in seats))
    else:
        assert view.turn is not None
        text = t(lang, f"hand.wait_{view.turn.kind}", name=escape(names[seats[0]]))
    return fitted(text.split(" "), " ")


def _closing_status(lang: str, view: View) -> str:
    """All is beaten and the bout stays open for «Антимухлёж» (RULES §9) until the
    throw-in clock runs out or everyone but the defender has said «Бито»."""
    if view.seat == view.defender:
        return t(lang, "hand.closing_defender")
    accuse = any(a.kind == ACCUSE for a in view.legal)
    if not accuse:
        return t(lang, "hand.closing")
    if any(a.kind == DONE for a in view.legal):
        return t(lang, "hand.closing_word", word=t(lang, "hand.done"))
    return t(lang, "hand.closing_may_accuse")
