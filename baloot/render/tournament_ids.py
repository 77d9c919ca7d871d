"""Custom ids of a tournament's buttons and selects: ``bt:tour:{tournament}:{op}``.

Not ``bl:``: the table's presses (``bl:``) are dispatched with their message's components stripped
(``cogs.buttons.dispatch_presses_directly``), while discord.py's path for these items reads them.

``op`` is one of :data:`TOURNAMENT_OPS`: the tournament message's buttons (``team``, ``alone``,
``withdraw``, ``start``, ``pause``, ``drop``, ``end``), the partner's ``confirm`` button, and the two
private selects (``partner``: Discord's user select; ``dropteam``: the teams to drop). Like the table's
ids (:mod:`baloot.render.custom_ids`) they are parsed back exactly and work after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .custom_ids import CustomIdError

PREFIX: Final = "bt"

TOURNAMENT_OPS: Final = ("team", "alone", "withdraw", "start", "pause", "drop", "end", "confirm", "partner",
                         "dropteam")


def tournament_template(*ops: str) -> str:
    """A DynamicItem template for these ops (named groups: tid, op)."""
    return rf"{PREFIX}:tour:(?P<tid>[0-9]{{1,18}}):(?P<op>{'|'.join(ops)})"


TOURNAMENT_ID_TEMPLATE: Final = tournament_template(*TOURNAMENT_OPS)
"""Every op's template."""
BUTTON_ID_TEMPLATE: Final = tournament_template(*TOURNAMENT_OPS[:8])
PARTNER_ID_TEMPLATE: Final = tournament_template("partner")
DROP_ID_TEMPLATE: Final = tournament_template("dropteam")
_RE: Final = re.compile(TOURNAMENT_ID_TEMPLATE)


@dataclass(frozen=True, slots=True)
class TournamentId:
    tournament_id: int
    op: str

    def encode(self) -> str:
        if self.op not in TOURNAMENT_OPS or not 0 < self.tournament_id < 10**18:
            raise CustomIdError(f"bad tournament button {self!r}")
        return f"{PREFIX}:tour:{self.tournament_id}:{self.op}"

    @staticmethod
    def decode(custom_id: str) -> TournamentId:
        found = _RE.fullmatch(custom_id)
        if found is None:
            raise CustomIdError(f"not a tournament button: {custom_id!r}")
        return TournamentId(int(found.group("tid")), found.group("op"))
