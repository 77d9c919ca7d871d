"""The game reviewer: every decision of a finished hand judged from what the player
could see. Pure: no Discord, no storage, no asyncio."""

from .model import DEFAULT_SAMPLES, MAX_SAMPLES, REVIEWER_VERSION, Decision, HandReview, MatchReview, Option
from .reviewer import review_hand, review_match, skip_reason

__all__ = [
    "DEFAULT_SAMPLES",
    "MAX_SAMPLES",
    "REVIEWER_VERSION",
    "Decision",
    "HandReview",
    "MatchReview",
    "Option",
    "review_hand",
    "review_match",
    "skip_reason",
]
