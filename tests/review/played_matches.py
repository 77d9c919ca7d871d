"""Matches of normal bots to review: the review tests' common material."""

from __future__ import annotations

import random

from baloot.ai.normal import NormalPlayer
from baloot.engine.match import Match
from baloot.engine.rules import Rules
from baloot.engine.view import seat_view


def played_match(seed: int) -> Match:
    """A match of normal bots up to its first hand that is played out (R3-R7)."""
    rng = random.Random(seed)
    match = Match(Rules(), seed % 4)
    bot = NormalPlayer()
    while True:
        hand = match.deal(rng)
        while not hand.finished:
            match.apply(bot.choose(seat_view(hand, hand.to_move), rng))
        if hand.result is not None or match.finished:
            return match
