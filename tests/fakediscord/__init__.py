"""A local stand-in for Discord (REST v10 + gateway) that a real discord.py bot process
talks to, with people helpers to drive it from tests. See README.md."""

from .calls import CallLog, CallRecord
from .harness import DiscordEnv
from .process import BotDiedError, BotProcess
from .server import FakeDiscord
from .state import Channel, Guild, Interaction, Message, User
from .users import InteractionResult, NotVisibleError, Person
from .validation import DiscordError

__all__ = [
    "BotDiedError",
    "BotProcess",
    "CallLog",
    "CallRecord",
    "Channel",
    "DiscordEnv",
    "DiscordError",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "InteractionResult",
    "Message",
    "NotVisibleError",
    "Person",
    "User",
]
