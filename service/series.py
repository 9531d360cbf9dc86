"""A table's series of games (RULES §3, §9): the last fool, each player's «погоны» and
wins (every player but the fool wins; in a draw, everyone).

The table keeps a ``storage.records.Series``, stored as ``{"players": [...], "fool":
key or None, "pogony": {key: awards}, "wins": {key: n}}``, a player's key being
``u<user id>`` or ``b<n>`` for the table's n-th bot, so that it survives seats moving
between games. A series is played by the same players: ``players`` names them (a bot
with its strength), and a game with other players (one left, a bot came, the bots got
stronger) starts a new series. A series stored before ``players`` was kept goes on.
The pogony rank is the deck's lowest rank plus the player's awards so far, at most
the ace.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Outcome, Rules
from engine.cards import DECK_LOW_RANK
from engine.rules import SeriesOpener
from storage.repos import Seat, Series

ACE = 12


def seat_keys(seats: Sequence[Seat]) -> list[str]:
    keys, bots = [], 0
    for seat in seats:
        if not seat.human:
            bots += 1
            keys.append(f"b{bots}")
        else:
            keys.append(f"u{seat.user_id}")
    return keys


def series_players(seats: Sequence[Seat]) -> tuple[str, ...]:
    """Who plays the series, whatever their seats: ``u<id>``, ``b<n>:<level>``."""
    keys = zip(seat_keys(seats), seats, strict=True)
    return tuple(sorted(k if seat.human else f"{k}:{seat.level}" for k, seat in keys))


def series_of(series: Series, seats: Sequence[Seat]) -> Series:
    """The series these seats go on with: the table's, or a new one for other players."""
    players = series.players
    return series if players is None or players == series_players(seats) else Series()


def series_start(
    series: Series, seats: Sequence[Seat], rules: Rules
) -> tuple[int | None, list[int] | None]:
    """(last_fool, pogony_ranks) for a new game with these seats: the last fool's seat
    under ``series_opener = under_fool`` (None after a draw, a team's loss, or when
    the fool left the table), and every seat's pogony rank under ``pogony``."""
    series, keys = series_of(series, seats), seat_keys(seats)
    last_fool = None
    if rules.series_opener is SeriesOpener.UNDER_FOOL and series.fool in keys:
        last_fool = keys.index(series.fool)
    ranks = None
    if rules.pogony:
        low, awards = DECK_LOW_RANK[rules.deck], series.pogony
        ranks = [min(low + awards.get(k, 0), ACE) for k in keys]
    return last_fool, ranks


def pogony_pairs(outcome: Outcome, awards: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """(giver, fool) for every «погоны» given in the game."""
    givers = set(outcome.pogony)
    return sorted({(g, f) for g, f in awards if g in givers and f in outcome.fools})


def series_after(series: Series, seats: Sequence[Seat], outcome: Outcome) -> Series:
    """The series once this game is over: its fool (a single player) and the awards;
    the first game of a new one when other players played it."""
    series, keys = series_of(series, seats), seat_keys(seats)
    pogony = dict(series.pogony)
    for giver in outcome.pogony:
        pogony[keys[giver]] = pogony.get(keys[giver], 0) + 1
    wins = dict(series.wins)
    for seat in outcome.winners:
        wins[keys[seat]] = wins.get(keys[seat], 0) + 1
    fool = keys[outcome.fools[0]] if len(outcome.fools) == 1 else None
    return Series(series_players(seats), fool, pogony, wins)


def series_score(series: Series, seats: Sequence[Seat]) -> list[int]:
    """Each seat's wins in the table's series («Счёт: Аня — 3 · Борис — 1»), none in a
    series of other players."""
    wins = series_of(series, seats).wins
    return [wins.get(key, 0) for key in seat_keys(seats)]
