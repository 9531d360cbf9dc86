"""Pure rendering: views and records in, (text, keyboard) out. Texts are HTML."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from html import escape

from engine import Action, Card, Outcome, View
from engine.actions import ACCUSE, BACK, BEAT, DONE, OPEN, PASS, QUIT, SHOW, TAKE, THROW, TRANSFER
from engine.legal import MISSES_TO_IDLE
from service import Seat, TableSettings
from service.lobby_rules import table_rules
from service.tables import BOT_LEVELS
from storage.records import TableRecord

from .callbacks import LobbyCb, LobbyOp
from .card_labels import card_label, trump_words
from .i18n import t
from .keyboard import Button, Keyboard
from .render_cheating import accusation_exposed, accusation_words
from .rules_text import in_force, lobby_rules_line, pack, rules_line

RECENT = 4  # actions shown in the table message
NBSP = "\u00a0"  # keeps on one line: a pair on the table («7♠ / 9♠»), a score, a time
COUNTED = (OPEN, BEAT, TRANSFER, SHOW, TAKE)  # the moves whose timeouts hand a seat to a bot
WORD_KEYS = {TAKE: "take", DONE: "done", PASS: "pass", QUIT: "quit", BACK: "back"}
TEAM_SEATS = (4, 6)  # pairs, teams of three
NEIGHBORS_MATTER = 4  # with 2 or 3 players the defender's neighbours are everyone (RULES §4)


def cards_text(cards: Sequence[Card], lang: str) -> str:
    return " ".join(card_label(c, lang) for c in cards)


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
    """The table's settings in lines: the table, the clock, the bots, the rules."""
    rules = table_rules(s)
    table = [setting_value(lang, s, name) for name in ("mode", "deck", "seats")]
    if s.seats >= NEIGHBORS_MATTER:  # (fewer: everyone is the defender's neighbour)
        table.append(t(lang, f"throw_in.{s.throw_in}"))
    if s.pairs:
        table.append(setting_value(lang, s, "pairs"))
    clock = t(lang, f"speed.{s.speed}", move=rules.move_seconds, throw=rules.throw_seconds)
    bots = t(lang, "lobby.bots", level=t(lang, f"bots.{s.bots}"))
    line = " · ".join(table)
    return "\n".join([line[:1].upper() + line[1:], clock, bots, lobby_rules_line(lang, s)])


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


def setting_answer(lang: str, s: TableSettings, name: str) -> str:
    """The answer to a setting's press, naming its new value as the bots' press does:
    «Теперь: переводной.», «Теперь: 4 места.», «Теперь: ⏱ 15 с на ход, 5 с на …»."""
    if name in ("mode", "deck", "seats", "pairs"):
        value = setting_value(lang, s, name)
    elif name == "throw_in":
        value = t(lang, f"throw_in.{s.throw_in}")
    elif name == "speed":
        rules = table_rules(s)
        value = t(lang, f"speed.{s.speed}", move=rules.move_seconds, throw=rules.throw_seconds)
    else:
        return t(lang, "answer.ok")
    return t(lang, "answer.now", value=value)


def team_mark(lang: str, s: TableSettings, seat: int) -> str:
    """« · команда 1» after a seat when the table plays in teams (0+2 against 1+3)."""
    return t(lang, "lobby.team", n=seat % 2 + 1) if s.pairs else ""


def lobby(lang: str, table: TableRecord, creator: str) -> tuple[str, Keyboard]:
    s = table.settings
    lines = [t(lang, "lobby.title"), settings_text(lang, s), "", t(lang, "lobby.seats_title")]
    names = seat_names(lang, table.seats)
    for i, name in enumerate(names):
        bot = not table.seats[i].human
        seat = t(lang, "lobby.bot_seat", name=escape(name)) if bot else escape(name)
        lines.append(f"{i + 1}. {seat}{team_mark(lang, s, i)}")
    free, empty = range(len(names), s.seats), t(lang, "lobby.empty_seat")
    if len(free) > 1 and not s.pairs:  # the free seats in one line: «3–6. — свободно —»
        lines.append(f"{free[0] + 1}–{free[-1] + 1}. {empty}")
    else:  # (in teams each seat shows its team)
        lines += [f"{i + 1}. {empty}{team_mark(lang, s, i)}" for i in free]
    lines += ["", t(lang, "lobby.creator", name=escape(creator))]
    return "\n".join(lines), Keyboard(lobby_rows(lang, table.id, s))


def lobby_rows(lang: str, tid: int, s: TableSettings) -> list[list[Button]]:
    """The lobby's buttons: seats, start and the rules pages, then every setting showing
    its value (a press moves it to the next one); a setting that changes nothing at
    this many seats is left out (who throws in, below 4; pairs, but for 4 and 6). At
    most 6 rows, each uncut on a 360-px phone (``rules_text.fits``)."""

    def cb(op: str, arg: str = "") -> str:
        return LobbyCb(table=tid, op=LobbyOp(op), arg=arg).pack()

    def setting(name: str, text: str) -> Button:
        return Button(text, cb("set", name))

    level = BOT_LEVELS[(BOT_LEVELS.index(s.bots) + 1) % len(BOT_LEVELS)]
    pairs = "lobby.set_threes" if s.seats == 6 else "lobby.set_pairs"
    settings = [
        setting("mode", t(lang, f"lobby.set_mode_{s.mode}")),
        setting("deck", t(lang, "lobby.set_deck", n=s.deck)),
        setting("seats", t(lang, "seats", n=s.seats)),
    ]
    if s.seats in TEAM_SEATS:
        settings.append(setting("pairs", t(lang, pairs, on="yes" if s.pairs else "no")))
    settings += [
        setting("speed", t(lang, "lobby.set_speed", n=table_rules(s).move_seconds)),
        Button(t(lang, "lobby.set_bots", level=t(lang, f"bots.{s.bots}")), cb("bots", level)),
    ]
    if s.seats >= NEIGHBORS_MATTER:
        settings.append(setting("throw_in", t(lang, f"lobby.set_throw_in_{s.throw_in}")))
    return [
        [Button(t(lang, "lobby.join"), cb("join")), Button(t(lang, "lobby.add_bot"), cb("bot"))],
        [
            Button(t(lang, "lobby.leave"), cb("leave")),
            Button(t(lang, "lobby.start"), cb("start")),
            Button(t(lang, "lobby.rules"), cb("rules")),
        ],
        *pack(settings),
    ]


def again(lang: str, table_id: int) -> Keyboard:
    data = LobbyCb(table=table_id, op=LobbyOp.AGAIN).pack()
    return Keyboard([[Button(t(lang, "lobby.again"), data)]])


# ------------------------------------------------------------------ words


def names_list(lang: str, names: Sequence[str]) -> str:
    """«Аня», «Аня и Борис», «Аня, Борис и Вика»."""
    if len(names) < 2:
        return "".join(names)
    return t(lang, "and", first=", ".join(names[:-1]), last=names[-1])


def team_names(names: Sequence[str], team: int) -> str:
    """A team as «Аня + Вика» (seats 0+2 are team 0, seats 1+3 team 1)."""
    return " + ".join(escape(n) for n in names[team::2])


def timed_out(view: View) -> list[bool]:
    """Per action of ``view.history``: an attack or defence made because its player's
    time ran out. Such an ``auto`` move is that, or a stand-in's for a player already
    handed to a bot, which the engine's count of missed moves (``State.apply``) tells
    apart. An automatic «Бито»/«Пас» may be a word the player was only counted as
    saying (``service.autoplay.forced_word``), so it is never called a timeout."""
    missed = [0] * len(view.hand_sizes)
    out = []
    for action, auto in zip(view.history, view.auto, strict=True):
        seat, counted = action.seat, action.kind in COUNTED
        out.append(auto and counted and missed[seat] < MISSES_TO_IDLE)
        if auto and counted:
            missed[seat] += 1
        elif not auto:
            missed[seat] = 0
    return out


def action_words(
    lang: str, action: Action, names: Sequence[str], auto: bool = False, exposed: bool = False
) -> str:
    """One action in words; ``auto``: made by a timeout; ``exposed``: an accusation
    that caught a cheat."""
    name = escape(names[action.seat])
    kind = action.kind
    if kind == ACCUSE:
        text = accusation_words(lang, action, names, exposed)
    elif kind == BEAT and action.target is not None:
        target, card = card_label(action.target, lang), card_label(action.cards[0], lang)
        text = t(lang, "act.beat", name=name, target=target, card=card)
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
    score: Sequence[int] = (),
) -> str:
    """The result; ``pogony`` lists (giver, fool) pairs; ``score``: each seat's wins in
    the table's series (``service.series.series_score``). Only a team game has more
    than one fool: then seats 0+2 played against 1+3."""
    teams = len(outcome.fools) > 1
    lines = [result_line(lang, outcome, names, teams)]
    for fool in sorted({f for _, f in pogony}):
        givers = [escape(names[g]) for g, f in pogony if f == fool]
        fool_name = escape(names[fool])
        lines.append(
            t(lang, "end.pogony", n=len(givers), fool=fool_name, givers=names_list(lang, givers))
        )
    if len(names) > 2 and not teams and not outcome.draw:
        lines.append(t(lang, "end.places"))
        order = sorted(range(len(names)), key=lambda s: outcome.places[s])
        lines += [f"{outcome.places[s]}. {escape(names[s])}" for s in order]
    if score:
        lines.append(t(lang, "end.score", score=score_line(names, score)))
    return "\n".join(lines)


def score_line(names: Sequence[str], score: Sequence[int]) -> str:
    """«Аня — <b>2</b> · Мастер 1 — <b>1</b>»: a bot's name ends in a number too, so
    each player's wins are set apart from the name, and players from each other."""
    return " · ".join(
        f"{escape(n)} — <b>{w}</b>".replace(" ", NBSP) for n, w in zip(names, score, strict=True)
    )  # on a phone it wraps between players only, never inside «Мастер 2 — 1»


def result_line(lang: str, outcome: Outcome, names: Sequence[str], teams: bool) -> str:
    """«🃏 Партия окончена. Дурак — Борис!», «…: Борис сдаётся и остаётся в дураках.»,
    which team won, or a draw."""
    if outcome.draw:
        return t(lang, "end.draw")
    quit_ = outcome.surrendered
    who = {} if quit_ is None else {"name": escape(names[quit_])}
    if teams:
        fools = outcome.fools[0] % 2
        won, lost = team_names(names, 1 - fools), team_names(names, fools)
        return t(lang, "end.team_surrendered" if who else "end.team", won=won, lost=lost, **who)
    if who:
        return t(lang, "end.fool_surrendered", **who)
    return t(lang, "end.fool", name=escape(names[outcome.fools[0]]))


# ------------------------------------------------------------------ table


def table_message(
    lang: str,
    view: View,
    names: Sequence[str],
    idle: Sequence[bool],
    deadline: datetime | None = None,
    settings: TableSettings | None = None,
    unseen: Sequence[tuple[int, str]] = (),
    added: int | None = None,
) -> str:
    """The group's one message about the game: public information only. First whose
    move it is and until when (``deadline``, see ``turn_line``). ``settings``: the
    table's, for the name of its preset (the rules line shows only when a preset or
    option is on). ``unseen``: (user id, name) of the players who play from the group
    and have not opened their cards here yet, mentioned under it (a new table message
    notifies them: nobody else is written to). ``added``: the seconds an outage added
    to the move (``service.outage``), said under it."""
    lines = [turn_line(lang, view, names, deadline)]
    if added is not None and view.outcome is None:
        lines.append(t(lang, "outage.added", seconds=added))
    if unseen and view.outcome is None:
        mentions = ", ".join(f'<a href="tg://user?id={u}">{escape(n)}</a>' for u, n in unseen)
        lines.append(t(lang, "table.cards_here", names=mentions, n=len(unseen)))
    if view.closing and view.outcome is None:
        lines.append(t(lang, "table.closing"))
    lines.append(trump_line(lang, view))
    table_settings = settings or TableSettings()
    if table_settings.preset != "classic" or in_force(view.rules):
        lines.append(rules_line(lang, view.rules, table_settings))
    if view.rules.teams:
        lines.append(
            t(
                lang,
                "table.teams",
                first=team_names(names, 0),
                second=team_names(names, 1),
            )
        )
    lines.append("")
    for seat, name in enumerate(names):
        parts = [f"<b>{escape(name)}</b>"]
        if view.hand_sizes[seat]:
            parts.append(t(lang, "cards", n=view.hand_sizes[seat]))
        elif not view.places[seat] and view.outcome is None:  # out once the bout ends
            parts.append(t(lang, "table.no_cards"))
        role = seat_role(lang, view, seat)
        if role:
            parts.append(role)
        if idle[seat] and view.outcome is None:
            parts.append(t(lang, "table.idle"))
        lines.append(" — ".join(parts))
    if view.table:
        lines.append("")
        pairs = [
            card_label(a, lang) + (f"{NBSP}/{NBSP}{card_label(d, lang)}" if d else "")
            for a, d in view.table
        ]
        lines.append(t(lang, "table.on_table") + " " + "   ".join(pairs))
    elif view.outcome is None:
        lines += ["", t(lang, "table.empty_table")]
    if view.shown is not None and not view.history:  # why this player opens
        card = card_label(view.shown, lang)
        lines.append(t(lang, "table.first_move", name=escape(names[view.attacker]), card=card))
    first = max(0, len(view.history) - RECENT)
    if view.history:
        lines += ["", t(lang, "table.last_actions")]
        timeouts = timed_out(view)
        for i in range(first, len(view.history)):
            a = view.history[i]
            exposed = a.kind == ACCUSE and accusation_exposed(view, i)
            lines.append(action_words(lang, a, names, timeouts[i], exposed))
    return "\n".join(lines)


def turn_line(lang: str, view: View, names: Sequence[str], deadline: datetime | None) -> str:
    """«⏳ <b>Отбивается Аня · до 14:05:30 мск</b>», «⏳ <b>Кон закрывается · до …</b>»
    (the bout open for «Антимухлёж»), or that the game is over.

    The move's end as a clock time, not the seconds left: it is true whenever it is
    read, and it changes only with a step, which edits the table anyway, so the outbox
    still skips an edit that shows nothing new and a group's 20 edits a minute go to
    moves (a countdown would need an edit every few seconds). Its zone is named: one
    message is read in every zone. Without a deadline (no timer armed yet): the
    seconds a move has."""
    turn = view.turn
    if view.outcome is not None or turn is None:
        return t(lang, "table.over")
    seconds = view.rules.throw_seconds if turn.kind == "throw" else view.rules.move_seconds
    if deadline is not None:
        until = t(lang, "table.until", time=clock_time(lang, deadline))
    else:
        until = t(lang, "table.seconds" if view.closing else "table.per_move", seconds=seconds)
    if view.closing:  # all beaten, open for «Антимухлёж» (RULES §9) until the clock runs out
        return t(lang, "table.turn_closing", until=until)
    who = names_list(lang, [escape(names[s]) for s in turn.seats])
    kind = "throw_one" if turn.kind == "throw" and len(turn.seats) == 1 else turn.kind
    return t(lang, f"table.turn_{kind}", name=who, until=until)


def clock_time(lang: str, moment: datetime) -> str:
    """«14:05:30 мск», «14:05:30 UTC+7»: to the nearest second, with its zone."""
    moment = (moment + timedelta(microseconds=500_000)).replace(microsecond=0)
    return f"{moment:%H:%M:%S}{NBSP}{zone_name(lang, moment)}"


def zone_name(lang: str, moment: datetime) -> str:
    """The zone of ``moment`` as players write it: «мск» (Moscow time), «UTC+7» for a
    zone known by its offset only, else its abbreviation («CET»)."""
    name = moment.tzname() or ""
    if name == "MSK":
        return t(lang, "zone.msk")
    if not name or name[0] in "+-":
        offset = moment.utcoffset() or timedelta()
        minutes = int(offset.total_seconds()) // 60
        sign, minutes = "+" if minutes >= 0 else "-", abs(minutes)
        hours = f"{minutes // 60}" + (f":{minutes % 60:02d}" if minutes % 60 else "")
        return "UTC" if not minutes else f"UTC{sign}{hours}"
    return name


def trump_line(lang: str, view: View) -> str:
    """The trump suit, the turned card apart when it is not the trump (fixed ♦, no
    trumps), and the stock and the discard pile."""
    trump = trump_words(lang, view, card_label(view.trump_card, lang), "table")
    stock = t(lang, "table.stock", n=view.stock_size)
    return " · ".join([trump, stock, t(lang, "table.discard", n=len(view.discard))])


def seat_role(lang: str, view: View, seat: int) -> str:
    """What a seat is doing now («отбивается»), or how it ended («дурак», «сдаётся»)."""
    outcome = view.outcome
    if outcome is not None:
        if outcome.draw:
            return t(lang, "table.draw")
        if seat == outcome.surrendered:
            return t(lang, "table.surrendered")
        if seat in outcome.fools:
            return t(lang, "table.fool")
        if view.rules.teams:
            return t(lang, "table.won")
    if view.places[seat]:
        out = "table.out" if not view.hand_sizes[seat] else "table.place"
        return t(lang, out, place=view.places[seat])
    if outcome is not None:
        return ""
    if seat == view.defender:
        return t(lang, "table.beaten_all" if view.closing else "table.defending")
    if seat == view.attacker:
        return t(lang, "table.attacking")
    if seat in view.may_throw:
        return t(lang, "table.throwing")
    return ""
