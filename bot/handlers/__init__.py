"""One router per feature, included from ``bot.app``."""

from aiogram import Router

from . import commands, ephemeral, fallback, lobby, play


def routers() -> list[Router]:
    return [commands.router(), lobby.router(), play.router(), ephemeral.router(), fallback.router()]
