"""Bot-side answer times of button presses, for ``scripts/bench_tables.py`` (``BALOOT_PRESS_TIMINGS=FILE``).

The benchmark's stand-in measures a press from its INTERACTION_CREATE to the
callback it receives; when the benchmark's own process is saturated that
includes its event loop's lag. This records, in the bot, the milliseconds from
the interaction's creation (the timestamp in its snowflake id, taken from the
same machine's clock) to the moment the bot sends its first answer (the
update, or the deferral of a slow one), and writes them as a JSON list when the
bot stops. Off, at no cost, unless the variable is set.
"""

from __future__ import annotations

import json
import os
import time
from array import array
from pathlib import Path
from typing import Final

DISCORD_EPOCH_MS: Final = 1_420_070_400_000
_PATH: Final = os.environ.get("BALOOT_PRESS_TIMINGS", "").strip()
_samples: array[float] = array("d")


def answering(interaction_id: int) -> None:
    """The bot is about to send its first answer to the press ``interaction_id``."""
    if _PATH:
        _samples.append(time.time() * 1000 - ((interaction_id >> 22) + DISCORD_EPOCH_MS))


def write() -> None:
    """Write the recorded times (``bot.py`` calls it when it stops)."""
    if _PATH:
        Path(_PATH).write_text(json.dumps(_samples.tolist()), encoding="utf-8")
