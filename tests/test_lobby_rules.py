"""The lobby's rules: presets, single options, refusals, the chat's default, and the
table's series (the last fool, «погоны») carried from one game to the next."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import render
from engine import Action, Outcome, Rules
from engine.presets import durak_online
from service.lobby_rules import option_values, rules_problem, with_option, with_preset
from service.rating import record_game
from service.series import pogony_pairs, series_after, series_score, series_start
from service.tables import Tables, rules_for
from storage.records import SeatKind, Series
from storage.repos import Seat, StatsRepo, TableSettings
from tests.helpers import outcome_of, turn_of
from tests.service_helpers import ANNA, BORIS, VIKA, refused

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL


async def test_duraka_net_sets_two_players_36_cards_and_podkidnoy(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    for field in ("seats", "mode", "deck"):  # 3 seats, perevodnoy, 52 cards
        await tables.change(table.id, ANNA, field)
    table, _ = await tables.set_preset(table.id, ANNA, "duraka_net")
    s = table.settings
    assert (s.preset, s.seats, s.deck, s.mode) == ("duraka_net", 2, 36, "podkidnoy")
    rules = rules_for(s, 2)
    assert rules.single_card_opening and not rules.first_bout_cap_5
    assert rules.no_trump_opener == "random"


async def test_a_preset_refuses_the_settings_it_does_not_play(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.set_preset(table.id, ANNA, "duraka_net")
    with refused("bad_settings") as info:
        await tables.change(table.id, ANNA, "seats", +1)
    assert info.value.params == {"reason": "preset_players", "preset": "duraka_net", "players": "2"}
    with refused("bad_settings") as info:
        await tables.change(table.id, ANNA, "mode")
    assert info.value.params["reason"] == "preset_mode"
    with refused("bad_settings") as info:
        await tables.change(table.id, ANNA, "deck")
    assert info.value.params == {"reason": "preset_deck", "preset": "duraka_net", "deck": 36}
    table, _ = await tables.set_preset(table.id, ANNA, "classic")  # «Классика» plays anything
    assert (await tables.change(table.id, ANNA, "seats", +1)).settings.seats == 3


async def test_a_preset_for_fewer_players_than_seated_is_refused(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "seats", +1)
    for p in (ANNA, BORIS, VIKA):
        await tables.join(table.id, p)
    with refused("bad_settings") as info:
        await tables.set_preset(table.id, ANNA, "duraka_net")
    assert info.value.params["reason"] == "preset_players"
    table, _ = await tables.set_preset(table.id, ANNA, "transfer_cheating")  # 2-4 players
    assert (table.settings.seats, table.settings.mode) == (3, "perevodnoy")


async def test_options_switch_one_by_one_and_back(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.set_preset(table.id, ANNA, "durak_online")
    table = await tables.set_option(table.id, ANNA, "pogony")
    assert table.settings.options == {"pogony": False}
    assert not rules_for(table.settings, 2).pogony
    table = await tables.set_option(table.id, ANNA, "pogony")
    assert table.settings.options == {}  # back to the preset's own value
    for _ in range(2):  # circle -> free -> attacker_first
        table = await tables.set_option(table.id, ANNA, "throw_in_order")
    assert rules_for(table.settings, 2).throw_in_order == "attacker_first"
    table, _ = await tables.set_preset(table.id, ANNA, "durak_online")  # a preset clears them
    assert table.settings.options == {}


async def test_conflicting_options_are_refused_with_a_reason(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.set_option(table.id, ANNA, "no_trump")
    with refused("bad_settings") as info:
        await tables.set_option(table.id, ANNA, "fixed_trump")
    assert info.value.params == {"reason": "no_trump_fixed"}
    await tables.set_option(table.id, ANNA, "simple")
    with refused("bad_settings") as info:
        await tables.set_option(table.id, ANNA, "no_throw_in_after_take")
    assert info.value.params == {"reason": "simple_after_take"}
    with refused("bad_settings") as info:
        await tables.set_option(table.id, ANNA, "throw_in_order")
    assert info.value.params == {"reason": "simple_order"}
    with refused("bad_settings") as info:  # podkidnoy: no transfer to show a trump for
        await tables.set_option(table.id, ANNA, "transfer_by_trump_show")
    assert info.value.params == {"reason": "transfer_only"}
    with refused("not_now"):
        await tables.set_option(table.id, ANNA, "cheat_everything")
    with refused("not_now"):
        await tables.set_preset(table.id, ANNA, "poker")
    with refused("only_creator"):
        await tables.set_option(table.id, BORIS, "pogony")
    with refused("only_creator"):
        await tables.set_preset(table.id, BORIS, "classic")


async def test_the_chosen_rules_are_the_chats_default_for_its_next_table(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.set_preset(table.id, ANNA, "durak_online")
    await tables.set_option(table.id, ANNA, "spades_by_spades")
    await tables.close(table.id)
    table, _ = await tables.open(-1, "Группа", BORIS)
    assert table.settings.preset == "durak_online"
    assert table.settings.options == {"spades_by_spades": True}


def test_durak_online_shows_trumps_only_in_perevodnoy() -> None:
    settings = with_preset(TableSettings(), "durak_online", 0)
    assert not rules_for(settings, 2).transfer_by_trump_show
    assert rules_for(replace(settings, mode="perevodnoy"), 2).transfer_by_trump_show
    off = with_option(replace(settings, mode="perevodnoy"), "transfer_by_trump_show")
    assert not rules_for(off, 2).transfer_by_trump_show
    assert option_values(off)["transfer_by_trump_show"] is False
    assert rules_problem(off) is None


# ------------------------------------------------------------------ series


def seats(*keys: str) -> list[Seat]:
    return [
        Seat(SeatKind.HUMAN, "x", int(k[1:])) if k[0] == "u" else Seat(SeatKind.BOT, "Бот")
        for k in keys
    ]


def test_the_next_game_opens_against_the_fool_wherever_they_sit() -> None:
    rules = durak_online(players=3)
    first = seats("u1", "u2", "b")
    series = series_after(Series(), first, Outcome(fools=(1,), places=(1, 3, 2)))
    assert series.fool == "u2"
    assert series_start(series, seats("u2", "u1", "b"), rules)[0] == 0
    assert series_start(series, seats("u1", "b", "u3"), rules)[0] is None  # the fool left
    assert series_start(series, first, Rules(players=3))[0] is None  # the option is off
    draw = series_after(series, first, Outcome(fools=(), places=(1, 1, 1), draw=True))
    assert series_start(draw, first, rules)[0] is None
    team = series_after(series, first, Outcome(fools=(0, 2), places=(2, 1, 2)))
    assert team.fool is None


def test_other_players_start_a_new_series() -> None:
    rules = durak_online(players=2)
    pair = seats("u1", "u2")
    series = series_after(Series(), pair, Outcome(fools=(1,), places=(1, 2), pogony=(0,)))
    series = series_after(series, pair[::-1], Outcome(fools=(1,), places=(1, 2)))
    assert series_score(series, pair) == [1, 1]  # the same two, whatever their seats
    assert series_start(series, pair, rules) == (0, [5, 4])
    master = [pair[0], Seat(SeatKind.BOT, "Мастер 1", level="master")]
    assert series_score(series, master) == [0, 0]  # Борис left, a bot came: a new series
    assert series_start(series, master, rules) == (None, [4, 4])
    with_bot = series_after(series, master, Outcome(fools=(1,), places=(1, 2)))
    assert with_bot.wins == {"u1": 1} and series_score(with_bot, master) == [1, 0]
    novice = [pair[0], Seat(SeatKind.BOT, "Новичок 1", level="novice")]
    assert series_score(with_bot, novice) == [0, 0]  # a weaker bot: another series
    older = Series.from_dict({"fool": "u2", "pogony": {}, "wins": {"u1": 3}})  # before "players"
    assert series_score(older, pair) == [3, 0]


def test_pogony_ranks_grow_per_award_up_to_the_ace() -> None:
    rules = durak_online(players=3, deck=24)  # the lowest rank is the nine (7)
    table = seats("u1", "u2", "b")
    series = Series()
    for _ in range(7):
        outcome = Outcome(fools=(1,), places=(1, 3, 2), pogony=(0, 2))
        series = series_after(series, table, outcome)
    assert series.pogony == {"u1": 7, "b1": 7}
    assert series_start(series, table, rules)[1] == [12, 7, 12]  # aces at most
    assert series_start(Series(pogony={"u1": 1}), table, durak_online(players=3))[1] == [5, 4, 4]
    assert series_start(series, table, Rules(players=3))[1] is None


async def test_a_second_game_starts_from_the_series_and_rebuilds_from_its_log(
    tables: Tables,
) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.set_preset(table.id, ANNA, "durak_online")
    await tables.join(table.id, ANNA)
    await tables.join(table.id, BORIS)
    first = await tables.start(table.id, ANNA)
    seat = turn_of(first.state).seats[0]
    for _ in range(2):  # «Сдаться»: the game is over, Аня or Борис is the fool
        update = await tables.games.act(
            first.game_id, Action.from_text(seat, "quit"), len(first.state.history)
        )
        if update.state.is_over:
            break
    fool = outcome_of(update.state).fools[0]
    table = await tables.get(table.id)
    winner = f"u{2 - fool}"  # the one who did not surrender
    assert table.series == Series(("u1", "u2"), f"u{fool + 1}", {}, {winner: 1})
    assert series_score(table.series, table.seats) == [fool, 1 - fool]
    second = await tables.start(table.id, ANNA)
    state = second.state
    assert (state.attacker, state.defender, state.last_fool) == (1 - fool, fool, fool)
    assert state.pogony_ranks == (4, 4)
    rebuilt = await tables.games.rebuild_from_log(second.game_id)
    assert rebuilt.to_dict() == state.to_dict()


async def test_pogony_count_in_the_statistics(tables: Tables) -> None:
    outcome = Outcome(fools=(1,), places=(1, 3, 2), pogony=(0, 2))
    pairs = pogony_pairs(outcome, [(0, 1), (2, 1), (0, 2)])
    assert pairs == [(0, 1), (2, 1)]
    await tables.open(-1, "Группа", ANNA)  # the chat and its users
    people = [Seat(SeatKind.HUMAN, p.name, p.id) for p in (ANNA, BORIS, VIKA)]
    async with tables.db.tx() as c:
        await record_game(c, -1, people, outcome, False, pairs)
    stats = StatsRepo(tables.db)
    anna, boris = await stats.get(-1, ANNA.id), await stats.get(-1, BORIS.id)
    assert anna is not None and boris is not None
    assert (anna.pogony_given, anna.pogony) == (1, 0)
    assert (boris.pogony_given, boris.pogony) == (0, 2)


async def test_teams_of_three_at_six_seats(tables: Tables) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    for _ in range(4):
        await tables.change(table.id, ANNA, "seats", +1)
    table = await tables.change(table.id, ANNA, "pairs")
    assert table.settings.pairs and rules_for(table.settings, 6).teams
    with refused("bad_settings") as info:
        await tables.change(table.id, ANNA, "seats", -1)
    assert info.value.params == {"reason": "pairs_players"}


async def test_a_preset_changes_only_what_it_fixes_and_another_brings_the_rest_back(
    tables: Tables,
) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "seats", +1)  # podkidnoy, 3 seats
    table, changed = await tables.set_preset(table.id, ANNA, "transfer_cheating")
    assert (table.settings.mode, table.settings.seats, changed) == ("perevodnoy", 3, ["mode"])
    table, changed = await tables.set_preset(table.id, ANNA, "duraka_net")
    s = table.settings
    assert (s.mode, s.seats, changed) == ("podkidnoy", 2, ["mode", "seats"])
    table, changed = await tables.set_preset(table.id, ANNA, "classic")
    s = table.settings
    assert (s.mode, s.seats, s.own, changed) == ("podkidnoy", 3, {}, ["seats"])
    for p in (ANNA, BORIS):
        table = await tables.join(table.id, p)
    assert len(table.seats) < table.settings.seats  # two joins do not fill the table


async def test_a_setting_the_creator_changes_under_a_preset_is_their_own_choice(
    tables: Tables,
) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    await tables.change(table.id, ANNA, "seats", +1)  # 3 seats
    await tables.set_preset(table.id, ANNA, "duraka_net")  # 2 seats, the 3 remembered
    await tables.set_preset(table.id, ANNA, "durak_online")  # any count: 3 again
    table = await tables.change(table.id, ANNA, "seats", +1)
    assert (table.settings.seats, table.settings.own) == (4, {})
    table, changed = await tables.set_preset(table.id, ANNA, "classic")
    assert (table.settings.seats, changed) == (4, [])


def test_the_answer_to_a_preset_says_what_it_changed() -> None:
    settings = with_preset(replace(TableSettings(), seats=4, pairs=True), "duraka_net", 0)
    changed = ["seats", "pairs"]
    assert render.preset_answer("ru", settings, changed) == (
        "Выбрано: «DURAKA.NET» — теперь 2 места, каждый сам за себя."
    )
    assert render.preset_answer("en", settings, changed) == (
        "DURAKA.NET chosen: now 2 seats, every player for themselves."
    )
    assert render.preset_answer("ru", settings, []) == "Выбрано: «DURAKA.NET»."


def test_stored_settings_of_an_older_version_read_with_defaults() -> None:
    old = {"deck": 24, "seats": 3, "players": 3}  # "players": a key no longer written
    assert TableSettings.from_dict(old) == TableSettings(deck=24, seats=3)
    online = with_option(with_preset(TableSettings(), "durak_online", 0), "pogony")
    assert TableSettings.from_dict(online.to_dict()) == online


async def test_the_seats_button_goes_round_the_counts_these_settings_can_play(
    tables: Tables,
) -> None:
    table, _ = await tables.open(-1, "Группа", ANNA)
    counts = [(await tables.next_seats(table.id, ANNA)).settings.seats for _ in range(5)]
    assert counts == [3, 4, 5, 6, 2]  # 36 cards: up to six, then back to two
    await tables.change(table.id, ANNA, "seats", +2)  # 4
    await tables.change(table.id, ANNA, "pairs")
    counts = [(await tables.next_seats(table.id, ANNA)).settings.seats for _ in range(2)]
    assert counts == [6, 4]  # in teams: four or six only
    await tables.set_preset(table.id, ANNA, "classic")
    await tables.change(table.id, ANNA, "pairs")  # off again
    for p in (ANNA, BORIS, VIKA):
        await tables.join(table.id, p)
    counts = [(await tables.next_seats(table.id, ANNA)).settings.seats for _ in range(4)]
    assert counts == [5, 6, 3, 4]  # never fewer than the three seated
    with refused("only_creator"):
        await tables.next_seats(table.id, BORIS)
