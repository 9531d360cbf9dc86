"""The table's rules in the lobby: a preset (RULES §10) with single options on top.

A table's ``TableSettings`` hold ``preset`` (a key of ``engine.presets.PRESETS``)
and ``options``: only the options the creator switched away from the preset's
value. Choosing a preset clears them. A preset that fixes the players, the deck or
the mode sets them when chosen, and only where the table's differ; the table's own
values are kept in ``own`` and come back with a preset that allows them.
Changing a fixed value afterwards is refused (choose «Классика» to play otherwise).
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from engine import Rules
from engine.presets import CLASSIC, HOUSE_RULES, PRESETS, Preset
from engine.rules import Mode
from storage.records import OptionValue, TableSettings

# Every option the lobby offers, with its values in the order a button cycles them.
OPTIONS: dict[str, tuple[OptionValue, ...]] = {
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
FIXED = ("mode", "deck", "seats", "pairs")  # what choosing a preset may have to change
_DEFAULTS = {f.name: f.default for f in fields(Rules)}


def page_of(option: str) -> str:
    return "house" if option in HOUSE else "rules"


def preset_of_table(settings: TableSettings) -> Preset:
    return PRESETS.get(settings.preset, CLASSIC)


def _table_args(settings: TableSettings, players: int | None) -> dict[str, Any]:
    return {
        "players": settings.seats if players is None else players,
        "deck": settings.deck,
        "mode": settings.mode,
        "throw_in": settings.throw_in,
        "teams": settings.pairs,
        "speed": settings.speed,
    }


def _options(settings: TableSettings) -> dict[str, OptionValue]:
    """The switched options that apply: transfer options only in perevodnoy."""
    options = {k: v for k, v in settings.options.items() if k in OPTIONS}
    if settings.mode != Mode.PEREVODNOY:
        for name in TRANSFER_ONLY:
            options.pop(name, None)
    return options


def preset_value(settings: TableSettings, option: str) -> OptionValue:
    """What the table's preset (in the table's mode) sets ``option`` to."""
    preset = preset_of_table(settings)
    by_mode = preset.by_mode.get(Mode(settings.mode), {})
    value: OptionValue = {**_DEFAULTS, **preset.options, **by_mode}[option]
    return value


def option_values(settings: TableSettings) -> dict[str, OptionValue]:
    """Every lobby option's value at this table (plain strings, not enums)."""
    values = {k: preset_value(settings, k) for k in OPTIONS}
    values.update(_options(settings))
    return {k: str(v) if isinstance(v, str) else v for k, v in values.items()}


def table_rules(settings: TableSettings, players: int | None = None) -> Rules:
    """The rules of a game at this table (``players`` seated; the seats by default).
    Raises ``ValueError`` like the engine; ``rules_problem`` says why in codes."""
    preset = preset_of_table(settings)
    return preset.rules(**_table_args(settings, players), **_options(settings))


def is_plain_preset(settings: TableSettings) -> bool:
    """True when no option differs from the preset's own."""
    values = option_values(settings)
    return all(values[k] == preset_value(settings, k) for k in OPTIONS)


def rules_problem(
    settings: TableSettings, players: int | None = None
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


def with_preset(settings: TableSettings, key: str, seated: int) -> TableSettings:
    """The settings with preset ``key`` chosen: its options, and, of the table's own
    mode, deck, seats and pairs (the ones an earlier preset changed come back first),
    what the preset allows; the rest is changed as little as it can be and remembered
    in ``own``. ``KeyError``: no such preset."""
    preset = PRESETS[key]
    wanted: dict[str, Any] = {name: getattr(settings, name) for name in FIXED}
    wanted.update(settings.own)
    low, high = min(preset.players), max(preset.players)
    seats = min(max(wanted["seats"], low, seated), high)
    new = {
        "seats": max(seats, seated),
        "deck": wanted["deck"] if wanted["deck"] in preset.decks else preset.decks[0],
        "mode": wanted["mode"] if wanted["mode"] in preset.modes else str(preset.modes[0]),
    }
    new["pairs"] = wanted["pairs"] and new["seats"] in (4, 6)
    own = {name: wanted[name] for name in FIXED if new[name] != wanted[name]}
    return replace(settings, preset=key, options={}, own=own, **new)


def changed(old: TableSettings, new: TableSettings) -> list[str]:
    """Which of the table's mode, deck, seats and pairs differ (for the lobby's answer)."""
    return [name for name in FIXED if getattr(old, name) != getattr(new, name)]


def with_option(settings: TableSettings, option: str) -> TableSettings:
    """The settings with ``option`` moved to its next value. ``KeyError``: no such option."""
    values = OPTIONS[option]
    current = option_values(settings)[option]
    value = values[(values.index(current) + 1) % len(values)]
    options = {k: v for k, v in settings.options.items() if k != option}
    if value != preset_value(settings, option):
        options[option] = value
    return replace(settings, options=options)
