"""Texts for the bot: ``t`` from ``locales`` (Fluent), the language of a person, numbers."""

from __future__ import annotations

from locales import DEFAULT, LANGS, t

__all__ = ["DEFAULT", "LANGS", "lang_of", "number", "t"]


def lang_of(code: str | None) -> str:
    """The catalog for a Telegram ``language_code``: English for ``en*``, else Russian."""
    return "en" if code and code.lower().startswith("en") else DEFAULT


def number(lang: str, x: float, digits: int = 1) -> str:
    """A number as the language writes it: «25,3» in Russian, "25.3" in English."""
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "ru" else text
