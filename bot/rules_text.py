"""The table's rules in words and the lobby's rules pages (pure, like ``render``)."""

from __future__ import annotations

from typing import Any

from engine import Rules
from engine.presets import PRESETS
from engine.rules import Mode
from service.lobby_rules import (
    HOUSE,
    OPTIONS,
    TRANSFER_ONLY,
    is_plain_preset,
    option_values,
    preset_of_table,
    table_rules,
)
from storage.records import TableRecord, TableSettings

from .callbacks import LobbyCb, LobbyOp
from .i18n import t
from .keyboard import Button, Keyboard

_DEFAULTS = {name: values[0] for name, values in OPTIONS.items()}  # the engine's defaults


def _key(name: str, value: Any) -> str:
    """The text key of an option's value: ``pogony``, ``no_first_bout_cap_5``,
    ``throw_in_order_circle``."""
    if value is True:
        return name
    if value is False:
        return f"no_{name}"
    return f"{name}_{value}"


def in_force(rules: Rules) -> list[str]:
    """Text keys of the options that change this game from the main rulebook."""
    keys = []
    for name in OPTIONS:
        value = getattr(rules, name)
        if value == _DEFAULTS[name] or (name in TRANSFER_ONLY and rules.mode != Mode.PEREVODNOY):
            continue
        keys.append(_key(name, str(value) if isinstance(value, str) else value))
    return keys


def preset_label(lang: str, settings: TableSettings) -> str:
    key = preset_of_table(settings).key
    if is_plain_preset(settings):
        return t(lang, f"preset.{key}")
    return t(lang, "rules.based_on", name=t(lang, f"preset_of.{key}"))


def rules_line(lang: str, rules: Rules, settings: TableSettings) -> str:
    """«Правила: Дурак онлайн — подкидывают по кругу, первый кон без перевода, погоны»."""
    preset = preset_label(lang, settings)
    phrases = [t(lang, f"rule.{k}") for k in in_force(rules)]
    if not phrases:
        return t(lang, "rules.line_plain", preset=preset)
    return t(lang, "rules.line", preset=preset, rules=", ".join(phrases))


def lobby_rules_line(lang: str, settings: TableSettings) -> str:
    return rules_line(lang, table_rules(settings), settings)


def explained(lang: str, rules: Rules, settings: TableSettings) -> str:
    """/rules: the main rules, the mode, then each option of this table in a sentence."""
    lines = [t(lang, "help.rules"), "", t(lang, f"help.rules_{rules.mode}")]
    keys = in_force(rules)
    lines += ["", t(lang, "rules.this_table", preset=preset_label(lang, settings))]
    if keys:
        lines += [f"• {t(lang, f'explain.{k}')}" for k in keys]
    else:
        lines.append(t(lang, "rules.no_options"))
    return "\n".join(lines)


# ------------------------------------------------------------------ lobby pages


ROW_CHARS = 28  # what a row of buttons shows uncut on a 360-px phone


def fits(labels: list[str]) -> bool:
    """Whether labels fit in one row: Telegram gives each button an equal share."""
    return max(len(text) for text in labels) + 1 <= ROW_CHARS // len(labels)


def pack(buttons: list[Button]) -> list[list[Button]]:
    """Buttons in rows of two where both fit, else one per row, keeping their order."""
    rows: list[list[Button]] = []
    for b in buttons:
        if rows and len(rows[-1]) == 1 and fits([rows[-1][0].text, b.text]):
            rows[-1].append(b)
        else:
            rows.append([b])
    return rows


def _button(text: str, table_id: int, op: str, arg: str = "") -> Button:
    return Button(text, LobbyCb(table=table_id, op=LobbyOp(op), arg=arg).pack())


def _on(name: str, value: Any) -> bool:
    """Whether an option is switched on: true, or a value other than its default."""
    return value is True or (not isinstance(value, bool) and value != OPTIONS[name][0])


def option_label(lang: str, name: str, value: Any) -> str:
    if name == "throw_in_order":
        return t(lang, "opt.throw_in_order", order=str(value))
    return ("✅ " if _on(name, value) else "⬜ ") + t(lang, f"opt.{name}")


def house_lines(lang: str) -> list[str]:
    """Each house rule in a line, in the order of its button («Вини винями — …»)."""
    return [t(lang, f"house.{name}") for name in HOUSE]


def option_answer(lang: str, settings: TableSettings, name: str) -> str:
    """The answer to an option's press, naming its new value: «Вини винями: включено.»,
    «Теперь: подкидывают по кругу.»."""
    value = option_values(settings)[name]
    if name == "throw_in_order":
        order = t(lang, "opt.throw_in_order", order=str(value))
        return t(lang, "answer.now", value=order[:1].lower() + order[1:])
    key = "answer.option_on" if _on(name, value) else "answer.option_off"
    return t(lang, key, name=t(lang, f"opt.{name}"))


def rules_page(lang: str, table: TableRecord, page: str) -> tuple[str, Keyboard]:
    """The lobby message as a rules page: ``rules`` (presets and the options of the
    bout) or ``house`` (house rules). Every button changes something or navigates."""
    settings, tid = table.settings, table.id
    values = option_values(settings)
    lines = [lobby_rules_line(lang, settings), ""]
    rows: list[list[Button]] = []
    if page == "house":  # rules a player may not know: each in a line
        names = list(HOUSE)
        lines = [t(lang, "rules.page_house"), *lines, *house_lines(lang), ""]
        text = "\n".join([*lines, t(lang, "rules.house_hint")])
    else:
        text = "\n".join([t(lang, "rules.page_title"), *lines, t(lang, "rules.page_hint")])
        chosen = preset_of_table(settings).key
        presets = [
            _button(("✓ " if key == chosen else "") + t(lang, f"preset.{key}"), tid, "preset", key)
            for key in PRESETS
        ]
        rows += pack(presets)
        names = [n for n in OPTIONS if n not in HOUSE]
        if settings.mode != Mode.PEREVODNOY:
            names = [n for n in names if n not in TRANSFER_ONLY]
    rows += pack([_button(option_label(lang, n, values[n]), tid, "opt", n) for n in names])
    if page == "house":
        rows.append([_button(t(lang, "rules.back"), tid, "rules")])
    else:
        rows += pack(
            [
                _button(t(lang, "rules.house"), tid, "rules", "house"),
                _button(t(lang, "rules.back"), tid, "back"),
            ]
        )
    return text, Keyboard(rows)
