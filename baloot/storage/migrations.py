"""The database schema as numbered migrations.

Each migration is ``(version, SQL)``, written once for both backends: only the
types differ, named by the tokens ``{ID}``, ``{FLOAT}`` and ``{AUTO_ID}`` that
:meth:`Dialect.schema` fills in (SQLite's text is exactly what was released).
:func:`migrate` applies, in order and each in its own transaction together
with the new ``schema_version``, every migration newer than the database. A
migration is never edited once released: a change to the schema is a new,
higher-numbered migration.

Times are Unix seconds (8-byte floats); Discord ids are 8-byte integers; JSON
columns hold text written by the engine (``Rules.to_json``, ``Action.to_json``,
R10 records); flags are 0/1 integers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .database import Connection, Database

MIGRATIONS: Final[list[tuple[int, str]]] = [
    (
        1,
        """
        CREATE TABLE guild_settings (
            guild_id {ID} PRIMARY KEY,
            language TEXT,
            ai_rated INTEGER NOT NULL DEFAULT 0 CHECK (ai_rated IN (0, 1))
        );
        CREATE TABLE tables (
            id {AUTO_ID},
            guild_id {ID} NOT NULL,
            channel_id {ID} NOT NULL,
            creator_id {ID} NOT NULL,
            status TEXT NOT NULL
                CHECK (status IN ('open', 'playing', 'finished', 'ended', 'abandoned')),
            rules TEXT NOT NULL,
            turn_seconds {FLOAT} NOT NULL CHECK (turn_seconds > 0),
            language TEXT,
            created_at {FLOAT} NOT NULL,
            started_at {FLOAT},
            finished_at {FLOAT},
            end_reason TEXT
        );
        CREATE UNIQUE INDEX tables_one_live_per_channel
            ON tables (channel_id) WHERE status IN ('open', 'playing');
        CREATE INDEX tables_by_status ON tables (status);
        CREATE TABLE seats (
            table_id {ID} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            user_id {ID},
            display_name TEXT NOT NULL,
            is_bot INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
            bot_level TEXT,
            away INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
            dm_closed INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed IN (0, 1)),
            vacated INTEGER NOT NULL DEFAULT 0 CHECK (vacated IN (0, 1)),
            PRIMARY KEY (table_id, seat),
            CHECK (is_bot = 1 OR user_id IS NOT NULL)
        );
        CREATE INDEX seats_by_user ON seats (user_id);
        CREATE TABLE hands (
            table_id {ID} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            hand_no INTEGER NOT NULL CHECK (hand_no >= 0),
            dealer INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
            deck TEXT NOT NULL,
            dealt_at {FLOAT} NOT NULL,
            PRIMARY KEY (table_id, hand_no)
        );
        CREATE TABLE actions (
            table_id {ID} NOT NULL,
            hand_no INTEGER NOT NULL,
            idx INTEGER NOT NULL CHECK (idx >= 0),
            action TEXT NOT NULL,
            by_user_id {ID},
            auto INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1)),
            created_at {FLOAT} NOT NULL,
            PRIMARY KEY (table_id, hand_no, idx),
            FOREIGN KEY (table_id, hand_no) REFERENCES hands (table_id, hand_no) ON DELETE CASCADE
        );
        """,
    ),
    (
        2,
        """
        CREATE TABLE match_results (
            table_id {ID} PRIMARY KEY REFERENCES tables (id),
            guild_id {ID} NOT NULL,
            finished_at {FLOAT} NOT NULL,
            score0 INTEGER NOT NULL,
            score1 INTEGER NOT NULL,
            winner_team INTEGER CHECK (winner_team IN (0, 1)),
            hands_played INTEGER NOT NULL,
            record TEXT NOT NULL,
            seat0_user_id {ID},
            seat1_user_id {ID},
            seat2_user_id {ID},
            seat3_user_id {ID},
            has_bots INTEGER NOT NULL CHECK (has_bots IN (0, 1)),
            abandoned INTEGER NOT NULL CHECK (abandoned IN (0, 1))
        );
        CREATE INDEX match_results_by_guild_time ON match_results (guild_id, finished_at);
        CREATE TABLE result_seats (
            table_id {ID} NOT NULL REFERENCES match_results (table_id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            team INTEGER NOT NULL CHECK (team IN (0, 1)),
            guild_id {ID} NOT NULL,
            finished_at {FLOAT} NOT NULL,
            user_id {ID},
            is_bot INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
            won INTEGER NOT NULL CHECK (won IN (0, 1)),
            left_early INTEGER NOT NULL CHECK (left_early IN (0, 1)),
            PRIMARY KEY (table_id, seat)
        );
        CREATE INDEX result_seats_by_player ON result_seats (guild_id, user_id, finished_at);
        CREATE INDEX result_seats_by_user ON result_seats (user_id, finished_at);
        """,
    ),
    (
        3,
        """
        CREATE TABLE table_messages (
            table_id {ID} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            channel_id {ID} NOT NULL,
            message_id {ID} NOT NULL,
            PRIMARY KEY (table_id, key)
        );
        """,
    ),
    (
        4,
        """
        CREATE TABLE stats_matches (
            table_id {ID} PRIMARY KEY REFERENCES match_results (table_id) ON DELETE CASCADE,
            guild_id {ID} NOT NULL,
            finished_at {FLOAT} NOT NULL,
            counted INTEGER NOT NULL CHECK (counted IN (0, 1)),
            rated INTEGER NOT NULL CHECK (rated IN (0, 1))
        );
        CREATE TABLE hand_facts (
            table_id {ID} NOT NULL REFERENCES match_results (table_id) ON DELETE CASCADE,
            hand_no INTEGER NOT NULL CHECK (hand_no >= 0),
            guild_id {ID} NOT NULL,
            finished_at {FLOAT} NOT NULL,
            contract TEXT CHECK (contract IN ('sun', 'hokum')),
            trump TEXT,
            declarer INTEGER CHECK (declarer BETWEEN 0 AND 3),
            level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
            winner_team INTEGER CHECK (winner_team IN (0, 1)),
            kaboot_team INTEGER CHECK (kaboot_team IN (0, 1)),
            baloot_team INTEGER CHECK (baloot_team IN (0, 1)),
            score0 INTEGER NOT NULL,
            score1 INTEGER NOT NULL,
            double_seat INTEGER,
            triple_seat INTEGER,
            four_seat INTEGER,
            gahwa_seat INTEGER,
            PRIMARY KEY (table_id, hand_no)
        );
        CREATE INDEX hand_facts_by_guild_time ON hand_facts (guild_id, finished_at);
        CREATE TABLE player_period_stats (
            guild_id {ID} NOT NULL,
            user_id {ID} NOT NULL,
            period TEXT NOT NULL CHECK (period IN ('all', 'week', 'month')),
            period_key INTEGER NOT NULL,
            matches INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            abandons INTEGER NOT NULL,
            hands INTEGER NOT NULL,
            hands_won INTEGER NOT NULL,
            bought INTEGER NOT NULL,
            bought_made INTEGER NOT NULL,
            sun_hands INTEGER NOT NULL,
            sun_won INTEGER NOT NULL,
            hokum_hands INTEGER NOT NULL,
            hokum_won INTEGER NOT NULL,
            kaboots_for INTEGER NOT NULL,
            kaboots_against INTEGER NOT NULL,
            doubles INTEGER NOT NULL,
            doubles_won INTEGER NOT NULL,
            gahwas INTEGER NOT NULL,
            gahwas_won INTEGER NOT NULL,
            points INTEGER NOT NULL,
            win_rate {FLOAT} NOT NULL,
            rating {FLOAT},
            last_played {FLOAT} NOT NULL,
            PRIMARY KEY (guild_id, period, period_key, user_id)
        );
        CREATE INDEX player_period_stats_by_rating
            ON player_period_stats (guild_id, period, period_key, rating DESC, user_id);
        CREATE INDEX player_period_stats_by_wins
            ON player_period_stats (guild_id, period, period_key, wins DESC, matches, user_id);
        CREATE INDEX player_period_stats_by_win_rate
            ON player_period_stats (guild_id, period, period_key, win_rate DESC, matches DESC, user_id);
        CREATE TABLE guild_period_stats (
            guild_id {ID} NOT NULL,
            period TEXT NOT NULL CHECK (period IN ('all', 'week', 'month')),
            period_key INTEGER NOT NULL,
            matches INTEGER NOT NULL,
            hands INTEGER NOT NULL,
            sun_hands INTEGER NOT NULL,
            hokum_hands INTEGER NOT NULL,
            kaboots INTEGER NOT NULL,
            doubled_hands INTEGER NOT NULL,
            gahwas INTEGER NOT NULL,
            PRIMARY KEY (guild_id, period, period_key)
        );
        CREATE TABLE partner_stats (
            guild_id {ID} NOT NULL,
            user_id {ID} NOT NULL,
            partner_id {ID} NOT NULL,
            matches INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            PRIMARY KEY (guild_id, user_id, partner_id)
        );
        CREATE TABLE player_ratings (
            guild_id {ID} NOT NULL,
            user_id {ID} NOT NULL,
            mu {FLOAT} NOT NULL,
            sigma {FLOAT} NOT NULL,
            rating {FLOAT} NOT NULL,
            rated_matches INTEGER NOT NULL,
            updated_at {FLOAT} NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        );
        CREATE INDEX player_ratings_by_rating ON player_ratings (guild_id, rating DESC);
        CREATE TABLE rating_history (
            table_id {ID} NOT NULL REFERENCES match_results (table_id) ON DELETE CASCADE,
            user_id {ID} NOT NULL,
            guild_id {ID} NOT NULL,
            finished_at {FLOAT} NOT NULL,
            mu_before {FLOAT} NOT NULL,
            sigma_before {FLOAT} NOT NULL,
            mu_after {FLOAT} NOT NULL,
            sigma_after {FLOAT} NOT NULL,
            rating_before {FLOAT} NOT NULL,
            rating_after {FLOAT} NOT NULL,
            left_early INTEGER NOT NULL CHECK (left_early IN (0, 1)),
            PRIMARY KEY (table_id, user_id)
        );
        CREATE INDEX rating_history_by_player ON rating_history (guild_id, user_id, finished_at)
        """,
    ),
    (
        5,
        """
        ALTER TABLE hand_facts ADD COLUMN sawa_seat INTEGER CHECK (sawa_seat BETWEEN 0 AND 3);
        ALTER TABLE player_period_stats ADD COLUMN sawas INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE guild_period_stats ADD COLUMN sawas INTEGER NOT NULL DEFAULT 0
        """,
    ),
    (
        6,
        """
        CREATE TABLE players (
            user_id {ID} PRIMARY KEY,
            display_name TEXT,
            language TEXT,
            updated_at {FLOAT} NOT NULL
        )
        """,
    ),
    (
        7,
        """
        CREATE TABLE seated_users (
            user_id {ID} PRIMARY KEY,
            table_id {ID} NOT NULL REFERENCES tables (id) ON DELETE CASCADE
        );
        CREATE INDEX seated_users_by_table ON seated_users (table_id);
        INSERT INTO seated_users (user_id, table_id)
            SELECT s.user_id, MIN(s.table_id) FROM seats s JOIN tables t ON t.id = s.table_id
            WHERE t.status IN ('open', 'playing') AND s.is_bot = 0 AND s.vacated = 0 AND s.user_id IS NOT NULL
            GROUP BY s.user_id
        """,
    ),
    (
        8,
        """
        CREATE TABLE shard_leases (
            shard_id {ID} NOT NULL PRIMARY KEY CHECK (shard_id >= 0),
            shard_count INTEGER NOT NULL CHECK (shard_count > shard_id),
            holder TEXT NOT NULL,
            epoch {ID} NOT NULL CHECK (epoch > 0),
            expires_at {FLOAT} NOT NULL
        )
        """,
    ),
    (
        9,
        """
        ALTER TABLE seats ADD COLUMN end_vote INTEGER NOT NULL DEFAULT 0
        """,
    ),
    (
        10,
        """
        ALTER TABLE tables ADD COLUMN deal_seed {ID};
        CREATE TABLE tournaments (
            id {AUTO_ID},
            guild_id {ID} NOT NULL,
            channel_id {ID} NOT NULL,
            message_id {ID},
            creator_id {ID} NOT NULL,
            name TEXT NOT NULL,
            format TEXT NOT NULL CHECK (format IN ('swiss', 'knockout')),
            rounds INTEGER CHECK (rounds IS NULL OR rounds > 0),
            round_deals INTEGER CHECK (round_deals IS NULL OR round_deals > 0),
            rules TEXT NOT NULL,
            turn_seconds {FLOAT} NOT NULL CHECK (turn_seconds > 0),
            rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
            bots_allowed INTEGER NOT NULL DEFAULT 1 CHECK (bots_allowed IN (0, 1)),
            language TEXT,
            status TEXT NOT NULL CHECK (status IN ('registering', 'running', 'paused', 'finished', 'ended')),
            current_round INTEGER NOT NULL DEFAULT 0,
            winner_team {ID},
            created_at {FLOAT} NOT NULL,
            started_at {FLOAT},
            finished_at {FLOAT}
        );
        CREATE INDEX tournaments_by_status ON tournaments (status);
        CREATE TABLE tournament_teams (
            id {AUTO_ID},
            tournament_id {ID} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
            player1 {ID} NOT NULL,
            player2 {ID},
            name1 TEXT NOT NULL,
            name2 TEXT,
            status TEXT NOT NULL CHECK (status IN ('pending', 'active', 'alone', 'withdrawn', 'dropped')),
            seed {FLOAT} NOT NULL DEFAULT 0,
            registered_at {FLOAT} NOT NULL
        );
        CREATE INDEX tournament_teams_by_tournament ON tournament_teams (tournament_id);
        CREATE TABLE tournament_players (
            tournament_id {ID} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
            user_id {ID} NOT NULL,
            team_id {ID} NOT NULL REFERENCES tournament_teams (id) ON DELETE CASCADE,
            PRIMARY KEY (tournament_id, user_id)
        );
        CREATE TABLE tournament_rounds (
            tournament_id {ID} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
            round_no INTEGER NOT NULL CHECK (round_no > 0),
            deal_seed {ID} NOT NULL,
            started_at {FLOAT} NOT NULL,
            finished_at {FLOAT},
            PRIMARY KEY (tournament_id, round_no)
        );
        CREATE TABLE tournament_tables (
            tournament_id {ID} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
            round_no INTEGER NOT NULL,
            table_no INTEGER NOT NULL CHECK (table_no >= 0),
            first_team {ID} NOT NULL,
            second_team {ID} NOT NULL,
            table_id {ID} REFERENCES tables (id),
            first_points {FLOAT},
            second_points {FLOAT},
            first_score INTEGER NOT NULL DEFAULT 0,
            second_score INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (tournament_id, round_no, table_no)
        );
        CREATE UNIQUE INDEX tournament_tables_by_table ON tournament_tables (table_id);
        CREATE TABLE tournament_deals (
            tournament_id {ID} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
            round_no INTEGER NOT NULL,
            hand_no INTEGER NOT NULL,
            team_id {ID} NOT NULL,
            side INTEGER NOT NULL CHECK (side IN (0, 1)),
            diff INTEGER NOT NULL,
            PRIMARY KEY (tournament_id, round_no, hand_no, team_id)
        )
        """,
    ),
    (
        11,
        """
        CREATE TABLE hand_reviews (
            table_id {ID} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            hand_no INTEGER NOT NULL CHECK (hand_no >= 0),
            version INTEGER NOT NULL,
            review TEXT NOT NULL,
            reviewed_at {FLOAT} NOT NULL,
            PRIMARY KEY (table_id, hand_no, version)
        );
        CREATE TABLE match_reviews (
            table_id {ID} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            user_id {ID},
            accuracy {FLOAT} NOT NULL CHECK (accuracy >= 0 AND accuracy <= 100),
            reviewed_at {FLOAT} NOT NULL,
            PRIMARY KEY (table_id, version, seat)
        );
        CREATE INDEX match_reviews_by_user ON match_reviews (user_id, reviewed_at);
        """,
    ),
    (
        12,
        """
        CREATE TABLE quick_queue (
            user_id {ID} PRIMARY KEY,
            entry_id {ID} NOT NULL,
            guild_id {ID} NOT NULL,
            display_name TEXT NOT NULL,
            language TEXT,
            mu {FLOAT} NOT NULL,
            sigma {FLOAT} NOT NULL,
            queued_at {FLOAT} NOT NULL,
            dm_channel_id {ID},
            message_id {ID}
        );
        CREATE INDEX quick_queue_by_entry ON quick_queue (entry_id);
        CREATE TABLE quick_seats (
            table_id {ID} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            user_id {ID} NOT NULL,
            guild_id {ID} NOT NULL,
            PRIMARY KEY (table_id, user_id)
        );
        CREATE TABLE quick_reports (
            id {AUTO_ID},
            table_id {ID} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            reporter_id {ID} NOT NULL,
            reported_id {ID} NOT NULL,
            created_at {FLOAT} NOT NULL
        );
        CREATE UNIQUE INDEX quick_reports_once ON quick_reports (table_id, reporter_id, reported_id)
        """,
    ),
    (
        13,
        """
        ALTER TABLE guild_settings ADD COLUMN organiser_role {ID};
        CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
        CREATE INDEX tournament_players_by_user ON tournament_players (user_id)
        """,
    ),
    (
        14,
        """
        ALTER TABLE tournament_tables ADD COLUMN forfeit INTEGER NOT NULL DEFAULT 0 CHECK (forfeit BETWEEN 0 AND 3)
        """,
    ),
    (
        15,
        """
        ALTER TABLE tournament_tables ADD COLUMN channel_id {ID};
        ALTER TABLE tournaments ADD COLUMN announced TEXT;
        UPDATE tournaments SET announced = CASE WHEN status = 'finished' THEN 'finished'
            ELSE 'round:' || current_round END WHERE status <> 'registering'
        """,
    ),
    (
        16,
        """
        CREATE TABLE tournament_deals_by_side (
            tournament_id {ID} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
            round_no INTEGER NOT NULL,
            hand_no INTEGER NOT NULL,
            team_id {ID} NOT NULL,
            side INTEGER NOT NULL CHECK (side IN (0, 1)),
            diff INTEGER NOT NULL,
            PRIMARY KEY (tournament_id, round_no, hand_no, team_id, side)
        );
        INSERT INTO tournament_deals_by_side (tournament_id, round_no, hand_no, team_id, side, diff)
            SELECT tournament_id, round_no, hand_no, team_id, side, diff FROM tournament_deals;
        DROP TABLE tournament_deals;
        ALTER TABLE tournament_deals_by_side RENAME TO tournament_deals
        """,
    ),
]
"""Every schema version, oldest first: 1 game log, 2 match results, 3 message ids,
4 statistics and ratings derived from the results (rebuilt from the records at will),
5 Sawa claims (R12) in the statistics,
6 players: each user's chosen language and latest display name,
7 seated users: one live table per user, enforced by the database across bot processes
(a partial index on ``seats`` cannot see its table's status, so the seats of live tables are kept
here, one row per user; the oldest table wins where processes had already seated a user twice),
8 shard leases: which bot process drives the tables of each shard, with an epoch every table
write checks (:mod:`.leases`), 9 a seated player's vote to end the table (``seats.end_vote``:
accepted and announced, so kept across a restart; cleared when the seat changes hands or is left),
10 tournaments: the tournament, its teams (one row per player in ``tournament_players``,
so nobody is registered twice, even by two processes at once), its rounds with their deal seeds, the
tables of each round with their results, each team's result on each duplicate deal; and
``tables.deal_seed``, the round seed a tournament table deals from;
11 game reviews (:mod:`.reviews`): each finished hand's review as the reviewer's JSON, keyed by hand and
reviewer version, and each seat's accuracy in a reviewed match (with its player, for their stats).;
12 quick match (:mod:`.quick`): the queue shared by every process (one row per waiting user), each quick-match
player's own server (their statistics go there) and the reports of players at quick-match tables;
13 tournament organisers and boards: ``guild_settings.organiser_role``, the role whose members may create and
run tournaments besides the server's admins (None: admins only), and the indexes that read a server's
tournaments and a player's tournaments (``/baloot stats``, the tournaments leaderboard);
14 a tournament table's forfeit (``tournament_tables.forfeit``: 1 the first-listed team never showed, 2 the
second, 3 both; docs/tournaments.md);
15 tournaments survive a crash between steps: ``tournament_tables.channel_id``, the thread a round's table
was given (stored before its table opens, so a restart reuses it rather than opening another), and
``tournaments.announced``, the last round opening (``round:N``) or finish (``finished``) whose standings
were posted (a restart posts one a crash cut off; the tournaments of older versions count as posted);
16 a team holds both sides of a board (mirrored deals, docs/tournaments.md): ``tournament_deals.hand_no`` is the
board and ``side`` the side of its cards, both in the key (the table is copied: SQLite cannot change a key)."""

LATEST_VERSION: Final = MIGRATIONS[-1][0]


def statements(sql: str) -> list[str]:
    """Split a migration into statements (the schema holds no ``;`` inside literals)."""
    return [s.strip() for s in sql.split(";") if s.strip()]


async def _current(tx: Connection) -> int:
    await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = await tx.fetch_one("SELECT MAX(version) FROM schema_version")
    return int(row[0]) if row is not None and row[0] is not None else 0


async def schema_version(db: Database) -> int:
    """The version of this database; 0 for a new one."""
    async with db.transaction() as tx:
        return await _current(tx)


async def migrate(db: Database, target: int | None = None) -> int:
    """Bring the schema up to ``target`` (default: the latest); returns the new version.

    Each step takes the dialect's schema lock first, so processes that start
    together on one PostgreSQL database migrate it once, one after the other.
    """
    goal = LATEST_VERSION if target is None else target
    lock = db.dialect.schema_lock
    while True:
        async with db.transaction() as tx:
            if lock is not None:
                await tx.execute(lock)
            current = await _current(tx)
            if current > LATEST_VERSION:
                raise RuntimeError(
                    f"the database schema is version {current}, newer than this code ({LATEST_VERSION})"
                )
            pending = [(v, sql) for v, sql in MIGRATIONS if current < v <= goal]
            if not pending:
                return current
            version, sql = pending[0]
            for statement in statements(db.dialect.schema(sql)):
                await tx.execute(statement)
            await tx.execute("DELETE FROM schema_version")
            await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
