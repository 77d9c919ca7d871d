"""Helpers of the storage tests: facts read back through the methods the bot uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from baloot.storage import SQLITE, Database, Storage


async def action_count(storage: Storage, table_id: int) -> int:
    """How many actions of a table are stored, over all its hands."""
    return sum(len(hand.actions) for hand in await storage.hands(table_id))


async def live_seat_of(storage: Storage, user_id: int) -> tuple[int, int] | None:
    """(table id, seat) where this user sits at a live table, not counting seats they left."""
    for table in await storage.live_tables():
        for seat in await storage.seats(table.id):
            if seat.user_id == user_id and not seat.vacated:
                return table.id, seat.seat
    return None


# -- introspection: the schema as each backend reports it, in one vocabulary --------------------------------

Columns = dict[str, tuple[str, bool]]  # column -> (type, nullable)
Index = tuple[str, tuple[str, ...], bool, bool]  # name, columns, unique, partial
ForeignKey = tuple[tuple[str, ...], str, tuple[str, ...], str]  # columns, referenced table, its columns, on delete


@dataclass(frozen=True)
class TableSchema:
    columns: Columns
    primary_key: tuple[str, ...]
    indexes: frozenset[Index]
    foreign_keys: frozenset[ForeignKey]


_SQLITE_TYPES = {"INTEGER": "integer", "REAL": "float", "TEXT": "text"}
_PG_TYPES = {"integer": "integer", "bigint": "integer", "double precision": "float", "text": "text"}
"""PostgreSQL's 4-byte ``real`` is left out on purpose: it would round Unix times (it maps to itself and differs)."""
_PG_ON_DELETE = {"a": "NO ACTION", "c": "CASCADE", "r": "RESTRICT", "n": "SET NULL", "d": "SET DEFAULT"}


async def table_names(db: Database) -> set[str]:
    if db.dialect is SQLITE:
        rows = await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    else:
        rows = await db.fetch_all(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    return {str(r[0]) for r in rows}


async def schema_of(db: Database) -> dict[str, TableSchema]:
    """Every table's columns (common types), primary key, indexes by columns, and foreign keys."""
    return {name: await (_sqlite_table(db, name) if db.dialect is SQLITE else _pg_table(db, name))
            for name in sorted(await table_names(db))}


async def _sqlite_table(db: Database, table: str) -> TableSchema:
    info = await db.fetch_all(f"PRAGMA table_info({table})")
    # An INTEGER PRIMARY KEY is the rowid, never NULL; every other key column here is declared NOT NULL.
    columns = {r["name"]: (_SQLITE_TYPES.get(r["type"], r["type"]), not (r["notnull"] or r["pk"])) for r in info}
    primary_key = tuple(r["name"] for r in sorted((r for r in info if r["pk"]), key=lambda r: r["pk"]))
    indexes = set()
    for index in await db.fetch_all(f"PRAGMA index_list({table})"):
        if index["origin"] == "pk":
            continue
        cols = await db.fetch_all(f"PRAGMA index_info({index['name']})")
        names = tuple(c["name"] for c in sorted(cols, key=lambda c: c["seqno"]))
        indexes.add((index["name"], names, bool(index["unique"]), bool(index["partial"])))
    keys: dict[int, list[Any]] = {}
    for fk in await db.fetch_all(f"PRAGMA foreign_key_list({table})"):
        keys.setdefault(fk["id"], []).append(fk)
    foreign_keys = {
        (tuple(r["from"] for r in rows), rows[0]["table"], tuple(r["to"] for r in rows), rows[0]["on_delete"])
        for rows in (sorted(group, key=lambda r: r["seq"]) for group in keys.values())
    }
    return TableSchema(columns, primary_key, frozenset(indexes), frozenset(foreign_keys))


async def _pg_table(db: Database, table: str) -> TableSchema:
    info = await db.fetch_all(
        "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
        (table,),
    )
    columns = {r["column_name"]: (_PG_TYPES.get(r["data_type"], r["data_type"]), r["is_nullable"] == "YES")
               for r in info}
    rows = await db.fetch_all(
        """SELECT i.relname AS name, ix.indisprimary AS is_primary, ix.indisunique AS is_unique,
                  ix.indpred IS NOT NULL AS partial,
                  (SELECT array_agg(a.attname ORDER BY k.ord)
                   FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum) AS columns
           FROM pg_index ix
           JOIN pg_class t ON t.oid = ix.indrelid
           JOIN pg_class i ON i.oid = ix.indexrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
           WHERE n.nspname = current_schema() AND t.relname = ?""",
        (table,),
    )
    primary_key: tuple[str, ...] = ()
    indexes = set()
    for r in rows:
        if r["is_primary"]:
            primary_key = tuple(r["columns"])
        else:
            indexes.add((r["name"], tuple(r["columns"]), r["is_unique"], r["partial"]))
    fks = await db.fetch_all(
        """SELECT c.confrelid::regclass::text AS ref_table, c.confdeltype::text AS on_delete,
                  (SELECT array_agg(a.attname ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
                  (SELECT array_agg(a.attname ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS ref_columns
           FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
           WHERE c.contype = 'f' AND n.nspname = current_schema() AND c.conrelid::regclass::text = ?""",
        (table,),
    )
    foreign_keys = {
        (tuple(r["columns"]), r["ref_table"], tuple(r["ref_columns"]), _PG_ON_DELETE[r["on_delete"]]) for r in fks
    }
    return TableSchema(columns, primary_key, frozenset(indexes), frozenset(foreign_keys))


async def pg_column_types(db: Database) -> dict[tuple[str, str], str]:
    """PostgreSQL's own type of every column, by (table, column)."""
    rows = await db.fetch_all(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema()"
    )
    return {(r["table_name"], r["column_name"]): r["data_type"] for r in rows}
