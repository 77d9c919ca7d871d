"""The organisers' role through the stand-in: a server admin names (and clears) the role whose members may create
and run tournaments (``/baloot tournament organisers``); a member with it creates one and presses the organiser
controls of another's tournament; a member without it, or a non-admin naming a role, is refused privately in
their language and nothing changes."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv, InteractionResult, Message
from test_bot_harness import bot_env, plain, refused


def msg(result: InteractionResult) -> Message:
    assert result.message is not None, result.rejected
    return result.message


def said(result: InteractionResult) -> str:
    """The text of a private, accepted answer."""
    assert result.ephemeral, result.messages
    return plain(msg(result).content)


async def test_organisers_role(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    admin = env.create_user("admin").join(guild, admin=True)
    alice = env.create_user("alice").join(guild)
    carol = env.create_user("carol").join(guild)
    bob = env.create_user("bob").join(guild)
    dana = env.create_user("dana", locale="ar").join(guild)
    role = env.create_role(guild, "Organisers")
    env.give_role(guild, alice, role)
    env.give_role(guild, carol, role)
    bot = await env.start_bot("bot.py", env=bot_env(tmp_path / "baloot.db"))
    try:
        # No role named yet: the role's members are players like any other.
        assert refused(await alice.slash("baloot", "tournament", "create", channel=channel, title="Cup")) == \
            "Only a server admin can create a tournament."
        # A member who is not an admin cannot name the role, nor clear it; nothing changes.
        assert refused(await bob.slash("baloot", "tournament", "organisers", channel=channel, role=role)) == \
            "Only a server admin can name the tournament organisers' role."
        assert plain(refused(await dana.slash("baloot", "tournament", "organisers", channel=channel, role=role))) \
            == "تحديد رتبة منظّمي البطولات لمشرفي السيرفر فقط."
        assert refused(await alice.slash("baloot", "tournament", "create", channel=channel, title="Cup")) == \
            "Only a server admin can create a tournament."
        # @everyone is not an organisers' role.
        assert refused(await admin.slash("baloot", "tournament", "organisers", channel=channel,
                                         role=guild.everyone)).startswith("Name a role other than @everyone")

        named = await admin.slash("baloot", "tournament", "organisers", channel=channel, role=role)
        assert said(named) == f"Members with <@&{role.id}> may now create and run tournaments."

        # Alice (the role) creates; Bob (no role) is refused, naming the role; Dana in Arabic.
        created = await alice.slash("baloot", "tournament", "create", channel=channel, title="Ramadan Cup")
        assert created.response_type == 4 and not created.ephemeral, created.messages
        message = msg(created)
        assert message.embeds[0]["title"] == "🏆 Ramadan Cup"
        assert refused(await bob.slash("baloot", "tournament", "create", channel=channel, title="Cup")) == \
            f"Only a server admin or a member with <@&{role.id}> can create a tournament."
        assert plain(refused(await dana.slash("baloot", "tournament", "create", channel=channel, title="Cup"))) \
            == f"إنشاء البطولة لمشرفي السيرفر ولمن يحمل رتبة <@&{role.id}> فقط."

        # The organiser controls of Alice's tournament: Bob is refused; Carol (the role, not its creator) passes
        # the organiser check (the start is then refused for the field, nothing started) and ends it.
        assert refused(await bob.click(message, "Start")) == \
            f"Only the organiser, a server admin or a member with <@&{role.id}> can do that."
        assert refused(await bob.click(message, "End")) == \
            f"Only the organiser, a server admin or a member with <@&{role.id}> can do that."
        assert refused(await carol.click(message, "Start")) == "At least 2 teams are needed to start; 0 registered."
        assert said(await carol.click(message, "End")) == "The tournament is ended."

        # Cleared by the admin: admins only again.
        assert said(await admin.slash("baloot", "tournament", "organisers", channel=channel)) == \
            "No organisers' role any more: only server admins create tournaments."
        assert refused(await alice.slash("baloot", "tournament", "create", channel=channel, title="Cup")) == \
            "Only a server admin can create a tournament."
        assert "Traceback" not in bot.output, bot.output[-4000:]
    finally:
        print(bot.output[-6000:])
