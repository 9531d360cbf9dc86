"""Why a tapped card cannot be played now, in the player's words (plain text)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Card, View
from engine.actions import BACK, QUIT

from .card_labels import card_label
from .i18n import t


def why_not(lang: str, view: View, card: Card, names: Sequence[str]) -> str:
    """The answer to a tap on ``card`` that makes no move: whose turn it is, or what
    the card does not do (beat the card on the table, match its ranks, fit on it), or
    that the bout is beaten and closing (open for «Антимухлёж» only). The cards on the
    table explain it only to a player whose hand shows them (see ``render_hand._head``):
    one who has no move and is not in the bout is told whose turn it is."""
    seat, turn = view.seat, view.turn
    if turn is None:
        return t(lang, "answer.not_now")
    if view.closing:
        return t(lang, "answer.closing_defender" if seat == view.defender else "answer.closing")
    label = card_label(card, lang)
    if seat == view.defender and view.table and not view.taking:
        open_cards = [a for a, d in view.table if d is None]
        if not open_cards:
            return t(lang, "answer.all_beaten")
        if len(open_cards) == 1:
            return t(
                lang, "answer.does_not_beat", card=label, target=card_label(open_cards[0], lang)
            )
        return t(lang, "answer.beats_nothing", card=label)
    sees_table = seat in (view.attacker, view.defender) or any(
        a.kind not in (QUIT, BACK) for a in view.legal
    )
    if view.table and seat in view.throwers and sees_table:
        ranks = {c.rank for pair in view.table for c in pair if c is not None}
        if card.rank not in ranks:
            return t(lang, "answer.wrong_rank", card=label)
        if len(view.table) >= view.limit:
            return t(lang, "answer.throw_limit")
    if seat in turn.seats:
        return t(lang, "answer.not_now")
    waited = [names[s] for s in turn.seats if s < len(names)]
    if not waited:
        return t(lang, "answer.not_now")
    key = turn.kind + ("_many" if turn.kind == "throw" and len(waited) > 1 else "")
    return t(lang, f"answer.not_your_turn_{key}", name=and_list(lang, waited))


def and_list(lang: str, names: Sequence[str]) -> str:
    """«Аня», «Аня и Борис», «Аня, Борис и Вера»."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {t(lang, 'hand.and')} {names[-1]}"
