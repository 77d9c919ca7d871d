"""A bot run as its own process against the stand-in: start, wait ready, SIGKILL, restart."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .server import FakeDiscord

REDIRECT_DIR = Path(__file__).resolve().parent / "redirect"
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_READY_TIMEOUT = 15.0


class BotDiedError(RuntimeError):
    """The bot process exited while a test waited for it."""


class BotProcess:
    """``python <script>`` in its own process group, output captured to a file.

    Ready means: this process's discord.py dispatched ``ready`` (reported by the
    sitecustomize hook), and, if ``expect_commands``, a command sync (``PUT
    .../commands``) has happened since the process started.
    """

    def __init__(
        self,
        server: FakeDiscord,
        script: str | Path,
        *,
        env: dict[str, str] | None = None,
        cwd: str | Path | None = None,
        python: str = sys.executable,
        guild_ready_timeout: float | None = 0.05,
    ) -> None:
        self.server = server
        self.script = Path(script)
        self.cwd = Path(cwd) if cwd else REPO_ROOT
        self.python = python
        self.extra_env = dict(env or {})
        self.guild_ready_timeout = guild_ready_timeout
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - lives as long as the bot
            prefix="fakediscord-bot-", suffix=".log", delete=False
        )
        self._syncs_at_start = 0

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def output(self) -> str:
        """Everything the bot printed (stdout and stderr) across all its runs."""
        return Path(self._log.name).read_text(errors="replace")

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(self.server.env())
        paths = [str(REDIRECT_DIR), env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        env["PYTHONUNBUFFERED"] = "1"
        if self.guild_ready_timeout is not None:
            env["FAKEDISCORD_GUILD_READY_TIMEOUT"] = str(self.guild_ready_timeout)
        env.update(self.extra_env)
        return env

    async def start(
        self, *, wait_ready: bool = True, expect_commands: bool = True,
        timeout: float = DEFAULT_READY_TIMEOUT,
    ) -> BotProcess:
        if self.running:
            raise RuntimeError("bot already running")
        self._syncs_at_start = self.server.command_syncs
        self._log.write(f"--- start {self.starts + 1}: {self.script}\n".encode())
        self._log.flush()
        self.proc = await asyncio.create_subprocess_exec(
            self.python, str(self.script),
            cwd=self.cwd, env=self.environment(),
            stdin=asyncio.subprocess.DEVNULL, stdout=self._log, stderr=self._log,
            start_new_session=True,
        )
        self.starts += 1
        if wait_ready:
            await self.wait_ready(expect_commands=expect_commands, timeout=timeout)
        return self

    async def wait_ready(
        self, *, expect_commands: bool = True, timeout: float = DEFAULT_READY_TIMEOUT
    ) -> None:
        proc = self.proc
        assert proc is not None

        def ready() -> bool:
            if proc.returncode is not None:
                raise BotDiedError(f"bot exited with {proc.returncode}:\n{self.output[-4000:]}")
            synced = not expect_commands or self.server.command_syncs > self._syncs_at_start
            return proc.pid in self.server.ready_pids and synced

        try:
            await self.server.wait_for(ready, timeout)
        except TimeoutError as exc:
            raise TimeoutError(f"bot not ready in {timeout}s:\n{self.output[-4000:]}") from exc

    async def kill(self) -> int:
        """SIGKILL the whole process group (no goodbye, like a crash); returns the exit code."""
        proc = self.proc
        if proc is None:
            return 0
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        return await proc.wait()

    async def stop(self, grace: float = 3.0) -> int:
        """SIGTERM, then SIGKILL after ``grace`` seconds."""
        proc = self.proc
        if proc is None:
            return 0
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), grace)
        return await self.kill()

    async def restart(
        self, *, wait_ready: bool = True, expect_commands: bool = True,
        timeout: float = DEFAULT_READY_TIMEOUT,
    ) -> BotProcess:
        """SIGKILL, then start the same script again (a fresh process, a fresh IDENTIFY)."""
        await self.kill()
        return await self.start(
            wait_ready=wait_ready, expect_commands=expect_commands, timeout=timeout
        )

    async def close(self) -> None:
        await self.kill()
        # Belt and braces: nothing of the group may survive the test.
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self._log.close()
        with contextlib.suppress(OSError):
            os.unlink(self._log.name)
