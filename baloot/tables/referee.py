"""Applying accepted actions: engine first, then storage, then the listeners (docs/architecture.md).

Every method here runs with the table's lock held. The engine validates (and
changes nothing on an illegal action); the action is committed to SQLite;
only then is it announced. If the commit fails, the in-memory match is
rebuilt from its record without that action, so memory never runs ahead of
the database, and nothing is announced. A next hand that cannot be stored
after a committed action does not undo that action: the hand waits, finished,
until the turn runner deals it. New hands are dealt from the table's RNG, their deck stored
before use (R2, R10); a won match is stored with its result in the same
transaction as its last action (R8).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..engine.actions import Action, ActionType
from ..engine.cards import ALL_CARDS
from ..engine.match import Match, shuffled_deck
from ..engine.records import match_from_record
from ..engine.summary import summarize_hand, summarize_match
from ..storage import Storage, StorageUnavailable
from ..storage.rows import TableStatus
from ..tournaments.duplicate import first_dealer, hand_deck
from .events import (
    ActionApplied,
    HandFinished,
    HandStarted,
    MatchFinished,
    TableEvent,
    TrickCompleted,
)
from .listeners import Announcer
from .live import LiveTable

log = logging.getLogger("baloot.tables")

class Referee:
    """Applies actions and deals hands for the table service."""

    def __init__(
        self, storage: Storage, announcer: Announcer, on_finished: Callable[[LiveTable], None] = lambda t: None
    ) -> None:
        self.storage = storage
        self.announcer = announcer
        self.on_finished = on_finished  # the service forgets a finished table (its players are free)

    async def start_match(self, table: LiveTable) -> None:
        """R1: a random first dealer; store the first deck and mark the table playing; deal.

        A tournament table (``deal_seed`` set) takes its first dealer and decks from its round's
        seed, so every table of the round plays the same deals (duplicate; a round of fixed deals replays its
        first half's decks with the sides swapped, :func:`baloot.tournaments.board_of`)."""
        if table.deal_seed is not None:
            dealer, deck = first_dealer(table.deal_seed), hand_deck(table.deal_seed, 0, table.rules.deals)
        else:
            dealer = table.rng.randrange(4)
            deck = shuffled_deck(table.rng)
        await self.storage.start_match(table.id, dealer, [c.text for c in deck], fence=table.fence)
        match = Match(table.rules, dealer)
        match.deal(deck)
        table.match = match
        table.status = TableStatus.PLAYING
        await self._announce_hand(table)

    async def deal_next(self, table: LiveTable) -> None:
        """Deal the next hand (R1: the deal passes to the right), storing its deck first."""
        match = table.match
        assert match is not None and match.needs_deal
        seed = table.deal_seed
        deck = shuffled_deck(table.rng) if seed is None else hand_deck(seed, len(match.hands), table.rules.deals)
        await self.storage.add_hand(table.id, len(match.hands), match.next_dealer, [c.text for c in deck],
                                     fence=table.fence)
        match.deal(deck)
        await self._announce_hand(table)

    async def _announce_hand(self, table: LiveTable) -> None:
        hand = table.hand
        hand_no = table.hand_no
        version = table.version
        assert hand is not None and hand_no is not None and version is not None
        await self.announcer.emit(
            table,
            HandStarted(
                table_id=table.id,
                channel_id=table.channel_id,
                hand_no=hand_no,
                dealer=hand.dealer,
                up_card=hand.deck[20],
                version=version,
                match_score=table.match_score,
            )
        )

    async def apply(
        self,
        table: LiveTable,
        action: Action,
        *,
        by_user_id: int | None,
        auto: bool,
        by_bot: bool,
        preface: tuple[TableEvent, ...] = (),
    ) -> Action:
        """Validate with the engine, commit, announce (``preface`` first); returns the action as applied."""
        match = table.match
        hand = table.hand
        hand_no = table.hand_no
        assert match is not None and hand is not None and hand_no is not None
        idx = len(hand.actions)
        match.apply(action)  # raises a BalootError and changes nothing if illegal
        applied = hand.actions[-1]
        result = table.result(self.storage.clock(), abandoned=False) if match.finished else None
        try:
            await self.storage.add_action(
                table.id, hand_no, idx, applied.to_json(), by_user_id=by_user_id, auto=auto, result=result,
                fence=table.fence,
            )
        except BaseException:
            table.match = self._without_last_action(match)
            raise
        if result is not None:
            table.status = TableStatus.FINISHED
            self.on_finished(table)
        for event in preface:
            await self.announcer.emit(table, event)
        await self._announce_action(table, applied, hand_no, idx, by_user_id, auto, by_bot)
        if match.needs_deal:
            try:
                await self.deal_next(table)
            except StorageUnavailable as exc:
                # The action is committed and announced: it stands. The table's turn runner
                # deals again until the new hand is stored.
                log.warning("table %s: the next hand could not be stored (%s); dealing again later", table.id, exc)
        return applied

    @staticmethod
    def _without_last_action(match: Match) -> Match:
        record = match.to_record()
        record["hands"][-1]["actions"].pop()
        return match_from_record(record)

    async def _announce_action(
        self,
        table: LiveTable,
        action: Action,
        hand_no: int,
        idx: int,
        by_user_id: int | None,
        auto: bool,
        by_bot: bool,
    ) -> None:
        match = table.match
        assert match is not None
        hand = match.hands[hand_no]
        ids: dict[str, Any] = {"table_id": table.id, "channel_id": table.channel_id}
        emit = self.announcer.emit
        info = table.seats[action.seat]
        await emit(
            table,
            ActionApplied(
                **ids,
                hand_no=hand_no,
                index=idx,
                action=action,
                seat=action.seat,
                user_id=by_user_id if by_user_id is not None else (info.user_id if info else None),
                auto=auto,
                by_bot=by_bot,
                version=(hand_no, idx + 1),
                phase=hand.phase,
                to_move=None if hand.finished else hand.to_move,
            )
        )
        if action.type is ActionType.PLAY and not hand.trick and hand.tricks_history:
            # R5: that card completed a trick; read it from the engine's own history
            leader, winner, cards = hand.tricks_history[-1]
            await emit(
                table,
                TrickCompleted(
                    **ids,
                    hand_no=hand_no,
                    trick_no=len(hand.tricks_history),
                    winner=winner,
                    cards=tuple(((leader + i) & 3, ALL_CARDS[c]) for i, c in enumerate(cards)),
                    tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
                    card_points=(hand.card_points[0], hand.card_points[1]),
                ),
            )
        if hand.finished:
            score = hand.score or (0, 0)
            await emit(
                table,
                HandFinished(
                    **ids,
                    hand_no=hand_no,
                    summary=summarize_hand(hand),
                    hand_score=score,
                    match_score=table.match_score,
                )
            )
        if match.winner is not None:
            await emit(
                table,
                MatchFinished(**ids, winner=match.winner, score=table.match_score, replay=summarize_match(match))
            )
