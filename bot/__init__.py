"""Telegram bot on aiogram 3 (issue 4)."""
