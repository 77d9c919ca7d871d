"""``DiscordEnv``: the stand-in server plus the bot processes a test started."""

from __future__ import annotations

from pathlib import Path

from .gateway import PRIVILEGED_INTENTS
from .process import BotProcess
from .server import GLOBAL_RATE_LIMIT, FakeDiscord


class DiscordEnv(FakeDiscord):
    """A ``FakeDiscord`` that also starts bot processes and kills them all on close."""

    def __init__(
        self,
        *,
        validate_schema: bool = True,
        granted_intents: int = PRIVILEGED_INTENTS,
        bot_name: str = "TestBot",
        global_rate_limit: int | None = GLOBAL_RATE_LIMIT,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        super().__init__(
            validate_schema=validate_schema, granted_intents=granted_intents, bot_name=bot_name,
            global_rate_limit=global_rate_limit, recommended_shards=recommended_shards,
            max_concurrency=max_concurrency,
        )
        self.bots: list[BotProcess] = []

    async def start_bot(
        self,
        script: str | Path,
        *,
        env: dict[str, str] | None = None,
        cwd: str | Path | None = None,
        wait_ready: bool = True,
        expect_commands: bool = True,
        timeout: float = 15.0,
        guild_ready_timeout: float | None = 0.05,
    ) -> BotProcess:
        """Run ``python script`` against this server and (by default) wait until it is
        ready: its ``on_ready`` fired and it synced its application commands."""
        bot = BotProcess(self, script, env=env, cwd=cwd, guild_ready_timeout=guild_ready_timeout)
        self.bots.append(bot)
        await bot.start(wait_ready=wait_ready, expect_commands=expect_commands, timeout=timeout)
        return bot

    async def close(self) -> None:
        try:
            for bot in self.bots:
                await bot.close()
        finally:
            await super().close()
