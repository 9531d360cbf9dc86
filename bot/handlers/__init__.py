"""One router per feature, included from ``bot.app``."""

from aiogram import Router

from . import commands, lobby, play


def routers() -> list[Router]:
    return [commands.router, lobby.router, play.router]
