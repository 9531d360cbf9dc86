"""The game service with the option ``cheating``: a cheat comes only as a cheat, an
honest move only as an honest move; accusations are committed like any move."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Accused, Action, Rules
from engine.presets import transfer_cheating
from service import GameService, Refused
from storage.repos import GameRepo
from tests.service_helpers import held, humans, open_service, start


async def opened(path: Path, rules: Rules) -> tuple[GameService, int, int]:
    """A two-player game after its first attack: (service, game id, defender)."""
    service = await open_service(path)
    update = await start(service, rules, 5, humans(2))
    state = update.state
    opening = next(a for a in state.legal_actions(state.attacker) if len(a.cards) == 1)
    await service.act(
        update.game_id, Action.from_text(state.attacker, opening.text), len(state.history)
    )
    return service, update.game_id, held(service, update.game_id).state.defender


async def test_a_cheat_is_made_only_as_a_cheat(tmp_path: Path) -> None:
    service, game_id, defender = await opened(tmp_path / "c.sqlite3", transfer_cheating(players=2))
    state = held(service, game_id).state
    cheat = state.cheat_actions(defender)[0].text
    version = len(state.history)
    with pytest.raises(Refused, match="a cheat, not an honest move"):
        await service.act(game_id, Action.from_text(defender, cheat), version)
    with pytest.raises(Refused, match="not one of the defender's cheats"):
        await service.act(game_id, Action.from_text(defender, "take"), version, cheat=True)
    with pytest.raises(Refused, match="not one of the defender's cheats"):
        await service.act(game_id, Action.from_text(state.attacker, cheat), version, cheat=True)
    assert held(service, game_id).state is state  # nothing was applied
    update = await service.act(game_id, Action.from_text(defender, cheat), version, cheat=True)
    assert update.state.history[version].text == cheat
    assert update.state.cheats >> defender & 1
    await service.db.close()


async def test_without_the_option_there_is_no_cheat_to_make(tmp_path: Path) -> None:
    service, game_id, defender = await opened(tmp_path / "h.sqlite3", Rules(players=2))
    state = held(service, game_id).state
    attack = state.table[0][0]
    for card in state.view(defender).hand:  # not even a card that does beat
        with pytest.raises(Refused, match="not one of the defender's cheats"):
            await service.act(
                game_id,
                Action.from_text(defender, f"d {card}>{attack}"),
                len(state.history),
                cheat=True,
            )
    assert held(service, game_id).state is state
    await service.db.close()


async def test_an_accusation_is_committed_and_replays(tmp_path: Path) -> None:
    service, game_id, defender = await opened(tmp_path / "a.sqlite3", transfer_cheating(players=2))
    state = held(service, game_id).state
    accuser = state.attacker
    cheat = state.cheat_actions(defender)[0].text
    await service.act(game_id, Action.from_text(defender, cheat), len(state.history), cheat=True)
    state = held(service, game_id).state
    update = await service.act(
        game_id, Action.from_text(accuser, f"accuse {defender}"), len(state.history)
    )
    assert Accused(accuser, defender, True) in update.events
    assert not update.state.table and update.state.cheats == 0
    logged = [a.action for a in await GameRepo(service.db).actions(game_id)]
    assert logged[-2:] == [cheat, f"accuse {defender}"]
    rebuilt = await service.rebuild_from_log(game_id)
    assert rebuilt.to_dict() == update.state.to_dict()
    await service.db.close()
