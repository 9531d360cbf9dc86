"""Pure rendering: views and records in, (text, keyboard) out. Texts are HTML."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from html import escape
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Action, Card, Outcome, View
from engine.actions import ACCUSE, BACK, BEAT, DONE, OPEN, PASS, QUIT, SHOW, TAKE, THROW, TRANSFER
from engine.cards import sort_for_hand
from service import Seat
from service.tables import BOT_LEVELS, DEFAULT_SETTINGS

from .callbacks import CardCb, LobbyCb, MoveCb, tap_meaning
from .i18n import t
from .render_cheating import (
    accusation_exposed,
    accusation_words,
    accuse_page,
    cheat_page,
    hand_rows,
)
from .rules_text import in_force, lobby_rules_line, rules_line

RECENT = 4  # actions shown in the table message
ROW = 6  # cards per keyboard row
WORD_KEYS = {TAKE: "take", DONE: "done", PASS: "pass", QUIT: "quit", BACK: "back"}


def button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


def cards_text(cards: Sequence[Card], lang: str) -> str:
    return " ".join(c.label(lang) for c in cards)


# ------------------------------------------------------------------ lobby


def seat_names(lang: str, seats: Sequence[Seat]) -> list[str]:
    """Players' names as shown: a bot is named by its strength and number («Мастер 2»)."""
    names, bots = [], 0
    for seat in seats:
        if not seat.human:
            bots += 1
            names.append(f"{t(lang, 'bots.' + (seat.level or 'novice'))} {bots}")
        else:
            names.append(seat.name)
    return names


def settings_text(lang: str, s: Mapping[str, Any]) -> str:
    """The table's settings in three lines: the table, the bots' strength, the rules."""
    s = {**DEFAULT_SETTINGS, **s}
    rules = t(
        lang,
        "lobby.settings",
        mode=t(lang, f"mode.{s['mode']}"),
        deck=t(lang, "cards", n=s["deck"]),
        seats=t(lang, "seats", n=s["seats"]),
        throw_in=t(lang, f"throw_in.{s['throw_in']}"),
        pairs=t(lang, "lobby.pairs" if s["seats"] != 6 else "lobby.threes") if s["pairs"] else "",
        speed=t(lang, f"speed.{s['speed']}"),
    )
    level = t(lang, f"bots.{s.get('bots', 'novice')}")
    return "\n".join([rules, t(lang, "lobby.bots", level=level), lobby_rules_line(lang, s)])


def lobby(lang: str, table: Any, creator: str) -> tuple[str, InlineKeyboardMarkup]:
    s = table.settings
    lines = [t(lang, "lobby.title"), settings_text(lang, s), "", t(lang, "lobby.seats_title")]
    names = seat_names(lang, table.seats)
    for i in range(s["seats"]):
        if i < len(table.seats):
            name = escape(names[i])
            bot = not table.seats[i].human
            lines.append(f"{i + 1}. " + (t(lang, "lobby.bot_seat", name=name) if bot else name))
        else:
            lines.append(f"{i + 1}. {t(lang, 'lobby.empty_seat')}")
    lines += ["", t(lang, "lobby.creator", name=escape(creator))]
    tid = table.id

    def cb(op: str, arg: str = "") -> str:
        return LobbyCb(table=tid, op=op, arg=arg).pack()

    chosen = s.get("bots", "novice")
    rows = [
        [button(t(lang, "lobby.join"), cb("join")), button(t(lang, "lobby.leave"), cb("leave"))],
        [button(t(lang, "lobby.add_bot"), cb("bot")), button(t(lang, "lobby.start"), cb("start"))],
        [
            button(t(lang, "lobby.set_mode"), cb("set", "mode")),
            button(t(lang, "lobby.set_deck"), cb("set", "deck")),
            button(f"{t(lang, 'lobby.set_seats')} −", cb("set", "seats-")),
            button(f"{t(lang, 'lobby.set_seats')} +", cb("set", "seats+")),
        ],
        [
            button(t(lang, "lobby.set_throw_in"), cb("set", "throw_in")),
            button(t(lang, "lobby.set_pairs"), cb("set", "pairs")),
            button(t(lang, "lobby.set_speed"), cb("set", "speed")),
        ],
        [button(t(lang, "lobby.rules"), cb("rules"))],
        [
            button(("✓ " if level == chosen else "") + t(lang, f"bots.{level}"), cb("bots", level))
            for level in BOT_LEVELS
        ],
    ]
    return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=rows)


def again(lang: str, table_id: int) -> InlineKeyboardMarkup:
    data = LobbyCb(table=table_id, op="again").pack()
    return InlineKeyboardMarkup(inline_keyboard=[[button(t(lang, "lobby.again"), data)]])


# ------------------------------------------------------------------ words


def action_words(
    lang: str, action: Action, names: Sequence[str], auto: bool = False, exposed: bool = False
) -> str:
    """One action in words; ``exposed``: an accusation that caught a cheat."""
    name = escape(names[action.seat])
    kind = action.kind
    if kind == ACCUSE:
        text = accusation_words(lang, action, names, exposed)
    elif kind == BEAT and action.target is not None:
        text = t(
            lang,
            "act.beat",
            name=name,
            target=action.target.label(lang),
            card=action.cards[0].label(lang),
        )
    elif kind in (OPEN, THROW, TRANSFER, SHOW):
        key = {OPEN: "open", THROW: "throw", TRANSFER: "transfer", SHOW: "show"}[kind]
        text = t(lang, f"act.{key}", name=name, cards=cards_text(action.cards, lang))
    elif kind in WORD_KEYS:
        text = t(lang, f"act.{WORD_KEYS[kind]}", name=name)
    else:  # a kind this bot does not know yet: its text form
        text = f"{name}: {escape(action.text)}"
    return text + (t(lang, "act.auto") if auto else "")


def outcome_text(
    lang: str,
    outcome: Outcome,
    names: Sequence[str],
    pogony: Sequence[tuple[int, int]] = (),
) -> str:
    """The result; ``pogony`` lists (giver, fool) pairs: «Вася получает погоны от Пети»."""
    if outcome.draw:
        lines = [t(lang, "end.draw")]
    elif len(outcome.fools) == 1:
        lines = [t(lang, "end.fool", name=escape(names[outcome.fools[0]]))]
    else:
        lines = [t(lang, "end.fools", names=", ".join(escape(names[s]) for s in outcome.fools))]
    if outcome.surrendered is not None:
        lines.append(t(lang, "end.surrendered", name=escape(names[outcome.surrendered])))
    for fool in sorted({f for _, f in pogony}):
        givers = [escape(names[g]) for g, f in pogony if f == fool]
        lines.append(
            t(lang, "end.pogony", n=len(givers), fool=escape(names[fool]), givers=", ".join(givers))
        )
    lines.append(t(lang, "end.places"))
    order = sorted(range(len(names)), key=lambda s: outcome.places[s])
    lines += [f"{outcome.places[s]}. {escape(names[s])}" for s in order]
    return "\n".join(lines)


# ------------------------------------------------------------------ table


def table_message(
    lang: str,
    view: View,
    names: Sequence[str],
    idle: Sequence[bool],
    deadline: datetime | None = None,
    settings: Mapping[str, Any] | None = None,
) -> str:
    """The group's one message about the game: public information only. The move's
    deadline is a clock time: the message is edited only on moves, so a count of
    seconds left would be wrong a moment later. ``settings``: the table's, for the
    name of its preset (the rules line shows only when a preset or option is on)."""
    lines = [
        " · ".join(
            [
                t(lang, "table.trump", card=view.trump_card.label(lang)),
                t(lang, "table.stock", n=view.stock_size),
                t(lang, "table.discard", n=len(view.discard)),
            ]
        ),
        "",
    ]
    table_settings = {**DEFAULT_SETTINGS, **(settings or {})}
    if table_settings["preset"] != "classic" or in_force(view.rules):
        lines[1:1] = [rules_line(lang, view.rules, table_settings)]
    for seat, name in enumerate(names):
        if view.places[seat]:
            role = t(lang, "table.out", place=view.places[seat])
        elif seat == view.defender:
            role = t(lang, "table.defending")
        elif seat == view.attacker:
            role = t(lang, "table.attacking")
        elif seat in view.may_throw:
            role = t(lang, "table.throwing")
        else:
            role = ""
        parts = [f"<b>{escape(name)}</b>", t(lang, "cards", n=view.hand_sizes[seat]), role]
        if idle[seat]:
            parts.append(t(lang, "table.idle"))
        lines.append(" — ".join(p for p in parts if p))
    lines.append("")
    if view.table:
        pairs = [a.label(lang) + (f" / {d.label(lang)}" if d else "") for a, d in view.table]
        lines.append(t(lang, "table.on_table") + " " + "   ".join(pairs))
    else:
        lines.append(t(lang, "table.empty_table"))
    if view.shown is not None and not view.history:  # why this player opens
        card = view.shown.label(lang)
        lines.append(t(lang, "table.first_move", name=escape(names[view.attacker]), card=card))
    turn = view.turn
    if turn is not None and view.outcome is None:
        if deadline is not None:
            limit = t(lang, "table.until", time=deadline.strftime("%H:%M:%S"))
        else:
            seconds = view.rules.throw_seconds if turn.kind == "throw" else view.rules.move_seconds
            limit = t(lang, "seconds", n=seconds)
        who = ", ".join(escape(names[s]) for s in turn.seats)
        key = {"attack": "turn_attack", "defend": "turn_defend", "throw": "turn_throw"}[turn.kind]
        if turn.kind == "throw" and len(turn.seats) == 1:
            key = "turn_throw_one"
        lines.append(t(lang, f"table.{key}", name=who, names=who, limit=limit))
    first = max(0, len(view.history) - RECENT)
    if view.history:
        lines += ["", t(lang, "table.last_actions")]
        for i in range(first, len(view.history)):
            a = view.history[i]
            exposed = a.kind == ACCUSE and accusation_exposed(view, i)
            lines.append(action_words(lang, a, names, view.auto[i], exposed))
    return "\n".join(lines)


# ------------------------------------------------------------------ hand


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
