"""End to end: the real bot refuses at start-up a database it cannot write.

Each case runs ``bot.py`` as a subprocess and expects exit code 2 and one
line naming the path and the reason, before Discord is contacted (no
stand-in is running: a bot that got past the check would fail differently).

Read-only cases need a process that permissions bind. Tests may run as root,
for whom ``chmod`` stops nothing; then the bot runs as root *without* the
capabilities that bypass file permissions (``CAP_DAC_OVERRIDE``,
``CAP_DAC_READ_SEARCH``, dropped through ``setpriv`` from util-linux): the owner's
bits of the root-owned files bind it, and it still reads the checkout and the
virtual environment wherever they are, even in root's private home folder
(running as ``nobody`` failed there, unable to open ``bot.py``,
and a copy of the code would not help while the ``.venv`` inside the checkout
stays unreadable). Where the capabilities cannot be dropped, the bot runs as
``nobody`` if ``nobody`` can run it, and the cases are skipped, saying why,
otherwise. A full disk is a file-size limit (``RLIMIT_FSIZE``) on the bot's
process: a write past it fails as on a full disk (SQLite reports an I/O error),
which binds root too.
"""

from __future__ import annotations

import asyncio
import os
import resource
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from test_bot_harness import REPO, bot_env

from baloot.storage import LATEST_VERSION, Storage

NOBODY = 65534
ROOT = os.geteuid() == 0
PERMISSION_BYPASS = "-dac_override,-dac_read_search"
WITHOUT_BYPASS = ["setpriv", f"--inh-caps={PERMISSION_BYPASS}", f"--bounding-set={PERMISSION_BYPASS}", "--"]
AS_NOBODY = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]


@cache
def _bound_by_permissions(repo: Path) -> list[str] | str:
    """The command prefix that runs the bot where file permissions bind it, or why there is none.

    Each candidate is tried for real: it must start this interpreter, import the bot's libraries and
    read ``bot.py`` in ``repo``.
    """
    if not ROOT:
        return []
    if shutil.which("setpriv") is None:
        return "running as root without setpriv (util-linux): no process that file permissions bind"
    probe = [sys.executable, "-c", "import sys, discord, aiosqlite; open(sys.argv[1]).close()", str(repo / "bot.py")]
    failures = []
    for prefix, who in ((WITHOUT_BYPASS, "root without CAP_DAC_OVERRIDE"), (AS_NOBODY, "nobody")):
        out = subprocess.run([*prefix, *probe], cwd="/", capture_output=True, text=True, timeout=60, check=False)
        if out.returncode == 0:
            return prefix
        failures.append(f"{who}: {(out.stderr.strip().splitlines() or ['exit code ' + str(out.returncode)])[-1]}")
    return "no process that file permissions bind can run the bot here (" + "; ".join(failures) + ")"


@pytest.fixture
def place() -> Iterator[Path]:
    """A folder every user can enter (pytest's tmp_path is private to its owner)."""
    folder = Path(tempfile.mkdtemp(prefix="baloot-ro-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:
            path.chmod(0o700 if path.is_dir() else 0o600)
        shutil.rmtree(folder)


def _new_db(path: Path) -> None:
    async def make() -> None:
        storage = await Storage.open(path)
        await storage.close()

    asyncio.run(make())


def _run_bot(db: Path, *, unprivileged: bool = False,
             preexec: Callable[[], None] | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "FAKEDISCORD"))}
    env.update(bot_env(db), DISCORD_TOKEN="not-a-real-token", PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, str(REPO / "bot.py")]
    if unprivileged:
        prefix = _bound_by_permissions(REPO)
        if isinstance(prefix, str):
            pytest.skip(prefix)
        command = [*prefix, *command]
    return subprocess.run(command, cwd=db.parent, env=env, capture_output=True, text=True, timeout=60,
                          check=False, preexec_fn=preexec)


def _refused(out: subprocess.CompletedProcess[str], db: Path, *reasons: str) -> str:
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    lines = [line for line in out.stderr.splitlines() if line.startswith("baloot: ")]
    assert len(lines) == 1, out.stderr[-2000:]
    assert str(db) in lines[0], lines[0]
    assert any(r in lines[0].lower() for r in reasons), lines[0]
    assert "Traceback" not in out.stderr
    return lines[0]


def _read_only(*paths: Path) -> None:
    for path in paths:
        path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH | (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
                                                                 if path.is_dir() else 0))


def test_a_read_only_file_with_its_wal_and_shm_is_refused(place: Path) -> None:
    """The case that used to start: SQLite opens it read-only through the existing -wal/-shm."""
    source = place / "source"
    source.mkdir()
    _new_db(source / "baloot.db")
    folder = place / "data"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)  # the folder is writable: only the files are not
    writer = sqlite3.connect(source / "baloot.db", isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("INSERT INTO guild_settings (guild_id, language, ai_rated) VALUES (1, 'ar', 1)")
    for suffix in ("", "-wal", "-shm"):
        shutil.copy(source / f"baloot.db{suffix}", folder / f"baloot.db{suffix}")
    writer.close()
    db = folder / "baloot.db"
    assert Path(f"{db}-wal").stat().st_size > 0 and Path(f"{db}-shm").exists()
    _read_only(db, Path(f"{db}-wal"), Path(f"{db}-shm"))
    line = _refused(_run_bot(db, unprivileged=True), db, "readonly", "read-only", "unable to open")
    print(f"\n{line}")


def test_a_read_only_file_is_refused(place: Path) -> None:
    folder = place / "data"
    folder.mkdir()
    folder.chmod(0o777)
    db = folder / "baloot.db"
    _new_db(db)
    _read_only(db)
    _refused(_run_bot(db, unprivileged=True), db, "readonly", "read-only", "unable to open")


def test_a_read_only_folder_is_refused(place: Path) -> None:
    folder = place / "data"
    folder.mkdir()
    _read_only(folder)
    db = folder / "baloot.db"
    line = _refused(_run_bot(db, unprivileged=True), db, "unable to open", "readonly", "permission")
    assert not db.exists()
    print(f"\n{line}")


def test_a_full_disk_is_refused(place: Path) -> None:
    db = place / "baloot.db"
    _new_db(db)

    def small_files() -> None:  # no file of the bot's may grow past 4 KiB: the WAL's first frame cannot be written
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    line = _refused(_run_bot(db, preexec=small_files), db, "disk i/o", "full")
    print(f"\n{line}")


def test_a_newer_schema_is_refused(place: Path) -> None:
    db = place / "baloot.db"
    _new_db(db)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE schema_version SET version = ?", (LATEST_VERSION + 1,))
    conn.close()
    line = _refused(_run_bot(db), db, "newer")
    print(f"\n{line}")


def test_the_read_only_cases_run_from_a_checkout_only_its_owner_can_read(place: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout in root's home folder (mode 0700), the usual place in a container.

    The read-only case still runs there (it is not skipped) and the bot refuses the file as it should,
    rather than failing to open its own ``bot.py``.
    """
    home = tmp_path / "root-home"
    home.mkdir(mode=0o700)
    home.chmod(0o700)
    checkout = home / "baloot"
    checkout.mkdir()
    shutil.copy(REPO / "bot.py", checkout / "bot.py")
    for package in ("baloot", "cogs"):
        shutil.copytree(REPO / package, checkout / package, ignore=shutil.ignore_patterns("__pycache__"))
    for shared_library in REPO.glob("*__mypyc*"):  # the compiled engine's shared part, when it is built
        shutil.copy(shared_library, checkout / shared_library.name)
    monkeypatch.setitem(globals(), "REPO", checkout)
    assert not isinstance(_bound_by_permissions(checkout), str) or not ROOT, _bound_by_permissions(checkout)
    test_a_read_only_file_is_refused(place)
