"""The lobby: opening a table, seats, settings, starting a game, leaving."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message, TelegramObject

from service.logctx import log_scope
from service.tables import Person, TableError, TableRefusal, Tables
from storage.repos import TableRecord, TableStatus

from .. import render, rules_text
from ..callbacks import LobbyCb, LobbyOp
from ..delivery import Delivery
from ..ephemeral import EphemeralHands
from ..i18n import t
from ..people import deep_link, person
from ..presenter import Presenter
from ..reach import Reach
from .chats import GROUPS, presses_of, said

log = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


def error_text(lang: str, e: TableError) -> str:
    params = dict(e.params)
    if e.code is TableRefusal.BAD_SETTINGS:
        reason = params.pop("reason")
        if "preset" in params:
            params["preset"] = t(lang, f"preset.{params['preset']}")
        if "mode" in params:
            params["mode"] = t(lang, f"mode.{params['mode']}")
        if "deck" in params:
            params["cards"] = t(lang, "cards", n=params["deck"])
        params = {"reason": t(lang, f"reason.{reason}", **params)}
    return t(lang, f"answer.{e.code}", **{k: v for k, v in params.items() if k != "chat_id"})


async def open_table(message: Message, tables: Tables, delivery: Delivery) -> None:
    """/durak: a new table, or the chat's table as /settings shows it (never a second
    full lobby whose buttons could not work during a game)."""
    if message.from_user is None:
        return
    table, created = await tables.open(
        message.chat.id, message.chat.title or "", person(message.from_user)
    )
    if not created:
        await show_again(delivery, tables, table)
        return
    log.info("chat %s: table %s open", message.chat.id, table.id)  # (its lobby posted)


async def show_settings(message: Message, tables: Tables, delivery: Delivery) -> None:
    """/settings: the lobby posted anew at the bottom of the chat, with the creator's
    buttons; during a game, the settings in words; without a table, how to open one."""
    table = await tables.in_chat(message.chat.id)
    if table is None:
        asker = person(message.from_user).lang if message.from_user else "ru"
        lang = await tables.lang(message.chat.id, default=asker)
        await delivery.send(message.chat.id, t(lang, "lobby.no_table"))
        return
    await show_again(delivery, tables, table)


async def show_again(delivery: Delivery, tables: Tables, table: TableRecord) -> None:
    """The open table once more: the lobby posted anew at the bottom of the chat (the
    older one says it moved), or the settings in words during a game."""
    lang = await tables.lang(table.chat_id)
    if table.status == TableStatus.PLAYING:
        settings = render.settings_text(lang, table.settings)
        await delivery.send(table.chat_id, t(lang, "lobby.settings_playing", settings=settings))
        return
    old = table.lobby_message_id
    await delivery.lobby(table, new=True)
    if old is not None and not table.lobby_is_summary:
        await delivery.edit(table.chat_id, old, t(lang, "lobby.moved"))


class PressedTable(BaseMiddleware):
    """Injects the pressed lobby button's table (``pressed``) and the presser (``who``)
    into the lobby's button handlers, and answers a refusal (``TableError``) any of them
    raises. Lobby buttons are pressed in the table's group, a hand's «Выйти» in a private
    chat; a button of another chat's table, or of a closed one, is refused here."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, CallbackQuery)
        tables: Tables = data["tables"]
        op: LobbyOp = data["callback_data"].op
        who = person(event.from_user)
        pressed = await tables.record(data["callback_data"].table)
        chat_id = event.message.chat.id if event.message is not None else None
        where = pressed.chat_id if pressed is not None else None
        if op is LobbyOp.LEAVE and chat_id == who.id:
            where = who.id
        if pressed is None or pressed.status == TableStatus.CLOSED or chat_id != where:
            await event.answer(t(who.lang, "answer.no_table"))  # forged, or another chat's
            return None
        data.update(pressed=pressed, who=who)
        try:
            with log_scope(table=pressed.id):
                return await handler(event, data)
        except TableError as e:
            await event.answer(
                error_text(who.lang, e), show_alert=e.code is TableRefusal.BAD_SETTINGS
            )
            return None


async def join(
    query: CallbackQuery,
    pressed: TableRecord,
    who: Person,
    tables: Tables,
    delivery: Delivery,
    presenter: Presenter,
    group_hands: EphemeralHands,
    bot: Bot,
) -> None:
    try:
        table = await tables.join(pressed.id, who)
    except TableError as e:
        if e.code is not TableRefusal.NEED_PRIVATE:
            raise
        await join_from_group(query, tables, delivery, presenter, group_hands, bot, pressed)
        return
    await seated_answer(query, tables, table, who, t(who.lang, "answer.joined"))


async def add_bot(query: CallbackQuery, pressed: TableRecord, who: Person, tables: Tables) -> None:
    table = await tables.add_bot(pressed.id, who)
    await seated_answer(query, tables, table, who, t(who.lang, "answer.ok"))


async def seated_answer(
    query: CallbackQuery, tables: Tables, table: TableRecord, who: Person, answer: str
) -> None:
    """A seat was taken: the game starts once every seat is (or the answer says why not)."""
    refused = await seat_taken(tables, table)
    if refused is not None:
        await query.answer(error_text(who.lang, refused), show_alert=True)
        return
    await query.answer(answer)


async def leave(
    query: CallbackQuery, pressed: TableRecord, who: Person, tables: Tables, delivery: Delivery
) -> None:
    table = await tables.leave(pressed.id, who)
    if table.status != TableStatus.PLAYING:
        await query.answer(t(who.lang, "answer.left"))
        return
    game = tables.game_of(table.id)  # out of cards: the game goes on without them
    if game is not None:
        await delivery.hand(game, who.id)
    await query.answer(t(who.lang, "answer.left_game"))


async def set_bots(
    query: CallbackQuery, callback_data: LobbyCb, pressed: TableRecord, who: Person, tables: Tables
) -> None:
    level = callback_data.arg
    await tables.set_bots(pressed.id, who, level)
    await query.answer(t(who.lang, "lobby.bots", level=t(who.lang, f"bots.{level}")))


async def change_setting(
    query: CallbackQuery, callback_data: LobbyCb, pressed: TableRecord, who: Person, tables: Tables
) -> None:
    """«Мест: N» goes round; ``seats-`` and ``seats+`` are older lobby messages' buttons."""
    arg = callback_data.arg
    if arg == "seats":
        field, table = arg, await tables.next_seats(pressed.id, who)
    else:
        field, step = arg.rstrip("+-"), -1 if arg.endswith("-") else 1
        table = await tables.change(pressed.id, who, field, step)
    await query.answer(render.setting_answer(who.lang, table.settings, field))


async def rules_page(
    query: CallbackQuery,
    callback_data: LobbyCb,
    pressed: TableRecord,
    who: Person,
    tables: Tables,
    delivery: Delivery,
) -> None:
    """A rules page of the lobby, or back from one: only their changer opens them."""
    table = await tables.get(pressed.id)
    if who.id != table.creator_id:
        raise TableError(TableRefusal.RULES_CREATOR)
    if table.status != TableStatus.LOBBY:
        raise TableError(TableRefusal.PLAYING)
    page = None
    if callback_data.op is LobbyOp.RULES:
        page = "house" if callback_data.arg == "house" else "rules"
    await delivery.lobby(table, new=False, page=page)
    await query.answer()


async def set_preset(
    query: CallbackQuery, callback_data: LobbyCb, pressed: TableRecord, who: Person, tables: Tables
) -> None:
    table, changed = await tables.set_preset(pressed.id, who, callback_data.arg)
    await query.answer(render.preset_answer(who.lang, table.settings, changed))


async def set_option(
    query: CallbackQuery, callback_data: LobbyCb, pressed: TableRecord, who: Person, tables: Tables
) -> None:
    table = await tables.set_option(pressed.id, who, callback_data.arg)
    await query.answer(rules_text.option_answer(who.lang, table.settings, callback_data.arg))


async def start(query: CallbackQuery, pressed: TableRecord, who: Person, tables: Tables) -> None:
    """«Начать» by the table's creator."""
    await start_game(tables, await tables.get(pressed.id), who)
    await query.answer()


async def again(
    query: CallbackQuery,
    pressed: TableRecord,
    who: Person,
    tables: Tables,
    delivery: Delivery,
    presenter: Presenter,
    reach: Reach,
) -> None:
    """«Ещё партию» under a result, by any player of that game: only under the table's
    latest message (an older result loses its button when pressed)."""
    table = await tables.get(pressed.id)
    shown = query.message.message_id if query.message is not None else None
    if shown is None or shown != table.lobby_message_id:
        if shown is not None:
            await delivery.edit(table.chat_id, shown, None)
        raise TableError(TableRefusal.AGAIN_OLD)
    if not any(s.user_id == who.id for s in table.seats):
        raise TableError(TableRefusal.AGAIN_NOT_SEATED)
    await start_game(tables, table, None)
    if reach.blocked(who.id) and await hand_in_group(query, tables, presenter, table):
        return  # one who plays from the group: the hand answers the press
    await query.answer()


async def hand_in_group(
    query: CallbackQuery,
    tables: Tables,
    presenter: Presenter,
    table: TableRecord,
) -> bool:
    """The presser's hand in the game just started at ``table``, as an ephemeral message
    answering the press (said so); False when it is not shown (refused, or another bot
    process shows the games) and the press is still to be answered."""
    game = tables.game_of(table.id)
    who = person(query.from_user)
    if (
        game is None
        or not await presenter.ready(game)
        or not await presenter.show_in_group(game, who.id, query.id)
    ):
        return False
    await query.answer(t(who.lang, "eph.shown"))
    return True


async def join_from_group(
    query: CallbackQuery,
    tables: Tables,
    delivery: Delivery,
    presenter: Presenter,
    group_hands: EphemeralHands,
    bot: Bot,
    pressed: TableRecord,
) -> None:
    """A person who never started the bot: seated all the same where the group can show
    them their hand (an ephemeral message), else sent to the private chat's deep link."""
    who, eph = person(query.from_user), group_hands
    if eph.refuses(who.id) or not await eph.available(pressed.chat_id, who.id):
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
    if await hand_in_group(query, tables, presenter, table):
        return  # this seat started the game: the hand answers the press
    game = tables.game_of(table.id)
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
    r.message.register(open_table, GROUPS, said("дурак", "играть в дурака"))
    r.message.register(show_settings, GROUPS, Command("settings"))
    r.message.register(show_settings, GROUPS, said("настройки"))
    r.callback_query.filter(presses_of(LobbyCb))
    r.callback_query.middleware(PressedTable())
    ops: dict[LobbyOp, Callable[..., Awaitable[None]]] = {
        LobbyOp.JOIN: join,
        LobbyOp.LEAVE: leave,
        LobbyOp.BOT: add_bot,
        LobbyOp.BOTS: set_bots,
        LobbyOp.SET: change_setting,
        LobbyOp.RULES: rules_page,
        LobbyOp.BACK: rules_page,
        LobbyOp.PRESET: set_preset,
        LobbyOp.OPT: set_option,
        LobbyOp.START: start,
        LobbyOp.AGAIN: again,
    }
    for op, handler in ops.items():
        r.callback_query.register(handler, LobbyCb.filter(F.op == op))
    return r
