"""Texts for the bot: ``t`` from ``locales`` (Fluent) and the language of a person."""

from __future__ import annotations

from locales import DEFAULT, LANGS, t

__all__ = ["DEFAULT", "LANGS", "lang_of", "t"]


def lang_of(code: str | None) -> str:
    """The catalog for a Telegram ``language_code``: English for ``en*``, else Russian."""
    return "en" if code and code.lower().startswith("en") else DEFAULT
