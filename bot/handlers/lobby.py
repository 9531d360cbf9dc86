"""The lobby: opening a table, seats, settings, starting a game, leaving."""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from service.lobby_rules import page_of
from service.tables import Person, TableError, Tables
from storage.repos import TableRecord

from .. import render
from ..callbacks import LobbyCb
from ..i18n import t
from ..people import deep_link, person
from ..presenter import Presenter
from ..relay import Relay

log = logging.getLogger(__name__)
GROUPS = F.chat.type.in_({"group", "supergroup"})


def error_text(lang: str, e: TableError) -> str:
    params = dict(e.params)
    if e.code == "bad_settings":
        reason = params.pop("reason")
        if "preset" in params:
            params["preset"] = t(lang, f"preset.{params['preset']}")
        if "mode" in params:
            params["mode"] = t(lang, f"mode.{params['mode']}")
        if "deck" in params:
            params["cards"] = t(lang, "cards", n=params["deck"])
        params = {"reason": t(lang, f"reason.{reason}", **params)}
    return t(lang, f"answer.{e.code}", **{k: v for k, v in params.items() if k != "chat_id"})


async def open_table(message: Message, tables: Tables, relay: Relay) -> None:
    """/durak: a new table, or the chat's table as /settings shows it (never a second
    full lobby whose buttons could not work during a game)."""
    if message.from_user is None:
        return
    table, created = await tables.open(
        message.chat.id, message.chat.title or "", person(message.from_user)
    )
    if not created:
        await show_again(relay, tables, table)
        return
    log.info("chat %s: table %s open", message.chat.id, table.id)  # (its lobby posted)


async def show_settings(message: Message, tables: Tables, relay: Relay) -> None:
    """/settings: the lobby posted anew at the bottom of the chat, with the creator's
    buttons; during a game, the settings in words; without a table, how to open one."""
    table = await tables.in_chat(message.chat.id)
    if table is None:
        asker = person(message.from_user).lang if message.from_user else "ru"
        lang = await tables.lang(message.chat.id, default=asker)
        await relay.send(message.chat.id, t(lang, "lobby.no_table"))
        return
    await show_again(relay, tables, table)


async def show_again(relay: Relay, tables: Tables, table: TableRecord) -> None:
    """The open table once more: the lobby posted anew at the bottom of the chat (the
    older one says it moved), or the settings in words during a game."""
    lang = await tables.lang(table.chat_id)
    if table.status == "playing":
        settings = render.settings_text(lang, table.settings)
        await relay.send(table.chat_id, t(lang, "lobby.settings_playing", settings=settings))
        return
    old = table.lobby_message_id
    await relay.lobby(table, new=True)
    if old is not None and not table.lobby_is_summary:
        await relay.edit(table.chat_id, old, t(lang, "lobby.moved"))


async def lobby_button(
    query: CallbackQuery,
    callback_data: LobbyCb,
    tables: Tables,
    relay: Relay,
    presenter: Presenter,
    bot: Bot,
) -> None:
    who = person(query.from_user)
    lang = who.lang
    op, tid, arg = callback_data.op, callback_data.table, callback_data.arg
    page = None
    pressed = await tables.record(tid)
    chat_id = query.message.chat.id if query.message is not None else None
    # Lobby buttons are pressed in the table's group; a hand's «Выйти» in a private chat
    where = pressed.chat_id if pressed is not None else None
    if op == "leave" and chat_id == who.id:
        where = who.id
    if pressed is None or pressed.status == "closed" or chat_id != where:
        await query.answer(t(lang, "answer.no_table"))  # forged, or another chat's table
        return
    try:
        if op == "join":
            table = await tables.join(tid, who)
            answer = t(lang, "answer.joined")
        elif op == "leave":
            table = await tables.leave(tid, who)
            if table.status == "playing":  # out of cards: the game goes on without them
                game = tables.game_of(tid)
                if game is not None:
                    await relay.hand(game, who.id)
                await query.answer(t(lang, "answer.left_game"))
                return
            answer = t(lang, "answer.left")
        elif op == "bot":
            table = await tables.add_bot(tid, who)
            answer = t(lang, "answer.ok")
        elif op == "bots":
            table = await tables.set_bots(tid, who, arg)
            answer = t(lang, "lobby.bots", level=t(lang, f"bots.{arg}"))
        elif op == "set" and arg == "seats":
            table = await tables.next_seats(tid, who)
            answer = t(lang, "answer.ok")
        elif op == "set":  # "seats-" and "seats+": the buttons of older lobby messages
            field, step = arg.rstrip("+-"), -1 if arg.endswith("-") else 1
            table = await tables.change(tid, who, field, step)
            answer = t(lang, "answer.ok")
        elif op in ("rules", "back"):  # the rules pages: only their changer opens them
            table = await tables.get(tid)
            if who.id != table.creator_id:
                raise TableError("rules_creator")
            if table.status != "lobby":
                raise TableError("playing")
            page = None if op == "back" else "house" if arg == "house" else "rules"
            answer = ""
        elif op == "preset":
            table, changed = await tables.set_preset(tid, who, arg)
            page, answer = "rules", render.preset_answer(lang, table.settings, changed)
        elif op == "opt":
            table = await tables.set_option(tid, who, arg)
            page, answer = page_of(arg), t(lang, "answer.ok")
        elif op in ("start", "again"):
            table = await tables.get(tid)
            if op == "again" and not any(s.user_id == who.id for s in table.seats):
                raise TableError("again_not_seated")
            await start_game(tables, table, None if op == "again" else who)
            await query.answer()
            return
        else:
            raise TableError("not_now")
    except TableError as e:
        if e.code == "need_private":
            await join_from_group(query, tables, relay, presenter, bot, pressed)
            return
        await query.answer(error_text(lang, e), show_alert=e.code == "bad_settings")
        return
    if op in ("join", "bot"):
        refused = await seat_taken(tables, table)
        if refused is not None:
            await query.answer(error_text(lang, refused), show_alert=True)
            return
    elif op in ("rules", "back"):  # a page opened: the other ops' changes show themselves
        await relay.lobby(table, new=False, page=page)
    await query.answer(answer or None)


async def join_from_group(
    query: CallbackQuery,
    tables: Tables,
    relay: Relay,
    presenter: Presenter,
    bot: Bot,
    pressed: TableRecord,
) -> None:
    """A person who never started the bot: seated all the same where the group can show
    them their hand (an ephemeral message), else sent to the private chat's deep link."""
    who, eph = person(query.from_user), presenter.ephemeral
    if who.id in eph.refused or not await eph.available(pressed.chat_id, who.id):
        me = await bot.me()
        await query.answer(url=deep_link(me.username or "", pressed.join_token))
        return
    try:
        table = await tables.join(pressed.id, who, private=False)
    except TableError as e:
        await query.answer(error_text(who.lang, e))
        return
    refused = await seat_taken(tables, table)
    if refused is not None:
        await query.answer(error_text(who.lang, refused), show_alert=True)
        return
    game = tables.game_of(table.id)  # this seat started it: the hand answers the press
    if (
        game is not None
        and await presenter.ready(game)
        and await eph.open(game, table.chat_id, who.id, presenter.draw(game), query.id)
    ):
        await query.answer(t(who.lang, "eph.shown"))
        return
    # not shown now (refused, or another bot process shows the games): the button will
    await query.answer(
        t(who.lang, "eph.joined_here" if game is None else "eph.refused_start"), show_alert=True
    )


async def start_game(tables: Tables, table: TableRecord, who: Person | None) -> None:
    """Start a game at ``table`` (as last read). The lobby message becomes the game's
    table message; a summary lobby («Ещё партию») keeps its result and loses its button
    (the start's own change)."""
    update = await tables.start(table.id, who)
    log.info("table %s: game %s started", table.id, update.game_id)


async def seat_taken(tables: Tables, table: TableRecord) -> TableError | None:
    """After a seat was taken: start the game once every seat is (else the seat's change
    showed the lobby). Returns why the game could not start (a game started by a
    concurrent press, or a seat added meanwhile, is fine: the lobby shows it)."""
    if len(table.seats) < table.settings.seats:
        return None
    try:
        update = await tables.start_full(table.id)
    except TableError as e:
        return e
    if update is not None:
        log.info("table %s: game %s started", table.id, update.game_id)
    return None


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="lobby")
    r.message.register(open_table, GROUPS, Command("durak", "newgame"))
    r.message.register(open_table, GROUPS, F.text.lower().in_({"дурак", "играть в дурака"}))
    r.message.register(show_settings, GROUPS, Command("settings"))
    r.message.register(show_settings, GROUPS, F.text.lower() == "настройки")
    r.callback_query.register(lobby_button, LobbyCb.filter())
    return r
