"""One router per feature, included from ``bot.app``."""

from aiogram import Router

from . import commands, fallback, lobby, play


def routers() -> list[Router]:
    return [commands.router(), lobby.router(), play.router(), fallback.router()]
