"""The age of an interaction, by its id's time and this machine's clock (cogs/interaction_clock.py).

Discord's 3 s count from when it created the interaction; this machine's clock may differ from
Discord's. The smallest age seen lately stands for that difference plus the quickest delivery.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

import discord
import pytest

from cogs.interaction_clock import WINDOW, InteractionClock
from cogs.transport.forward import ForwardedPress


@dataclass
class Clocks:
    """This machine's wall clock and monotonic clock, set by the test."""

    wall: float = 1_800_000_000.0
    mono: float = 100.0

    def clock(self) -> InteractionClock:
        return InteractionClock(wall=lambda: self.wall, monotonic=lambda: self.mono)


@dataclass
class Created:
    """An interaction Discord created at ``at`` (Unix time by Discord's clock)."""

    at: float

    @property
    def created_at(self) -> datetime:
        return datetime.fromtimestamp(self.at, UTC)


@pytest.mark.parametrize("skew", [0.0, 7.0, -7.0])  # this clock right, 7 s ahead of Discord's, 7 s behind
def test_a_late_interaction_is_as_old_as_its_wait_whatever_the_clocks_difference(skew: float) -> None:
    clocks = Clocks()
    clock = clocks.clock()
    for delivery in (0.08, 0.05, 0.12):  # the usual deliveries: no age to speak of
        discord_now = clocks.wall - skew
        assert clock.age(Created(discord_now - delivery)) == pytest.approx(delivery - 0.05, abs=0.04)
    discord_now = clocks.wall - skew
    late = Created(discord_now - 1.55)  # waited 1.5 s more than the quickest delivery
    assert clock.age(late) == pytest.approx(1.5)
    assert clock.time_left(late, 2.0) == pytest.approx(0.5)
    assert clock.time_left(Created(discord_now - 4.0), 2.0) == 0.0  # past the limit: defer at once


def test_the_first_interaction_counts_as_prompt() -> None:
    """Nothing seen yet says how far the clocks differ: the first is taken as the quickest (today's behaviour
    at worst: its deferral counts from when its work began)."""
    clocks = Clocks()
    clock = clocks.clock()
    assert clock.age(Created(clocks.wall - 9.0)) == 0.0
    assert clock.age(Created(clocks.wall - 8.0)) == 0.0  # a quicker one becomes the base
    assert clock.age(Created(clocks.wall - 9.0)) == pytest.approx(1.0)


def test_a_burst_of_late_interactions_does_not_become_the_norm_and_a_clock_change_is_followed() -> None:
    clocks = Clocks()
    clock = clocks.clock()
    clock.age(Created(clocks.wall - 0.05))
    clocks.mono += WINDOW - 1
    for _ in range(3):  # a minute of late deliveries, crossing into the next window
        clocks.mono += 30
        assert clock.age(Created(clocks.wall - 1.05)) == pytest.approx(1.0)
    # This machine's clock is set 5 s ahead (an NTP step): every interaction looks 5 s older until the
    # windows holding the old difference have passed, then prompt ones are prompt again.
    clocks.wall += 5.0
    assert clock.age(Created(clocks.wall - 5.05)) == pytest.approx(5.0)
    clocks.mono += WINDOW
    clock.age(Created(clocks.wall - 5.05))
    clocks.mono += WINDOW
    clock.age(Created(clocks.wall - 5.05))
    assert clock.age(Created(clocks.wall - 5.05)) == 0.0
    assert clock.age(Created(clocks.wall - 6.05)) == pytest.approx(1.0)


def test_a_forwarded_press_has_its_age_too() -> None:
    """A press another process received and forwarded (cogs/transport/forward.py) goes through ``in_time``
    as well: it has the creation time of the interaction it stands for."""
    created = datetime(2026, 11, 28, 5, 0, 0, 123000, tzinfo=UTC)
    snowflake = discord.utils.time_snowflake(created)
    press = ForwardedPress(cast(discord.Client, None), {
        "id": str(snowflake), "application_id": "1", "token": "t", "user": {"id": "5", "username": "u"}})
    assert press.created_at == created
    clocks = Clocks(wall=created.timestamp() + 0.05)
    clock = clocks.clock()
    clock.age(Created(clocks.wall - 0.05))  # the usual delivery
    clocks.wall += 1.0
    assert clock.age(press) == pytest.approx(1.0)
