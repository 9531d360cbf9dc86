"""The table's rules in the lobby: a preset (RULES §10) with single options on top.

A table's settings hold ``preset`` (a key of ``engine.presets.PRESETS``) and
``options``: only the options the creator switched away from the preset's value.
Choosing a preset clears them. A preset that fixes the players, the deck or the
mode sets them when chosen; changing them afterwards is refused (choose
«Классика» to play otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from engine import Rules
from engine.presets import CLASSIC, HOUSE_RULES, PRESETS, Preset
from engine.rules import Mode

# Every option the lobby offers, with its values in the order a button cycles them.
OPTIONS: dict[str, tuple[Any, ...]] = {
    "single_card_opening": (False, True),
    "first_bout_cap_5": (True, False),
    "no_trump_opener": ("lowest", "random"),
    "throw_in_order": ("free", "attacker_first", "circle"),
    "simple": (False, True),
    "first_bout_no_transfer": (False, True),
    "transfer_by_trump_show": (False, True),
    "series_opener": ("lowest_trump", "under_fool"),
    "pogony": (False, True),
    "no_throw_in_after_take": (False, True),
    "cheating": (False, True),
    "fixed_trump": (None, "diamonds"),
    "no_trump": (False, True),
    "spades_by_spades": (False, True),
    "ace_does_not_hold_stock": (False, True),
    "redeal_five_of_suit": (False, True),
    "last_cards_evenly": (False, True),
}
HOUSE = (*HOUSE_RULES, "no_trump")  # the options page «Домашние правила»
TRANSFER_ONLY = ("first_bout_no_transfer", "transfer_by_trump_show")
_DEFAULTS = {f.name: f.default for f in fields(Rules)}


def page_of(option: str) -> str:
    return "house" if option in HOUSE else "rules"


def preset_of_table(settings: Mapping[str, Any]) -> Preset:
    return PRESETS.get(settings.get("preset", CLASSIC.key), CLASSIC)


def _table_args(settings: Mapping[str, Any], players: int | None) -> dict[str, Any]:
    return {
        "players": settings["seats"] if players is None else players,
        "deck": settings["deck"],
        "mode": settings["mode"],
        "throw_in": settings["throw_in"],
        "teams": settings["pairs"],
        "speed": settings["speed"],
    }


def _options(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The switched options that apply: transfer options only in perevodnoy."""
    options = {k: v for k, v in settings.get("options", {}).items() if k in OPTIONS}
    if settings["mode"] != Mode.PEREVODNOY:
        for name in TRANSFER_ONLY:
            options.pop(name, None)
    return options


def preset_value(settings: Mapping[str, Any], option: str) -> Any:
    """What the table's preset (in the table's mode) sets ``option`` to."""
    preset = preset_of_table(settings)
    by_mode = preset.by_mode.get(Mode(settings["mode"]), {})
    return {**_DEFAULTS, **preset.options, **by_mode}[option]


def option_values(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Every lobby option's value at this table (plain strings, not enums)."""
    values = {k: preset_value(settings, k) for k in OPTIONS}
    values.update(_options(settings))
    return {k: str(v) if isinstance(v, str) else v for k, v in values.items()}


def table_rules(settings: Mapping[str, Any], players: int | None = None) -> Rules:
    """The rules of a game at this table (``players`` seated; the seats by default).
    Raises ``ValueError`` like the engine; ``rules_problem`` says why in codes."""
    preset = preset_of_table(settings)
    return preset.rules(**_table_args(settings, players), **_options(settings))


def is_plain_preset(settings: Mapping[str, Any]) -> bool:
    """True when no option differs from the preset's own."""
    values = option_values(settings)
    return all(values[k] == preset_value(settings, k) for k in OPTIONS)


def rules_problem(
    settings: Mapping[str, Any], players: int | None = None
) -> tuple[str, dict[str, Any]] | None:
    """Why this preset and these options cannot be played: (reason, params), or None."""
    preset = preset_of_table(settings)
    args = _table_args(settings, players)
    name = {"preset": preset.key}
    if args["players"] not in preset.players:
        low, high = min(preset.players), max(preset.players)
        return "preset_players", {**name, "players": str(low) if low == high else f"{low}–{high}"}
    if args["deck"] not in preset.decks:
        return "preset_deck", {**name, "deck": preset.decks[0]}
    if args["mode"] not in preset.modes:
        return "preset_mode", {**name, "mode": str(preset.modes[0])}
    v = option_values(settings)
    if v["no_trump"] and v["fixed_trump"] is not None:
        return "no_trump_fixed", {}
    if v["simple"] and v["no_throw_in_after_take"]:
        return "simple_after_take", {}
    if v["simple"] and v["throw_in_order"] != "free":
        return "simple_order", {}
    try:
        table_rules(settings, players)
    except ValueError:
        return "rules", {}
    return None


def with_preset(settings: Mapping[str, Any], key: str, seated: int) -> dict[str, Any]:
    """The settings with preset ``key`` chosen: its options, and the players, deck and
    mode it fixes (as close to the table's as it allows). ``KeyError``: no such preset."""
    preset = PRESETS[key]
    new = {**settings, "preset": key, "options": {}}
    low, high = min(preset.players), max(preset.players)
    new["seats"] = min(max(new["seats"], low, seated), high)
    if new["deck"] not in preset.decks:
        new["deck"] = preset.decks[0]
    if new["mode"] not in preset.modes:
        new["mode"] = str(preset.modes[0])
    if new["pairs"] and new["seats"] not in (4, 6):
        new["pairs"] = False
    return new


def with_option(settings: Mapping[str, Any], option: str) -> dict[str, Any]:
    """The settings with ``option`` moved to its next value. ``KeyError``: no such option."""
    values = OPTIONS[option]
    current = option_values(settings)[option]
    value = values[(values.index(current) + 1) % len(values)]
    options = {k: v for k, v in settings.get("options", {}).items() if k != option}
    if value != preset_value(settings, option):
        options[option] = value
    return {**settings, "options": options}
