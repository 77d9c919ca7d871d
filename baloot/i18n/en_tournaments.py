"""English texts of tournaments: the tournament message, refusals, the standings picture."""

from __future__ import annotations

from typing import Final

EN_TOURNAMENTS: Final[dict[str, str]] = {
    # Refusals (private, nothing changed).
    "tournament.unknown": "There is no such tournament in this server.",
    "tournament.closed": "Registration for this tournament is closed.",
    "tournament.bad_format": "A tournament is Swiss or knockout.",
    "tournament.bad_rounds": "A Swiss tournament has 1 to 20 rounds.",
    "tournament.bad_name": "Give the tournament a name.",
    "tournament.already_registered": "You are already registered in this tournament.",
    "tournament.partner_registered": "{partner} is already registered in this tournament.",
    "tournament.partner_bot": "Your partner must be a person, not a bot.",
    "tournament.partner_gone": "Your partner is no longer in this server.",
    "tournament.partner_self": "Pick someone else as your partner.",
    "tournament.not_registered": "You are not registered in this tournament.",
    "tournament.nothing_to_confirm": "No team is waiting for you to confirm it.",
    "tournament.organiser_only": "Only the organiser or a server admin can do that.",
    "tournament.too_few": "At least {needed} teams are needed to start; {teams} registered.",
    "tournament.not_running": "The tournament is not running.",
    "tournament.not_paused": "The tournament is not paused.",
    "tournament.no_such_team": "That team is not playing in this tournament.",
    "tournament.over": "The tournament is already over.",
    # The standings picture.
    "tournament.standings.title": "{name} — standings after round {round}",
    "tournament.standings.final": "{name} — final standings",
    "tournament.standings.place": "#",
    "tournament.standings.team": "Team",
    "tournament.standings.points": "Pts",
    "tournament.standings.matchpoints": "MP %",
    "tournament.standings.buchholz": "Buch.",
    "tournament.standings.next": "Round {round}",
    "tournament.standings.bye": "bye",
    "tournament.standings.bots": "Bots",
}
