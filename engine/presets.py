"""Presets (RULES §10): the rulebooks our players grew up on, as starting points.

A table picks a preset, then may change single options. A preset fixes what its
rulebook fixes (DURAKA.NET is two players with 36 cards) and leaves the rest of
the table's settings free. The lobby shows presets by ``key`` (names are in the
locales).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .rules import Mode, Rules, SeriesOpener, ThrowOrder

HOUSE_RULES = (
    "no_throw_in_after_take",
    "fixed_trump",
    "spades_by_spades",
    "ace_does_not_hold_stock",
    "redeal_five_of_suit",
    "last_cards_evenly",
)


@dataclass(frozen=True)
class Preset:
    key: str
    options: Mapping[str, Any]  # what the rulebook sets, over the defaults of ``Rules``
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    decks: tuple[int, ...] = (24, 36, 52)
    modes: tuple[Mode, ...] = (Mode.PODKIDNOY, Mode.PEREVODNOY)
    # Options set only in one mode (e.g. a transfer rule in perevodnoy).
    by_mode: Mapping[Mode, Mapping[str, Any]] = field(default_factory=dict)

    def rules(self, **table: Any) -> Rules:
        """Rules of this preset with the table's settings and single options on top.

        Raises ``ValueError`` when the table's player count, deck or mode is not one
        the rulebook plays.
        """
        mode = Mode(table.get("mode", self.options.get("mode", Mode.PODKIDNOY)))
        settings = {**self.options, **self.by_mode.get(mode, {}), **table}
        rules = Rules(**settings)
        if rules.players not in self.players:
            raise ValueError(f"{self.key} is played by {_listed(self.players)} players")
        if rules.deck not in self.decks:
            raise ValueError(f"{self.key} is played with {_listed(self.decks)} cards")
        if rules.mode not in self.modes:
            raise ValueError(f"{self.key} is played only in {_listed(self.modes)}")
        return rules

    def matches(self, rules: Rules) -> bool:
        """True when ``rules`` keep every option of this preset."""
        settings = {**self.options, **self.by_mode.get(rules.mode, {})}
        return all(getattr(rules, k) == v for k, v in settings.items())


def _listed(values: tuple[object, ...]) -> str:
    return ", ".join(str(v) for v in values)


CLASSIC = Preset("classic", {})
DURAKA_NET = Preset(
    "duraka_net",
    {"single_card_opening": True, "first_bout_cap_5": False, "no_trump_opener": "random"},
    players=(2,),
    decks=(36,),
    modes=(Mode.PODKIDNOY,),
)
TRANSFER_CHEATING = Preset(
    "transfer_cheating",
    {
        "mode": Mode.PEREVODNOY,
        "first_bout_no_transfer": True,
        "throw_in_order": ThrowOrder.ATTACKER_FIRST,
        "cheating": True,
    },
    players=(2, 3, 4),
    decks=(36,),
    modes=(Mode.PEREVODNOY,),
)
DURAK_ONLINE = Preset(
    "durak_online",
    {
        "throw_in_order": ThrowOrder.CIRCLE,
        "first_bout_no_transfer": True,
        "pogony": True,
        "series_opener": SeriesOpener.UNDER_FOOL,
    },
    by_mode={Mode.PEREVODNOY: {"transfer_by_trump_show": True}},
)
PRESETS = {p.key: p for p in (CLASSIC, DURAKA_NET, TRANSFER_CHEATING, DURAK_ONLINE)}


def preset_of(rules: Rules) -> Preset:
    """The most specific preset whose options ``rules`` keep (Классика at least)."""
    for preset in reversed(PRESETS.values()):
        if preset.matches(rules) and preset.options:
            return preset
    return CLASSIC


# Named constructors: ``duraka_net()``, ``durak_online(players=4, teams=True)``.
def classic(**table: Any) -> Rules:
    return CLASSIC.rules(**table)


def duraka_net(**table: Any) -> Rules:
    return DURAKA_NET.rules(**table)


def transfer_cheating(**table: Any) -> Rules:
    return TRANSFER_CHEATING.rules(**table)


def durak_online(**table: Any) -> Rules:
    return DURAK_ONLINE.rules(**table)
