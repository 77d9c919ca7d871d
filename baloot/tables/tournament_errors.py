"""Refusals of the tournament service: each names the i18n key that tells the player why."""

from __future__ import annotations


class TournamentRefusal(Exception):
    """Bad input, answered privately; nothing was changed. ``key``: the message's i18n key."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
