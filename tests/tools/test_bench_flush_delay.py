"""``bench_tables.py --flush-delay``: scripts/slow_flush.c makes each flush to disk slower, and nothing else.

The benchmark measures group commit (``SqliteDatabase.append``) on a disk slower
than the development machine's; this checks that the library it loads into the
bot really delays SQLite's commits by the time asked, in a child process that
loads it as the bot does (``LD_PRELOAD``).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

CHILD = """
import json, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=FULL"); db.execute("CREATE TABLE t (x)")
times = []
for i in range(20):
    started = time.perf_counter()
    db.execute("INSERT INTO t VALUES (?)", (i,))
    times.append(time.perf_counter() - started)
print(json.dumps({"commits": sorted(times), "rows": db.execute("SELECT count(*) FROM t").fetchone()[0]}))
"""


def bench_module() -> Any:
    sys.path.insert(0, str(REPO / "scripts"))
    return importlib.import_module("bench_tables")


def commit_times(tmp_path: Path, name: str, env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / name)], env=os.environ | env,
                          capture_output=True, text=True, timeout=60, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_every_commit_waits_the_delay_asked_and_stores_the_same(tmp_path: Path) -> None:
    library = bench_module().slow_flush_library(tmp_path)
    assert library.is_file()
    plain = commit_times(tmp_path, "plain.db", {})
    slowed = commit_times(tmp_path, "slowed.db", {"LD_PRELOAD": str(library), "BALOOT_FLUSH_DELAY_US": "50000"})
    assert plain["rows"] == slowed["rows"] == 20
    assert min(slowed["commits"]) >= 0.050  # each commit flushed at least once, 50 ms later
    assert sorted(plain["commits"])[10] < 0.050  # this disk alone is faster than that
