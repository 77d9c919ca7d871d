"""English slash-command texts and the rules summary (docs/rules.md in short).

Command and option names follow Discord's rules: 1–32 characters, lowercase,
no spaces; descriptions at most 100 characters (a test checks both).
"""

from __future__ import annotations

from typing import Final

_COMMANDS: Final = {
    "cmd.baloot.name": "baloot",
    "cmd.baloot.desc": "Play Baloot, the Saudi card game, at a table in this channel",
    "cmd.create.name": "create",
    "cmd.create.desc": "Open a Baloot table in this channel",
    "cmd.join.name": "join",
    "cmd.join.desc": "Sit at this channel's table (a chosen seat or team, or the first free seat)",
    "cmd.leave.name": "leave",
    "cmd.leave.desc": "Leave this channel's table",
    "cmd.start.name": "start",
    "cmd.start.desc": "Start the match when four players are seated",
    "cmd.hand.name": "hand",
    "cmd.hand.desc": "Show your cards and actions privately",
    "cmd.play.name": "play",  # the Activity
    "cmd.play.desc": "Open the table as a live page inside Discord (an Activity)",
    "cmd.score.name": "score",
    "cmd.score.desc": "Show the match score sheet",
    "cmd.rules.name": "rules",
    "cmd.rules.desc": "A short summary of the rules: contracts, card values, projects",
    "cmd.end.name": "end",
    "cmd.end.desc": "End this table (its creator, an admin, or a vote of the players)",
    "cmd.language.name": "language",
    "cmd.language.desc": "Set the language of this table, the server, or just your own views",
    "cmd.fill.name": "bots",
    "cmd.fill.desc": "Fill the empty seats with bot players",
    "opt.seat.name": "seat",
    "opt.seat.desc": "The seat to take (1–4)",
    "opt.team.name": "team",
    "opt.team.desc": "The team to join",
    "opt.target.name": "target",
    "opt.target.desc": "Match target in points (default 152)",
    "opt.turn_time.name": "turn_time",
    "opt.turn_time.desc": "Seconds per turn (default 60)",
    "opt.language.name": "language",
    "opt.language.desc": "The language to use",
    "cmd.quick.name": "quick",
    "cmd.quick.desc": "Play a quick match with players of every server, in direct messages",
    "cmd.report.name": "report",
    "cmd.report.desc": "Report a player at your quick-match table",
    "opt.partner.name": "partner",
    "opt.partner.desc": "A friend to queue with, as your teammate",
    "opt.reported.name": "reported",
    "opt.reported.desc": "The seat (1 to 4) of the player to report",
    "opt.scope.name": "scope",
    "opt.scope.desc": "This table, the whole server (admins), or just me",
    "opt.level.name": "level",
    "opt.level.desc": "How well the bots play",
    "opt.ashkal_on_ace.name": "ashkal_on_ace",
    "opt.ashkal_on_ace.desc": "Allow Ashkal when the up card is an Ace",
    "opt.ashkal_round_two.name": "ashkal_round_two",
    "opt.ashkal_round_two.desc": "Allow Ashkal in round two (third and fourth player)",
    "opt.third_round_on_ace.name": "third_round_on_ace",
    "opt.third_round_on_ace.desc": "A third bidding round for the first player when the up card is an Ace",
    "opt.kawesh.name": "kawesh",
    "opt.kawesh.desc": "Allow Kawesh: annul the hand with first five cards all 7, 8 or 9",
    "opt.declarer_leads.name": "declarer_leads",
    "opt.declarer_leads.desc": "The taker leads the first trick",
    "opt.trump_sequence_priority.name": "trump_sequence_priority",
    "opt.trump_sequence_priority.desc": "In Hokum a trump sequence beats an equal plain one",
    "opt.projects_multiply_fully.name": "projects_multiply_fully",
    "opt.projects_multiply_fully.desc": "Projects count ×3 and ×4 at Triple and Four",
    "opt.baloot_stays_with_holder.name": "baloot_stays_with_holder",
    "opt.baloot_stays_with_holder.desc": "A losing team keeps its own Baloot",
    "opt.sawa.name": "sawa",
    "opt.sawa.desc": "Sawa: the player to lead may claim the remaining tricks (R12; on unless set off)",
    "opt.thread.name": "thread",
    "opt.thread.desc": "Play in a new thread of this channel, keeping the channel quiet (off by default)",
    "table.thread_name": "Baloot · {name}",
    "choice.team.1": "Team 1 (seats 1 and 3)",
    "choice.team.2": "Team 2 (seats 2 and 4)",
    "choice.language.en": "English",
    "choice.language.ar": "العربية (Arabic)",
    "choice.scope.table": "This table",
    "choice.scope.me": "Just me (my cards, replies and help)",
    "choice.scope.server": "The whole server",
    "choice.level.easy": "Easy",
    "choice.level.normal": "Normal",
    "choice.level.hard": "Hard",
}

_RULES: Final = {
    "rules.title": "Baloot — the rules in short",
    "rules.intro": (
        "Four players in two teams, partners opposite; 32 cards (7 to Ace), eight cards each. "
        "Win tricks with valuable cards. The first team to {target} points wins the match."
    ),
    "rules.contracts.name": "Contracts",
    "rules.contracts.value": (
        "**Hokum** (حكم): a trump suit; 162 card points in the hand, worth 16 game points.\n"
        "**Sun** (صن): no trumps, scores double; 130 card points, worth 26.\n"
        "**Ashkal** (أشكل): a Sun by the third or fourth player; the partner takes the up card.\n"
        "**Pass** (بس)."
    ),
    "rules.bidding.name": "Bidding",
    "rules.bidding.value": (
        "Five cards each, one card face up. Round one: Hokum means the up card's suit is trump; "
        "Sun beats Hokum, and an earlier player may still take Sun. Round two: Hokum in another "
        "suit or Sun. If all pass twice, the hand is thrown in. The taker gets the up card."
    ),
    "rules.doubling.name": "Double (دبل), Triple (ثري), Four (فور), Gahwa (قهوة)",
    "rules.doubling.value": (
        "A defender may Double, the declarer Triple, the doubler Four, the declarer Gahwa. "
        "A Double or Four is locked or open: locked play forbids leading a trump while holding "
        "other cards. Gahwa wins the whole match. Sun may be doubled only when one team is above "
        "100 and the other below."
    ),
    "rules.play.name": "Play",
    "rules.play.value": (
        "The player after the dealer leads. Follow suit if you can. In Hokum you must trump "
        "when you cannot follow (unless your partner is winning), and beat an opponent's trump "
        "if you can. The last trick is worth 10 more."
    ),
    "rules.values.name": "Card values",
    "rules.values.value": (
        "```\n"
        "Card    J  9  A 10  K  Q  8  7\n"
        "Trump  20 14 11 10  4  3  0  0\n"
        "Other   2  0 11 10  4  3  0  0\n"
        "```\n"
        "Trump order: J 9 A 10 K Q 8 7. Other suits and Sun: A 10 K Q J 9 8 7."
    ),
    "rules.projects.name": "Projects (declared in the first trick)",
    "rules.projects.value": (
        "```\n"
        "Project                 Hokum  Sun\n"
        "Sira: 3 in a row            2    4\n"
        "Fifty: 4 in a row           5   10\n"
        "Hundred: 5 in a row,       10   20\n"
        "  or four 10/J/Q/K\n"
        "Four Hundred: four Aces     -   40\n"
        "```\n"
        "Sequences follow A K Q J 10 9 8 7. Four Aces in Hokum are a Hundred. Only the team "
        "with the strongest project scores its projects. **Baloot** (بلوت): K and Q of trumps "
        "in one hand, 2 points, never multiplied."
    ),
    "rules.scoring.name": "Scoring",
    "rules.scoring.value": (
        "Card points become game points (Hokum ÷10, Sun ÷5, rounded). If the declarers do not "
        "win, the defenders take all the points. Doubled hands go to the winner × the level. "
        "**Al-kaboot** (كبوت): all eight tricks, 25 in Hokum or 44 in Sun."
    ),
}

EN_HELP: Final[dict[str, str]] = {**_COMMANDS, **_RULES}
