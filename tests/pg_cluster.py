"""A throwaway PostgreSQL cluster for the tests: ``initdb`` in a temp dir, ``pg_ctl`` on a free port.

The cluster belongs to the test session: it listens on 127.0.0.1 only (and a
socket in its own folder), trusts local connections, skips fsync, and is
stopped and deleted at the end. PostgreSQL refuses to run as root, so when
the tests run as root the server runs as the ``postgres`` user that Debian's
package creates. Each test gets a fresh database copied from a migrated
template (``CREATE DATABASE ... TEMPLATE``), which keeps tests isolated and fast.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Final

import asyncpg

from baloot.storage.postgres_backend import PostgresDatabase

USER: Final = "baloot"
TEMPLATE: Final = "baloot_template"


def find_bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's newest /usr/lib/postgresql/*/bin, else the PATH."""
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if versions:
        return Path(versions[-1]).parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def missing_reason() -> str | None:
    """Why no cluster can start here (None if it can)."""
    if find_bindir() is None:
        return "PostgreSQL is not installed (no initdb): apt-get install -y postgresql, or run scripts/test.sh as root"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no 'postgres' user to run the server as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """A running test cluster; :meth:`new_database` hands out fresh databases by URL."""

    def __init__(self, bindir: Path, root: Path, port: int, options: str = "") -> None:
        self.bindir = bindir
        self.root = root
        self.port = port
        self.options = options  # the server's options, to start it again on the same port
        self._names = itertools.count(1)
        self._template_ready = False

    @staticmethod
    def _run(bindir: Path, args: list[str]) -> None:
        command = [str(bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stdout}{done.stderr}")

    @classmethod
    def start(cls, *, durable: bool = False) -> Cluster:
        """``initdb`` a cluster in a new temp dir and start it; raises RuntimeError if PostgreSQL is missing.

        Tests run it without fsync; ``durable`` keeps PostgreSQL's defaults (fsync, synchronous
        commits), as a benchmark compared with SQLite's ``DATABASE_SYNC=FULL`` needs."""
        reason = missing_reason()
        if reason is not None:
            raise RuntimeError(reason)
        bindir = find_bindir()
        assert bindir is not None
        root = Path(tempfile.mkdtemp(prefix="baloot-pg-"))
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(root, owner.pw_uid, owner.pw_gid)
        data = root / "data"
        try:
            cls._run(bindir, ["initdb", "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8", "--no-locale",
                              "--no-sync"])
            for _ in range(5):  # a free port can be taken between the check and the start
                port = _free_port()
                options = f"-p {port} -c listen_addresses=127.0.0.1 -k {root} -c max_connections=300"
                if not durable:
                    options += " -F -c full_page_writes=off -c synchronous_commit=off"
                try:
                    cls._run(bindir, ["pg_ctl", "-D", str(data), "-l", str(root / "server.log"), "-w", "-t", "60",
                                      "-o", options, "start"])
                except RuntimeError:
                    continue
                return cls(bindir, root, port, options)
            raise RuntimeError(f"pg_ctl could not start the server; see {root / 'server.log'}")
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise

    def pause(self) -> None:
        """Shut the server down (``-m fast``: every connection is dropped), keeping its data."""
        self._run(self.bindir, ["pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop"])

    def resume(self) -> None:
        """Start the paused server again, on the same port with the same data."""
        self._run(self.bindir, ["pg_ctl", "-D", str(self.root / "data"), "-l", str(self.root / "server.log"),
                                "-w", "-t", "60", "-o", self.options, "start"])

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        try:
            self._run(self.bindir, ["pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop"])
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def new_database(self, *, empty: bool = False) -> str:
        """The URL of a new database: migrated to the latest schema, or ``empty`` (no tables at all)."""
        if not empty and not self._template_ready:
            await self._admin(f"CREATE DATABASE {TEMPLATE}")
            db = await PostgresDatabase.open(self.url(TEMPLATE))
            await db.close()
            self._template_ready = True
        name = f"test_{next(self._names)}"
        await self._admin(f"CREATE DATABASE {name} TEMPLATE {'template0' if empty else TEMPLATE}")
        return self.url(name)
