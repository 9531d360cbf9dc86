"""Who may watch a table from the Mini App without a seat: the members of its group,
as Telegram says (``getChatMember``). A table message forwarded out of the group carries
the page's link; a person outside the group sees nothing of the table."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ChatMemberBanned, ChatMemberLeft, ChatMemberRestricted

log = logging.getLogger(__name__)


class ChatMembers:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def member(self, chat_id: int, user_id: int) -> bool:
        """Whether the person is in the group now (not when Telegram does not say)."""
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramAPIError as e:
            log.warning("chat %s: getChatMember for the Mini App failed: %s", chat_id, e)
            return False
        if isinstance(member, ChatMemberLeft | ChatMemberBanned):
            return False
        return not (isinstance(member, ChatMemberRestricted) and not member.is_member)
