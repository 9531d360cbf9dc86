"""Pure rendering: views and records in, (text, keyboard) out. Texts are HTML."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Action, Card, Outcome, View
from engine.actions import ACCUSE, BACK, BEAT, DONE, OPEN, PASS, QUIT, SHOW, TAKE, THROW, TRANSFER
from service import Seat, TableSettings
from service.tables import BOT_LEVELS
from storage.records import TableRecord

from .callbacks import LobbyCb
from .i18n import t
from .render_cheating import accusation_exposed, accusation_words
from .rules_text import in_force, lobby_rules_line, rules_line

RECENT = 4  # actions shown in the table message
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


def settings_text(lang: str, s: TableSettings) -> str:
    """The table's settings in three lines: the table, the bots' strength, the rules."""
    rules = t(
        lang,
        "lobby.settings",
        mode=t(lang, f"mode.{s.mode}"),
        deck=t(lang, "cards", n=s.deck),
        seats=t(lang, "seats", n=s.seats),
        throw_in=t(lang, f"throw_in.{s.throw_in}"),
        pairs=", " + setting_value(lang, s, "pairs") if s.pairs else "",
        speed=t(lang, f"speed.{s.speed}"),
    )
    level = t(lang, f"bots.{s.bots}")
    return "\n".join([rules, t(lang, "lobby.bots", level=level), lobby_rules_line(lang, s)])


def setting_value(lang: str, s: TableSettings, name: str) -> str:
    """One of the settings a preset may change, in words: «переводной», «3 места»."""
    if name == "mode":
        return t(lang, f"mode.{s.mode}")
    if name == "deck":
        return t(lang, "cards", n=s.deck)
    if name == "seats":
        return t(lang, "seats", n=s.seats)
    if not s.pairs:
        return t(lang, "lobby.no_pairs")
    return t(lang, "lobby.threes" if s.seats == 6 else "lobby.pairs")


def preset_answer(lang: str, s: TableSettings, changed: Sequence[str]) -> str:
    """The answer to a preset's press: its name and what it changed at the table."""
    name = t(lang, f"preset.{s.preset}")
    if not changed:
        return t(lang, "answer.preset", name=name)
    changes = ", ".join(setting_value(lang, s, field) for field in changed)
    return t(lang, "answer.preset_changed", name=name, changes=changes)


def lobby(lang: str, table: TableRecord, creator: str) -> tuple[str, InlineKeyboardMarkup]:
    s = table.settings
    lines = [t(lang, "lobby.title"), settings_text(lang, s), "", t(lang, "lobby.seats_title")]
    names = seat_names(lang, table.seats)
    for i in range(s.seats):
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

    chosen = s.bots
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
    settings: TableSettings | None = None,
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
    table_settings = settings or TableSettings()
    if table_settings.preset != "classic" or in_force(view.rules):
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
